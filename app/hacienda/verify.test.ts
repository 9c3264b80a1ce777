import { createHash, sign as rsaSign } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DOMParser } from "@xmldom/xmldom";
import { ExclusiveCanonicalization } from "xml-crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { NS_DS, NS_XADES, signXml } from "./sign.ts";
import { testSigner, TEST_NOW, unsignedDoc44, type TestSigner } from "./testing/fixtures/documents.ts";
import { samplesDir } from "./testing/samples.ts";
import { xmlsecVerify } from "./testing/xmlsec.ts";
import { parseXmlSafely } from "./safe-xml.ts";
import { verifyParsedXml, verifyXml } from "./verify.ts";

const sample = (name: string) => readFileSync(resolve(samplesDir, name));

let signer: TestSigner;
let other: TestSigner;
beforeAll(() => {
  signer = testSigner();
  other = testSigner({ cedula: "112120468", idType: "01", name: "OTRA PERSONA" });
});

describe("verifyXml on real signed samples", () => {
  it("accepts the MensajeReceptor v4.2 (2 references, inclusive C14N)", () => {
    const xml = sample("MR_v4.2_signed_nehemiascr_factura.xml");
    expect(xmlsecVerify(xml).ok).toBe(true);
    const r = verifyXml(xml);
    expect(r.errors).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.signatureValueValid).toBe(true);
    expect(r.signedPropertiesValid).toBe(true);
    expect(r.references).toEqual([
      { uri: "", id: "xmldsig-3ad31b6c-caef-43f7-a950-eacafbb32666-ref0", type: null, valid: true },
      { uri: "#xmldsig-3ad31b6c-caef-43f7-a950-eacafbb32666-signedprops", id: null, type: "http://uri.etsi.org/01903#SignedProperties", valid: true },
    ]);
    expect(r.certificate?.cedula).toBe("112120468");
    expect(r.certificate?.subject).toContain("CN=NEHEMIAS ESAU HERRERA SANCHO");
    expect(r.certificate?.issuer).toBe("CN=CA PERSONA FISICA - SANDBOX,OU=DGT,O=MINISTERIO DE HACIENDA - SANDBOX,C=CR");
    expect(r.signingTime).toBe("2019-04-13T23:15:05.385Z");
  });

  it("rejects the FacturaElectronica v4.3, naming the document reference that failed", () => {
    const xml = sample("FE_v4.3_signed_devfynet_fe_firmada.xml");
    const independent = xmlsecVerify(xml);
    expect(independent.ok).toBe(false);
    expect(independent.references).toBe("2/3");
    const r = verifyXml(xml);
    expect(r.valid).toBe(false);
    expect(r.references.map((x) => [x.uri, x.valid])).toEqual([
      ["#SignedProperties-Signature-d1cbfe99-fd8e-4e0f-b0b7-fc5bfe2f1dd0", true],
      ["#KeyInfoId-Signature-d1cbfe99-fd8e-4e0f-b0b7-fc5bfe2f1dd0", true],
      ["", false],
    ]);
    expect(r.signatureValueValid).toBe(true);
    expect(r.signedPropertiesValid).toBe(true);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toContain("Reference-ab26afbd-e2dc-4cb0-886a-ce2a4a118c7f");
    expect(r.errors[0]).toContain('URI="")');
    expect(r.errors[0]).toMatch(/modificado después de firmarse/);
    expect(r.certificate?.cedula).toBe("503890553");
  });
});

