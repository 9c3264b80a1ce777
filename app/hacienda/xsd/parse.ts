/**
 * A small, strict, fast XML parser producing a light element tree with resolved namespaces.
 *
 * Why not xmldom: parsing a 50-line invoice (~30 kB) with @xmldom/xmldom costs ~4.4 ms, more than the
 * whole per-document budget (build + validate + sign ≥ 300/s). This parser handles what XML 1.0
 * documents without a DTD contain (elements, attributes, namespaces, text, CDATA, comments, PIs,
 * character and predefined entity references) and rejects everything else as not well-formed.
 * See docs/decisions/011-compiled-xsd-validator.md.
 *
 * Every step is linear in the input, hostile input included (received documents come here after the
 * tree parser, xml-tree.ts, accepts them): duplicate attributes are found with a set, and the
 * namespaces in scope are one map changed in place and restored when the declaring element closes.
 */
import { decodeReferences } from "../xml-entities.ts";

export interface XNode {
  /** Local name. */
  name: string;
  /** Namespace URI ("" when none). */
  ns: string;
  /** Qualified name as written (for messages). */
  qname: string;
  /** Attributes other than namespace declarations: key is "{ns}local" or "local". */
  attrs: Map<string, string>;
  children: XNode[];
  /** Concatenated character data directly inside this element. */
  text: string;
  parent: XNode | null;
  /** Offset of the start tag in the source text. */
  pos: number;
}

export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    public line: number,
  ) {
    super(message);
  }
}

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const NAME_RE = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?/;

const ATTR_NAME_RE = new RegExp(NAME_RE.source.slice(1), "y");
const EMPTY_ATTRS: Map<string, string> = new Map();
/**
 * Element names already checked against NAME_RE, mapped to one shared string instance (a document
 * repeats a few dozen names thousands of times). Names and namespace URIs go through `intern`, as
 * do the compiled schema's (compile.ts), so the validator's comparisons are mostly pointer checks.
 */
const VALID_NAMES = new Map<string, string>();
const INTERNED = new Map<string, string>();

/** One shared instance per distinct string (bounded table of short strings; otherwise the string itself). */
export function intern(s: string): string {
  if (s.length > 256) return s;
  const v = INTERNED.get(s);
  if (v !== undefined) return v;
  if (INTERNED.size < 8192) INTERNED.set(s, s);
  return s;
}

const decodeEntities = (s: string, line: number) => decodeReferences(s, line, (message, at) => new XmlSyntaxError(message, at));

