/**
 * A fast, strict XML 1.0 parser that keeps everything canonicalization needs: element and attribute
 * prefixes as written, namespace declarations, the in-scope namespaces of every element, text,
 * CDATA (as text), comments and processing instructions, in document order. Used to read and
 * verify documents we receive (parse.ts, verify.ts, c14n.ts); reach it through
 * safe-xml.ts `parseXmlTreeSafely`, which refuses hostile input first.
 *
 * Why not xmldom here: @xmldom/xmldom 0.9 compiles a Unicode regular expression for every end tag,
 * so parsing a 1-line comprobante costs ~0.6 ms and a 1,000-line one ~200 ms, more than the whole
 * verification budget (decision 141). The validator's parser (xsd/parse.ts) is fast but drops what
 * canonicalization needs (prefixes, declarations, the order of text and comments).
 *
 * What it refuses (as not well-formed, XmlTreeError with a Spanish reason and the line): DTDs,
 * unknown entities, characters XML 1.0 forbids, mismatched or unclosed tags, duplicate attributes,
 * undeclared prefixes, text or a second element outside the root, "]]>" in text, "--" in comments,
 * and more than MAX_ATTRIBUTES attributes on one element.
 *
 * Every step is linear in the input: received documents are hostile input judged on the engine
 * threads that also sign (decision 023). Duplicate attributes are found with a set, and an element's
 * in-scope namespaces are its own declarations chained to its parent's (NsScope), never a copy.
 */
import { decodeReferences } from "./xml-entities.ts";

export const NS_XML = "http://www.w3.org/XML/1998/namespace";
const NS_XMLNS = "http://www.w3.org/2000/xmlns/";

export interface XmlTreeAttr {
  /** As written, e.g. "xsi:schemaLocation". */
  qname: string;
  prefix: string;
  local: string;
  /** Namespace URI ("" for an unprefixed attribute). */
  ns: string;
  value: string;
}

export interface XmlTreeElement {
  type: 1;
  qname: string;
  prefix: string;
  local: string;
  ns: string;
  /** Attributes other than namespace declarations, as written (document order). */
  attrs: XmlTreeAttr[];
  /** Namespace declarations on this element: [prefix ("" = default), URI]. */
  nsDecls: Array<[string, string]>;
  /** Namespaces in scope here (shared with the parent when this element declares none). */
  scope: ReadonlyMap<string, string>;
  children: XmlTreeNode[];
  parent: XmlTreeElement | null;
  /** 1-based line of the start tag. */
  line: number;
  /** Offsets of the element in XmlTreeDocument.source: from its "<" to just after its end tag. */
  start: number;
  end: number;
  /**
   * The source text of the element (source.slice(start, end)) is already its inclusive canonical
   * form below an apex (c14n.ts): start and end tags written as C14N writes them (one space before
   * each attribute, double quotes, namespace declarations first and sorted, attributes sorted, no
   * redundant declaration, no empty-element tag), text whose references are those C14N writes, no
   * comments, processing instructions or CDATA, and the same for every descendant. The
   * canonicalizer then copies the text instead of rebuilding it (decision 144).
   */
  verbatim: boolean;
}

export interface XmlTreeText {
  type: 3;
  data: string;
}
export interface XmlTreeComment {
  type: 8;
  data: string;
}
export interface XmlTreePI {
  type: 7;
  target: string;
  data: string;
}
export type XmlTreeNode = XmlTreeElement | XmlTreeText | XmlTreeComment | XmlTreePI;

export interface XmlTreeDocument {
  root: XmlTreeElement;
  /** The text the offsets of the elements refer to (the input with line ends normalized). */
  source: string;
  /** Comments and processing instructions before the root (the XML declaration is not one). */
  prolog: Array<XmlTreeComment | XmlTreePI>;
  /** Comments and processing instructions after the root. */
  epilog: Array<XmlTreeComment | XmlTreePI>;
}