describe("verifyXml on documents we signed", () => {
  let signed: string;
  beforeAll(() => {
    signed = signXml(unsignedDoc44({ kind: "FE", lines: 2 }), signer.key, { now: TEST_NOW });
  });

  it("accepts the untouched document", () => {
    const r = verifyXml(signed);
    expect(r.valid).toBe(true);
    expect(r.certificate?.cedula).toBe("3101123456");
    expect(r.signingTime).toBe("2026-06-15T10:30:00-06:00");
    expect(xmlsecVerify(signed).ok).toBe(true);
  });

  it("rejects a changed amount (document reference)", () => {
    const tampered = signed.replace(/<TotalComprobante>[^<]*</, "<TotalComprobante>1.00000<");
    expect(tampered).not.toBe(signed);
    const r = verifyXml(tampered);
    expect(r.valid).toBe(false);
    expect(r.references.find((x) => x.uri === "")!.valid).toBe(false);
    expect(r.errors.join(" ")).toMatch(/al documento \(URI=""\) no coincide/);
    expect(xmlsecVerify(tampered).ok).toBe(false);
  });

  it("rejects a changed SigningTime (SignedProperties reference)", () => {
    const tampered = signed.replace("2026-06-15T10:30:00-06:00</xades:SigningTime>", "2026-06-14T10:30:00-06:00</xades:SigningTime>");
    expect(tampered).not.toBe(signed);
    const r = verifyXml(tampered);
    expect(r.valid).toBe(false);
    expect(r.signedPropertiesValid).toBe(false);
    expect(r.references.find((x) => x.uri === "")!.valid).toBe(true);
    expect(r.errors.join(" ")).toMatch(/propiedades firmadas .* no coincide/);
    expect(xmlsecVerify(tampered).ok).toBe(false);
  });

  it("rejects a swapped certificate (KeyInfo replaced with another certificate)", () => {
    const tampered = signed.replace(signer.key.certificateBase64, other.key.certificateBase64);
    expect(tampered).not.toBe(signed);
    const r = verifyXml(tampered);
    expect(r.valid).toBe(false);
    expect(r.signatureValueValid).toBe(false);
    expect(r.signedPropertiesValid).toBe(false);
    expect(r.errors.join(" ")).toMatch(/certificado fue sustituido/);
    expect(xmlsecVerify(tampered).ok).toBe(false);
  });

  it("rejects a signature without the SignedProperties reference", () => {
    const tampered = signed.replace(/<ds:Reference Type="http:\/\/uri\.etsi\.org\/01903#SignedProperties"[\s\S]*?<\/ds:Reference>/, "");
    expect(tampered).not.toBe(signed);
    const r = verifyXml(tampered);
    expect(r.valid).toBe(false);
    expect(r.references).toHaveLength(1);
    expect(r.errors.join(" ")).toMatch(/no incluye la referencia a las propiedades firmadas/);
  });

  it("verifyParsedXml (over an xmldom parse, kept for compatibility) gives the same verdict", () => {
    const tampered = signed.replace(/<TotalComprobante>[^<]*</, "<TotalComprobante>1.00000<");
    expect(verifyParsedXml(parseXmlSafely(signed))).toEqual(verifyXml(signed));
    expect(verifyParsedXml(parseXmlSafely(tampered))).toEqual(verifyXml(tampered));
    expect(verifyParsedXml(parseXmlSafely(tampered)).valid).toBe(false);
  });

  it("rejects an unsigned document", () => {
    const r = verifyXml(unsignedDoc44());
    expect(r.valid).toBe(false);
    expect(r.errors[0]).toMatch(/no está firmado/);
  });
});

/**
 * A signature shaped like Hacienda's own MensajeHacienda (NOTES §5): exclusive C14N everywhere,
 * the document reference filtered with the XPath transform not(ancestor-or-self::ds:Signature),
 * a KeyInfo reference — three references, pretty-printed. Built from xml-crypto's canonicalizer,
 * not from sign.ts, so that it is an independent construction.
 */
