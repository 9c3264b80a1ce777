/**
 * Hostile-input gate for XML we did not produce (received comprobantes, Hacienda answers).
 *
 * Refuses, before any parser sees the bytes: anything over the size limit, empty or non-XML
 * input, undecodable bytes and any DOCTYPE (a DTD is the only way to declare entities, so
 * refusing it stops XXE and entity-expansion "billion laughs" attacks at the door; comprobantes
 * never carry one). Then parses with @xmldom/xmldom treating every parser error as fatal and
 * bounds the nesting depth so recursive consumers (canonicalizers) cannot blow the stack.
 * `parseXmlTreeSafely` applies the same checks and builds the fast light tree of xml-tree.ts
 * instead (reading and verifying received documents).
 */
import { DOMParser } from "@xmldom/xmldom";
import { HaciendaError } from "./errors.ts";
import { parseXmlTree, XmlTreeDepthError, XmlTreeError, type XmlTreeDocument, type XmlTreeElement } from "./xml-tree.ts";

export const MAX_XML_BYTES = 5 * 1024 * 1024;
export const MAX_XML_DEPTH = 64;

export type XmlDocument = ReturnType<DOMParser["parseFromString"]>;
export type XmlElement = NonNullable<XmlDocument["documentElement"]>;

export interface SafeXml {
  /** The decoded text, without a byte-order mark. */
  text: string;
  doc: XmlDocument;
  root: XmlElement;
}

function sizeMessage(bytes: number, max: number): string {
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1).replace(".", ",");
  return `El archivo pesa ${mb(bytes)} MB y el máximo permitido es ${mb(max)} MB. Verifique que sea el XML del comprobante y no otro archivo.`;
}

/** Decodes bytes to text: UTF-8 (what Hacienda requires), or ISO-8859-1 when the declaration says so. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  let start = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new HaciendaError(
      "XML_ENCODING",
      "El archivo está codificado en UTF-16. Los comprobantes electrónicos deben venir en UTF-8: pida al emisor el XML original.",
    );
  }
  const body = bytes.subarray(start);
  // Look at the declaration (ASCII-compatible) to honour an explicit Latin-1 encoding.
  const head = Buffer.from(body.subarray(0, 200)).toString("latin1");
  const enc = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  if (enc && enc !== "utf-8" && enc !== "utf8") {
    if (enc === "iso-8859-1" || enc === "latin1" || enc === "windows-1252") {
      return new TextDecoder("windows-1252").decode(body);
    }
    throw new HaciendaError(
      "XML_ENCODING",
      `El archivo declara la codificación «${enc}», que no se admite. Los comprobantes deben venir en UTF-8: pida al emisor el XML original.`,
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch (cause) {
    throw new HaciendaError(
      "XML_ENCODING",
      "El archivo no es texto UTF-8 válido, así que no puede ser un comprobante electrónico. Verifique que subió el XML y no un PDF u otro archivo.",
      { cause },
    );
  }
}

/**
 * The intake checks shared by both parsers: size, encoding, emptiness, "is it XML at all", and no
 * DTD. Returns the decoded text (without a byte-order mark). Throws HaciendaError.
 */
export function admitXmlText(input: string | Uint8Array, { maxBytes = MAX_XML_BYTES }: { maxBytes?: number } = {}): string {
  const size = typeof input === "string" ? Buffer.byteLength(input, "utf8") : input.byteLength;
  if (size > maxBytes) throw new HaciendaError("XML_TOO_LARGE", sizeMessage(size, maxBytes));
  let text = typeof input === "string" ? input : decodeXmlBytes(input);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") {
    throw new HaciendaError("XML_EMPTY", "El archivo está vacío. Suba el XML del comprobante.");
  }
  if (!/^\s*</.test(text)) {
    throw new HaciendaError(
      "XML_NOT_XML",
      "El archivo no es un documento XML. Suba el archivo .xml del comprobante (no el PDF ni una imagen).",
    );
  }
  // No DTD at all: no internal subset, no entity declarations, no external references.
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new HaciendaError(
      "XML_DOCTYPE",
      "El XML trae una declaración DOCTYPE o ENTITY, algo que ningún comprobante electrónico contiene y que puede usarse para atacar el sistema. Por seguridad no se procesó: pida al emisor el XML original.",
    );
  }
  return text;
}

