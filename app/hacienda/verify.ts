/**
 * Verifies the XMLDSig / XAdES signature of any comprobante or message we receive (decisions 140, 141).
 *
 * XMLDSig: every Reference of SignedInfo is resolved (URI="" = the document, URI="#id" = the
 * element with that Id), transformed (enveloped-signature; the XPath filter
 * not(ancestor-or-self::ds:Signature) of Hacienda's own MensajeHacienda; inclusive, 1.1 or
 * exclusive C14N, with or without comments), digested (SHA-1/256/384/512) and compared, each with
 * its own verdict; then the signature value over the canonical SignedInfo is checked with the
 * KeyInfo certificate's key (RSA with SHA-1/256/384/512). The canonicalizer (c14n.ts) is linear in
 * the document, so a 1,000-line invoice costs about as much per byte as a 1-line one.
 *
 * XAdES on top: the SignedProperties reference must exist and match, its SigningCertificate digest
 * must be the digest of the KeyInfo certificate (serial number consistent), the signature must
 * cover the whole document (URI=""). SigningTime is optional (Hacienda accepted valid signatures
 * without it); when present it must lie within the certificate's validity. The signature policy
 * is reported, and required to be the v4.4 one (POLICY_V44) only with `strict: true` — Hacienda
 * does not enforce it (NOTES §5: accepted documents carry several policy variants), so received
 * documents are not judged by it; Colibrí's own documents can be.
 *
 * What this does NOT decide: whether the certificate chains to Hacienda's or BCCR's CA (we have
 * no trusted roots here); callers compare the certificate's cédula with the document's issuer.
 */
import { createHash, verify as cryptoVerify, X509Certificate } from "node:crypto";
import { c14nMethod, canonicalHash, canonicalize, type C14nMethod } from "./c14n.ts";
import { cedulaFromSerialNumber, serialToDecimal } from "./p12.ts";
import { parseXmlTreeSafely, type SafeTree, type SafeXml } from "./safe-xml.ts";
import { ALG_ENVELOPED, NS_DS, POLICY_V44, TYPE_SIGNED_PROPERTIES } from "./sign.ts";
import { attrOf, elementsOf, findElements, firstElement, textOf, type XmlTreeElement } from "./xml-tree.ts";

type XmlElement = XmlTreeElement;

export const ALG_XPATH = "http://www.w3.org/TR/1999/REC-xpath-19991116";
const XADES_PREFIX = "http://uri.etsi.org/01903/";
const NS_EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";

export interface ReferenceVerdict {
  uri: string;
  id: string | null;
  type: string | null;
  valid: boolean;
}

export interface SignatureCertificate {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  cedula: string;
}

export interface SignaturePolicy {
  /** SigPolicyId/Identifier as written (null when the signature declares no policy). */
  identifier: string | null;
  digestMethod: string | null;
  digestValue: string | null;
  /** Identifier and hash are those of the v4.4 policy (POLICY_V44). */
  isV44: boolean;
}

export interface VerifyResult {
  valid: boolean;
  /** Spanish, one per problem found; empty when valid. */
  errors: string[];
  references: ReferenceVerdict[];
  signatureValueValid: boolean;
  signedPropertiesValid: boolean;
  certificate: SignatureCertificate | null;
  /** xades:SigningTime as written (null when absent: it is optional). */
  signingTime: string | null;
  /** xades:SignaturePolicyIdentifier, as declared (null without SignedProperties). */
  policy: SignaturePolicy | null;
}

export interface VerifyOptions {
  /**
   * A document Colibrí itself issued: also require the v4.4 signature policy (POLICY_V44, its
   * identifier and SigPolicyHash) and a SigningTime. Default false: received documents are judged
   * as Hacienda judges them, which does not enforce the policy (decision 140).
   */
  strict?: boolean;
}

