import { createHash, verify as rsaVerify } from "node:crypto";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { C14nCanonicalization, findAncestorNs } from "xml-crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { HaciendaError } from "./errors.ts";
import { costaRicaDateTime, NS_DS, NS_XADES, POLICY_V44, scanCanonical, signXml } from "./sign.ts";
import { testSigner, TEST_NOW, unsignedDoc44, type TestSigner } from "./testing/fixtures/documents.ts";
import { xmlsecVerify } from "./testing/xmlsec.ts";
import { verifyXml } from "./verify.ts";

let signer: TestSigner;
beforeAll(() => {
  signer = testSigner();
});

const parse = (xml: string) => new DOMParser().parseFromString(xml, "text/xml") as unknown as Document;
const one = (doc: Document | Element, local: string, ns: string) => {
  const list = (doc as Element).getElementsByTagNameNS(ns, local);
  expect(list.length).toBe(1);
  return list[0]!;
};

/** Every signed document in these tests goes through both verifiers. */
function expectVerifies(signed: string) {
  const mine = verifyXml(signed);
  expect(mine.errors).toEqual([]);
  expect(mine.valid).toBe(true);
  const xmlsec = xmlsecVerify(signed);
  expect(xmlsec.output).toMatch(/OK/);
  expect(xmlsec.ok).toBe(true);
  expect(xmlsec.references).toBe("2/2");
}

describe("scanCanonical (fast path recognition)", () => {
  it("accepts the builder's canonical form, with or without whitespace between elements", () => {
    expect(scanCanonical(unsignedDoc44())).not.toBeNull();
    expect(scanCanonical(unsignedDoc44({ indent: true, lines: 3 }))).not.toBeNull();
    expect(scanCanonical('<a xmlns="urn:x" b="1" c="&amp;&lt;&quot;&#xA;">t &amp; &lt; &gt;</a>')).not.toBeNull();
  });

  it.each([
    ["self-closing tag", '<a xmlns="urn:x"><b/></a>'],
    ["comment", '<a xmlns="urn:x"><!-- c --></a>'],
    ["CDATA", '<a xmlns="urn:x"><![CDATA[x]]></a>'],
    ["processing instruction", '<a xmlns="urn:x"><?pi x?></a>'],
    ["unsorted attributes", '<a xmlns="urn:x"><b z="1" a="2"></b></a>'],
    ["single-quoted attribute", "<a xmlns=\"urn:x\"><b c='1'></b></a>"],
    ["prefixed element", '<a xmlns="urn:x" xmlns:p="urn:p"><p:b></p:b></a>'],
    ["namespace on a child", '<a xmlns="urn:x"><b xmlns="urn:y"></b></a>'],
    ["xmlns not first", '<a b="1" xmlns="urn:x"></a>'],
    ["raw > in text", '<a xmlns="urn:x">1 > 0</a>'],
    ["character reference", '<a xmlns="urn:x">&#65;</a>'],
    ["&quot; in text", '<a xmlns="urn:x">&quot;</a>'],
    ["carriage return", '<a xmlns="urn:x">x\r\ny</a>'],
    ["space before >", '<a xmlns="urn:x" ></a>'],
    ["mismatched tags", '<a xmlns="urn:x"><b></c></a>'],
    ["unclosed", '<a xmlns="urn:x"><b></b>'],
    ["two roots", '<a xmlns="urn:x"></a><a></a>'],
    ["doctype", '<!DOCTYPE a><a xmlns="urn:x"></a>'],
  ])("rejects %s", (_name, xml) => {
    expect(scanCanonical(xml)).toBeNull();
  });
});

