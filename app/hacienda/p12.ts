/**
 * Loads the taxpayer's "llave criptográfica" (PKCS#12 / .p12) once into a reusable SigningKey.
 *
 * node-forge decrypts the container (it reads both OpenSSL 3 defaults — PBES2/PBKDF2/AES-256-CBC
 * with an HMAC-SHA256 MAC — and the legacy RC2/3DES/SHA-1 files Hacienda's ATV issued for years);
 * the key then becomes a node:crypto KeyObject so that signing uses OpenSSL, not JavaScript RSA.
 * Everything the XAdES signature needs from the certificate (DER, SHA-256 digest, RFC 4514 issuer
 * name, decimal serial) is computed here, so signing never touches the .p12 again.
 *
 * Opening a .p12 costs what its file says: the MAC, each encrypted content and each shrouded key
 * carry their own iteration count, which node-forge derives in JavaScript on the calling thread
 * with no upper limit (2^31 iterations would block the web process for about half an hour). The
 * counts are read from the ASN.1 and bounded (MAX_P12_ITERATIONS, MAX_P12_TOTAL_ITERATIONS) before
 * node-forge derives anything.
 */
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { HaciendaError } from "./errors.ts";

export interface SigningKey {
  privateKey: KeyObject;
  certificateDer: Buffer;
  certificatePem: string;
  /** Subject in RFC 4514 form (most specific first), e.g. "CN=JUAN PEREZ,OU=CPF,O=PERSONA FISICA,C=CR,SERIALNUMBER=CPF-01-1234-0567"; for display. */
  subject: string;
  /** Taxpayer id from the subject's serialNumber (CPF-0X-XXXX-XXXX ⇒ 9 digits, CPJ-3-101-XXXXXX ⇒ 10 digits). */
  cedula: string;
  /** The subject serialNumber attribute as written in the certificate, e.g. "CPJ-3-101-123456". */
  subjectSerialNumber: string;
  /** Issuer in strict RFC 4514 form, as written into xades:IssuerSerial/ds:X509IssuerName. */
  issuer: string;
  /** Certificate serial number, upper-case hex as X.509 tools print it (a negative one with "-", as OpenSSL does). */
  serialNumber: string;
  /** Certificate serial number in decimal, as XAdES IssuerSerial/X509SerialNumber requires (negative ones signed: see serialToDecimal). */
  serialDecimal: string;
  notBefore: Date;
  notAfter: Date;
  /** Whole days from `now` (given to loadP12) to notAfter. */
  daysLeft: number;
  /** base64(SHA-256(certificate DER)), for xades:CertDigest. */
  certDigestSha256: string;
  /** base64(certificate DER) without line breaks, for ds:X509Certificate. */
  certificateBase64: string;
  /** RSA modulus length in bits. */
  keyBits: number;
}

const DAY_MS = 86_400_000;

const SHORT_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.6": "C",
  "2.5.4.9": "STREET",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};

/** Names OpenSSL prints for types RFC 4514 leaves out; only for display strings. */
const READABLE_NAMES: Record<string, string> = {
  "2.5.4.5": "SERIALNUMBER",
  "2.5.4.4": "SURNAME",
  "2.5.4.42": "GIVENNAME",
  "1.2.840.113549.1.9.1": "EMAILADDRESS",
};

function escapeRfc4514(value: string): string {
  let v = value.replace(/[\\"+,;<>=]/g, (c) => `\\${c}`);
  v = v.replace(/\0/g, "\\00");
  if (v.startsWith(" ") || v.startsWith("#")) v = `\\${v}`;
  if (v.endsWith(" ") && v.length > 1) v = `${v.slice(0, -1)}\\ `;
  return v;
}

/**
 * RFC 4514 string of a forge DN (most specific RDN first, as XAdES X509IssuerName expects).
 * Attribute types RFC 4514 does not name (serialNumber, givenName, surname…) are written as
 * dotted OID = #hex(BER value), which is the RFC's rule and what Java's X500Principal prints.
 */
export function dnToRfc4514(attributes: forge.pki.CertificateField[], { readable = false } = {}): string {
  return [...attributes]
    .reverse()
    .map((a) => {
      const oid = a.type ?? "";
      const short = SHORT_NAMES[oid] ?? (readable ? READABLE_NAMES[oid] : undefined);
      if (short) return `${short}=${escapeRfc4514(String(a.value))}`;
      const tag = (a as { valueTagClass?: number }).valueTagClass ?? forge.asn1.Type.UTF8;
      const raw = tag === forge.asn1.Type.UTF8 ? forge.util.encodeUtf8(String(a.value)) : String(a.value);
      const der = forge.asn1.toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, tag, false, raw)).getBytes();
      return `${oid}=#${forge.util.bytesToHex(der)}`;
    })
    .join(",");
}