const HASHES: Record<string, string> = {
  "http://www.w3.org/2000/09/xmldsig#sha1": "sha1",
  "http://www.w3.org/2001/04/xmldsig-more#sha224": "sha224",
  "http://www.w3.org/2001/04/xmlenc#sha256": "sha256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384": "sha384",
  "http://www.w3.org/2001/04/xmlenc#sha512": "sha512",
};
const SIGNATURE_HASHES: Record<string, string> = {
  "http://www.w3.org/2000/09/xmldsig#rsa-sha1": "sha1",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha224": "sha224",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": "sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384": "sha384",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512": "sha512",
};

const text = (el: XmlElement | undefined) => textOf(el).trim();
const base64Of = (el: XmlElement | undefined) => text(el).replace(/\s+/g, "");
const isDs = (el: XmlElement, local: string) => el.local === local && el.ns === NS_DS;
const isXades = (el: XmlElement, local: string) => el.local === local && el.ns.startsWith(XADES_PREFIX);

function describeCert(x509: X509Certificate): SignatureCertificate {
  const subject = x509.subject.split("\n").reverse().join(",");
  const serialAttr = /(?:^|\n)serialNumber=([^\n]*)/.exec(x509.subject)?.[1] ?? "";
  return {
    subject,
    issuer: x509.issuer.split("\n").reverse().join(","),
    serialNumber: x509.serialNumber.toUpperCase(),
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    cedula: cedulaFromSerialNumber(serialAttr),
  };
}

interface ParsedCertificate {
  der: Buffer;
  x509: X509Certificate;
  described: SignatureCertificate;
}

/**
 * Parsed certificates by their base64 text: the same few certificates sign most documents (a
 * supplier's, Hacienda's for every MensajeHacienda), and parsing one costs more than the rest of a
 * 1-line verification. Bounded; a certificate is immutable, so the cache cannot be stale.
 */
const CERTIFICATES = new Map<string, ParsedCertificate | null>();
const CERTIFICATE_CACHE_SIZE = 256;

function readCertificate(b64: string): ParsedCertificate | null {
  if (!b64) return null;
  const cached = CERTIFICATES.get(b64);
  if (cached !== undefined) return cached;
  let parsed: ParsedCertificate | null = null;
  try {
    const der = Buffer.from(b64, "base64");
    const x509 = new X509Certificate(der);
    parsed = { der, x509, described: describeCert(x509) };
  } catch {
    parsed = null; // unreadable: reported by the caller when no certificate is readable
  }
  if (CERTIFICATES.size >= CERTIFICATE_CACHE_SIZE) CERTIFICATES.delete(CERTIFICATES.keys().next().value!);
  CERTIFICATES.set(b64, parsed);
  return parsed;
}

function referenceFailure(ref: ReferenceVerdict, target: XmlElement | undefined): string {
  const name = ref.id ? `«${ref.id}» ` : "";
  if (ref.uri === "") {
    return `La referencia ${name}al documento (URI="") no coincide: el contenido del comprobante fue modificado después de firmarse. Pida al emisor el XML original.`;
  }
  if (ref.type === TYPE_SIGNED_PROPERTIES || target?.local === "SignedProperties") {
    return `La referencia ${name}a las propiedades firmadas (${ref.uri}) no coincide: la fecha de firma, el certificado declarado u otra propiedad firmada fue modificada.`;
  }
  if (target?.local === "KeyInfo") {
    return `La referencia ${name}al certificado (${ref.uri}) no coincide: el certificado incluido en la firma fue cambiado.`;
  }
  return `La referencia ${name}(${ref.uri}) no coincide con lo firmado.`;
}

