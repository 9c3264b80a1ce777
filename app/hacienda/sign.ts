/**
 * XAdES-EPES enveloped signature for comprobantes v4.4 (NOTES.md §5; decisions 020–022).
 *
 * Hot path: the XML builder emits the unsigned document already in inclusive-C14N canonical form
 * (after an optional XML declaration, only the default namespace declared on the root). A cheap
 * one-pass scan proves that, and then
 *   - the document digest is SHA-256 of the root element's bytes exactly as given,
 *   - SignedProperties and SignedInfo are string templates already in canonical form, rendered
 *     with the namespace declarations they inherit (the root's default namespace, xmlns:ds,
 *     xmlns:xades) on their apex element exactly as inclusive C14N 1.0 prints them,
 *   - one RSA-SHA256 signature over SignedInfo.
 * Anything else (prefixes, comments, self-closing tags, odd attribute order…) falls back to a real
 * canonicalizer (xml-crypto's C14N over an xmldom parse) and the output is that canonical form.
 */
import { createHash, sign as rsaSign } from "node:crypto";
import { C14nCanonicalization } from "xml-crypto";
import { HaciendaError } from "./errors.ts";
import type { SigningKey } from "./p12.ts";
import { descendants, parseXmlSafely, type XmlElement } from "./safe-xml.ts";

export const NS_DS = "http://www.w3.org/2000/09/xmldsig#";
export const NS_XADES = "http://uri.etsi.org/01903/v1.3.2#";
export const ALG_C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
export const ALG_RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
export const ALG_SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
export const ALG_ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
export const TYPE_SIGNED_PROPERTIES = "http://uri.etsi.org/01903#SignedProperties";

/** Signature policy of comprobantes v4.4 [A44 p.84/87]. */
export const POLICY_V44 = {
  identifier:
    "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/Resoluci%C3%B3n_General_sobre_disposiciones_t%C3%A9cnicas_comprobantes_electr%C3%B3nicos_para_efectos_tributarios.pdf",
  digestMethod: ALG_SHA256,
  digestValue: "DWxin1xWOeI8OuWQXazh4VjLWAaCLAA954em7DMh0h8=",
} as const;

export interface SignOptions {
  /** Signing time (injected clock). */
  now: Date;
  /** Base id for ds:Signature and the ids derived from it (an XML NCName). Default: derived from the document digest. */
  id?: string;
}

/** Costa Rica has kept UTC−06:00 all year since 1992 (no DST), so a fixed offset is exact. */
export function costaRicaDateTime(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new HaciendaError("SIGN_INVALID_INPUT", "La fecha de firma no es válida. Revise el reloj del servidor.");
  return `${new Date(d.getTime() - 6 * 3_600_000).toISOString().slice(0, 19)}-06:00`;
}

const escText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
const escAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/\t/g, "&#x9;").replace(/\n/g, "&#xA;").replace(/\r/g, "&#xD;");

