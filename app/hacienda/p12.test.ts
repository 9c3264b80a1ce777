import { execFileSync } from "node:child_process";
import { generateKeyPairSync, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import forge from "node-forge";
import { beforeAll, describe, expect, it } from "vitest";
import { generateTestKeyPair, makeTestCa, makeTestCredential, makeTestP12, subjectSerialNumberFor, type TestCa, type TestKeyPair } from "./cert.ts";
import { buildXml } from "./build.ts";
import { HaciendaError } from "./errors.ts";
import { exampleDocument } from "./examples.ts";
import { cedulaFromSerialNumber, loadP12, MAX_P12_ITERATIONS, MAX_P12_TOTAL_ITERATIONS } from "./p12.ts";
import { signXml } from "./sign.ts";
import { testSchemaSet } from "./testing/schemas.ts";
import { xmlsecVerify } from "./testing/xmlsec.ts";
import { verifyXml } from "./verify.ts";
import { validateSchema } from "./xsd/index.ts";

const now = new Date("2026-06-15T12:00:00Z");
const notBefore = new Date("2026-01-01T00:00:00Z");
const notAfter = new Date("2028-01-01T00:00:00Z");

let ca: TestCa;
let keyPair: TestKeyPair;
let dir: string;

function openssl(args: string[]): string {
  // A missing openssl must fail the test, never skip it.
  return execFileSync("openssl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function expectCode(fn: () => unknown, code: string, message?: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HaciendaError);
    expect((e as HaciendaError).code).toBe(code);
    if (message) expect((e as HaciendaError).message).toMatch(message);
    return;
  }
  throw new Error(`expected HaciendaError ${code}`);
}

beforeAll(() => {
  ca = makeTestCa();
  keyPair = generateTestKeyPair();
  dir = mkdtempSync(join(tmpdir(), "colibri-p12-"));
});

describe("cedula from certificate serialNumber", () => {
  it("strips the province's leading zero for personas físicas and keeps 10 digits for jurídicas", () => {
    expect(cedulaFromSerialNumber("CPF-01-1212-0468")).toBe("112120468");
    expect(cedulaFromSerialNumber("CPF-05-0389-0553")).toBe("503890553");
    expect(cedulaFromSerialNumber("CPJ-3-101-123456")).toBe("3101123456");
    expect(subjectSerialNumberFor("112120468", "01")).toBe("CPF-01-1212-0468");
    expect(subjectSerialNumberFor("3101123456", "02")).toBe("CPJ-3-101-123456");
  });
});

describe("loadP12", () => {
  it("loads a test llave criptográfica (jurídica) with all certificate facts", () => {
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "FERRETERÍA ÑANDÚ S.A.", pin: "4321", notBefore, notAfter, keyPair, ca });
    const key = loadP12(p12, "4321", { now });
    expect(key.cedula).toBe("3101123456");
    expect(key.subjectSerialNumber).toBe("CPJ-3-101-123456");
    expect(key.subject).toBe("CN=FERRETERÍA ÑANDÚ S.A.,OU=CPJ,O=PERSONA JURIDICA,C=CR,SERIALNUMBER=CPJ-3-101-123456");
    expect(key.issuer).toBe("CN=CA PERSONA JURIDICA - PRUEBAS COLIBRI,OU=DGT,O=MINISTERIO DE HACIENDA - PRUEBAS,C=CR");
    expect(key.notBefore.toISOString()).toBe(notBefore.toISOString());
    expect(key.notAfter.toISOString()).toBe(notAfter.toISOString());
    expect(key.daysLeft).toBe(564);
    expect(key.keyBits).toBe(2048);
    expect(BigInt(`0x${key.serialNumber}`).toString()).toBe(key.serialDecimal);
    // The private key is the one we generated.
    expect(createPublicKey(key.privateKey).export({ type: "spki", format: "der" })).toEqual(
      (keyPair.publicKey as import("node:crypto").KeyObject).export({ type: "spki", format: "der" }),
    );
    expect(key.certificatePem).toContain("BEGIN CERTIFICATE");
    expect(Buffer.from(key.certificateBase64, "base64")).toEqual(key.certificateDer);
  });

  it("loads a persona física certificate and a forge 3DES (legacy) container", () => {
    const p12 = makeTestP12({ cedula: "112120468", idType: "01", name: "NEHEMÍAS PÉREZ", pin: "", notBefore, notAfter, keyPair, ca, algorithm: "3des" });
    const key = loadP12(p12, "", { now });
    expect(key.cedula).toBe("112120468");
    expect(key.subject).toContain("O=PERSONA FISICA");
  });

  it("reads a .p12 written by `openssl pkcs12 -export` with OpenSSL 3 defaults (PBES2, AES-256-CBC)", () => {
    const cred = makeTestCredential({ cedula: "3101123456", idType: "02", name: "EMPRESA OPENSSL", pin: "x", notBefore, notAfter, keyPair, ca });
    const keyPem = join(dir, "k.pem");
    const certPem = join(dir, "c.pem");
    writeFileSync(keyPem, typeof keyPair.privateKey === "string" ? keyPair.privateKey : String(keyPair.privateKey.export({ type: "pkcs8", format: "pem" })));
    writeFileSync(certPem, cred.certificatePem);
    const out = join(dir, "default.p12");
    openssl(["pkcs12", "-export", "-inkey", keyPem, "-in", certPem, "-out", out, "-passout", "pass:s3creto"]);
    const infoErr = execFileSync("sh", ["-c", `openssl pkcs12 -info -noout -in '${out}' -passin pass:s3creto 2>&1`], { encoding: "utf8" });
    const version = openssl(["version"]);
    if (/^OpenSSL 3/.test(version)) expect(infoErr).toMatch(/PBES2.*AES-256-CBC/);
    const key = loadP12(readFileSync(out), "s3creto", { now });
    expect(key.cedula).toBe("3101123456");
    expectCode(() => loadP12(readFileSync(out), "otro", { now }), "P12_WRONG_PIN", /^El PIN de la llave criptográfica es incorrecto\.$/);

    // -legacy (RC2/3DES, SHA-1 MAC) where this openssl supports the flag; OpenSSL 1.x writes that by default.
    const help = execFileSync("sh", ["-c", "openssl pkcs12 -help 2>&1"], { encoding: "utf8" });
    const legacy = join(dir, "legacy.p12");
    if (help.includes("-legacy")) {
      openssl(["pkcs12", "-export", "-legacy", "-inkey", keyPem, "-in", certPem, "-out", legacy, "-passout", "pass:s3creto"]);
      const legacyInfo = execFileSync("sh", ["-c", `openssl pkcs12 -info -noout -legacy -in '${legacy}' -passin pass:s3creto 2>&1`], { encoding: "utf8" });
      expect(legacyInfo).toMatch(/pbeWithSHA1And|RC2|3DES/i);
    } else {
      expect(version).not.toMatch(/^OpenSSL 3/);
      openssl(["pkcs12", "-export", "-inkey", keyPem, "-in", certPem, "-out", legacy, "-passout", "pass:s3creto"]);
    }
    expect(loadP12(readFileSync(legacy), "s3creto", { now }).cedula).toBe("3101123456");
  });

  it("says the PIN is wrong", () => {
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "X", pin: "1234", notBefore, notAfter, keyPair, ca });
    expectCode(() => loadP12(p12, "12345", { now }), "P12_WRONG_PIN", /^El PIN de la llave criptográfica es incorrecto\.$/);
  });

  it("refuses files that are not PKCS#12", () => {
    expectCode(() => loadP12(new Uint8Array(), "1", { now }), "P12_NOT_PKCS12", /vacío/);
    expectCode(() => loadP12(Buffer.from("hola, esto no es una llave"), "1", { now }), "P12_NOT_PKCS12", /no es una llave criptográfica/);
    expectCode(() => loadP12(Buffer.from(ca.certificatePem), "1", { now }), "P12_NOT_PKCS12");
    // A DER certificate is valid ASN.1 but not a PFX.
    const der = Buffer.from(ca.certificatePem.replace(/-----[^-]+-----|\s/g, ""), "base64");
    expectCode(() => loadP12(der, "1", { now }), "P12_NOT_PKCS12");
  });

  it("refuses a container without a private key", () => {
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "X", pin: "1", notBefore, notAfter, keyPair, ca, omitKey: true });
    expectCode(() => loadP12(p12, "1", { now }), "P12_NO_PRIVATE_KEY", /no contiene la llave privada/);
  });

  it("refuses expired and not-yet-valid certificates, saying the date", () => {
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "X", pin: "1", notBefore, notAfter, keyPair, ca });
    expectCode(() => loadP12(p12, "1", { now: new Date("2028-01-02T00:00:00Z") }), "P12_EXPIRED", /venció el 2028-01-01/);
    expectCode(() => loadP12(p12, "1", { now: new Date("2025-12-31T00:00:00Z") }), "P12_NOT_YET_VALID", /2026-01-01/);
  });

  it("refuses non-RSA keys and RSA keys under 2048 bits", () => {
    const ecKey = join(dir, "ec.pem");
    const ecCert = join(dir, "ec.crt");
    openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", ecKey, "-out", ecCert, "-days", "30", "-subj", "/CN=EC/C=CR"]);
    const ecP12 = join(dir, "ec.p12");
    openssl(["pkcs12", "-export", "-inkey", ecKey, "-in", ecCert, "-out", ecP12, "-passout", "pass:1"]);
    expectCode(() => loadP12(readFileSync(ecP12), "1", { now: new Date() }), "P12_NOT_RSA", /RSA/);

    const weak = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "X", pin: "1", notBefore, notAfter, keyPair: weak, ca });
    expectCode(() => loadP12(p12, "1", { now }), "P12_WEAK_KEY", /1024 bits/);
  });
});