function signLikeHacienda(unsigned: string, s: TestSigner, xpath = "not(ancestor-or-self::ds:Signature)"): string {
  const EXC = "http://www.w3.org/2001/10/xml-exc-c14n#";
  const XP = "http://www.w3.org/TR/1999/REC-xpath-19991116";
  const skeleton = `
<ds:Signature xmlns:ds="${NS_DS}" Id="id-hac">
  <ds:SignedInfo>
    <ds:CanonicalizationMethod Algorithm="${EXC}"/>
    <ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>
    <ds:Reference Id="r-id-1" Type="" URI="">
      <ds:Transforms>
        <ds:Transform Algorithm="${XP}">
          <ds:XPath>${xpath}</ds:XPath>
        </ds:Transform>
        <ds:Transform Algorithm="${EXC}"/>
      </ds:Transforms>
      <ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>
      <ds:DigestValue>@DOC@</ds:DigestValue>
    </ds:Reference>
    <ds:Reference Type="http://uri.etsi.org/01903#SignedProperties" URI="#xades-id-hac">
      <ds:Transforms><ds:Transform Algorithm="${EXC}"/></ds:Transforms>
      <ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>
      <ds:DigestValue>@SP@</ds:DigestValue>
    </ds:Reference>
    <ds:Reference URI="#keyinfo-hac">
      <ds:Transforms><ds:Transform Algorithm="${EXC}"/></ds:Transforms>
      <ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>
      <ds:DigestValue>@KI@</ds:DigestValue>
    </ds:Reference>
  </ds:SignedInfo>
  <ds:SignatureValue Id="value-id-hac">@SV@</ds:SignatureValue>
  <ds:KeyInfo Id="keyinfo-hac"><ds:X509Data><ds:X509Certificate>${s.key.certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
  <ds:Object><xades:QualifyingProperties xmlns:xades="${NS_XADES}" Target="#id-hac"><xades:SignedProperties Id="xades-id-hac">
    <xades:SignedSignatureProperties><xades:SigningTime>2026-06-15T16:31:00Z</xades:SigningTime>
      <xades:SigningCertificate><xades:Cert><xades:CertDigest><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha512"/><ds:DigestValue>${createHash("sha512").update(s.key.certificateDer).digest("base64")}</ds:DigestValue></xades:CertDigest>
      <xades:IssuerSerial><ds:X509IssuerName>${s.key.issuer}</ds:X509IssuerName><ds:X509SerialNumber>${s.key.serialDecimal}</ds:X509SerialNumber></xades:IssuerSerial></xades:Cert></xades:SigningCertificate>
    </xades:SignedSignatureProperties>
  </xades:SignedProperties></xades:QualifyingProperties></ds:Object>
</ds:Signature>`;
  const close = unsigned.lastIndexOf("</");
  let xml = unsigned.slice(0, close) + skeleton + "\n" + unsigned.slice(close);
  const exc = new ExclusiveCanonicalization();
  const sha = (s: string) => createHash("sha256").update(s).digest("base64");
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const root = doc.documentElement!.cloneNode(true) as unknown as Element;
  for (const sig of Array.from(root.getElementsByTagNameNS(NS_DS, "Signature"))) sig.parentNode!.removeChild(sig);
  const byId = (id: string) => Array.from(doc.getElementsByTagName("*")).find((e) => e.getAttribute("Id") === id)!;
  xml = xml
    .replace("@DOC@", sha(exc.process(root as never, {}).toString()))
    .replace("@SP@", sha(exc.process(byId("xades-id-hac") as never, {}).toString()))
    .replace("@KI@", sha(exc.process(byId("keyinfo-hac") as never, {}).toString()));
  const doc2 = new DOMParser().parseFromString(xml, "text/xml");
  const si = doc2.getElementsByTagNameNS(NS_DS, "SignedInfo")[0]!;
  const value = rsaSign("sha256", Buffer.from(exc.process(si as never, {}).toString()), s.key.privateKey).toString("base64");
  return xml.replace("@SV@", value);
}

describe("verifyXml with Hacienda's MensajeHacienda signature shape", () => {
  const mensajeHacienda = () =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<MensajeHacienda xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Clave>50615062600310112345600100001010000000042112345678</Clave>
  <NombreEmisor>Ferretería Ñandú S.A.</NombreEmisor>
  <TipoIdentificacionEmisor>02</TipoIdentificacionEmisor>
  <NumeroCedulaEmisor>3101123456</NumeroCedulaEmisor>
  <Mensaje>3</Mensaje>
  <EstadoMensaje>rechazado</EstadoMensaje>
  <DetalleMensaje>Este comprobante fue procesado en el ambiente de pruebas. -37, "El documento no cumple", 1, 1</DetalleMensaje>
  <TotalFactura>1130.00000</TotalFactura>
</MensajeHacienda>`;

  it("verifies 3 references with the XPath transform and exclusive C14N, like xmlsec1 does", () => {
    const xml = signLikeHacienda(mensajeHacienda(), signer);
    const independent = xmlsecVerify(xml);
    expect(independent.output).toMatch(/OK/);
    expect(independent.references).toBe("3/3");
    const r = verifyXml(xml);
    expect(r.errors).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.references.map((x) => x.valid)).toEqual([true, true, true]);
    expect(r.signingTime).toBe("2026-06-15T16:31:00Z");
  });

  it("rejects a tampered MensajeHacienda and an unknown XPath expression", () => {
    const xml = signLikeHacienda(mensajeHacienda(), signer);
    const tampered = xml.replace("<Mensaje>3</Mensaje>", "<Mensaje>1</Mensaje>");
    expect(xmlsecVerify(tampered).ok).toBe(false);
    const r = verifyXml(tampered);
    expect(r.valid).toBe(false);
    expect(r.references.map((x) => x.valid)).toEqual([false, true, true]);
    expect(r.errors.join(" ")).toContain("«r-id-1»");

    const odd = signLikeHacienda(mensajeHacienda(), signer, "not(ancestor-or-self::ds:Object)");
    const r2 = verifyXml(odd);
    expect(r2.valid).toBe(false);
    expect(r2.errors.join(" ")).toMatch(/transformación XPath que no se admite/);
  });
});