/** Namespace declarations as inclusive C14N renders them on an apex element: default first, then by prefix. */
export function renderNamespaces(ns: Map<string, string>): string {
  const prefixes = [...ns.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let out = "";
  for (const p of prefixes) {
    const uri = ns.get(p)!;
    if (p === "") {
      if (uri !== "") out += ` xmlns="${escAttr(uri)}"`;
    } else out += ` xmlns:${p}="${escAttr(uri)}"`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fast canonical-form check

interface CanonicalInput {
  /** Everything before the root element (XML declaration and whitespace), kept as given. */
  prologue: string;
  /** The root element, canonical. */
  root: string;
  /** Namespace declarations on the root (prefix "" = default). */
  rootNamespaces: Map<string, string>;
  /** Index in `root` where the closing tag of the root starts. */
  closeAt: number;
}

const NAME = "[A-Za-z_][A-Za-z0-9_.\\-]*";
const ATTR_VALUE = '[^"<&\\t\\n\\r]*(?:&(?:amp|lt|quot|#x9|#xA|#xD);[^"<&\\t\\n\\r]*)*';
// A start tag, an end tag, or a text run. Sticky: any other construct stops the scan.
const TOKEN = new RegExp(`<(/?)(${NAME})((?: ${NAME}="${ATTR_VALUE}")*)>|([^<]+)`, "y");
const ATTR = new RegExp(` (${NAME})="(${ATTR_VALUE})"`, "g");
const BAD_TEXT = /[>\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|&(?!(?:amp|lt|gt);)/;
const BAD_ATTR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const PROLOGUE = /^(?:<\?xml [^?<>]*\?>)?[ \t\r\n]*/;

/**
 * Returns the split input when `xml` is an XML declaration (optional) + a root element that is
 * already in canonical form, unprefixed, with at most a default namespace declared on the root;
 * otherwise null. Linear time, no allocation per node beyond the tag-name stack.
 */
export function scanCanonical(xml: string): CanonicalInput | null {
  const prologue = PROLOGUE.exec(xml)![0];
  let end = xml.length;
  while (end > prologue.length && /[ \t\r\n]/.test(xml[end - 1]!)) end--;
  const root = xml.slice(prologue.length, end);
  if (!root.startsWith("<")) return null;
  const stack: string[] = [];
  const rootNamespaces = new Map<string, string>();
  let closeAt = -1;
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < root.length) {
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(root);
    if (!m) return null;
    pos = TOKEN.lastIndex;
    if (m[4] !== undefined) {
      if (stack.length === 0 || BAD_TEXT.test(m[4])) return null;
      continue;
    }
    const name = m[2]!;
    if (m[1] === "/") {
      if (m[3] || stack.pop() !== name) return null;
      if (stack.length === 0) {
        closeAt = pos - name.length - 3;
        if (pos !== root.length) return null;
      }
      continue;
    }
    if (stack.length === 0 && closeAt !== -1) return null;
    const attrs = m[3]!;
    if (attrs) {
      let prev = "";
      ATTR.lastIndex = 0;
      for (let a = ATTR.exec(attrs); a; a = ATTR.exec(attrs)) {
        const an = a[1]!;
        if (BAD_ATTR.test(a[2]!)) return null;
        if (an === "xmlns") {
          // Only the root may declare a namespace, only the default one, and first.
          if (stack.length !== 0 || prev !== "" || a[2] === "") return null;
          rootNamespaces.set("", a[2]!);
          prev = "\u0000";
          continue;
        }
        if (an.startsWith("xmlns")) return null;
        if (prev !== "" && prev !== "\u0000" && !(prev < an)) return null;
        prev = an;
      }
    }
    stack.push(name);
  }
  if (stack.length !== 0 || closeAt < 0) return null;
  return { prologue, root, rootNamespaces, closeAt };
}

// ---------------------------------------------------------------------------------------------
// Fallback: a real canonicalizer

function canonicalizeFallback(xml: string): CanonicalInput {
  const { root } = parseXmlSafely(xml);
  if (descendants(root, "Signature", NS_DS).length > 0 || (root.localName === "Signature" && root.namespaceURI === NS_DS)) {
    throw new HaciendaError("SIGN_ALREADY_SIGNED", "El documento ya trae una firma. Firme el XML sin firmar que generó el sistema.");
  }
  const rootNamespaces = new Map<string, string>();
  const attrs = root.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    if (a.name === "xmlns") rootNamespaces.set("", a.value);
    else if (a.name.startsWith("xmlns:")) rootNamespaces.set(a.name.slice(6), a.value);
    else if (a.name.startsWith("xml:")) {
      // Inclusive C14N would copy inherited xml:* attributes onto every signed subtree; comprobantes never use them.
      throw new HaciendaError(
        "SIGN_UNSUPPORTED_INPUT",
        `El elemento raíz trae el atributo ${a.name}, que un comprobante no lleva. Genere el XML de nuevo desde el sistema.`,
      );
    }
  }
  const canon = new C14nCanonicalization().process(root as unknown as Element, {}).toString();
  const closeTag = `</${root.tagName}>`;
  if (!canon.endsWith(closeTag)) throw new HaciendaError("SIGN_INVALID_INPUT", "No se pudo preparar el documento para firmarlo. Genere el XML de nuevo.");
  return {
    prologue: '<?xml version="1.0" encoding="UTF-8"?>\n',
    root: canon,
    rootNamespaces,
    closeAt: canon.length - closeTag.length,
  };
}

// ---------------------------------------------------------------------------------------------

const ID_RE = /^[A-Za-z_][A-Za-z0-9_.\-]*$/;

/**
 * Signs a comprobante: returns the document with an enveloped XAdES-EPES ds:Signature appended
 * as the last child of the root. Deterministic for a given (xml, key, now, id).
 */
export function signXml(xml: string, key: SigningKey, { now, id }: SignOptions): string {
  if (typeof xml !== "string" || xml.trim() === "") {
    throw new HaciendaError("SIGN_INVALID_INPUT", "No hay documento que firmar. Genere el XML del comprobante de nuevo.");
  }
  const input = scanCanonical(xml) ?? canonicalizeFallback(xml);
  const docDigest = createHash("sha256").update(input.root, "utf8").digest("base64");
  const sigId = id ?? `xmldsig-${Buffer.from(docDigest, "base64").toString("hex").slice(0, 32)}`;
  if (!ID_RE.test(sigId)) throw new HaciendaError("SIGN_INVALID_INPUT", "El identificador de la firma no es válido. Use letras, números, guiones o puntos.");
  const refId = `${sigId}-ref0`;
  const spId = `${sigId}-signedprops`;

  const dsNs = new Map(input.rootNamespaces).set("ds", NS_DS);
  const xadesNs = new Map(dsNs).set("xades", NS_XADES);

  const spBody =
    `<xades:SignedSignatureProperties>` +
    `<xades:SigningTime>${costaRicaDateTime(now)}</xades:SigningTime>` +
    `<xades:SigningCertificate><xades:Cert><xades:CertDigest>` +
    `<ds:DigestMethod Algorithm="${ALG_SHA256}"></ds:DigestMethod><ds:DigestValue>${key.certDigestSha256}</ds:DigestValue>` +
    `</xades:CertDigest><xades:IssuerSerial>` +
    `<ds:X509IssuerName>${escText(key.issuer)}</ds:X509IssuerName><ds:X509SerialNumber>${key.serialDecimal}</ds:X509SerialNumber>` +
    `</xades:IssuerSerial></xades:Cert></xades:SigningCertificate>` +
    `<xades:SignaturePolicyIdentifier><xades:SignaturePolicyId><xades:SigPolicyId>` +
    `<xades:Identifier>${escText(POLICY_V44.identifier)}</xades:Identifier></xades:SigPolicyId>` +
    `<xades:SigPolicyHash><ds:DigestMethod Algorithm="${POLICY_V44.digestMethod}"></ds:DigestMethod>` +
    `<ds:DigestValue>${POLICY_V44.digestValue}</ds:DigestValue></xades:SigPolicyHash>` +
    `</xades:SignaturePolicyId></xades:SignaturePolicyIdentifier>` +
    `</xades:SignedSignatureProperties>` +
    `<xades:SignedDataObjectProperties><xades:DataObjectFormat ObjectReference="#${refId}">` +
    `<xades:MimeType>application/octet-stream</xades:MimeType>` +
    `</xades:DataObjectFormat></xades:SignedDataObjectProperties></xades:SignedProperties>`;
  const spCanon = `<xades:SignedProperties${renderNamespaces(xadesNs)} Id="${spId}">${spBody}`;
  const spDigest = createHash("sha256").update(spCanon, "utf8").digest("base64");

  const siBody =
    `<ds:CanonicalizationMethod Algorithm="${ALG_C14N}"></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${ALG_RSA_SHA256}"></ds:SignatureMethod>` +
    `<ds:Reference Id="${refId}" URI=""><ds:Transforms><ds:Transform Algorithm="${ALG_ENVELOPED}"></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${ALG_SHA256}"></ds:DigestMethod><ds:DigestValue>${docDigest}</ds:DigestValue></ds:Reference>` +
    `<ds:Reference Type="${TYPE_SIGNED_PROPERTIES}" URI="#${spId}">` +
    `<ds:DigestMethod Algorithm="${ALG_SHA256}"></ds:DigestMethod><ds:DigestValue>${spDigest}</ds:DigestValue></ds:Reference>` +
    `</ds:SignedInfo>`;
  const siCanon = `<ds:SignedInfo${renderNamespaces(dsNs)}>${siBody}`;
  const signatureValue = rsaSign("sha256", Buffer.from(siCanon, "utf8"), key.privateKey).toString("base64");

  const signature =
    `<ds:Signature xmlns:ds="${NS_DS}" Id="${sigId}">` +
    `<ds:SignedInfo>${siBody}` +
    `<ds:SignatureValue Id="${sigId}-sigvalue">${signatureValue}</ds:SignatureValue>` +
    `<ds:KeyInfo Id="${sigId}-keyinfo"><ds:X509Data><ds:X509Certificate>${key.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>` +
    `<ds:Object><xades:QualifyingProperties xmlns:xades="${NS_XADES}" Target="#${sigId}">` +
    `<xades:SignedProperties Id="${spId}">${spBody}` +
    `</xades:QualifyingProperties></ds:Object></ds:Signature>`;

  return input.prologue + input.root.slice(0, input.closeAt) + signature + input.root.slice(input.closeAt);
}

export type { XmlElement };
