/**
 * XML canonicalization for signature verification, in one linear pass over the light tree of
 * xml-tree.ts:
 * Canonical XML 1.0 (inclusive, W3C REC-xml-c14n-20010315), Canonical XML 1.1 and Exclusive XML
 * Canonicalization 1.0 (with the InclusiveNamespaces PrefixList), each with or without comments.
 *
 * The node-sets XMLDSig references produce for comprobantes are always "a subtree minus some whole
 * subtrees": URI="" (the document) or URI="#id" (an element), minus the enveloped ds:Signature
 * (enveloped-signature transform) or minus every ds:Signature (the XPath filter
 * not(ancestor-or-self::ds:Signature) of Hacienda's MensajeHacienda). Comments are never part of a
 * same-document reference's node-set (XMLDSig §4.3.3.3), so `withComments` only matters for
 * SignedInfo. With whole subtrees removed, every output element's parent is output too, which lets
 * namespace rendering compare with the parent only.
 *
 * Why not xml-crypto: it selects the node-set with an XPath library whose document-order sort calls
 * compareDocumentPosition per comparison, so verifying grows with the square of the document
 * (5 s for a 1,000-line invoice); this is linear (decision 141).
 */
import { NS_XML, type XmlTreeAttr, type XmlTreeDocument, type XmlTreeElement, type XmlTreeNode } from "./xml-tree.ts";

export const C14N_10 = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
export const C14N_10_COMMENTS = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments";
export const C14N_11 = "http://www.w3.org/2006/12/xml-c14n11";
export const C14N_11_COMMENTS = "http://www.w3.org/2006/12/xml-c14n11#WithComments";
export const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
export const EXC_C14N_COMMENTS = "http://www.w3.org/2001/10/xml-exc-c14n#WithComments";

export interface C14nMethod {
  exclusive: boolean;
  withComments: boolean;
  /** Canonical XML 1.1: xml:id is not inherited by the apex (xml:lang and xml:space are). */
  version11: boolean;
}

/** The canonicalization an Algorithm URI names, or null when it is not one. */
export function c14nMethod(algorithm: string): C14nMethod | null {
  switch (algorithm) {
    case C14N_10:
      return { exclusive: false, withComments: false, version11: false };
    case C14N_10_COMMENTS:
      return { exclusive: false, withComments: true, version11: false };
    case C14N_11:
      return { exclusive: false, withComments: false, version11: true };
    case C14N_11_COMMENTS:
      return { exclusive: false, withComments: true, version11: true };
    case EXC_C14N:
      return { exclusive: true, withComments: false, version11: false };
    case EXC_C14N_COMMENTS:
      return { exclusive: true, withComments: true, version11: false };
    default:
      return null;
  }
}

export interface C14nOptions extends C14nMethod {
  /** Exclusive C14N: prefixes of InclusiveNamespaces/@PrefixList ("#default" = the default namespace). */
  inclusivePrefixes?: readonly string[];
  /** Elements left out of the node-set together with their whole subtree. */
  excluded?: (el: XmlTreeElement) => boolean;
}

type Ns = ReadonlyMap<string, string>;
const NO_NS: Ns = new Map();