/**
 * The most attributes one element may carry, namespace declarations included. Hacienda's documents
 * carry at most five (the real samples; the XSDs' xs:schema nine); the cap only bounds the work a
 * hostile start tag can ask for.
 */
export const MAX_ATTRIBUTES = 256;

export class XmlTreeError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const NAME_START = "A-Za-z_\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD";
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
const NCNAME = `[${NAME_START}][${NAME_CHAR}]*`;
/** A QName (prefix:local or local), sticky. */
const QNAME_Y = new RegExp(`${NCNAME}(?::${NCNAME})?`, "y");
const PI_TARGET_Y = new RegExp(`${NCNAME}`, "y");
/** Characters XML 1.0 does not allow anywhere (lone surrogates are checked by the decoder). */
const FORBIDDEN_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;

/**
 * The namespaces in scope at an element: the declarations it makes, chained to its parent's scope.
 * Copying the parent's map at every element that declares a namespace made the parse quadratic: a
 * root declaring 256 prefixes over 100,000 small children that each declare one (1.5 MB) took 8 s,
 * and 63 nested levels of 256 declarations exhausted the heap. A lookup walks at most one link per
 * declaring ancestor (the depth is bounded by the intake); listing them all (the apex of an
 * inclusive canonicalization) rebuilds the map once.
 */
class NsScope implements ReadonlyMap<string, string> {
  constructor(
    private readonly parent: NsScope | null,
    private readonly own: ReadonlyMap<string, string>,
  ) {}

  get(prefix: string): string | undefined {
    const uri = this.own.get(prefix);
    if (uri !== undefined) return uri;
    for (let s = this.parent; s !== null; s = s.parent) {
      const inherited = s.own.get(prefix);
      if (inherited !== undefined) return inherited;
    }
    return undefined;
  }

  has(prefix: string): boolean {
    return this.get(prefix) !== undefined;
  }

  /** Every binding, each prefix once with its nearest URI, in the order the prefixes were first declared. */
  private flat(): Map<string, string> {
    const chain: NsScope[] = [this];
    for (let s = this.parent; s !== null; s = s.parent) chain.push(s);
    const out = new Map<string, string>();
    for (let k = chain.length - 1; k >= 0; k--) for (const [prefix, uri] of chain[k]!.own) out.set(prefix, uri);
    return out;
  }

  get size(): number {
    return this.flat().size;
  }