describe("signXml", () => {
  it("signs a TiqueteElectronico v4.4 exactly as NOTES §5 describes", () => {
    const unsigned = unsignedDoc44({ kind: "TE" });
    const signed = signXml(unsigned, signer.key, { now: TEST_NOW, id: "Signature-1" });
    const doc = parse(signed);
    const root = doc.documentElement!;
    // Enveloped: ds:Signature is the last child of the root, and the rest is untouched.
    expect(root.lastChild!.nodeName).toBe("ds:Signature");
    expect(signed.startsWith(unsigned.slice(0, unsigned.lastIndexOf("</")))).toBe(true);
    const sig = one(doc, "Signature", NS_DS);
    expect(sig.getAttribute("Id")).toBe("Signature-1");
    expect(one(sig, "CanonicalizationMethod", NS_DS).getAttribute("Algorithm")).toBe("http://www.w3.org/TR/2001/REC-xml-c14n-20010315");
    expect(one(sig, "SignatureMethod", NS_DS).getAttribute("Algorithm")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");

    const refs = Array.from(sig.getElementsByTagNameNS(NS_DS, "Reference"));
    expect(refs).toHaveLength(2);
    const [docRef, spRef] = refs as [Element, Element];
    expect(docRef.getAttribute("URI")).toBe("");
    expect(Array.from(docRef.getElementsByTagNameNS(NS_DS, "Transform")).map((t) => t.getAttribute("Algorithm"))).toEqual([
      "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
    ]);
    expect(spRef.getAttribute("Type")).toBe("http://uri.etsi.org/01903#SignedProperties");
    const sp = one(sig, "SignedProperties", NS_XADES);
    expect(spRef.getAttribute("URI")).toBe(`#${sp.getAttribute("Id")}`);
    for (const r of refs) expect(one(r, "DigestMethod", NS_DS).getAttribute("Algorithm")).toBe("http://www.w3.org/2001/04/xmlenc#sha256");

    expect(one(sp, "SigningTime", NS_XADES).textContent).toBe("2026-06-15T10:30:00-06:00");
    const certDigest = one(sp, "CertDigest", NS_XADES);
    expect(one(certDigest, "DigestValue", NS_DS).textContent).toBe(createHash("sha256").update(signer.key.certificateDer).digest("base64"));
    expect(one(sp, "X509IssuerName", NS_DS).textContent).toBe(signer.key.issuer);
    expect(one(sp, "X509SerialNumber", NS_DS).textContent).toBe(BigInt(`0x${signer.key.serialNumber}`).toString());
    expect(one(sp, "Identifier", NS_XADES).textContent).toBe(POLICY_V44.identifier);
    const policyHash = one(sp, "SigPolicyHash", NS_XADES);
    expect(one(policyHash, "DigestValue", NS_DS).textContent).toBe("DWxin1xWOeI8OuWQXazh4VjLWAaCLAA954em7DMh0h8=");
    expect(one(policyHash, "DigestMethod", NS_DS).getAttribute("Algorithm")).toBe("http://www.w3.org/2001/04/xmlenc#sha256");
    const dof = one(sp, "DataObjectFormat", NS_XADES);
    expect(dof.getAttribute("ObjectReference")).toBe(`#${docRef.getAttribute("Id")}`);
    expect(one(dof, "MimeType", NS_XADES).textContent).toBe("application/octet-stream");
    expect(one(sig, "QualifyingProperties", NS_XADES).getAttribute("Target")).toBe("#Signature-1");
    expect(one(sig, "X509Certificate", NS_DS).textContent).toBe(signer.key.certificateDer.toString("base64"));
    expectVerifies(signed);
  });

  it("produces digests that xml-crypto's inclusive C14N recomputes from an xmldom parse (inherited namespaces included)", () => {
    for (const unsigned of [unsignedDoc44({ lines: 2, indent: true }), unsignedDoc44({ kind: "NC" }).replace("<Clave>", '<Clave>').replace(/^(<\?xml[^>]*>\n<NotaCreditoElectronica) (xmlns="[^"]*")/, '$1 $2 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"')]) {
      const signed = signXml(unsigned, signer.key, { now: TEST_NOW });
      const doc = parse(signed);
      const sig = one(doc, "Signature", NS_DS);
      const c14n = new C14nCanonicalization();
      const refs = Array.from(sig.getElementsByTagNameNS(NS_DS, "Reference"));
      const digestOf = (r: Element) => one(r, "DigestValue", NS_DS).textContent;

      // SignedProperties: canonical form carries xmlns (document), xmlns:ds and xmlns:xades.
      const sp = one(doc, "SignedProperties", NS_XADES);
      const spCanon = c14n.process(sp as never, { ancestorNamespaces: findAncestorNs(doc as never, "//*[local-name()='SignedProperties']") }).toString();
      const rootNs = doc.documentElement!.getAttribute("xmlns")!;
      expect(spCanon.startsWith(`<xades:SignedProperties xmlns="${rootNs}" xmlns:ds="${NS_DS}"`)).toBe(true);
      expect(createHash("sha256").update(spCanon).digest("base64")).toBe(digestOf(refs[1]!));

      // SignedInfo: its canonical form is what the RSA signature covers.
      const si = one(sig, "SignedInfo", NS_DS);
      const siCanon = c14n.process(si as never, { ancestorNamespaces: findAncestorNs(doc as never, "//*[local-name()='SignedInfo']") }).toString();
      expect(siCanon.startsWith(`<ds:SignedInfo xmlns="${rootNs}" xmlns:ds="${NS_DS}"`)).toBe(true);
      const sv = Buffer.from(one(sig, "SignatureValue", NS_DS).textContent!, "base64");
      expect(rsaVerify("sha256", Buffer.from(siCanon), signer.key.certificatePem, sv)).toBe(true);

      // Document: C14N of the root without the signature is the unsigned root, byte for byte.
      const clone = doc.documentElement!.cloneNode(true) as unknown as Element;
      clone.removeChild(clone.getElementsByTagNameNS(NS_DS, "Signature")[0]!);
      const docCanon = c14n.process(clone as never, {}).toString();
      expect(docCanon).toBe(unsigned.slice(unsigned.indexOf("\n") + 1));
      expect(createHash("sha256").update(docCanon).digest("base64")).toBe(digestOf(refs[0]!));
      expectVerifies(signed);
    }
  });

  it("falls back to a real canonicalizer for arbitrary input (parsed and reserialized, comments, prefixes)", () => {
    // xmldom's serializer writes empty elements as <X/>: not canonical, so the fallback must run.
    const reserialized = new XMLSerializer().serializeToString(new DOMParser().parseFromString(unsignedDoc44({ kind: "FE" }).replace("<CondicionVenta>01</CondicionVenta>", "<CondicionVenta>01</CondicionVenta><Otros></Otros>"), "text/xml"));
    expect(reserialized).toContain("<Otros/>");
    expect(scanCanonical(reserialized)).toBeNull();
    const odd = `<?xml version="1.0"?>\n<!-- hi --><p:Root xmlns:p="urn:p" xmlns="urn:d" z='2' a="1"><x/><p:y q="1"   p="&#65;">t&#66;&gt;<!-- c --></p:y>\r\n</p:Root>`;
    for (const input of [reserialized, odd]) {
      const signed = signXml(input, signer.key, { now: TEST_NOW });
      expectVerifies(signed);
    }
    const signedOdd = signXml(odd, signer.key, { now: TEST_NOW });
    expect(signedOdd).toContain('<p:Root xmlns="urn:d" xmlns:p="urn:p" a="1" z="2"><x></x><p:y p="A" q="1">tB&gt;</p:y>');
  });

  it("is deterministic and reuses the loaded key (no .p12 involved)", () => {
    const unsigned = unsignedDoc44();
    const a = signXml(unsigned, signer.key, { now: TEST_NOW });
    const b = signXml(unsigned, signer.key, { now: TEST_NOW });
    expect(a).toBe(b);
    const c = signXml(unsigned, signer.key, { now: new Date(TEST_NOW.getTime() + 1000) });
    expect(c).not.toBe(a);
    expect(c).toContain("<xades:SigningTime>2026-06-15T10:30:01-06:00</xades:SigningTime>");
    expect(signXml(unsigned, signer.key, { now: TEST_NOW, id: "id-x" })).toContain('Id="id-x"');
  });

  it("formats the signing time in Costa Rica's fixed −06:00 offset", () => {
    expect(costaRicaDateTime(new Date("2026-01-01T03:04:05.678Z"))).toBe("2025-12-31T21:04:05-06:00");
  });

  it("refuses already-signed documents, bad ids and invalid input with Spanish messages", () => {
    const signed = signXml(unsignedDoc44(), signer.key, { now: TEST_NOW });
    expect(() => signXml(signed, signer.key, { now: TEST_NOW })).toThrow(HaciendaError);
    try {
      signXml(signed, signer.key, { now: TEST_NOW });
    } catch (e) {
      expect((e as HaciendaError).code).toBe("SIGN_ALREADY_SIGNED");
      expect((e as HaciendaError).message).toMatch(/ya trae una firma/);
    }
    expect(() => signXml(unsignedDoc44(), signer.key, { now: TEST_NOW, id: "1 bad" })).toThrow(/identificador/);
    expect(() => signXml("", signer.key, { now: TEST_NOW })).toThrow(/No hay documento/);
    expect(() => signXml("no es xml", signer.key, { now: TEST_NOW })).toThrow(/no es un documento XML/);
    expect(() => signXml('<a xml:lang="es"></a>', signer.key, { now: TEST_NOW })).toThrow(/xml:lang/);
  });
});