const TEXT_RE = /[&<>\r]/g;
const ATTR_RE = /[&<"\t\n\r]/g;
const TEXT_ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#xD;" };
const ATTR_ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", '"': "&quot;", "\t": "&#x9;", "\n": "&#xA;", "\r": "&#xD;" };
const NEEDS_TEXT_ESC = /[&<>\r]/;
const NEEDS_ATTR_ESC = /[&<"\t\n\r]/;
const escText = (s: string) => (NEEDS_TEXT_ESC.test(s) ? s.replace(TEXT_RE, (c) => TEXT_ESC[c]!) : s);
const escAttr = (s: string) => (NEEDS_ATTR_ESC.test(s) ? s.replace(ATTR_RE, (c) => ATTR_ESC[c]!) : s);

function compareAttrs(a: XmlTreeAttr, b: XmlTreeAttr): number {
  if (a.ns !== b.ns) return a.ns < b.ns ? -1 : 1;
  return a.local < b.local ? -1 : a.local > b.local ? 1 : 0;
}

function renderNs(decls: Array<[string, string]>): string {
  if (decls.length > 1) decls.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  let out = "";
  for (const [p, uri] of decls) out += p === "" ? ` xmlns="${escAttr(uri)}"` : ` xmlns:${p}="${escAttr(uri)}"`;
  return out;
}

function renderAttrs(attrs: XmlTreeAttr[]): string {
  const sorted = attrs.length > 1 ? [...attrs].sort(compareAttrs) : attrs;
  let out = "";
  for (const a of sorted) out += ` ${a.qname}="${escAttr(a.value)}"`;
  return out;
}

function misc(node: XmlTreeNode, withComments: boolean): string | null {
  if (node.type === 7) return node.data ? `<?${node.target} ${node.data}?>` : `<?${node.target}?>`;
  if (node.type === 8) return withComments ? `<!--${node.data}-->` : null;
  return null;
}

interface Context {
  parts: string[];
  excluded: ((el: XmlTreeElement) => boolean) | undefined;
  withComments: boolean;
  exclusive: boolean;
  inclusivePrefixes: string[];
  /** xml:* attributes the apex inherits (inclusive C14N only). */
  inheritedXml: XmlTreeAttr[];
}

/** Adds a namespace declaration to render unless the output already has it in effect. */
function addDecl(decls: Array<[string, string]>, own: Ns, rendered: Ns, prefix: string, uri: string): Ns {
  const current = own.get(prefix);
  if (current === uri || (prefix === "" && uri === "" && current === undefined)) return own;
  decls.push([prefix, uri]);
  const next = (own === rendered ? new Map(rendered) : own) as Map<string, string>;
  next.set(prefix, uri);
  return next;
}

/** `rendered`: namespace declarations in effect in the output at the parent. */
function emitElement(ctx: Context, el: XmlTreeElement, rendered: Ns, isApex: boolean): void {
  const decls: Array<[string, string]> = [];
  let own = rendered;
  if (!ctx.exclusive) {
    // Inclusive: the apex renders every namespace in scope; below it, what an element declares
    // differently from its (always rendered) parent.
    if (isApex) {
      for (const [p, uri] of el.scope) if (p !== "xml") own = addDecl(decls, own, rendered, p, uri);
    } else for (const [p, uri] of el.nsDecls) own = addDecl(decls, own, rendered, p, uri);
  } else {
    // Exclusive: the namespaces the element and its attributes use, plus the inclusive prefix list.
    own = addDecl(decls, own, rendered, el.prefix, el.scope.get(el.prefix) ?? "");
    for (const a of el.attrs) if (a.prefix && a.prefix !== "xml") own = addDecl(decls, own, rendered, a.prefix, a.ns);
    for (const p of ctx.inclusivePrefixes) {
      const uri = el.scope.get(p);
      if (uri !== undefined && p !== "xml") own = addDecl(decls, own, rendered, p, uri);
    }
  }
  const attrs = isApex && ctx.inheritedXml.length ? [...el.attrs, ...ctx.inheritedXml] : el.attrs;
  const parts = ctx.parts;
  parts.push(`<${el.qname}${decls.length ? renderNs(decls) : ""}${attrs.length ? renderAttrs(attrs) : ""}>`);
  for (const c of el.children) {
    if (c.type === 1) {
      if (!ctx.excluded || !ctx.excluded(c)) emitElement(ctx, c, own, false);
    } else if (c.type === 3) parts.push(escText(c.data));
    else {
      const m = misc(c, ctx.withComments);
      if (m) parts.push(m);
    }
  }
  parts.push(`</${el.qname}>`);
}

/**
 * Canonical form of `apex` and its subtree (minus `excluded` subtrees). With `document`, the whole
 * document the apex is the root of: processing instructions (and comments, with comments) outside
 * the root element are included, separated from it by line feeds.
 */
export function canonicalize(apex: XmlTreeElement, opts: C14nOptions & { document?: XmlTreeDocument }): string {
  const ctx: Context = {
    parts: [],
    excluded: opts.excluded,
    withComments: opts.withComments,
    exclusive: opts.exclusive,
    inclusivePrefixes: (opts.inclusivePrefixes ?? []).map((p) => (p === "#default" ? "" : p)),
    inheritedXml: [],
  };
  // Inclusive C14N copies xml:* attributes of the apex's ancestors onto it (1.1: not xml:id/xml:base).
  if (!opts.exclusive && apex.parent) {
    const seen = new Set<string>();
    for (const a of apex.attrs) if (a.ns === NS_XML) seen.add(a.local);
    for (let n: XmlTreeElement | null = apex.parent; n; n = n.parent) {
      for (const a of n.attrs) {
        if (a.ns !== NS_XML || seen.has(a.local)) continue;
        if (opts.version11 && (a.local === "id" || a.local === "base")) continue;
        seen.add(a.local);
        ctx.inheritedXml.push(a);
      }
    }
  }
  const parts = ctx.parts;
  if (opts.document) {
    for (const n of opts.document.prolog) {
      const m = misc(n, opts.withComments);
      if (m) parts.push(m, "\n");
    }
    emitElement(ctx, apex, NO_NS, true);
    for (const n of opts.document.epilog) {
      const m = misc(n, opts.withComments);
      if (m) parts.push("\n", m);
    }
  } else emitElement(ctx, apex, NO_NS, true);
  return parts.join("");
}