/** One pass over the document: its ds:Signature elements and its Id attributes (Id, ID, id). */
function indexDocument(root: XmlElement): { signatures: XmlElement[]; ids: Map<string, XmlElement[]> } {
  const signatures: XmlElement[] = [];
  const ids = new Map<string, XmlElement[]>();
  const visit = (el: XmlElement) => {
    if (isDs(el, "Signature")) signatures.push(el);
    // Indexed loops: for...of allocated an iterator per element here (5 MB for a 1,000-line invoice).
    const attrs = el.attrs;
    for (let k = 0; k < attrs.length; k++) {
      const a = attrs[k]!;
      if (a.prefix !== "" || (a.local !== "Id" && a.local !== "ID" && a.local !== "id") || !a.value) continue;
      const list = ids.get(a.value);
      if (list) list.push(el);
      else ids.set(a.value, [el]);
    }
    const children = el.children;
    for (let k = 0; k < children.length; k++) {
      const c = children[k]!;
      if (c.type === 1) visit(c);
    }
  };
  visit(root);
  return { signatures, ids };
}

const findAll = findElements;

function inclusivePrefixesOf(transformOrMethod: XmlElement | undefined): string[] {
  const inc = firstElement(transformOrMethod, "InclusiveNamespaces", NS_EXC_C14N);
  return (attrOf(inc, "PrefixList") ?? "").split(/\s+/).filter(Boolean);
}

interface DigestOutcome {
  valid: boolean;
  /** Spanish reason when the reference could not be processed at all. */
  problem?: string;
}

/**
 * Digests one Reference as XMLDSig core validation does (same-document URIs only) and compares it.
 */
function checkReference(
  refEl: XmlElement,
  sigNode: XmlElement,
  signatures: XmlElement[],
  safe: SafeTree,
  ids: Map<string, XmlElement[]>,
  uri: string,
): DigestOutcome {
  const shown = uri || '""';
  let apex: XmlElement;
  let wholeDocument = false;
  if (uri === "") {
    apex = safe.root;
    wholeDocument = true;
  } else if (uri.startsWith("#") && !uri.startsWith("#xpointer(")) {
    const found = ids.get(uri.slice(1)) ?? [];
    if (found.length === 0) return { valid: false, problem: `La referencia ${shown} apunta a un elemento que no existe en el documento.` };
    if (found.length > 1)
      return { valid: false, problem: `La referencia ${shown} es ambigua: ${found.length} elementos del documento tienen ese identificador. Pida al emisor el XML original.` };
    apex = found[0]!;
  } else {
    return { valid: false, problem: `La referencia ${shown} apunta fuera del documento, algo que un comprobante no admite.` };
  }

  let removeEnveloped = false;
  let removeAllSignatures = false;
  let method: C14nMethod | null = null;
  let inclusivePrefixes: string[] = [];
  const transforms = elementsOf(firstElement(refEl, "Transforms", NS_DS), "Transform", NS_DS);
  for (let i = 0; i < transforms.length; i++) {
    const t = transforms[i]!;
    const alg = attrOf(t, "Algorithm") ?? "";
    if (method) return { valid: false, problem: `La referencia ${shown} aplica transformaciones después de canonicalizar, algo que no se admite.` };
    if (alg === ALG_ENVELOPED) {
      removeEnveloped = true;
      continue;
    }
    if (alg === ALG_XPATH) {
      // Only the expression comprobantes use: not(ancestor-or-self::PREFIX:Signature), PREFIX bound to XMLDSig.
      const xp = firstElement(t, "XPath", NS_DS);
      const expr = text(xp).replace(/\s+/g, "");
      const prefix = /^not\(ancestor-or-self::([A-Za-z_][\w.-]*):Signature\)$/.exec(expr)?.[1];
      if (!xp || !prefix || xp.scope.get(prefix) !== NS_DS)
        return { valid: false, problem: `La referencia ${shown} usa una transformación XPath que no se admite (${text(xp) || "vacía"}).` };
      removeAllSignatures = true;
      continue;
    }
    const m = c14nMethod(alg);
    if (!m) return { valid: false, problem: `La referencia ${shown} usa una transformación que no se admite (${alg || "sin algoritmo"}).` };
    method = m;
    inclusivePrefixes = m.exclusive ? inclusivePrefixesOf(t) : [];
  }
  // Without an explicit canonicalization, XMLDSig turns the node-set into octets with inclusive C14N 1.0.
  method ??= { exclusive: false, withComments: false, version11: false };
  const digestAlg = attrOf(firstElement(refEl, "DigestMethod", NS_DS), "Algorithm") ?? "";
  const hash = HASHES[digestAlg];
  if (!hash) return { valid: false, problem: `La referencia ${shown} usa un algoritmo de resumen que no se admite (${digestAlg || "ninguno"}).` };

  const digest = createHash(hash);
  canonicalHash(
    apex,
    {
      ...method,
      // Same-document references never include comments (XMLDSig §4.3.3.3).
      withComments: false,
      inclusivePrefixes,
      document: wholeDocument ? safe.doc : undefined,
      source: safe.doc.source,
      excluded: removeAllSignatures ? signatures : removeEnveloped ? [sigNode] : undefined,
    },
    digest,
  );
  const expected = base64Of(firstElement(refEl, "DigestValue", NS_DS));
  const actual = digest.digest("base64");
  return { valid: expected !== "" && Buffer.from(expected, "base64").equals(Buffer.from(actual, "base64")) };
}

