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
 *
 * Memory (decision 144): in inclusive C14N, an element the parser found written exactly as C14N
 * writes it (XmlTreeElement.verbatim) is copied from the document's text instead of being rebuilt
 * node by node, and `canonicalHash` feeds the output to the digest in pieces instead of building
 * the whole canonical form as one string.
 */
import type { Hash } from "node:crypto";
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
  excluded?: readonly XmlTreeElement[];
  /**
   * The whole document the apex is the root of: processing instructions (and comments, with
   * comments) outside the root element are included, separated from it by line feeds.
   */
  document?: XmlTreeDocument;
  /**
   * The text of the document the apex belongs to (XmlTreeDocument.source): in inclusive C14N,
   * elements written canonically are copied from it. Implied by `document`.
   */
  source?: string;
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

/** Where the canonical form goes: text pieces, and spans of the document's text copied as they are. */
interface Sink {
  text(s: string): void;
  span(source: string, start: number, end: number): void;
}

interface Context {
  out: Sink;
  excluded: ReadonlySet<XmlTreeElement> | null;
  /** Ancestors of excluded elements: their text cannot be copied whole. */
  blocked: ReadonlySet<XmlTreeElement> | null;
  /** The document's text, when elements written canonically may be copied from it (inclusive C14N). */
  source: string | null;
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
    } else {
      // Indexed loops: on this hot path for...of allocated an iterator per element.
      const nsDecls = el.nsDecls;
      for (let k = 0; k < nsDecls.length; k++) own = addDecl(decls, own, rendered, nsDecls[k]![0], nsDecls[k]![1]);
    }
  } else {
    // Exclusive: the namespaces the element and its attributes use, plus the inclusive prefix list.
    own = addDecl(decls, own, rendered, el.prefix, el.scope.get(el.prefix) ?? "");
    const elAttrs = el.attrs;
    for (let k = 0; k < elAttrs.length; k++) {
      const a = elAttrs[k]!;
      if (a.prefix && a.prefix !== "xml") own = addDecl(decls, own, rendered, a.prefix, a.ns);
    }
    for (const p of ctx.inclusivePrefixes) {
      const uri = el.scope.get(p);
      if (uri !== undefined && p !== "xml") own = addDecl(decls, own, rendered, p, uri);
    }
  }
  const attrs = isApex && ctx.inheritedXml.length ? [...el.attrs, ...ctx.inheritedXml] : el.attrs;
  const out = ctx.out;
  out.text(`<${el.qname}${decls.length ? renderNs(decls) : ""}${attrs.length ? renderAttrs(attrs) : ""}>`);
  const children = el.children;
  for (let k = 0; k < children.length; k++) {
    const c = children[k]!;
    if (c.type === 1) {
      if (ctx.excluded?.has(c)) continue;
      // Below the apex, inclusive C14N renders exactly the declarations an element makes that its
      // parent does not have, which is what the parser checked for a verbatim element.
      if (c.verbatim && ctx.source !== null && !ctx.blocked?.has(c)) out.span(ctx.source, c.start, c.end);
      else emitElement(ctx, c, own, false);
    } else if (c.type === 3) out.text(escText(c.data));
    else {
      const m = misc(c, ctx.withComments);
      if (m) out.text(m);
    }
  }
  out.text(`</${el.qname}>`);
}

/** Canonical form of `apex` and its subtree (minus `excluded` subtrees), or of the whole `document`. */
export function canonicalize(apex: XmlTreeElement, opts: C14nOptions): string {
  const parts: string[] = [];
  emitDocument(apex, opts, {
    text: (s) => void parts.push(s),
    span: (source, start, end) => void parts.push(source.slice(start, end)),
  });
  return parts.join("");
}

/** Pieces of at most this many UTF-16 units go to the hash at once (the hash copies each to UTF-8). */
const CHUNK = 16384;

/**
 * Feeds the canonical form of `apex` (as `canonicalize` would return it) to `hash` in pieces of at
 * most CHUNK characters, never building it whole: copied spans of the document go in slices, small
 * pieces are gathered first. A slice never splits a surrogate pair (the hash encodes each piece to
 * UTF-8 on its own).
 */
export function canonicalHash(apex: XmlTreeElement, opts: C14nOptions, hash: Hash): void {
  let pending = "";
  const flush = () => {
    if (pending.length) hash.update(pending, "utf8");
    pending = "";
  };
  emitDocument(apex, opts, {
    text(s) {
      pending += s;
      if (pending.length >= CHUNK) flush();
    },
    span(source, start, end) {
      if (end - start < 256) {
        pending += source.slice(start, end);
        if (pending.length >= CHUNK) flush();
        return;
      }
      flush();
      for (let a = start; a < end; ) {
        let b = Math.min(end, a + CHUNK);
        const last = source.charCodeAt(b - 1);
        if (b < end && last >= 0xd800 && last <= 0xdbff) b++;
        hash.update(source.slice(a, b), "utf8");
        a = b;
      }
    },
  });
  flush();
}

function emitDocument(apex: XmlTreeElement, opts: C14nOptions, out: Sink): void {
  let blocked: Set<XmlTreeElement> | null = null;
  if (opts.excluded?.length) {
    blocked = new Set();
    for (const x of opts.excluded) for (let n = x.parent; n && !blocked.has(n); n = n.parent) blocked.add(n);
  }
  const ctx: Context = {
    out,
    excluded: opts.excluded?.length ? new Set(opts.excluded) : null,
    blocked,
    source: opts.exclusive ? null : (opts.source ?? opts.document?.source ?? null),
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
  const wholeDocument = opts.document;
  if (wholeDocument) {
    for (const n of wholeDocument.prolog) {
      const m = misc(n, opts.withComments);
      if (m) out.text(`${m}\n`);
    }
  }
  emitElement(ctx, apex, NO_NS, true);
  if (wholeDocument) {
    for (const n of wholeDocument.epilog) {
      const m = misc(n, opts.withComments);
      if (m) out.text(`\n${m}`);
    }
  }
}