describe("keys issued in TRIBU-CR (issue 11 point 8)", () => {
  it("opens a .p12 with a 14-character complex PIN, and refuses it with the PIN cut to 4 characters", () => {
    const pin = "Tr1bu-CR#2026!";
    expect(pin).toHaveLength(14);
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "EMPRESA", pin, notBefore, notAfter, keyPair, ca });
    expect(loadP12(p12, pin, { now }).cedula).toBe("3101123456");
    expectCode(() => loadP12(p12, pin.slice(0, 4), { now }), "P12_WRONG_PIN");
  });

  it("reads an alphanumeric cédula jurídica from the certificate (CPJ-3-101-A00001 → 3101A00001)", () => {
    expect(subjectSerialNumberFor("3101A00001", "02")).toBe("CPJ-3-101-A00001");
    expect(cedulaFromSerialNumber("CPJ-3-101-A00001")).toBe("3101A00001");
    expect(cedulaFromSerialNumber("CPJ-3-101-123456")).toBe("3101123456");
    const p12 = makeTestP12({ cedula: "3101A00001", idType: "02", name: "EMPRESA", pin: "1234", notBefore, notAfter, keyPair, ca });
    expect(loadP12(p12, "1234", { now }).cedula).toBe("3101A00001");
  });
});

/**
 * The iteration counts of a .p12 (its MAC, its encrypted contents, its shrouded keys) are written by
 * whoever made the file, and node-forge derives every one of them synchronously. They are read and
 * bounded before node-forge sees the file. The refused files below ask for 2^30 iterations: were
 * any of them derived, the test would run for tens of minutes instead of refusing at once.
 */