/** Verifies the document's signature. Throws HaciendaError only when the XML itself is refused. */
export function verifyXml(xml: string | Uint8Array, options: VerifyOptions = {}): VerifyResult {
  return verifyTree(parseXmlTreeSafely(xml), options);
}

/**
 * Same as verifyXml over a document already admitted by parseXmlSafely. Kept for compatibility: it
 * reads the admitted text again with the fast tree parser (verifyTree skips that step).
 */
export function verifyParsedXml(safe: SafeXml, options: VerifyOptions = {}): VerifyResult {
  return verifyTree(parseXmlTreeSafely(safe.text), options);
}

/** Same as verifyXml over a document already admitted by parseXmlTreeSafely (read-only use). */
export function verifyTree(safe: SafeTree, options: VerifyOptions = {}): VerifyResult {
  const root = safe.root;
  const result: VerifyResult = {
    valid: false,
    errors: [],
    references: [],
    signatureValueValid: false,
    signedPropertiesValid: false,
    certificate: null,
    signingTime: null,
    policy: null,
  };
  const errors = result.errors;

  const { signatures, ids } = indexDocument(root);
  if (signatures.length === 0) {
    errors.push("El documento no está firmado. Un comprobante electrónico siempre trae la firma del emisor: pida el XML original.");
    return result;
  }
  if (signatures.length > 1) {
    errors.push(
      `El documento trae ${signatures.length} firmas y un comprobante para Hacienda lleva solo la del emisor. Pida al emisor el XML original que envió a Hacienda.`,
    );
  }
  const sigNode = firstElement(root, "Signature", NS_DS);
  if (!sigNode) {
    errors.push("La firma no está donde la exige Hacienda (como último elemento del documento). Pida al emisor el XML original.");
    return result;
  }

  // The XAdES signed properties of this signature (its ds:Object children).
  const sp = elementsOf(sigNode, "Object", NS_DS)
    .flatMap((o) => findAll(o, (e) => isXades(e, "SignedProperties")))
    .at(0);
  const signingCerts = sp ? findAll(sp, (e) => isXades(e, "Cert") && (e.parent?.local === "SigningCertificate" || e.parent?.local === "SigningCertificateV2")) : [];

  // Certificate from KeyInfo: the one SigningCertificate names when there are several.
  const certNodes = findAll(firstElement(sigNode, "KeyInfo", NS_DS) ?? sigNode, (e) => isDs(e, "X509Certificate"));
  const candidates: ParsedCertificate[] = [];
  for (const node of certNodes) {
    const parsed = readCertificate(base64Of(node));
    if (parsed) candidates.push(parsed);
  }
  const certDigestMatches = (der: Buffer, c: XmlElement) => {
    const cd = firstElement(c, "CertDigest");
    const alg = HASHES[attrOf(firstElement(cd, "DigestMethod", NS_DS), "Algorithm") ?? ""];
    const expected = base64Of(firstElement(cd, "DigestValue", NS_DS));
    return Boolean(alg && expected && createHash(alg).update(der).digest("base64") === expected);
  };
  const chosen = candidates.find((k) => signingCerts.some((c) => certDigestMatches(k.der, c))) ?? candidates[0];
  if (!chosen) {
    errors.push("La firma no incluye un certificado legible, así que no se puede saber quién firmó. Pida al emisor el XML original.");
    return result;
  }
  const { der: certDer, x509 } = chosen;
  result.certificate = { ...chosen.described };

  const signedInfo = firstElement(sigNode, "SignedInfo", NS_DS);
  if (!signedInfo) {
    errors.push("La firma está incompleta o dañada (falta SignedInfo). Pida al emisor el XML original.");
    return result;
  }
  const refElements = elementsOf(signedInfo, "Reference", NS_DS);
  if (refElements.length === 0) {
    errors.push("La firma está incompleta o dañada (no tiene referencias). Pida al emisor el XML original.");
    return result;
  }

  let documentCovered = false;
  let signedPropertiesRef: { verdict: ReferenceVerdict; target: XmlElement | undefined } | undefined;
  for (const el of refElements) {
    const uri = attrOf(el, "URI") ?? "";
    const verdict: ReferenceVerdict = { uri, id: attrOf(el, "Id") || null, type: attrOf(el, "Type") || null, valid: false };
    const found = uri.startsWith("#") ? ids.get(uri.slice(1)) : undefined;
    const target = found?.length === 1 ? found[0] : undefined;
    const outcome = checkReference(el, sigNode, signatures, safe, ids, uri);
    verdict.valid = outcome.valid;
    if (outcome.problem) errors.push(outcome.problem);
    else if (!outcome.valid) errors.push(referenceFailure(verdict, target));
    if (uri === "") documentCovered = true;
    if (verdict.type === TYPE_SIGNED_PROPERTIES || (target && isXades(target, "SignedProperties"))) signedPropertiesRef = { verdict, target };
    result.references.push(verdict);
  }
  if (!documentCovered) {
    errors.push('La firma no cubre el documento completo (falta la referencia URI=""), así que su contenido podría haberse cambiado. Pida al emisor el XML original.');
  }

  // Signature value over the canonical SignedInfo, with the KeyInfo certificate's key.
  const method = attrOf(firstElement(signedInfo, "SignatureMethod", NS_DS), "Algorithm") ?? "";
  const hash = SIGNATURE_HASHES[method];
  const canonMethodEl = firstElement(signedInfo, "CanonicalizationMethod", NS_DS);
  const canonAlg = attrOf(canonMethodEl, "Algorithm") ?? "";
  const canon = c14nMethod(canonAlg);
  if (!hash) {
    errors.push(`La firma usa un algoritmo que Hacienda no admite (${method || "ninguno"}).`);
  } else if (!canon) {
    errors.push(`La firma usa una canonicalización que no se admite (${canonAlg || "ninguna"}).`);
  } else {
    try {
      const canonical = canonicalize(signedInfo, { ...canon, inclusivePrefixes: canon.exclusive ? inclusivePrefixesOf(canonMethodEl) : [], source: safe.doc.source });
      const value = Buffer.from(base64Of(firstElement(sigNode, "SignatureValue", NS_DS)), "base64");
      result.signatureValueValid = cryptoVerify(hash, Buffer.from(canonical, "utf8"), x509.publicKey, value);
    } catch {
      result.signatureValueValid = false;
    }
    if (!result.signatureValueValid) {
      errors.push("El valor de la firma no corresponde al certificado incluido: la firma fue alterada o el certificado fue sustituido. Pida al emisor el XML original.");
    }
  }

  // XAdES signed properties.
  let certDigestOk = false;
  if (!sp) {
    errors.push("La firma no trae las propiedades firmadas XAdES (SignedProperties) que exige Hacienda.");
  } else {
    const signingTimeEl = findAll(sp, (e) => isXades(e, "SigningTime"))[0];
    result.signingTime = signingTimeEl ? text(signingTimeEl) || null : null;
    const policyId = findAll(sp, (e) => isXades(e, "SignaturePolicyId"))[0];
    const policyHash = policyId ? findAll(policyId, (e) => isXades(e, "SigPolicyHash"))[0] : undefined;
    result.policy = {
      identifier: policyId ? text(findAll(policyId, (e) => isXades(e, "Identifier"))[0]) || null : null,
      digestMethod: attrOf(firstElement(policyHash, "DigestMethod", NS_DS), "Algorithm"),
      digestValue: base64Of(firstElement(policyHash, "DigestValue", NS_DS)) || null,
      isV44: false,
    };
    result.policy.isV44 =
      result.policy.identifier === POLICY_V44.identifier && result.policy.digestMethod === POLICY_V44.digestMethod && result.policy.digestValue === POLICY_V44.digestValue;

    if (!signedPropertiesRef) {
      errors.push("La firma no incluye la referencia a las propiedades firmadas (SignedProperties), así que la fecha de firma y el certificado declarado no están protegidos.");
    } else if (signedPropertiesRef.target && signedPropertiesRef.target !== sp) {
      errors.push("La referencia a las propiedades firmadas apunta a un elemento distinto de las propiedades de esta firma.");
      signedPropertiesRef = undefined;
    }
    if (signingCerts.length === 0) {
      errors.push("Las propiedades firmadas no declaran el certificado del firmante (SigningCertificate).");
    }
    for (const c of signingCerts) {
      if (!certDigestMatches(certDer, c)) continue;
      certDigestOk = true;
      const serial = text(findAll(c, (e) => isDs(e, "X509SerialNumber"))[0]);
      // A declared serial must be the certificate's, negative ones included (decision 060).
      if (serial && (!/^[+-]?\d+$/.test(serial) || BigInt(serial) !== BigInt(serialToDecimal(x509.serialNumber) ?? "0"))) {
        certDigestOk = false;
        errors.push("El número de serie declarado en las propiedades firmadas no es el del certificado incluido.");
      }
    }
    if (signingCerts.length > 0 && !certDigestOk) {
      errors.push("El certificado incluido en la firma no es el declarado en las propiedades firmadas (SigningCertificate): el certificado fue sustituido.");
    }
    if (result.signingTime) {
      const t = new Date(result.signingTime);
      if (Number.isNaN(t.getTime())) {
        errors.push(`La fecha de firma «${result.signingTime}» no es una fecha válida.`);
      } else if (t < result.certificate.notBefore || t > result.certificate.notAfter) {
        errors.push(`La fecha de firma (${result.signingTime}) está fuera de la vigencia del certificado, que rige del ${result.certificate.notBefore.toISOString().slice(0, 10)} al ${result.certificate.notAfter.toISOString().slice(0, 10)}.`);
      }
    } else if (options.strict) {
      errors.push("Las propiedades firmadas no indican la fecha de firma (SigningTime), que Colibrí siempre escribe.");
    }
    if (options.strict && !result.policy.isV44) {
      errors.push(
        `La política de firma declarada (${result.policy.identifier ?? "ninguna"}) no es la de los comprobantes v4.4 con su resumen ${POLICY_V44.digestValue}, que Colibrí siempre usa.`,
      );
    }
  }
  result.signedPropertiesValid = Boolean(sp && signedPropertiesRef?.verdict.valid && certDigestOk);

  result.valid =
    errors.length === 0 &&
    result.signatureValueValid &&
    result.signedPropertiesValid &&
    documentCovered &&
    result.references.every((r) => r.valid);
  return result;
}
