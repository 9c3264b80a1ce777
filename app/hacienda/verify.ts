/**
 * Verifies the XMLDSig / XAdES signature of any comprobante or message we receive.
 *
 * xml-crypto does the XMLDSig work (inclusive and exclusive C14N, enveloped-signature, any number
 * of references, KeyInfo and SignedProperties references). We add what it lacks: the XPath
 * transform `not(ancestor-or-self::ds:Signature)` that Hacienda's own MensajeHacienda uses, a
 * verdict per reference instead of "stop at the first failure", and the XAdES checks: the
 * SignedProperties reference must exist and match, its SigningCertificate digest must be the
 * digest of the KeyInfo certificate, the signature must cover the whole document (URI="").
 *
 * What this does NOT decide: whether the certificate chains to Hacienda's or BCCR's CA (we have
 * no trusted roots here); callers compare the certificate's cédula with the document's issuer.
 */
import { createHash, verify as cryptoVerify, X509Certificate } from "node:crypto";
import { SignedXml } from "xml-crypto";
import { cedulaFromSerialNumber } from "./p12.ts";
import { childElements, descendants, firstChild, parseXmlSafely, type SafeXml, type XmlDocument, type XmlElement } from "./safe-xml.ts";
import { NS_DS, TYPE_SIGNED_PROPERTIES } from "./sign.ts";

export const ALG_XPATH = "http://www.w3.org/TR/1999/REC-xpath-19991116";
const XADES_PREFIX = "http://uri.etsi.org/01903/";

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

export interface VerifyResult {
  valid: boolean;
  /** Spanish, one per problem found; empty when valid. */
  errors: string[];
  references: ReferenceVerdict[];
  signatureValueValid: boolean;
  signedPropertiesValid: boolean;
  certificate: SignatureCertificate | null;
  /** xades:SigningTime as written. */
  signingTime: string | null;
}

/** XPath filter transform, limited to the one expression used with comprobantes. */
class XPathNotSignatureTransform {
  getAlgorithmName() {
    return ALG_XPATH;
  }
  process(node: Node): Node {
    // Every node that is a ds:Signature or inside one is dropped from the node-set.
    const doomed: Node[] = [];
    const walk = (n: Node) => {
      for (let c = n.firstChild; c; c = c.nextSibling) {
        if (c.nodeType !== 1) continue;
        const el = c as Element;
        if (el.localName === "Signature" && el.namespaceURI === NS_DS) doomed.push(el);
        else walk(el);
      }
    };
    walk(node);
    for (const d of doomed) d.parentNode?.removeChild(d);
    return node;
  }
}

const HASHES: Record<string, string> = {
  "http://www.w3.org/2000/09/xmldsig#sha1": "sha1",
  "http://www.w3.org/2001/04/xmlenc#sha256": "sha256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384": "sha384",
  "http://www.w3.org/2001/04/xmlenc#sha512": "sha512",
};
const SIGNATURE_HASHES: Record<string, string> = {
  "http://www.w3.org/2000/09/xmldsig#rsa-sha1": "sha1",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": "sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384": "sha384",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512": "sha512",
};

/** xml-crypto keeps these private; we need them to judge each reference separately. */
interface SignedXmlInternals {
  references: Array<{ uri?: string; transforms: string[] }>;
  validateReference(ref: unknown, doc: unknown): string | undefined;
  getCanonSignedInfoXml(doc: unknown): string;
  CanonicalizationAlgorithms: Record<string, new () => unknown>;
}

const text = (el: XmlElement | undefined) => (el?.textContent ?? "").trim();

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

function referenceFailure(ref: ReferenceVerdict, target: XmlElement | undefined): string {
  const name = ref.id ? `«${ref.id}» ` : "";
  if (ref.uri === "") {
    return `La referencia ${name}al documento (URI="") no coincide: el contenido del comprobante fue modificado después de firmarse. Pida al emisor el XML original.`;
  }
  if (ref.type === TYPE_SIGNED_PROPERTIES || target?.localName === "SignedProperties") {
    return `La referencia ${name}a las propiedades firmadas (${ref.uri}) no coincide: la fecha de firma, el certificado declarado u otra propiedad firmada fue modificada.`;
  }
  if (target?.localName === "KeyInfo") {
    return `La referencia ${name}al certificado (${ref.uri}) no coincide: el certificado incluido en la firma fue cambiado.`;
  }
  return `La referencia ${name}(${ref.uri}) no coincide con lo firmado.`;
}