/** Extracts the cédula digits from a Hacienda/BCCR subject serialNumber. */
export function cedulaFromSerialNumber(serial: string): string {
  // A CPJ may carry Registro Nacional's alphanumeric cédula jurídica (CPJ-3-101-A00001, decision 133).
  if (/^CPJ/i.test(serial)) return serial.replace(/^[A-Za-z]+-?/, "").replace(/[^0-9A-Za-z]/g, "").toUpperCase();
  const digits = serial.replace(/^[A-Za-z]+-?/, "").replace(/\D/g, "");
  // CPF-0P-TTTT-AAAA carries the province with a leading zero; documents use the 9-digit form.
  if (/^CPF/i.test(serial) && digits.length === 10 && digits.startsWith("0")) return digits.slice(1);
  return digits;
}

function fail(code: ConstructorParameters<typeof HaciendaError>[0], message: string, cause?: unknown): never {
  throw new HaciendaError(code, message, cause === undefined ? undefined : { cause });
}

const dateEs = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The decimal of a serial as OpenSSL prints it (node:crypto's X509Certificate.serialNumber):
 * upper-case hex of its magnitude, with "-" in front when negative. A serial is a DER INTEGER, so a
 * first byte of 0x80 or more without a 00 before it is a negative number. RFC 5280 forbids those,
 * notes that non-conforming CAs issue them anyway and asks that they be handled gracefully; Java's
 * X509Certificate.getSerialNumber(), which Hacienda's verifiers use, and OpenSSL both read them as
 * signed, and ds:X509SerialNumber is an xs:integer, so the signature says "-255" for bytes FF 01.
 * Returns null for anything else.
 */
export function serialToDecimal(serial: string): string | null {
  const m = /^(-?)([0-9A-F]+)$/i.exec(serial);
  if (!m) return null;
  const magnitude = BigInt(`0x${m[2]!}`);
  return (m[1] && magnitude !== 0n ? -magnitude : magnitude).toString(10);
}

const CERTIFICATE_UNREADABLE =
  "El certificado del archivo .p12 está dañado y no se puede leer. Descargue de nuevo la llave criptográfica en Hacienda.";

const NOT_A_VALID_KEY_FILE =
  "El archivo no es una llave criptográfica (.p12) válida. Suba el archivo .p12 que descargó de Hacienda (ATV / TRIBU-CR).";

/**
 * The most iterations one derivation of a .p12 may ask for (its MAC, an encrypted content, a
 * shrouded key). Tools write 2,000 (Windows) or 2,048 (OpenSSL, legacy and 3.x) and newer
 * recommendations reach 600,000; a million keeps all of them. In node-forge a million iterations
 * cost about 1.5 s of CPU for a SHA-1 MAC and 5 s for a PBKDF2-HMAC-SHA256 key (decision 060).
 */
export const MAX_P12_ITERATIONS = 1_000_000;
/**
 * The most iterations derived in all to open one .p12, counting the encrypted contents twice (they
 * are decrypted once here to look inside, and again by node-forge): a MAC, encrypted certificates
 * and a key, each at the cap.
 */
export const MAX_P12_TOTAL_ITERATIONS = 4 * MAX_P12_ITERATIONS;

const { Class, Type } = forge.asn1;
const OID = {
  data: forge.pki.oids.data!,
  encryptedData: forge.pki.oids.encryptedData!,
  shroudedKeyBag: forge.pki.oids.pkcs8ShroudedKeyBag!,
  pbes2: forge.pki.oids.pkcs5PBES2!,
};
/** PKCS#12 password-based encryption (1.2.840.113549.1.12.1.*) and PKCS#5 PBES1 (…1.5.1–11): parameters SEQUENCE { salt, iterations }. */
const isSaltAndCountPbe = (oid: string) => oid.startsWith("1.2.840.113549.1.12.1.") || /^1\.2\.840\.113549\.1\.5\.(1|3|4|6|10|11)$/.test(oid);
/** node-forge's password-based decryption (typed here: @types/node-forge leaves pki.pbe out). */
const pbe = (forge.pki as unknown as { pbe: { getCipher(oid: string, params: forge.asn1.Asn1, password: string): forge.cipher.BlockCipher } }).pbe;

/** The structure is not a .p12's (refused as not a valid key file). */
class UnwalkableP12 extends Error {}

function need(ok: unknown): asserts ok {
  if (!ok) throw new UnwalkableP12();
}

type Asn1 = forge.asn1.Asn1;

/**
 * The elements of a constructed node. The reads below are positional with the same tags node-forge's
 * validators require, so that a count node-forge would derive is the one read here.
 */
function elements(node: Asn1 | undefined, tagClass: number, type?: number): Asn1[] {
  need(node && node.tagClass === tagClass && (type === undefined || node.type === type) && Array.isArray(node.value));
  return node.value as Asn1[];
}
const sequence = (node: Asn1 | undefined) => elements(node, Class.UNIVERSAL, Type.SEQUENCE);
/** The value inside a context-specific wrapper (node-forge accepts any tag number there). */
const wrapped = (node: Asn1 | undefined) => elements(node, Class.CONTEXT_SPECIFIC)[0];

function oidOf(node: Asn1 | undefined): string {
  need(node && node.tagClass === Class.UNIVERSAL && node.type === Type.OID && typeof node.value === "string");
  return forge.asn1.derToOid(node.value);
}

/** A node's bytes, also when written in BER chunks (what node-forge's PKCS#7 data reader joins). */
function bytesOf(node: Asn1): string {
  if (typeof node.value === "string") return node.value;
  return node.value.map((chunk) => {
    need(typeof chunk.value === "string");
    return chunk.value;
  }).join("");
}

function octets(node: Asn1 | undefined): string {
  need(node && node.tagClass === Class.UNIVERSAL && node.type === Type.OCTETSTRING);
  return bytesOf(node);
}

/**
 * An iteration count: the INTEGER read as unsigned, as node-forge reads the MAC's (a negative one
 * would only shorten node-forge's PBE derivations); Infinity when too long to matter.
 */
function countOf(node: Asn1 | undefined): number {
  need(node && node.tagClass === Class.UNIVERSAL && node.type === Type.INTEGER && typeof node.value === "string");
  const bytes = node.value.replace(/^\0+/, "");
  return bytes.length > 6 ? Infinity : bytes.length === 0 ? 0 : parseInt(forge.util.bytesToHex(bytes), 16);
}

/** The iteration count of an encryption AlgorithmIdentifier; 0 for a scheme node-forge refuses before deriving. */
function pbeCount(algorithm: Asn1 | undefined): number {
  const [oidNode, params] = sequence(algorithm);
  const oid = oidOf(oidNode);
  // PBES2-params { keyDerivationFunc { id-PBKDF2, PBKDF2-params { salt, iterationCount, … } }, encryptionScheme }
  if (oid === OID.pbes2) return countOf(sequence(sequence(sequence(params)[0])[1])[1]);
  // PBEParameter / pkcs-12PbeParams { salt, iterations }
  if (isSaltAndCountPbe(oid)) return countOf(sequence(params)[1]);
  return 0;
}

/**
 * Refuses a .p12 whose key derivations would cost more than the caps, before node-forge derives any
 * of them: the MAC, every encrypted content of the authenticated safe and every shrouded key, those
 * inside encrypted contents too (decrypted here to be read once their own count has passed, and
 * charged twice: node-forge decrypts them again). Throws UnwalkableP12 when the structure is not a
 * .p12's.
 */
function checkIterationCounts(pfx: Asn1, pin: string): void {
  let total = 0;
  const charge = (count: number, times = 1) => {
    if (count > MAX_P12_ITERATIONS) tooCostly("pide más de un millón de iteraciones para abrir una de sus partes");
    total += count * times;
    if (total > MAX_P12_TOTAL_ITERATIONS) tooCostly("pide en total demasiadas iteraciones para abrirse");
  };
  // SafeContents: SEQUENCE OF SafeBag { bagId, [0] bagValue, attributes }; a shrouded key's value is
  // EncryptedPrivateKeyInfo { encryptionAlgorithm, encryptedData }.
  const bags = (safeContents: Asn1) => {
    for (const bag of sequence(safeContents)) {
      const [bagId, bagValue] = sequence(bag);
      if (oidOf(bagId) === OID.shroudedKeyBag) charge(pbeCount(sequence(wrapped(bagValue))[0]));
    }
  };
  // node-forge (not strict) reads no bag from empty contents.
  const parse = (der: string) => (der.length === 0 ? null : forge.asn1.fromDer(der, false));

  // PFX { version, authSafe ContentInfo, macData { DigestInfo, macSalt, iterations DEFAULT 1 } }
  const [, authSafe, macData] = sequence(pfx);
  if (macData) {
    const count = sequence(macData)
      .slice(1)
      .find((n) => n.tagClass === Class.UNIVERSAL && n.type === Type.INTEGER);
    charge(count ? countOf(count) : 1);
  }
  const [authSafeType, authSafeContent] = sequence(authSafe);
  need(oidOf(authSafeType) === OID.data);
  // AuthenticatedSafe: SEQUENCE OF ContentInfo { contentType, [0] content }
  const contents = parse(octets(wrapped(authSafeContent)));
  need(contents);
  // First every count in sight, so that a file over the caps is refused before anything is derived.
  const sealed: Array<{ oid: string; params: Asn1; ciphertext: string }> = [];
  for (const contentInfo of sequence(contents)) {
    const [contentType, content] = sequence(contentInfo);
    const type = oidOf(contentType);
    if (type === OID.data) {
      const safeContents = parse(octets(wrapped(content)));
      if (safeContents) bags(safeContents);
    } else if (type === OID.encryptedData) {
      // EncryptedData { version, EncryptedContentInfo { contentType, contentEncryptionAlgorithm, [0] encryptedContent } }
      const [, encryptedContentInfo] = sequence(wrapped(content));
      const [, algorithm, encrypted] = sequence(encryptedContentInfo);
      charge(pbeCount(algorithm), 2);
      need(encrypted && encrypted.tagClass === Class.CONTEXT_SPECIFIC && encrypted.type === 0);
      const [algorithmOid, params] = sequence(algorithm);
      need(params);
      sealed.push({ oid: oidOf(algorithmOid), params, ciphertext: bytesOf(encrypted) });
    }
    // Any other content type: node-forge refuses it before deriving anything.
  }
  // Then the keys inside encrypted contents, which only the PIN shows.
  for (const { oid, params, ciphertext } of sealed) {
    let cipher: forge.cipher.BlockCipher;
    try {
      cipher = pbe.getCipher(oid, params, pin);
    } catch {
      throw new UnwalkableP12();
    }
    cipher.update(forge.util.createBuffer(ciphertext));
    // Not decrypted or not ASN.1 (a wrong PIN): node-forge stops at the same step, before any bag inside.
    if (!cipher.finish()) continue;
    let safeContents: Asn1 | null;
    try {
      safeContents = parse(cipher.output.getBytes());
    } catch {
      continue;
    }
    if (safeContents) bags(safeContents);
  }
}

function tooCostly(what: string): never {
  fail(
    "P12_NOT_PKCS12",
    `El archivo .p12 ${what}, muchas más de las que usa una llave criptográfica, y abrirlo bloquearía el sistema. Suba el archivo .p12 que descargó de Hacienda (ATV / TRIBU-CR).`,
  );
}

/** Loads a .p12 file. `now` decides validity and daysLeft (injected clock). */
export function loadP12(bytes: Uint8Array, pin: string, { now }: { now: Date }): SigningKey {
  if (!bytes || bytes.byteLength === 0) {
    fail("P12_NOT_PKCS12", "El archivo de la llave criptográfica está vacío. Suba el archivo .p12 que descargó de Hacienda (ATV / TRIBU-CR).");
  }
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString("binary")));
  } catch (cause) {
    fail(
      "P12_NOT_PKCS12",
      "El archivo no es una llave criptográfica (.p12). Suba el archivo .p12 que descargó de Hacienda (ATV / TRIBU-CR), no el certificado .cer ni otro archivo.",
      cause,
    );
  }
  try {
    checkIterationCounts(asn1, pin);
  } catch (cause) {
    if (cause instanceof HaciendaError) throw cause;
    fail("P12_NOT_PKCS12", NOT_A_VALID_KEY_FILE, cause);
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, pin);
  } catch (cause) {
    const msg = cause instanceof Error ? cause.message : String(cause);
    if (/MAC could not be verified|Invalid password|padding|decrypt/i.test(msg)) {
      fail("P12_WRONG_PIN", "El PIN de la llave criptográfica es incorrecto.", cause);
    }
    fail("P12_NOT_PKCS12", NOT_A_VALID_KEY_FILE, cause);
  }

  // Private key: forge only builds RSA keys; anything else leaves the decrypted ASN.1 in bag.asn1.
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  if (keyBags.length === 0) {
    fail(
      "P12_NO_PRIVATE_KEY",
      "El archivo .p12 no contiene la llave privada, solo certificados. Descargue de nuevo la llave criptográfica en Hacienda y súbala completa.",
    );
  }
  const bag = keyBags[0]!;
  let privateKey: KeyObject;
  if (bag.key) {
    privateKey = createPrivateKey(forge.pki.privateKeyToPem(bag.key as forge.pki.rsa.PrivateKey));
  } else if (bag.asn1) {
    try {
      const der = Buffer.from(forge.asn1.toDer(bag.asn1).getBytes(), "binary");
      privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    } catch (cause) {
      fail("P12_NO_PRIVATE_KEY", "No se pudo leer la llave privada del archivo .p12. Descargue de nuevo la llave criptográfica en Hacienda.", cause);
    }
  } else {
    fail("P12_NO_PRIVATE_KEY", "No se pudo leer la llave privada del archivo .p12. Descargue de nuevo la llave criptográfica en Hacienda.");
  }
  if (privateKey.asymmetricKeyType !== "rsa") {
    fail(
      "P12_NOT_RSA",
      `La llave del archivo es de tipo ${String(privateKey.asymmetricKeyType).toUpperCase()}, y Hacienda exige llaves RSA de 2048 o 4096 bits. Use la llave criptográfica emitida por Hacienda o una firma digital RSA.`,
    );
  }
  const keyBits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (keyBits < 2048) {
    fail(
      "P12_WEAK_KEY",
      `La llave RSA es de ${keyBits} bits y Hacienda exige al menos 2048. Genere una nueva llave criptográfica en Hacienda y súbala.`,
    );
  }

  // Certificate: the one whose public key matches the private key (a .p12 may carry the CA chain too).
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  const certBags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  let match: { der: Buffer; x509: X509Certificate; forgeCert: forge.pki.Certificate } | undefined;
  let unreadable = false;
  for (const cb of certBags) {
    if (!cb.cert) continue;
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cb.cert)).getBytes(), "binary");
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(der);
    } catch {
      // node-forge reads some encodings DER forbids (a serial padded with FF bytes) that OpenSSL refuses.
      unreadable = true;
      continue;
    }
    if (Buffer.compare(x509.publicKey.export({ type: "spki", format: "der" }), spki) === 0) {
      match = { der, x509, forgeCert: cb.cert };
      break;
    }
  }
  if (!match) {
    if (unreadable) fail("P12_NO_CERTIFICATE", CERTIFICATE_UNREADABLE);
    if (certBags.length === 0) {
      fail("P12_NO_CERTIFICATE", "El archivo .p12 no contiene el certificado de la llave. Descargue de nuevo la llave criptográfica en Hacienda.");
    }
    fail(
      "P12_KEY_CERT_MISMATCH",
      "El certificado del archivo .p12 no corresponde a su llave privada. Descargue de nuevo la llave criptográfica en Hacienda.",
    );
  }

  const notBefore = new Date(match.x509.validFrom);
  const notAfter = new Date(match.x509.validTo);
  if (now.getTime() < notBefore.getTime()) {
    fail(
      "P12_NOT_YET_VALID",
      `El certificado de la llave criptográfica todavía no es válido: rige a partir del ${dateEs(notBefore)}. Revise la fecha del equipo o espere a esa fecha.`,
    );
  }
  if (now.getTime() > notAfter.getTime()) {
    fail(
      "P12_EXPIRED",
      `El certificado de la llave criptográfica venció el ${dateEs(notAfter)}. Genere una nueva llave criptográfica en Hacienda y súbala en la configuración de la empresa.`,
    );
  }

  const subjectAttrs = match.forgeCert.subject.attributes;
  const subjectSerialNumber = String(subjectAttrs.find((a) => a.type === "2.5.4.5")?.value ?? "");
  const serialHex = match.x509.serialNumber.toUpperCase();
  const serialDecimal = serialToDecimal(serialHex);
  if (serialDecimal === null) fail("P12_NO_CERTIFICATE", CERTIFICATE_UNREADABLE);
  return {
    privateKey,
    certificateDer: match.der,
    certificatePem: match.x509.toString(),
    subject: dnToRfc4514(subjectAttrs, { readable: true }),
    cedula: cedulaFromSerialNumber(subjectSerialNumber),
    subjectSerialNumber,
    issuer: dnToRfc4514(match.forgeCert.issuer.attributes),
    serialNumber: serialHex,
    serialDecimal,
    notBefore,
    notAfter,
    daysLeft: Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS),
    certDigestSha256: createHash("sha256").update(match.der).digest("base64"),
    certificateBase64: match.der.toString("base64"),
    keyBits,
  };
}