describe("iteration counts of a .p12 are bounded before any key is derived", () => {
  const { asn1 } = forge;
  type Asn1 = forge.asn1.Asn1;
  const HUGE = 2 ** 30;
  const tooMany = /^El archivo \.p12 pide más de un millón de iteraciones para abrir una de sus partes/;
  const notValid = /^El archivo no es una llave criptográfica \(\.p12\) válida\./;

  const seq = (...value: Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, value);
  const oid = (name: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids[name]!).getBytes());
  const octets = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes);
  const nul = () => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "");
  const int = (n: number) => {
    let hex = n.toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
    return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, forge.util.hexToBytes(hex));
  };
  const explicit0 = (value: Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [value]);
  const der = (node: Asn1) => asn1.toDer(node).getBytes();
  const file = (node: Asn1) => Buffer.from(der(node), "binary");
  const salt = "sal-1234";
  /** PKCS#12 PBE with 3DES and SHA-1 (the legacy files ATV issued for years, forge's "3des"). */
  const pbe3des = (count: number) => seq(oid("pbeWithSHAAnd3-KeyTripleDES-CBC"), seq(octets(salt), int(count)));
  /** PBES2: PBKDF2 with HMAC-SHA256 and AES-256-CBC (OpenSSL 3's default). */
  const pbes2 = (count: number) =>
    seq(
      oid("pkcs5PBES2"),
      seq(seq(oid("pkcs5PBKDF2"), seq(octets(salt), int(count), seq(oid("hmacWithSHA256"), nul()))), seq(oid("aes256-CBC"), octets("0123456789abcdef"))),
    );
  const shroudedKey = (algorithm: Asn1) => seq(oid("pkcs8ShroudedKeyBag"), explicit0(seq(algorithm, octets("no es una llave"))));
  const data = (...bags: Asn1[]) => seq(oid("data"), explicit0(octets(der(seq(...bags)))));
  const encrypted = (algorithm: Asn1, ciphertext: string) =>
    seq(oid("encryptedData"), explicit0(seq(int(0), seq(oid("data"), algorithm, asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, ciphertext)))));
  const pfx = (contents: Asn1[], macCount?: number) =>
    seq(
      int(3),
      seq(oid("data"), explicit0(octets(der(seq(...contents))))),
      ...(macCount === undefined ? [] : [seq(seq(seq(oid("sha1"), nul()), octets("m".repeat(20))), octets(salt), int(macCount))]),
    );
  /** Encrypts with PKCS#12 PBE 3DES as a real .p12's encrypted contents are, so the PIN opens them. */
  const encrypt3des = (plain: string, pin: string, count: number) => {
    const key = forge.pkcs12.generateKey(pin, forge.util.createBuffer(salt), 1, count, 24);
    const iv = forge.pkcs12.generateKey(pin, forge.util.createBuffer(salt), 2, count, 8);
    const cipher = forge.cipher.createCipher("3DES-CBC", key);
    cipher.start({ iv });
    cipher.update(forge.util.createBuffer(plain));
    cipher.finish();
    return cipher.output.getBytes();
  };

  let forgeKey: forge.pki.rsa.PrivateKey;
  let forgeCert: forge.pki.Certificate;
  beforeAll(() => {
    const cred = makeTestCredential({ cedula: "3101123456", idType: "02", name: "EMPRESA", pin: "1", notBefore, notAfter, keyPair, ca });
    forgeKey = forge.pki.privateKeyFromPem(String((keyPair.privateKey as import("node:crypto").KeyObject).export({ type: "pkcs1", format: "pem" })));
    forgeCert = forge.pki.certificateFromPem(cred.certificatePem);
  });

  it("caps each count at one million and a whole file at four million derived", () => {
    expect(MAX_P12_ITERATIONS).toBe(1_000_000);
    expect(MAX_P12_TOTAL_ITERATIONS).toBe(4_000_000);
  });

  it("opens a key whose MAC and key counts are exactly at the cap", { timeout: 300_000 }, () => {
    const p12 = forge.pkcs12.toPkcs12Asn1(forgeKey, [forgeCert], "1234", { algorithm: "3des", count: 1_000_000 });
    expect(loadP12(file(p12), "1234", { now }).cedula).toBe("3101123456");
  });

  it("refuses a MAC count above the cap, with the right PIN or a wrong one", () => {
    const p12 = forge.pkcs12.toPkcs12Asn1(forgeKey, [forgeCert], "1234", { algorithm: "3des", count: 2048 });
    const macData = (p12.value as Asn1[])[2]!;
    expect(der((macData.value as Asn1[])[2]!)).toBe(der(int(2048)));
    for (const count of [1_000_001, HUGE]) {
      (macData.value as Asn1[])[2] = int(count);
      expectCode(() => loadP12(file(p12), "1234", { now }), "P12_NOT_PKCS12", tooMany);
      expectCode(() => loadP12(file(p12), "otro", { now }), "P12_NOT_PKCS12", tooMany);
    }
  });

  it("refuses a shrouded key above the cap (PKCS#12 PBE and PBES2)", () => {
    expectCode(() => loadP12(file(pfx([data(shroudedKey(pbe3des(HUGE)))])), "1234", { now }), "P12_NOT_PKCS12", tooMany);
    expectCode(() => loadP12(file(pfx([data(shroudedKey(pbes2(HUGE)))], 2048)), "1234", { now }), "P12_NOT_PKCS12", tooMany);
    expectCode(() => loadP12(file(pfx([data(shroudedKey(pbes2(1_000_001)))])), "1234", { now }), "P12_NOT_PKCS12", tooMany);
  });

  it("refuses encrypted contents above the cap", () => {
    for (const algorithm of [pbe3des(HUGE), pbes2(HUGE)])
      expectCode(() => loadP12(file(pfx([encrypted(algorithm, "12345678")])), "1234", { now }), "P12_NOT_PKCS12", tooMany);
  });

  it("looks inside encrypted contents: a key of 2^30 iterations inside contents encrypted with 2,048", () => {
    const inner = der(seq(shroudedKey(pbe3des(HUGE))));
    const p12 = pfx([encrypted(pbe3des(2048), encrypt3des(inner, "1234", 2048))]);
    expectCode(() => loadP12(file(p12), "1234", { now }), "P12_NOT_PKCS12", tooMany);
  });

  it("bounds the whole file: five keys of a million iterations each, or two encrypted contents and a MAC, are refused", () => {
    const tooMuch = /^El archivo \.p12 pide en total demasiadas iteraciones para abrirse/;
    const key = shroudedKey(pbe3des(1_000_000));
    expectCode(() => loadP12(file(pfx([data(key, key, key, key, key)])), "1234", { now }), "P12_NOT_PKCS12", tooMuch);
    // Encrypted contents count twice (decrypted to look inside, then by node-forge): 1 + 2 × 2 million.
    const contents = encrypted(pbes2(1_000_000), "12345678");
    expectCode(() => loadP12(file(pfx([contents, contents], 1_000_000)), "1234", { now }), "P12_NOT_PKCS12", tooMuch);
  });

  it("refuses with the usual message a file whose structure cannot be walked", () => {
    const cases: Asn1[] = [
      seq(int(3)),
      seq(int(3), seq(oid("data"), explicit0(octets("esto no es DER")))),
      seq(int(3), seq(oid("data"), explicit0(int(1)))),
      pfx([seq(oid("data"), explicit0(int(1)))]),
      pfx([data(seq(oid("pkcs8ShroudedKeyBag"), explicit0(int(1))))]),
      pfx([data(shroudedKey(seq(oid("pkcs5PBES2"), seq())))]),
      pfx([data(shroudedKey(seq(oid("pbeWithSHAAnd3-KeyTripleDES-CBC"), seq(octets(salt)))))]),
      pfx([encrypted(seq(oid("pkcs5PBES2")), "12345678")]),
    ];
    for (const c of cases) expectCode(() => loadP12(file(c), "1234", { now }), "P12_NOT_PKCS12", notValid);
  });
});