  forEach(fn: (uri: string, prefix: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    for (const [prefix, uri] of this.flat()) fn.call(thisArg, uri, prefix, this);
  }

  entries(): MapIterator<[string, string]> {
    return this.flat().entries();
  }

  keys(): MapIterator<string> {
    return this.flat().keys();
  }

  values(): MapIterator<string> {
    return this.flat().values();
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.flat().entries();
  }
}

const EMPTY_SCOPE = new NsScope(null, new Map([["xml", NS_XML]]));

const decode = (s: string, line: number) => decodeReferences(s, line, (message, at) => new XmlTreeError(message, at));

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** Shared by every element without attributes, namespace declarations or children (never written to). */
const NONE: never[] = Object.freeze([]) as never[];

interface KnownName {
  name: string;
  prefix: string;
  local: string;
}

/**
 * Names already checked against QNAME_Y, by a hash of their characters: documents repeat a few
 * dozen names thousands of times, and finding them this way makes no string per tag. Names are
 * copied so that they do not keep a document alive.
 */
const KNOWN_NAMES = new Map<number, KnownName>();

function knownName(name: string): KnownName {
  const colon = name.indexOf(":");
  return colon < 0 ? { name, prefix: "", local: name } : { name, prefix: name.slice(0, colon), local: name.slice(colon + 1) };
}

/** The QName starting at `pos`, null when there is none. */
function nameAt(xml: string, pos: number): KnownName | null {
  // Fast path: the run of characters up to a delimiter, when it is a name seen before.
  let end = pos;
  let hash = 0;
  for (;;) {
    const c = xml.charCodeAt(end);
    if (c === 62 || c === 47 || c === 61 || c === 32 || c === 9 || c === 10 || c === 13 || Number.isNaN(c)) break;
    hash = (Math.imul(hash, 31) + c) | 0;
    end++;
  }
  const known = KNOWN_NAMES.get(hash);
  if (known !== undefined && known.name.length === end - pos && xml.startsWith(known.name, pos)) return known;
  QNAME_Y.lastIndex = pos;
  const m = QNAME_Y.exec(xml);
  if (!m) return null;
  if (known === undefined && m[0].length === end - pos && KNOWN_NAMES.size < 4096 && m[0].length <= 256) {
    const entry = knownName(Buffer.from(m[0], "utf8").toString("utf8"));
    KNOWN_NAMES.set(hash, entry);
    return entry;
  }
  return knownName(m[0]);
}

/** Whether every "&" of `raw` starts one of `references` (a loop, not a regular expression: texts can be long). */
function onlyReferences(raw: string, references: readonly string[]): boolean {
  for (let k = raw.indexOf("&"); k >= 0; k = raw.indexOf("&", k + 1)) {
    let known = false;
    for (let r = 0; r < references.length && !known; r++) known = raw.startsWith(references[r]!, k);
    if (!known) return false;
  }
  return true;
}
const TEXT_REFERENCES = ["&amp;", "&lt;", "&gt;", "&#xD;"];
const ATTR_REFERENCES = ["&amp;", "&lt;", "&quot;", "&#x9;", "&#xA;", "&#xD;"];
/** Text written as C14N writes it: its only references are &amp; &lt; &gt; &#xD;, and no literal ">". */
const canonicalText = (raw: string) => raw.indexOf(">") < 0 && onlyReferences(raw, TEXT_REFERENCES);
/** An attribute value written as C14N writes it (inside double quotes): references &amp; &lt; &quot; &#x9; &#xA; &#xD; only, no literal tab or line feed. */
const canonicalAttr = (raw: string) => raw.indexOf("\t") < 0 && raw.indexOf("\n") < 0 && onlyReferences(raw, ATTR_REFERENCES);

/** Parses a whole document. Throws XmlTreeError when it is not well-formed XML with namespaces. */
export function parseXmlTree(input: string, { maxDepth = Infinity }: { maxDepth?: number } = {}): XmlTreeDocument {
  // Line ends are normalized first (XML 1.0 §2.11), so "&#13;" written as a reference survives.
  const xml = input.indexOf("\r") < 0 ? input : input.replace(/\r\n?/g, "\n");
  const bad = FORBIDDEN_CHAR.exec(xml);
  if (bad) throw new XmlTreeError(`contiene un carácter no permitido en XML (código ${bad[0].charCodeAt(0)})`, lineOf(xml, bad.index));
  const len = xml.length;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let lineScan = 0;
  const lineAt = (pos: number) => {
    for (; lineScan < pos; lineScan++) if (xml.charCodeAt(lineScan) === 10) line++;
    return line;
  };

  const prolog: Array<XmlTreeComment | XmlTreePI> = [];
  const epilog: Array<XmlTreeComment | XmlTreePI> = [];
  let root: XmlTreeElement | null = null;
  const stack: XmlTreeElement[] = [];
  // The children of the open elements, one after the other: an element's run starts at its mark
  // and becomes its (exactly sized) children array when it closes.
  const pending: XmlTreeNode[] = [];
  let pendingLength = 0;
  const marks: number[] = [];
  const misc = () => (root ? epilog : prolog);
  const appendText = (data: string) => {
    const last = pendingLength > marks[marks.length - 1]! ? pending[pendingLength - 1]! : null;
    if (last && last.type === 3) last.data += data;
    else pending[pendingLength++] = { type: 3, data };
  };

  // XML declaration: only at the very start.
  if (xml.startsWith("<?xml", i) && isSpace(xml.charCodeAt(i + 5))) {
    const end = xml.indexOf("?>", i);
    if (end < 0) throw new XmlTreeError("la declaración XML no está cerrada", 1);
    i = end + 2;
  }

  while (i < len) {
    const lt = xml.indexOf("<", i);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > i) {
      const top = stack[stack.length - 1];
      if (!top) {
        for (let k = i; k < textEnd; k++) if (!isSpace(xml.charCodeAt(k))) throw new XmlTreeError("hay texto fuera del elemento raíz", lineAt(k));
      } else {
        const raw = xml.slice(i, textEnd);
        if (raw.indexOf("]]>") >= 0) throw new XmlTreeError("«]]>» no está permitido en el texto", lineAt(i));
        if (top.verbatim && !canonicalText(raw)) top.verbatim = false;
        appendText(decode(raw, lineAt(i)));
      }
    }
    if (lt < 0) break;
    i = lt;
    const c1 = xml.charCodeAt(i + 1);

    if (c1 === 47 /* / */) {
      const gt = xml.indexOf(">", i);
      if (gt < 0) throw new XmlTreeError("una etiqueta de cierre no está terminada", lineAt(i));
      const top = stack.pop();
      let end = gt;
      while (end > i + 2 && isSpace(xml.charCodeAt(end - 1))) end--;
      if (!top || end - (i + 2) !== top.qname.length || !xml.startsWith(top.qname, i + 2))
        throw new XmlTreeError(`la etiqueta de cierre </${xml.slice(i + 2, end)}> no corresponde a <${top?.qname ?? ""}>`, lineAt(i));
      const mark = marks.pop()!;
      if (pendingLength > mark) {
        top.children = pending.slice(mark, pendingLength);
        pendingLength = mark;
      }
      top.end = gt + 1;
      if (gt !== end) top.verbatim = false;
      if (!top.verbatim && top.parent) top.parent.verbatim = false;
      i = gt + 1;
      continue;
    }

    if (c1 === 33 /* ! */) {
      if (xml.startsWith("<!--", i)) {
        const end = xml.indexOf("-->", i + 4);
        if (end < 0) throw new XmlTreeError("un comentario no está cerrado", lineAt(i));
        const data = xml.slice(i + 4, end);
        if (data.indexOf("--") >= 0 || data.endsWith("-")) throw new XmlTreeError("un comentario contiene «--»", lineAt(i));
        const node: XmlTreeComment = { type: 8, data };
        const top = stack[stack.length - 1];
        if (top) {
          pending[pendingLength++] = node;
          top.verbatim = false;
        } else misc().push(node);
        i = end + 3;
        continue;
      }
      if (xml.startsWith("<![CDATA[", i)) {
        const top = stack[stack.length - 1];
        if (!top) throw new XmlTreeError("hay una sección CDATA fuera del elemento raíz", lineAt(i));
        const end = xml.indexOf("]]>", i + 9);
        if (end < 0) throw new XmlTreeError("una sección CDATA no está cerrada", lineAt(i));
        appendText(xml.slice(i + 9, end));
        top.verbatim = false;
        i = end + 3;
        continue;
      }
      throw new XmlTreeError("no se admiten declaraciones DOCTYPE ni DTD", lineAt(i));
    }

    if (c1 === 63 /* ? */) {
      const end = xml.indexOf("?>", i + 2);
      if (end < 0) throw new XmlTreeError("una instrucción de procesamiento no está cerrada", lineAt(i));
      PI_TARGET_Y.lastIndex = i + 2;
      const tm = PI_TARGET_Y.exec(xml);
      const target = tm?.[0] ?? "";
      const after = i + 2 + target.length;
      if (!target || target.includes(":") || (after < end && !isSpace(xml.charCodeAt(after))))
        throw new XmlTreeError("una instrucción de procesamiento no tiene un nombre válido", lineAt(i));
      if (target.toLowerCase() === "xml") throw new XmlTreeError("la declaración XML debe ir al inicio del documento", lineAt(i));
      let d = after;
      while (d < end && isSpace(xml.charCodeAt(d))) d++;
      const node: XmlTreePI = { type: 7, target, data: xml.slice(d, end) };
      const top = stack[stack.length - 1];
      if (top) {
        pending[pendingLength++] = node;
        top.verbatim = false;
      } else misc().push(node);
      i = end + 2;
      continue;
    }

    // Start tag.
    const startLine = lineAt(i);
    const name = nameAt(xml, i + 1);
    if (!name) throw new XmlTreeError("hay un «<» que no inicia una etiqueta válida", startLine);
    const qname = name.name;
    let p = i + 1 + qname.length;
    let raw: Array<[KnownName, string]> | null = null;
    // The names written so far in this tag, once there are two (found in one step, not by a scan of
    // all the earlier ones: 160,000 attributes cost five minutes that way).
    let rawNames: Set<string> | null = null;
    let selfClose = false;
    // Whether the tag is written as C14N writes it (attribute order and redundant declarations are judged below).
    let plain = true;
    for (;;) {
      const ws = p;
      while (p < len && isSpace(xml.charCodeAt(p))) p++;
      const ch = xml.charCodeAt(p);
      if (ch === 62 /* > */) {
        if (p !== ws) plain = false;
        p++;
        break;
      }
      if (ch === 47 /* / */ && xml.charCodeAt(p + 1) === 62) {
        selfClose = true;
        p += 2;
        break;
      }
      if (p >= len) throw new XmlTreeError(`la etiqueta <${qname}> no está terminada`, startLine);
      if (p === ws) throw new XmlTreeError(`falta un espacio entre los atributos de <${qname}>`, startLine);
      if (p !== ws + 1 || xml.charCodeAt(ws) !== 32) plain = false;
      const attrName = nameAt(xml, p);
      if (!attrName) throw new XmlTreeError(`<${qname}> tiene un atributo con un nombre inválido`, startLine);
      const an = attrName.name;
      p += an.length;
      if (!isSpace(xml.charCodeAt(p)) && xml.charCodeAt(p) === 61 && xml.charCodeAt(p + 1) === 34 /* =" */) {
        p++;
      } else {
        plain = false;
        while (isSpace(xml.charCodeAt(p))) p++;
        if (xml.charCodeAt(p) !== 61 /* = */) throw new XmlTreeError(`falta «=» en el atributo ${an} de <${qname}>`, startLine);
        p++;
        while (isSpace(xml.charCodeAt(p))) p++;
      }
      const quote = xml[p];
      if (quote !== '"' && quote !== "'") throw new XmlTreeError(`el atributo ${an} de <${qname}> debe ir entre comillas`, startLine);
      const qe = xml.indexOf(quote, p + 1);
      if (qe < 0) throw new XmlTreeError(`el atributo ${an} de <${qname}> no está cerrado`, startLine);
      const rawValue = xml.slice(p + 1, qe);
      if (rawValue.indexOf("<") >= 0) throw new XmlTreeError(`«<» no está permitido en el atributo ${an} de <${qname}>`, startLine);
      raw ??= [];
      if (raw.length === MAX_ATTRIBUTES) throw new XmlTreeError(`<${qname}> tiene más de ${MAX_ATTRIBUTES} atributos, algo que ningún comprobante tiene`, startLine);
      if (raw.length === 1) rawNames = new Set([raw[0]![0].name]);
      if (rawNames !== null) {
        if (rawNames.has(an)) throw new XmlTreeError(`el atributo ${an} está repetido en <${qname}>`, startLine);
        rawNames.add(an);
      }
      if (plain && !canonicalAttr(rawValue)) plain = false;
      // Attribute-value normalization (XML 1.0 §3.3.3): literal white space becomes a space, references are kept.
      raw.push([attrName, decode(/[\t\n]/.test(rawValue) ? rawValue.replace(/[\t\n]/g, " ") : rawValue, startLine)]);
      p = qe + 1;
    }

    const parent = stack[stack.length - 1] ?? null;
    if (!parent && root) throw new XmlTreeError("el documento tiene más de un elemento raíz", startLine);
    const parentScope = parent ? (parent.scope as NsScope) : EMPTY_SCOPE;
    let scope = parentScope;
    let ownScope: Map<string, string> | null = null;
    let nsDecls: Array<[string, string]> = NONE;
    let attrs: XmlTreeAttr[] = NONE;
    // In C14N, namespace declarations come first, sorted by prefix (the default one first).
    let lastDecl: string | null = null;
    let seenAttr = false;
    // Indexed loops throughout: on these hot paths for...of allocated an iterator per element.
    const rawCount = raw ? raw.length : 0;
    for (let k = 0; k < rawCount; k++) {
      const [{ name: n, prefix: np, local: nl }, v] = raw![k]!;
      if (np === "xmlns" || n === "xmlns") {
        const prefix = n === "xmlns" ? "" : nl;
        if (prefix === "xmlns" || (prefix === "xml" && v !== NS_XML) || (prefix !== "xml" && v === NS_XML) || v === NS_XMLNS)
          throw new XmlTreeError(`<${qname}> declara un espacio de nombres reservado (${n})`, startLine);
        if (prefix !== "" && v === "") throw new XmlTreeError(`<${qname}> anula el prefijo ${prefix}, algo que XML 1.0 no permite`, startLine);
        if (plain) {
          // A declaration C14N would drop (it repeats what is in scope), or out of order.
          const inScope = parentScope.get(prefix);
          if (seenAttr || (lastDecl !== null && lastDecl >= prefix) || inScope === v || (prefix === "" && v === "" && inScope === undefined) || prefix === "xml") plain = false;
          lastDecl = prefix;
        }
        if (nsDecls === NONE) nsDecls = [];
        nsDecls.push([prefix, v]);
        if (ownScope === null) {
          ownScope = new Map();
          scope = new NsScope(parentScope, ownScope);
        }
        ownScope.set(prefix, v);
      } else seenAttr = true;
    }
    const seen = rawCount > 1 ? new Set<string>() : null;
    for (let k = 0; k < rawCount; k++) {
      const [{ name: n, prefix, local }, v] = raw![k]!;
      if (prefix === "xmlns" || n === "xmlns") continue;
      const ns = prefix ? resolvePrefix(scope, prefix, `el atributo ${n}`, startLine) : "";
      if (seen) {
        const key = `${ns} ${local}`;
        if (seen.has(key)) throw new XmlTreeError(`el atributo ${n} está repetido en <${qname}>`, startLine);
        seen.add(key);
      }
      const attr: XmlTreeAttr = { qname: n, prefix, local, ns, value: v };
      if (attrs === NONE) attrs = [];
      else if (plain) {
        // C14N sorts attributes by namespace URI, then local name.
        const prev = attrs[attrs.length - 1]!;
        if (prev.ns > ns || (prev.ns === ns && prev.local >= local)) plain = false;
      }
      attrs.push(attr);
    }
    const { prefix, local } = name;
    if (prefix === "xmlns") throw new XmlTreeError(`<${qname}> usa el prefijo reservado xmlns`, startLine);
    const el: XmlTreeElement = {
      type: 1,
      qname,
      prefix,
      local,
      ns: prefix ? resolvePrefix(scope, prefix, `<${qname}>`, startLine) : (scope.get("") ?? ""),
      attrs,
      nsDecls,
      scope,
      children: NONE,
      parent,
      line: startLine,
      start: i,
      end: p,
      // C14N writes an empty element as a start and an end tag.
      verbatim: plain && !selfClose,
    };
    if (parent) {
      pending[pendingLength++] = el;
      if (!el.verbatim) parent.verbatim = false;
    } else root = el;
    if (!selfClose) {
      stack.push(el);
      marks.push(pendingLength);
      if (stack.length > maxDepth) throw new XmlTreeDepthError(maxDepth, startLine);
    }
    i = p;
  }
  if (stack.length) throw new XmlTreeError(`el elemento <${stack[stack.length - 1]!.qname}> no está cerrado`, lineAt(len));
  if (!root) throw new XmlTreeError("el documento no tiene elemento raíz", 1);
  return { root, source: xml, prolog, epilog };
}

