/**
 * Test certificates shaped like Hacienda's "llave criptográfica": an RSA-2048 key with a
 * certificate whose subject carries CN, serialNumber CPF-…/CPJ-…, C=CR, O=PERSONA FISICA/JURIDICA,
 * OU=CPF/CPJ, issued by a test CA generated here. For tests, the sandbox and the demo company;
 * never for real documents.
 *
 * Key generation in node-forge is slow; pass key pairs made with node:crypto
 * (`generateTestKeyPair`, ~50 ms) — forge is only used to build and sign the certificates
 * and to write the PKCS#12 container.
 */
import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto";
import forge from "node-forge";

export interface TestKeyPair {
  privateKey: KeyObject | string;
  publicKey: KeyObject | string;
}

export interface TestCa {
  keyPair: TestKeyPair;
  certificate: forge.pki.Certificate;
  certificatePem: string;
}

export type TestIdType = "01" | "02";

export function generateTestKeyPair(bits = 2048): TestKeyPair {
  return generateKeyPairSync("rsa", { modulusLength: bits });
}

const toPem = (k: KeyObject | string, kind: "private" | "public"): string =>
  typeof k === "string" ? k : kind === "private" ? String(k.export({ type: "pkcs1", format: "pem" })) : String(k.export({ type: "spki", format: "pem" }));

function forgeKeys(kp: TestKeyPair) {
  return {
    privateKey: forge.pki.privateKeyFromPem(toPem(kp.privateKey, "private")),
    publicKey: forge.pki.publicKeyFromPem(toPem(kp.publicKey, "public")),
  };
}

/** Positive serial (hex) derived from a label, so fixtures are reproducible. */
function serialFor(label: string): string {
  return `0${createHash("sha256").update(label).digest("hex").slice(0, 15)}`;
}

export function makeTestCa({
  name = "CA PERSONA JURIDICA - PRUEBAS COLIBRI",
  notBefore = new Date("2020-01-01T00:00:00Z"),
  notAfter = new Date("2040-01-01T00:00:00Z"),
  keyPair = generateTestKeyPair(2048),
}: { name?: string; notBefore?: Date; notAfter?: Date; keyPair?: TestKeyPair } = {}): TestCa {
  const keys = forgeKeys(keyPair);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialFor(`ca:${name}`);
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  const attrs = [
    { shortName: "C", value: "CR" },
    { shortName: "O", value: "MINISTERIO DE HACIENDA - PRUEBAS" },
    { shortName: "OU", value: "DGT" },
    { shortName: "CN", value: name },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { keyPair, certificate: cert, certificatePem: forge.pki.certificateToPem(cert) };
}

/** Formats a cédula as the certificate serialNumber Hacienda uses: CPF-0P-TTTT-AAAA or CPJ-3-101-NNNNNN. */
export function subjectSerialNumberFor(cedula: string, idType: TestIdType): string {
  const d = cedula.replace(/\D/g, "");
  if (idType === "01") {
    const ten = d.padStart(10, "0");
    if (ten.length !== 10) throw new Error(`cédula física must have 9 digits, got ${cedula}`);
    return `CPF-${ten.slice(0, 2)}-${ten.slice(2, 6)}-${ten.slice(6)}`;
  }
  const j = cedula.replace(/[^0-9A-Z]/g, "");
  if (!/^\d{4}[0-9A-Z]{6}$/.test(j)) throw new Error(`cédula jurídica must have 10 characters (4 digits, then 6 digits or capital letters), got ${cedula}`);
  return `CPJ-${j.slice(0, 1)}-${j.slice(1, 4)}-${j.slice(4)}`;
}

export interface MakeTestP12Options {
  cedula: string;
  idType: TestIdType;
  name: string;
  pin: string;
  notBefore: Date;
  notAfter: Date;
  keyPair?: TestKeyPair;
  ca?: TestCa;
  /** PKCS#12 encryption; forge writes PBES2 for the AES choices. Default aes256. */
  algorithm?: "aes128" | "aes192" | "aes256" | "3des";
  /** Leave the private key out (to test that error). */
  omitKey?: boolean;
  /** Iteration count of the MAC and the key's encryption (node-forge's default: 2048). */
  count?: number;
}

export interface TestCredential {
  p12: Buffer;
  certificatePem: string;
  ca: TestCa;
}

/** Like makeTestP12 but also returns the certificate and CA. */
export function makeTestCredential(opts: MakeTestP12Options): TestCredential {
  const ca = opts.ca ?? makeTestCa();
  const keyPair = opts.keyPair ?? generateTestKeyPair(2048);
  const keys = forgeKeys(keyPair);
  const caKeys = forgeKeys(ca.keyPair);
  const juridica = opts.idType === "02";
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialFor(`leaf:${opts.cedula}:${opts.notBefore.toISOString()}:${toPem(keyPair.publicKey, "public")}`);
  cert.validity.notBefore = opts.notBefore;
  cert.validity.notAfter = opts.notAfter;
  cert.setSubject([
    { type: "2.5.4.5", value: subjectSerialNumberFor(opts.cedula, opts.idType), valueTagClass: forge.asn1.Type.PRINTABLESTRING } as unknown as forge.pki.CertificateField,
    { shortName: "C", value: "CR" },
    { shortName: "O", value: juridica ? "PERSONA JURIDICA" : "PERSONA FISICA" },
    { shortName: "OU", value: juridica ? "CPJ" : "CPF" },
    { shortName: "CN", value: opts.name },
  ]);
  cert.setIssuer(ca.certificate.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "extKeyUsage", emailProtection: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(opts.omitKey ? null : keys.privateKey, [cert, ca.certificate], opts.pin, {
    algorithm: opts.algorithm ?? "aes256",
    friendlyName: opts.name,
    ...(opts.count ? { count: opts.count } : {}),
  });
  return {
    p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary"),
    certificatePem: forge.pki.certificateToPem(cert),
    ca,
  };
}

export function makeTestP12(opts: MakeTestP12Options): Buffer {
  return makeTestCredential(opts).p12;
}