/**
 * The certificate's serial number is a DER INTEGER, signed. RFC 5280 wants it positive, but notes that
 * non-conforming CAs issue negative ones (a first byte of 0x80 or more without the 00 in front, as
 * in cmake's Windows_TemporaryKey.pfx) and asks relying parties to handle them gracefully. OpenSSL
 * prints such a serial with a minus sign ("-FF"), which the decimal conversion used to hand to
 * BigInt as "0x-FF": a SyntaxError, and a 500 on the key upload.
 */
describe("certificate serial numbers", () => {
  /** A .p12 of the test key whose certificate has the given serial (hex of the INTEGER's bytes, as forge writes them). */
  function p12WithSerial(serialHex: string, pin = "1234"): Buffer {
    const cred = makeTestCredential({ cedula: "3101123456", idType: "02", name: "EMPRESA", pin, notBefore, notAfter, keyPair, ca });
    const pem = (k: TestKeyPair["privateKey"]) => (typeof k === "string" ? k : String(k.export({ type: "pkcs1", format: "pem" })));
    const cert = forge.pki.certificateFromPem(cred.certificatePem);
    cert.serialNumber = serialHex;
    cert.sign(forge.pki.privateKeyFromPem(pem(ca.keyPair.privateKey)), forge.md.sha256.create());
    const asn1 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(pem(keyPair.privateKey)), [cert, ca.certificate], pin, { algorithm: "3des" });
    return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
  }

  it.each([
    ["ff01", "-FF", "-255"],
    ["80", "-80", "-128"],
    ["ff", "-01", "-1"],
    ["8000000000000000000000000000000001", "-7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "-43556142965880123323311949751266331066367"],
    ["00ff01", "FF01", "65281"],
    ["7f", "7F", "127"],
    ["00", "0", "0"],
  ])("reads serial %s as the signed integer it is (%s, %s)", (serialHex, hex, decimal) => {
    const key = loadP12(p12WithSerial(serialHex), "1234", { now });
    expect(key.serialNumber).toBe(hex);
    expect(key.serialDecimal).toBe(decimal);
    expect(key.cedula).toBe("3101123456");
  });

  it("signs with a key whose serial is negative: the XAdES IssuerSerial says -255, the schema accepts it, both verifiers too", () => {
    const key = loadP12(p12WithSerial("ff01"), "1234", { now });
    const signed = signXml(buildXml(exampleDocument("fe")), key, { now });
    expect(signed).toContain("<ds:X509SerialNumber>-255</ds:X509SerialNumber>");
    expect(validateSchema(signed, testSchemaSet())).toEqual([]);
    const mine = verifyXml(signed);
    expect(mine.errors).toEqual([]);
    expect(mine.valid).toBe(true);
    expect(mine.certificate?.serialNumber).toBe("-FF");
    const xmlsec = xmlsecVerify(signed);
    expect(xmlsec.output).toMatch(/OK/);
    expect(xmlsec.ok).toBe(true);
    // A declared serial that is not the certificate's is caught, negative or not a number.
    for (const declared of ["-256", "255", "abc"]) {
      const swapped = verifyXml(signed.replace("<ds:X509SerialNumber>-255</ds:X509SerialNumber>", `<ds:X509SerialNumber>${declared}</ds:X509SerialNumber>`));
      expect(swapped.errors, declared).toContain("El número de serie declarado en las propiedades firmadas no es el del certificado incluido.");
    }
  });

  it("refuses with a Spanish message a certificate that only node-forge can read (a serial padded with 0xFF bytes)", () => {
    // DER forbids a redundant first byte; OpenSSL refuses the certificate ("illegal padding").
    expectCode(
      () => loadP12(p12WithSerial("ff".repeat(17)), "1234", { now }),
      "P12_NO_CERTIFICATE",
      /^El certificado del archivo \.p12 está dañado y no se puede leer\. Descargue de nuevo la llave criptográfica en Hacienda\.$/,
    );
  });
});