function countLines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** Parses an XML string; throws XmlSyntaxError (Spanish message) when it is not well-formed. */
export function parseXml(xml: string): XNode {
  let i = 0;
  const len = xml.length;
  let line = 1;
  let lastLinePos = 0;
  const lineAt = (pos: number) => {
    line += countLines(xml, lastLinePos, pos);
    lastLinePos = pos;
    return line;
  };
  if (xml.charCodeAt(0) === 0xfeff) i = 1;
  let root: XNode | null = null;
  const stack: XNode[] = [];
  // The namespaces in scope: one prefix → URI map, so resolving a prefix is one lookup whatever the
  // depth. An element's declarations change it in place, and the element keeps what they replaced
  // (undefined: the prefix was unbound) to put back when it closes. Copying the whole map at every
  // declaring element made the parse quadratic: 40,000 declaring children under 15,300 inherited
  // declarations took about 100 s (decision 011). A prefix going out of scope stays in the map,
  // bound to undefined: deleting and re-adding it at every element of such a document cost nearly
  // as much as the copy did.
  const bindings = new Map<string, string | undefined>([["xml", XML_NS]]);
  const replaced: Array<Array<[string, string | undefined]> | null> = [];
  const lookup = (prefix: string): string | undefined => bindings.get(prefix);
  const closeScope = () => {
    const undo = replaced.pop();
    if (undo) for (let k = undo.length - 1; k >= 0; k--) bindings.set(undo[k][0], undo[k][1]);
  };

  while (i < len) {
    const lt = xml.indexOf("<", i);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > i) {
      const raw = xml.slice(i, textEnd);
      if (stack.length === 0) {
        if (!/^[ \t\r\n]*$/.test(raw)) throw new XmlSyntaxError("hay texto fuera del elemento raíz", lineAt(i));
      } else {
        if (raw.indexOf("]]>") >= 0) throw new XmlSyntaxError('"]]>" no está permitido en el texto', lineAt(i));
        stack[stack.length - 1].text += decodeEntities(raw.indexOf("\r") < 0 ? raw : raw.replace(/\r\n?/g, "\n"), line);
      }
    }
    if (lt < 0) break;
    i = lt;
    const c1 = xml.charCodeAt(i + 1);
    if (c1 === 47 /* / */) {
      // end tag
      const gt = xml.indexOf(">", i);
      if (gt < 0) throw new XmlSyntaxError("etiqueta de cierre sin terminar", lineAt(i));
      const top = stack.pop();
      // Compare in place (no substring) when the end tag is exactly </qname>.
      const exact = top !== undefined && gt === i + 2 + top.qname.length && xml.startsWith(top.qname, i + 2);
      if (!exact) {
        const qn = xml.slice(i + 2, gt).trim();
        if (!top || top.qname !== qn)
          throw new XmlSyntaxError(`la etiqueta de cierre </${qn}> no corresponde a <${top?.qname ?? ""}>`, lineAt(i));
      }
      closeScope();
      i = gt + 1;
      continue;
    }
    if (c1 === 33 /* ! */) {
      if (xml.startsWith("<!--", i)) {
        const end = xml.indexOf("-->", i + 4);
        if (end < 0) throw new XmlSyntaxError("comentario sin cerrar", lineAt(i));
        i = end + 3;
        continue;
      }
      if (xml.startsWith("<![CDATA[", i)) {
        if (stack.length === 0) throw new XmlSyntaxError("CDATA fuera del elemento raíz", lineAt(i));
        const end = xml.indexOf("]]>", i + 9);
        if (end < 0) throw new XmlSyntaxError("sección CDATA sin cerrar", lineAt(i));
        stack[stack.length - 1].text += xml.slice(i + 9, end).replace(/\r\n?/g, "\n");
        i = end + 3;
        continue;
      }
      throw new XmlSyntaxError("no se admiten declaraciones DOCTYPE ni DTD", lineAt(i));
    }
    if (c1 === 63 /* ? */) {
      const end = xml.indexOf("?>", i + 2);
      if (end < 0) throw new XmlSyntaxError("instrucción de procesamiento sin cerrar", lineAt(i));
      const target = /^[^\s?]+/.exec(xml.slice(i + 2, end))?.[0] ?? "";
      if (target.toLowerCase() === "xml" && (i !== 0 && !(i === 1 && xml.charCodeAt(0) === 0xfeff)))
        throw new XmlSyntaxError("la declaración XML debe ir al inicio del documento", lineAt(i));
      i = end + 2;
      continue;
    }
    // start tag: fast path for a plain name followed by ">"
    let q = i + 1;
    for (;;) {
      const ch = xml.charCodeAt(q);
      if (ch === 62 || ch === 32 || ch === 47 || ch === 9 || ch === 10 || ch === 13 || Number.isNaN(ch)) break;
      q++;
    }
    let qname = xml.slice(i + 1, q);
    const known = VALID_NAMES.get(qname);
    if (known !== undefined) qname = known;
    else {
      NAME_RE.lastIndex = 0;
      const m = NAME_RE.exec(qname);
      if (!m || m[0].length !== qname.length) throw new XmlSyntaxError(`nombre de elemento inválido "${qname}"`, lineAt(i));
      qname = intern(qname);
      if (VALID_NAMES.size < 4096 && qname.length <= 256) VALID_NAMES.set(qname, qname);
    }
    let p = q;
    const rawAttrs: Array<[string, string]> = [];
    // The names written so far in this tag, once there are two (a scan of all the earlier ones made
    // 150,000 attributes cost about 100 s).
    let rawNames: Set<string> | null = null;
    let selfClose = false;
    for (;;) {
      const ws = p;
      while (p < len && (xml.charCodeAt(p) === 32 || xml.charCodeAt(p) === 9 || xml.charCodeAt(p) === 10 || xml.charCodeAt(p) === 13)) p++;
      const ch = xml.charCodeAt(p);
      if (ch === 62 /* > */) {
        p++;
        break;
      }
      if (ch === 47 /* / */ && xml.charCodeAt(p + 1) === 62) {
        selfClose = true;
        p += 2;
        break;
      }
      if (p === ws) throw new XmlSyntaxError(`falta un espacio entre atributos en <${qname}>`, lineAt(i));
      ATTR_NAME_RE.lastIndex = p;
      const am = ATTR_NAME_RE.exec(xml);
      if (!am) throw new XmlSyntaxError(`atributo inválido en <${qname}>`, lineAt(i));
      p += am[0].length;
      while (xml.charCodeAt(p) === 32 || xml.charCodeAt(p) === 9 || xml.charCodeAt(p) === 10 || xml.charCodeAt(p) === 13) p++;
      if (xml.charCodeAt(p) !== 61) throw new XmlSyntaxError(`falta "=" en el atributo ${am[0]} de <${qname}>`, lineAt(i));
      p++;
      while (xml.charCodeAt(p) === 32 || xml.charCodeAt(p) === 9 || xml.charCodeAt(p) === 10 || xml.charCodeAt(p) === 13) p++;
      const q = xml[p];
      if (q !== '"' && q !== "'") throw new XmlSyntaxError(`el atributo ${am[0]} de <${qname}> debe ir entre comillas`, lineAt(i));
      const qe = xml.indexOf(q, p + 1);
      if (qe < 0) throw new XmlSyntaxError(`atributo ${am[0]} sin cerrar en <${qname}>`, lineAt(i));
      const rawVal = xml.slice(p + 1, qe);
      if (rawVal.indexOf("<") >= 0) throw new XmlSyntaxError(`"<" no está permitido en el atributo ${am[0]}`, lineAt(i));
      if (rawAttrs.length === 1) rawNames = new Set([rawAttrs[0][0]]);
      if (rawNames !== null) {
        if (rawNames.has(am[0])) throw new XmlSyntaxError(`atributo ${am[0]} repetido en <${qname}>`, lineAt(i));
        rawNames.add(am[0]);
      }
      rawAttrs.push([am[0], decodeEntities(rawVal.replace(/[\r\n\t]/g, " "), line)]);
      p = qe + 1;
    }
    const attrs = rawAttrs.length ? new Map<string, string>() : EMPTY_ATTRS;
    let undo: Array<[string, string | undefined]> | null = null;
    for (const [n, v] of rawAttrs) {
      const isDefault = n === "xmlns";
      if (!isDefault && !n.startsWith("xmlns:")) continue;
      const prefix = isDefault ? "" : n.slice(6);
      (undo ??= []).push([prefix, bindings.get(prefix)]);
      bindings.set(prefix, intern(v));
    }
    replaced.push(undo);
    for (const [n, v] of rawAttrs) {
      if (n === "xmlns" || n.startsWith("xmlns:")) continue;
      const c = n.indexOf(":");
      if (c < 0) attrs.set(n, v);
      else {
        const uri = lookup(n.slice(0, c));
        if (uri === undefined) throw new XmlSyntaxError(`prefijo de espacio de nombres no declarado en el atributo ${n}`, lineAt(i));
        attrs.set(`{${uri}}${n.slice(c + 1)}`, v);
      }
    }
    const colon = qname.indexOf(":");
    const prefix = colon < 0 ? "" : qname.slice(0, colon);
    const ns = lookup(prefix);
    if (ns === undefined && prefix !== "") throw new XmlSyntaxError(`prefijo de espacio de nombres no declarado en <${qname}>`, lineAt(i));
    const node: XNode = {
      name: colon < 0 ? qname : intern(qname.slice(colon + 1)),
      ns: ns ?? "",
      qname,
      attrs,
      children: [],
      text: "",
      parent: stack.length ? stack[stack.length - 1] : null,
      pos: i,
    };
    if (node.parent) node.parent.children.push(node);
    else if (root) throw new XmlSyntaxError("el documento tiene más de un elemento raíz", lineAt(i));
    else root = node;
    if (selfClose) closeScope();
    else stack.push(node);
    i = p;
  }
  if (stack.length) throw new XmlSyntaxError(`el elemento <${stack[stack.length - 1].qname}> no está cerrado`, line);
  if (!root) throw new XmlSyntaxError("el documento está vacío", 1);
  return root;
}