function findById(doc: XmlDocument, id: string): XmlElement[] {
  const out: XmlElement[] = [];
  const root = doc.documentElement!;
  const visit = (el: XmlElement) => {
    if (el.getAttribute("Id") === id || el.getAttribute("ID") === id || el.getAttribute("id") === id) out.push(el);
  };
  visit(root);
  const walk = (n: XmlElement) => {
    for (const c of childElements(n)) {
      visit(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** Verifies the document's signature. Throws HaciendaError only when the XML itself is refused. */
export function verifyXml(xml: string | Uint8Array): VerifyResult {
  return verifyParsedXml(parseXmlSafely(xml));
}

/** Same as verifyXml over a document already admitted by parseXmlSafely (read-only use). */
export function verifyParsedXml({ doc, root }: SafeXml): VerifyResult {
  const result: VerifyResult = {
    valid: false,
    errors: [],
    references: [],
    signatureValueValid: false,
    signedPropertiesValid: false,
    certificate: null,
    signingTime: null,
  };
  const errors = result.errors;

  const signatures = descendants(root, "Signature", NS_DS);
  const enveloped = childElements(root, "Signature", NS_DS);
  if (signatures.length === 0) {
    errors.push("El documento no está firmado. Un comprobante electrónico siempre trae la firma del emisor: pida el XML original.");
    return result;
  }
  if (signatures.length > 1) {
    errors.push(
      `El documento trae ${signatures.length} firmas y un comprobante para Hacienda lleva solo la del emisor. Pida al emisor el XML original que envió a Hacienda.`,
    );
  }
  const sigNode = enveloped[0];
  if (!sigNode) {
    errors.push("La firma no está donde la exige Hacienda (como último elemento del documento). Pida al emisor el XML original.");
    return result;
  }

  // Certificate from KeyInfo.
  const certB64 = text(descendants(sigNode, "X509Certificate", NS_DS)[0]).replace(/\s+/g, "");
  let x509: X509Certificate | null = null;
  let certDer: Buffer | null = null;
  if (certB64) {
    try {
      certDer = Buffer.from(certB64, "base64");
      x509 = new X509Certificate(certDer);
      result.certificate = describeCert(x509);
    } catch {
      x509 = null;
    }
  }
  if (!x509 || !certDer) {
    errors.push("La firma no incluye un certificado legible, así que no se puede saber quién firmó. Pida al emisor el XML original.");
    return result;
  }

  const signedInfo = firstChild(sigNode, "SignedInfo", NS_DS);
  const refElements = childElements(signedInfo, "Reference", NS_DS);

  const sig = new SignedXml({ publicCert: x509.toString() });
  const internals = sig as unknown as SignedXmlInternals;
  internals.CanonicalizationAlgorithms[ALG_XPATH] = XPathNotSignatureTransform;
  try {
    sig.loadSignature(sigNode as unknown as Node);
  } catch (e) {
    errors.push(`La firma está incompleta o dañada (${e instanceof Error ? e.message : String(e)}). Pida al emisor el XML original.`);
    return result;
  }

  const refs = internals.references;
  let documentCovered = false;
  let signedPropertiesRef: { verdict: ReferenceVerdict; target: XmlElement | undefined } | undefined;
  refs.forEach((ref, i) => {
    const el = refElements[i];
    const verdict: ReferenceVerdict = {
      uri: ref.uri ?? "",
      id: el?.getAttribute("Id") || null,
      type: el?.getAttribute("Type") || null,
      valid: false,
    };
    const targets = verdict.uri.startsWith("#") ? findById(doc, verdict.uri.slice(1)) : [];
    const target = targets[0];
    // The XPath transform is only understood for the expression comprobantes use.
    let supported = true;
    for (const t of childElements(firstChild(el, "Transforms", NS_DS), "Transform", NS_DS)) {
      if (t.getAttribute("Algorithm") !== ALG_XPATH) continue;
      const xp = firstChild(t, "XPath", NS_DS);
      const expr = text(xp).replace(/\s+/g, "");
      const prefix = /^not\(ancestor-or-self::([A-Za-z_][\w.-]*):Signature\)$/.exec(expr)?.[1];
      if (!xp || !prefix || xp.lookupNamespaceURI(prefix) !== NS_DS) {
        supported = false;
        errors.push(`La referencia ${verdict.uri || '""'} usa una transformación XPath que no se admite (${text(xp) || "vacía"}).`);
      }
    }
    if (supported) {
      try {
        verdict.valid = internals.validateReference(ref, doc) !== undefined;
      } catch (e) {
        errors.push(`No se pudo comprobar la referencia ${verdict.uri || '""'}: ${e instanceof Error ? e.message : String(e)}.`);
      }
      if (!verdict.valid && !errors.some((m) => m.includes("No se pudo comprobar"))) errors.push(referenceFailure(verdict, target));
    }
    if (verdict.uri === "") documentCovered = true;
    if (verdict.type === TYPE_SIGNED_PROPERTIES || (target?.localName === "SignedProperties" && target.namespaceURI?.startsWith(XADES_PREFIX))) {
      signedPropertiesRef = { verdict, target };
    }
    result.references.push(verdict);
  });
  if (!documentCovered) {
    errors.push('La firma no cubre el documento completo (falta la referencia URI=""), así que su contenido podría haberse cambiado. Pida al emisor el XML original.');
  }

  // Signature value over the canonical SignedInfo, with the KeyInfo certificate's key.
  const method = firstChild(signedInfo, "SignatureMethod", NS_DS)?.getAttribute("Algorithm") ?? "";
  const hash = SIGNATURE_HASHES[method];
  if (!hash) {
    errors.push(`La firma usa un algoritmo que Hacienda no admite (${method || "ninguno"}).`);
  } else {
    try {
      const canon = internals.getCanonSignedInfoXml(doc);
      const value = Buffer.from(text(firstChild(sigNode, "SignatureValue", NS_DS)).replace(/\s+/g, ""), "base64");
      result.signatureValueValid = cryptoVerify(hash, Buffer.from(canon, "utf8"), x509.publicKey, value);
    } catch {
      result.signatureValueValid = false;
    }
    if (!result.signatureValueValid) {
      errors.push("El valor de la firma no corresponde al certificado incluido: la firma fue alterada o el certificado fue sustituido. Pida al emisor el XML original.");
    }
  }

  // XAdES signed properties.
  const signedProps = descendants(sigNode, "SignedProperties").filter((e) => e.namespaceURI?.startsWith(XADES_PREFIX));
  const sp = signedProps[0];
  result.signingTime = sp ? text(descendants(sp, "SigningTime")[0]) || null : null;
  let certDigestOk = false;
  if (!sp) {
    errors.push("La firma no trae las propiedades firmadas XAdES (SignedProperties) que exige Hacienda.");
  } else {
    if (!signedPropertiesRef) {
      errors.push("La firma no incluye la referencia a las propiedades firmadas (SignedProperties), así que la fecha de firma y el certificado declarado no están protegidos.");
    } else if (signedPropertiesRef.target && signedPropertiesRef.target !== sp) {
      errors.push("La referencia a las propiedades firmadas apunta a un elemento distinto de las propiedades de esta firma.");
      signedPropertiesRef = undefined;
    }
    const certs = [...descendants(sp, "SigningCertificate"), ...descendants(sp, "SigningCertificateV2")].flatMap((sc) => childElements(sc, "Cert"));
    if (certs.length === 0) {
      errors.push("Las propiedades firmadas no declaran el certificado del firmante (SigningCertificate).");
    }
    for (const c of certs) {
      const cd = firstChild(c, "CertDigest");
      const alg = HASHES[firstChild(cd, "DigestMethod", NS_DS)?.getAttribute("Algorithm") ?? ""];
      const expected = text(firstChild(cd, "DigestValue", NS_DS));
      if (alg && expected && createHash(alg).update(certDer).digest("base64") === expected.replace(/\s+/g, "")) {
        certDigestOk = true;
        const serial = text(descendants(c, "X509SerialNumber", NS_DS)[0]);
        if (serial && /^\d+$/.test(serial) && BigInt(serial) !== BigInt(`0x${x509.serialNumber}`)) {
          certDigestOk = false;
          errors.push("El número de serie declarado en las propiedades firmadas no es el del certificado incluido.");
        }
      }
    }
    if (certs.length > 0 && !certDigestOk) {
      errors.push("El certificado incluido en la firma no es el declarado en las propiedades firmadas (SigningCertificate): el certificado fue sustituido.");
    }
    if (result.signingTime) {
      const t = new Date(result.signingTime);
      if (Number.isNaN(t.getTime())) {
        errors.push(`La fecha de firma «${result.signingTime}» no es una fecha válida.`);
      } else if (t < result.certificate!.notBefore || t > result.certificate!.notAfter) {
        errors.push(`La fecha de firma (${result.signingTime}) está fuera de la vigencia del certificado, que rige del ${result.certificate!.notBefore.toISOString().slice(0, 10)} al ${result.certificate!.notAfter.toISOString().slice(0, 10)}.`);
      }
    } else {
      errors.push("Las propiedades firmadas no indican la fecha de firma (SigningTime).");
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
