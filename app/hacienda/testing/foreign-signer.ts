/**
 * Test helper: signs documents the way other implementations do, with xmlsec1 (libxmlsec1 +
 * OpenSSL) doing the canonicalization, digests and RSA signature from a template, so that these
 * signatures owe nothing to our signer (sign.ts) or our canonicalizer (c14n.ts). The styles follow
 * the shapes seen in real documents (NOTES §5): the Java xadessigner (2 references, inclusive
 * C14N), FirmaXadesNet (.NET, 3 references with exclusive C14N transforms), Hacienda's own
 * MensajeHacienda (exclusive C14N + the XPath filter), with SHA-256 or SHA-512, with or without
 * SigningTime, and with the signature policy variants seen in accepted documents.
 * A missing xmlsec1 throws: the calling test fails, it is never skipped.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NS_DS, NS_XADES, POLICY_V44 } from "../sign.ts";
import type { TestSigner } from "./fixtures/documents.ts";
import { XMLSEC_ARGS } from "./xmlsec.ts";

const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const EXC = "http://www.w3.org/2001/10/xml-exc-c14n#";
const XPATH = "http://www.w3.org/TR/1999/REC-xpath-19991116";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const DIGESTS = {
  sha1: "http://www.w3.org/2000/09/xmldsig#sha1",
  sha256: "http://www.w3.org/2001/04/xmlenc#sha256",
  sha512: "http://www.w3.org/2001/04/xmlenc#sha512",
} as const;
const SIGNATURES = {
  "rsa-sha256": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "rsa-sha512": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
} as const;

export interface PolicyVariant {
  identifier: string;
  digest: keyof typeof DIGESTS;
  digestValue: string;
}

/** Signature policies seen in documents Hacienda accepted (NOTES §5). */
export const POLICIES = {
  v44: { identifier: POLICY_V44.identifier, digest: "sha256", digestValue: POLICY_V44.digestValue },
  /** Real 2019 documents (the MensajeReceptor sample). */
  v41: {
    identifier: "https://tribunet.hacienda.go.cr/docs/esquemas/2016/v4.1/Resolucion_Comprobantes_Electronicos_DGT-R-48-2016.pdf",
    digest: "sha256",
    digestValue: "nVCrSwvK8dNnGHwfLYAzNAQMe5FCQjMl2Pf+Nfu5IBw=",
  },
  /** CRLibre's signer. */
  atvV43: {
    identifier:
      "https://atv.hacienda.go.cr/ATV/ComprobanteElectronico/docs/esquemas/2016/v4.3/Resoluci%C3%B3n_General_sobre_disposiciones_t%C3%A9cnicas_comprobantes_electr%C3%B3nicos_para_efectos_tributarios.pdf",
    digest: "sha256",
    digestValue: "0h7Q3dFHhu0bHbcZEgVc07cEcDlquUeG08HG6Iototo=",
  },
  /**
   * facturar-costa-rica-lib (xadesjs) declares the document namespace as identifier with a SHA-1
   * hash; its exact hash value was not read, so this one is the SHA-1 of the identifier text.
   */
  namespaceSha1: {
    identifier: "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica",
    digest: "sha1",
    digestValue: createHash("sha1").update("https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica").digest("base64"),
  },
} satisfies Record<string, PolicyVariant>;

export interface ForeignStyle {
  signedInfoC14n: "inclusive" | "exclusive";
  signature: keyof typeof SIGNATURES;
  digest: "sha256" | "sha512";
  /** How the whole-document reference is filtered. */
  documentTransform: "enveloped" | "enveloped+exc" | "xpath+exc";
  /** Explicit exclusive C14N transform on the SignedProperties and KeyInfo references. */
  excOnPropertyReferences: boolean;
  keyInfoReference: boolean;
  /** FirmaXadesNet lists SignedProperties first and the document last. */
  documentReferenceLast: boolean;
  /** xades:SigningTime, or null to leave it out. */
  signingTime: string | null;
  certDigest: keyof typeof DIGESTS;
  /** null: no SignaturePolicyIdentifier at all. */
  policy: PolicyVariant | null;
  /** New lines and indentation inside the signature. */
  pretty: boolean;
  /** Leave out the SignedProperties reference (valid XMLDSig, invalid XAdES). */
  omitSignedPropertiesReference?: boolean;
  /** The certificate SigningCertificate declares (default: the signer's own). */
  declaredCertificateDer?: Buffer;
  /** The XPath filter expression of the document reference (default the one Hacienda uses). */
  xpath?: string;
}