function depthMessage(): string {
  return `El XML tiene más de ${MAX_XML_DEPTH} niveles de anidamiento, algo que ningún comprobante tiene. No se procesó: pida al emisor el XML original.`;
}

export interface SafeTree {
  /** The decoded text, without a byte-order mark. */
  text: string;
  doc: XmlTreeDocument;
  root: XmlTreeElement;
}

/**
 * Parses untrusted XML into the light tree of xml-tree.ts (fast, keeps what canonicalization
 * needs): the same intake checks and Spanish refusals as parseXmlSafely. Used by verify.ts and
 * parse.ts.
 */
export function parseXmlTreeSafely(input: string | Uint8Array, options: { maxBytes?: number } = {}): SafeTree {
  const text = admitXmlText(input, options);
  let doc: XmlTreeDocument;
  try {
    doc = parseXmlTree(text, { maxDepth: MAX_XML_DEPTH });
  } catch (cause) {
    if (cause instanceof XmlTreeDepthError) throw new HaciendaError("XML_TOO_DEEP", depthMessage(), { cause });
    if (cause instanceof XmlTreeError)
      throw new HaciendaError(
        "XML_MALFORMED",
        `El XML está dañado y no se puede leer (línea ${cause.line}: ${cause.message}). Pida al emisor que le reenvíe el archivo original.`,
        { cause },
      );
    throw cause;
  }
  return { text, doc, root: doc.root };
}

/**
 * Parses untrusted XML. Throws HaciendaError (Spanish message) for anything refused.
 * @param maxBytes limit on the encoded size (default 5 MB)
 */
export function parseXmlSafely(input: string | Uint8Array, { maxBytes = MAX_XML_BYTES }: { maxBytes?: number } = {}): SafeXml {
  const text = admitXmlText(input, { maxBytes });

  const problems: string[] = [];
  const parser = new DOMParser({
    onError(level: string, message: string) {
      problems.push(`${level}: ${message}`);
      if (level !== "warning") throw new Error(message);
    },
  });
  let doc: XmlDocument;
  try {
    doc = parser.parseFromString(text, "text/xml");
  } catch (cause) {
    throw new HaciendaError(
      "XML_MALFORMED",
      `El XML está dañado y no se puede leer (${firstLine(problems[0] ?? String(cause))}). Pida al emisor que le reenvíe el archivo original.`,
      { cause },
    );
  }
  const root = doc.documentElement;
  if (!root || problems.some((p) => !p.startsWith("warning"))) {
    throw new HaciendaError(
      "XML_MALFORMED",
      "El XML está dañado y no se puede leer. Pida al emisor que le reenvíe el archivo original.",
    );
  }
  checkDepth(root);
  return { text, doc, root };
}

function firstLine(s: string): string {
  return s.split("\n")[0]!.replace(/^\[xmldom [a-zA-Z]+\]\s*/, "").slice(0, 160);
}

/** Iterative depth check (a recursive one would itself be the stack overflow we guard against). */
function checkDepth(root: XmlElement): void {
  const stack: Array<[Node | XmlElement, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_XML_DEPTH) {
      throw new HaciendaError("XML_TOO_DEEP", depthMessage());
    }
    for (let c = (node as Node).firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) stack.push([c, depth + 1]);
    }
  }
}

/** Element children of `parent` with the given local name (any namespace unless `ns` is given). */
export function childElements(parent: { firstChild: unknown } | null | undefined, localName?: string, ns?: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (!parent) return out;
  for (let c = (parent as unknown as Node).firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    const el = c as unknown as XmlElement;
    if (localName !== undefined && el.localName !== localName) continue;
    if (ns !== undefined && el.namespaceURI !== ns) continue;
    out.push(el);
  }
  return out;
}

export function firstChild(parent: { firstChild: unknown } | null | undefined, localName: string, ns?: string): XmlElement | undefined {
  return childElements(parent, localName, ns)[0];
}

/** Descendant elements in document order (iterative). */
export function descendants(root: XmlElement, localName: string, ns?: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (n: Node) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType !== 1) continue;
      const el = c as unknown as XmlElement;
      if (el.localName === localName && (ns === undefined || el.namespaceURI === ns)) out.push(el);
      walk(c);
    }
  };
  walk(root as unknown as Node);
  return out;
}
