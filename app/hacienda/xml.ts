/**
 * XML writing helpers that produce Canonical XML (C14N 1.0 / exclusive C14N give the same bytes for
 * our documents): no self-closing tags, text escaped as & < > and CR as &#xD;, attribute values
 * escaped as & < " TAB LF CR, no whitespace between elements. The signer digests these bytes as is.
 */

export class XmlBuildError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
  }
}

// Characters XML 1.0 forbids (C0 controls other than TAB/LF/CR, U+FFFE/U+FFFF, lone surrogates).
const INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkChars(s: string, field: string) {
  if (INVALID_CHARS.test(s))
    throw new XmlBuildError(field, `El campo ${field} contiene caracteres de control no permitidos en XML: bórrelos y escriba el texto de nuevo.`);
}

// Anything that needs escaping or checking; most texts have none and are returned as they are.
const SPECIAL_TEXT = /[\u0000-\u001F&<>\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escapes character data per C14N. */
export function escapeText(s: string, field = "texto"): string {
  if (!SPECIAL_TEXT.test(s)) return s;
  checkChars(s, field);
  if (!/[&<>\r]/.test(s)) return s;
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
}

/** Escapes an attribute value per C14N. */
export function escapeAttr(s: string, field = "atributo"): string {
  checkChars(s, field);
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#x9;")
    .replace(/\n/g, "&#xA;")
    .replace(/\r/g, "&#xD;");
}

/** Appends <name>text</name> to `out` (text escaped). `path` names the field in errors. */
export function leaf(out: string[], name: string, text: string, path = name): void {
  out.push(`<${name}>${escapeText(text, path)}</${name}>`);
}

/**
 * Appends <name>value</name> for a value the library produced itself and that cannot need
 * escaping (amounts written by totals.ts, formatted dates, line numbers): no checks, no copies.
 */
export function rawLeaf(out: string[], name: string, value: string): void {
  out.push(`<${name}>${value}</${name}>`);
}

/** Like leaf, but does nothing when text is undefined, null or "". */
export function optLeaf(out: string[], name: string, text: string | undefined | null, path = name): void {
  if (text !== undefined && text !== null && text !== "") leaf(out, name, text, path);
}