/** Real shapes (NOTES §5 [SAMPLES]; issue CRLibre/API_Hacienda#53 for Hacienda's own). */
export const STYLES = {
  javaXadesSigner: {
    signedInfoC14n: "inclusive",
    signature: "rsa-sha256",
    digest: "sha256",
    documentTransform: "enveloped",
    excOnPropertyReferences: false,
    keyInfoReference: false,
    documentReferenceLast: false,
    signingTime: "2026-06-15T16:30:05.385Z",
    certDigest: "sha256",
    policy: POLICIES.v41,
    pretty: false,
  },
  firmaXadesNet: {
    signedInfoC14n: "inclusive",
    signature: "rsa-sha256",
    digest: "sha256",
    documentTransform: "enveloped+exc",
    excOnPropertyReferences: true,
    keyInfoReference: true,
    documentReferenceLast: true,
    signingTime: "2026-06-15T16:34:03Z",
    certDigest: "sha256",
    policy: POLICIES.atvV43,
    pretty: true,
  },
  mensajeHacienda: {
    signedInfoC14n: "exclusive",
    signature: "rsa-sha256",
    digest: "sha256",
    documentTransform: "xpath+exc",
    excOnPropertyReferences: true,
    keyInfoReference: true,
    documentReferenceLast: false,
    signingTime: "2026-06-15T10:31:00-06:00",
    certDigest: "sha512",
    policy: POLICIES.v44,
    pretty: true,
  },
  sha512: {
    signedInfoC14n: "exclusive",
    signature: "rsa-sha512",
    digest: "sha512",
    documentTransform: "enveloped+exc",
    excOnPropertyReferences: true,
    keyInfoReference: true,
    documentReferenceLast: false,
    signingTime: "2026-06-15T10:31:00-06:00",
    certDigest: "sha512",
    policy: POLICIES.v44,
    pretty: false,
  },
} satisfies Record<string, ForeignStyle>;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Inserts a signature template as the root's last child and lets xmlsec1 sign it. `sigId` names
 * the signature (ids of SignedProperties and KeyInfo derive from it).
 */