/** Nesting deeper than the caller allows (a distinct class so the intake can word it). */
export class XmlTreeDepthError extends XmlTreeError {
  constructor(
    readonly maxDepth: number,
    line: number,
  ) {
    super(`tiene más de ${maxDepth} niveles de anidamiento`, line);
  }
}

function resolvePrefix(scope: ReadonlyMap<string, string>, prefix: string, what: string, line: number): string {
  const uri = scope.get(prefix);
  if (uri === undefined) throw new XmlTreeError(`el prefijo «${prefix}» de ${what} no está declarado`, line);
  return uri;
}

function lineOf(s: string, pos: number): number {
  let n = 1;
  for (let k = 0; k < pos; k++) if (s.charCodeAt(k) === 10) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Reading helpers

/** Element children, optionally only those with a local name (and namespace). */
export function elementsOf(parent: XmlTreeElement | null | undefined, local?: string, ns?: string): XmlTreeElement[] {
  const out: XmlTreeElement[] = [];
  if (!parent) return out;
  const children = parent.children;
  for (let k = 0; k < children.length; k++) {
    const c = children[k]!;
    if (c.type !== 1) continue;
    if (local !== undefined && c.local !== local) continue;
    if (ns !== undefined && c.ns !== ns) continue;
    out.push(c);
  }
  return out;
}

export function firstElement(parent: XmlTreeElement | null | undefined, local: string, ns?: string): XmlTreeElement | undefined {
  if (!parent) return undefined;
  const children = parent.children;
  for (let k = 0; k < children.length; k++) {
    const c = children[k]!;
    if (c.type === 1 && c.local === local && (ns === undefined || c.ns === ns)) return c;
  }
  return undefined;
}

/** Descendants in document order (not the element itself) that pass `test`. */
export function findElements(root: XmlTreeElement, test: (el: XmlTreeElement) => boolean): XmlTreeElement[] {
  const out: XmlTreeElement[] = [];
  const visit = (el: XmlTreeElement) => {
    const children = el.children;
    for (let k = 0; k < children.length; k++) {
      const c = children[k]!;
      if (c.type !== 1) continue;
      if (test(c)) out.push(c);
      visit(c);
    }
  };
  visit(root);
  return out;
}

/** The text of an element and its descendants (DOM textContent). */
export function textOf(el: XmlTreeElement | null | undefined): string {
  if (!el) return "";
  if (el.children.length === 1 && el.children[0]!.type === 3) return el.children[0]!.data;
  let out = "";
  const visit = (e: XmlTreeElement) => {
    const children = e.children;
    for (let k = 0; k < children.length; k++) {
      const c = children[k]!;
      if (c.type === 3) out += c.data;
      else if (c.type === 1) visit(c);
    }
  };
  visit(el);
  return out;
}

/** An unprefixed attribute's value (or a prefixed one by qualified name), null when absent. */
export function attrOf(el: XmlTreeElement | null | undefined, qname: string): string | null {
  if (!el) return null;
  const attrs = el.attrs;
  for (let k = 0; k < attrs.length; k++) if (attrs[k]!.qname === qname) return attrs[k]!.value;
  return null;
}