export function signWithXmlsec(unsigned: string, signer: TestSigner, style: ForeignStyle, sigId = "Signature-foreign"): string {
  const nl = style.pretty ? "\n" : "";
  const ind = style.pretty ? "  " : "";
  const spId = `SignedProperties-${sigId}`;
  const kiId = `KeyInfo-${sigId}`;
  const docRefId = `Reference-${sigId}-doc`;
  const digest = `<ds:DigestMethod Algorithm="${DIGESTS[style.digest]}"/><ds:DigestValue></ds:DigestValue>`;
  const exc = style.excOnPropertyReferences ? `<ds:Transforms><ds:Transform Algorithm="${EXC}"/></ds:Transforms>` : "";
  const docTransforms =
    style.documentTransform === "xpath+exc"
      ? `<ds:Transform Algorithm="${XPATH}"><ds:XPath>${esc(style.xpath ?? "not(ancestor-or-self::ds:Signature)")}</ds:XPath></ds:Transform><ds:Transform Algorithm="${EXC}"/>`
      : `<ds:Transform Algorithm="${ENVELOPED}"/>${style.documentTransform === "enveloped+exc" ? `<ds:Transform Algorithm="${EXC}"/>` : ""}`;
  const docRef = `${ind}<ds:Reference Id="${docRefId}" URI=""><ds:Transforms>${docTransforms}</ds:Transforms>${digest}</ds:Reference>${nl}`;
  const spRef = style.omitSignedPropertiesReference ? "" : `${ind}<ds:Reference Type="http://uri.etsi.org/01903#SignedProperties" URI="#${spId}">${exc}${digest}</ds:Reference>${nl}`;
  const kiRef = style.keyInfoReference ? `${ind}<ds:Reference URI="#${kiId}">${exc}${digest}</ds:Reference>${nl}` : "";
  const refs = style.documentReferenceLast ? spRef + kiRef + docRef : docRef + spRef + kiRef;
  const certDigest = createHash(style.certDigest).update(style.declaredCertificateDer ?? signer.key.certificateDer).digest("base64");
  const policy = style.policy
    ? `<xades:SignaturePolicyIdentifier><xades:SignaturePolicyId><xades:SigPolicyId><xades:Identifier>${esc(style.policy.identifier)}</xades:Identifier></xades:SigPolicyId>` +
      `<xades:SigPolicyHash><ds:DigestMethod Algorithm="${DIGESTS[style.policy.digest]}"/><ds:DigestValue>${style.policy.digestValue}</ds:DigestValue></xades:SigPolicyHash></xades:SignaturePolicyId></xades:SignaturePolicyIdentifier>`
    : "";
  const signature =
    `<ds:Signature xmlns:ds="${NS_DS}" Id="${sigId}">${nl}` +
    `<ds:SignedInfo>${nl}${ind}<ds:CanonicalizationMethod Algorithm="${style.signedInfoC14n === "exclusive" ? EXC : C14N}"/>${nl}` +
    `${ind}<ds:SignatureMethod Algorithm="${SIGNATURES[style.signature]}"/>${nl}${refs}</ds:SignedInfo>${nl}` +
    `<ds:SignatureValue></ds:SignatureValue>${nl}` +
    `<ds:KeyInfo Id="${kiId}"><ds:X509Data><ds:X509Certificate>${signer.key.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>${nl}` +
    `<ds:Object><xades:QualifyingProperties xmlns:xades="${NS_XADES}" Target="#${sigId}"><xades:SignedProperties Id="${spId}">${nl}` +
    `<xades:SignedSignatureProperties>${style.signingTime ? `<xades:SigningTime>${style.signingTime}</xades:SigningTime>` : ""}` +
    `<xades:SigningCertificate><xades:Cert><xades:CertDigest><ds:DigestMethod Algorithm="${DIGESTS[style.certDigest]}"/><ds:DigestValue>${certDigest}</ds:DigestValue></xades:CertDigest>` +
    `<xades:IssuerSerial><ds:X509IssuerName>${esc(signer.key.issuer)}</ds:X509IssuerName><ds:X509SerialNumber>${signer.key.serialDecimal}</ds:X509SerialNumber></xades:IssuerSerial></xades:Cert></xades:SigningCertificate>` +
    `${policy}</xades:SignedSignatureProperties>${nl}` +
    `<xades:SignedDataObjectProperties><xades:DataObjectFormat ObjectReference="#${docRefId}"><xades:MimeType>text/xml</xades:MimeType><xades:Encoding>UTF-8</xades:Encoding></xades:DataObjectFormat></xades:SignedDataObjectProperties>` +
    `</xades:SignedProperties></xades:QualifyingProperties></ds:Object>${nl}</ds:Signature>`;
  const close = unsigned.lastIndexOf("</");
  const template = `${unsigned.slice(0, close)}${style.pretty ? "\n" : ""}${signature}${unsigned.slice(close)}`;
  return xmlsecSign(template, signer);
}

/** Runs `xmlsec1 --sign` over a template whose DigestValue and SignatureValue are empty. */
export function xmlsecSign(template: string, signer: TestSigner): string {
  const dir = mkdtempSync(join(tmpdir(), "colibri-xmlsec-sign-"));
  try {
    writeFileSync(join(dir, "key.pem"), signer.key.privateKey.export({ type: "pkcs8", format: "pem" }) as string);
    writeFileSync(join(dir, "template.xml"), template);
    const idArgs = XMLSEC_ARGS.slice(XMLSEC_ARGS.indexOf("--id-attr:Id"));
    const r = spawnSync("xmlsec1", ["--sign", "--privkey-pem", join(dir, "key.pem"), ...idArgs, "--output", join(dir, "signed.xml"), join(dir, "template.xml")], {
      encoding: "utf8",
    });
    if (r.error) throw new Error(`xmlsec1 could not run (${r.error.message}). Install it: apt-get install -y xmlsec1`);
    if (r.status !== 0) throw new Error(`xmlsec1 --sign failed: ${r.stdout}${r.stderr}`);
    return readFileSync(join(dir, "signed.xml"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
