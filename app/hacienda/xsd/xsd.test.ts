/**
 * The compiled validator must agree with the official one (libxml2's xmllint) on every example
 * document and on a set of named broken variants. xmllint is required: if it is missing the tests
 * fail, they never skip.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildXml } from "../build.ts";
import { ROOTS, type DocumentKind } from "../codes.ts";
import { exampleDocument } from "../examples.ts";
import { schemaDir, testSchemaFiles, testSchemaSet } from "../testing/schemas.ts";
import { compileSchemaSet, downloadOfficialSchemas, OFFICIAL_SCHEMA_FILES, validateSchema, XMLDSIG_SCHEMA_FILE } from "./index.ts";
import { translateXsdPattern } from "./regex.ts";

const KINDS: DocumentKind[] = ["fe", "te", "nc", "nd", "fec", "fee", "rep", "mr"];
const XSD_FILE: Record<DocumentKind, string> = {
  fe: "FacturaElectronica_V4.4.xsd",
  te: "TiqueteElectronico_V4.4.xsd",
  nc: "NotaCreditoElectronica_V4.4.xsd",
  nd: "NotaDebitoElectronica_V4.4.xsd",
  fec: "FacturaElectronicaCompra_V4.4.xsd",
  fee: "FacturaElectronicaExportacion_V4.4.xsd",
  rep: "ReciboElectronicoPago_V4.4.xsd",
  mr: "MensajeReceptor_V4.4.xsd",
};

/** A structurally valid (not cryptographically meaningful) ds:Signature, as xmllint requires one. */
const PLACEHOLDER_SIGNATURE =
  '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="sig-1"><ds:SignedInfo>' +
  '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"></ds:CanonicalizationMethod>' +
  '<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"></ds:SignatureMethod>' +
  '<ds:Reference Id="r-id-1" URI=""><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"></ds:Transform></ds:Transforms>' +
  '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"></ds:DigestMethod><ds:DigestValue>q83vEjRWeJA=</ds:DigestValue></ds:Reference>' +
  "</ds:SignedInfo><ds:SignatureValue>AAECAwQF</ds:SignatureValue>" +
  "<ds:KeyInfo><ds:X509Data><ds:X509Certificate>MIIB</ds:X509Certificate></ds:X509Data></ds:KeyInfo>" +
  '<ds:Object><xades:QualifyingProperties xmlns:xades="http://uri.etsi.org/01903/v1.3.2#" Target="#sig-1"><xades:SignedProperties Id="sp"></xades:SignedProperties></xades:QualifyingProperties></ds:Object>' +
  "</ds:Signature>";

function withSignature(xml: string, kind: DocumentKind, sig = PLACEHOLDER_SIGNATURE): string {
  const close = `</${ROOTS[kind].root}>`;
  const at = xml.lastIndexOf(close);
  return at < 0 ? xml : xml.slice(0, at) + sig + xml.slice(at);
}

function must(xml: string, from: string | RegExp, to: string): string {
  const out = xml.replace(from, to);
  if (out === xml) throw new Error(`variant did not change the document: ${String(from)}`);
  return out;
}

const examples = Object.fromEntries(KINDS.map((k) => [k, buildXml(exampleDocument(k))])) as Record<DocumentKind, string>;

interface Case {
  name: string;
  kind: DocumentKind;
  /** Unsigned document; the placeholder signature is added unless `raw`. */
  xml: string;
  raw?: boolean;
}

const fe = examples.fe;
const CASES: Case[] = [
  ...KINDS.map((k) => ({ name: `example ${k}`, kind: k, xml: examples[k] })),
  { name: "wrong element order (NumeroConsecutivo before CodigoActividadEmisor)", kind: "fe", xml: must(fe, /(<CodigoActividadEmisor>[\d.]+<\/CodigoActividadEmisor>)(<CodigoActividadReceptor>[\d.]+<\/CodigoActividadReceptor>)(<NumeroConsecutivo>\d+<\/NumeroConsecutivo>)/, "$3$1$2") },
  { name: "missing required ProveedorSistemas", kind: "fe", xml: must(fe, /<ProveedorSistemas>[^<]*<\/ProveedorSistemas>/, "") },
  { name: "missing required Receptor in FE", kind: "fe", xml: must(fe, /<Receptor>.*?<\/Receptor>/, "") },
  { name: "bad enumeration CondicionVenta 98", kind: "fe", xml: must(fe, "<CondicionVenta>02</CondicionVenta>", "<CondicionVenta>98</CondicionVenta>") },
  { name: "too many decimals in TotalComprobante", kind: "fe", xml: must(fe, /<TotalComprobante>(\d+)\.(\d{5})<\/TotalComprobante>/, "<TotalComprobante>$1.$21</TotalComprobante>") },
  { name: "trailing zero beyond 5 decimals", kind: "fe", xml: must(fe, /<TotalComprobante>(\d+)\.(\d{5})<\/TotalComprobante>/, "<TotalComprobante>$1.$20</TotalComprobante>") },
  { name: "too many decimals in Cantidad", kind: "fe", xml: must(fe, "<Cantidad>2.000</Cantidad>", "<Cantidad>2.0001</Cantidad>") },
  { name: "too long Receptor/Nombre", kind: "fe", xml: must(fe, "<Nombre>Distribuidora La Sabana Limitada</Nombre>", `<Nombre>${"x".repeat(101)}</Nombre>`) },
  { name: "too short Emisor/Nombre", kind: "fe", xml: must(fe, "<Nombre>Soluciones Colibrí Sociedad Anónima</Nombre>", "<Nombre>Abc</Nombre>") },
  { name: "Receptor/Nombre of exactly 100 chars with accents", kind: "fe", xml: must(fe, "<Nombre>Distribuidora La Sabana Limitada</Nombre>", `<Nombre>${"ñ".repeat(100)}</Nombre>`) },
  { name: "bad clave pattern", kind: "fe", xml: must(fe, /<Clave>506/, "<Clave>50-") },
  { name: "clave with letters (allowed since 2026)", kind: "fe", xml: must(fe, /<Clave>506/, "<Clave>ABC") },
  { name: "clave with a leading space", kind: "fe", xml: must(fe, /<Clave>506/, "<Clave> 50") },
  { name: "unknown element", kind: "fe", xml: must(fe, "<CondicionVenta>", "<Vendedor>Ana</Vendedor><CondicionVenta>") },
  { name: "text inside a complex element", kind: "fe", xml: must(fe, "<Emisor><Nombre>", "<Emisor>hola<Nombre>") },
  { name: "whitespace between elements", kind: "fe", xml: must(fe, "<Emisor><Nombre>", "<Emisor>\n  <Nombre>") },
  { name: "NumeroLinea 0", kind: "fe", xml: must(fe, "<NumeroLinea>1</NumeroLinea>", "<NumeroLinea>0</NumeroLinea>") },
  { name: "NumeroLinea 1001", kind: "fe", xml: must(fe, "<NumeroLinea>1</NumeroLinea>", "<NumeroLinea>1001</NumeroLinea>") },
  { name: "invalid FechaEmision month", kind: "fe", xml: must(fe, /<FechaEmision>2026-11/, "<FechaEmision>2026-13") },
  { name: "FechaEmision 30 February", kind: "fe", xml: must(fe, /<FechaEmision>2026-11-21/, "<FechaEmision>2026-02-30") },
  { name: "FechaEmision without seconds", kind: "fe", xml: must(fe, /<FechaEmision>(\d{4}-\d\d-\d\dT\d\d:\d\d):\d\d/, "<FechaEmision>$1") },
  { name: "FechaEmision in UTC with fraction", kind: "fe", xml: must(fe, /<FechaEmision>[^<]+</, "<FechaEmision>2026-11-21T15:30:00.123Z<") },
  { name: "Provincia with two digits", kind: "fe", xml: must(fe, "<Provincia>1</Provincia>", "<Provincia>12</Provincia>") },
  { name: "Canton with one digit", kind: "fe", xml: must(fe, "<Canton>01</Canton>", "<Canton>1</Canton>") },
  { name: "five MedioPago", kind: "fe", xml: must(fe, /(<MedioPago>.*?<\/MedioPago>)/, "$1$1$1$1$1") },
  { name: "four MedioPago", kind: "fe", xml: must(fe, /(<MedioPago>.*?<\/MedioPago>)/, "$1$1$1$1") },
  { name: "unexpected attribute", kind: "fe", xml: must(fe, "<CondicionVenta>", '<CondicionVenta moneda="CRC">') },
  { name: "xsi:schemaLocation is allowed", kind: "fe", xml: must(fe, /<FacturaElectronica xmlns="([^"]+)">/, '<FacturaElectronica xmlns="$1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="$1 FacturaElectronica_V4.4.xsd">') },
  { name: "negative TipoCambio", kind: "fe", xml: must(fe, "<TipoCambio>1.00000</TipoCambio>", "<TipoCambio>-1.00000</TipoCambio>") },
  { name: "decimal with spaces (collapsed)", kind: "fe", xml: must(fe, "<TipoCambio>1.00000</TipoCambio>", "<TipoCambio> 1.00000 </TipoCambio>") },
  { name: "decimal with a comma", kind: "fe", xml: must(fe, "<TipoCambio>1.00000</TipoCambio>", "<TipoCambio>1,00000</TipoCambio>") },
  { name: "amount above DecimalDineroType max", kind: "fe", xml: must(fe, "<TipoCambio>1.00000</TipoCambio>", "<TipoCambio>10000000000000.00000</TipoCambio>") },
  { name: "five Emisor e-mails", kind: "fe", xml: must(fe, "<CorreoElectronico>facturacion@colibri.cr</CorreoElectronico>", "<CorreoElectronico>a@b.cr</CorreoElectronico>".repeat(5)) },
  { name: "bad unit of measure case (UNID)", kind: "fe", xml: must(fe, "<UnidadMedida>Unid</UnidadMedida>", "<UnidadMedida>UNID</UnidadMedida>") },
  { name: "CABYS with 12 digits", kind: "fe", xml: must(fe, "<CodigoCABYS>4523000000100</CodigoCABYS>", "<CodigoCABYS>452300000010</CodigoCABYS>") },
  { name: "wrong namespace", kind: "fe", xml: must(fe, "v4.4/facturaElectronica", "v4.3/facturaElectronica") },
  { name: "not well-formed", kind: "fe", xml: must(fe, "</Emisor>", "</Emisr>") },
  { name: "entity and CDATA text", kind: "fe", xml: must(fe, "<Detalle>Cable de red categoría 6</Detalle>", "<Detalle>Cable &#x26; <![CDATA[red <cat6>]]></Detalle>") },
  { name: "signature without SignatureValue", kind: "fe", xml: withSignature(fe, "fe", PLACEHOLDER_SIGNATURE.replace("<ds:SignatureValue>AAECAwQF</ds:SignatureValue>", "")), raw: true },
  { name: "signature with bad base64 DigestValue", kind: "fe", xml: withSignature(fe, "fe", PLACEHOLDER_SIGNATURE.replace("q83vEjRWeJA=", "q83v*jRWeJA=")), raw: true },
  { name: "no signature at all", kind: "fe", xml: fe, raw: true },
  { name: "two signatures with the same Id", kind: "fe", xml: withSignature(withSignature(fe, "fe"), "fe"), raw: true },
  { name: "two signatures with distinct Ids", kind: "fe", xml: withSignature(withSignature(fe, "fe"), "fe", PLACEHOLDER_SIGNATURE.replace(/sig-1/g, "sig-2").replace('Id="r-id-1"', 'Id="r-id-2"').replace('Id="sp"', 'Id="sp2"')), raw: true },
  { name: "six signatures", kind: "fe", xml: [2, 3, 4, 5, 6].reduce((x, i) => withSignature(x, "fe", PLACEHOLDER_SIGNATURE.replace(/sig-1/g, `sig-${i}`).replace('Id="r-id-1"', `Id="r-id-${i}"`).replace('Id="sp"', `Id="sp${i}"`)), withSignature(fe, "fe")), raw: true },
  { name: "TE with CodigoActividadReceptor", kind: "te", xml: must(examples.te, "<NumeroConsecutivo>", "<CodigoActividadReceptor>6201.0</CodigoActividadReceptor><NumeroConsecutivo>") },
  { name: "TE without Receptor (allowed)", kind: "te", xml: examples.te },
  { name: "NC without InformacionReferencia", kind: "nc", xml: must(examples.nc, /<InformacionReferencia>.*?<\/InformacionReferencia>/, "") },
  { name: "NC with reference code 13 (2026)", kind: "nc", xml: must(examples.nc, "<Codigo>06</Codigo>", "<Codigo>13</Codigo>") },
  { name: "NC with eleven references", kind: "nc", xml: must(examples.nc, /(<InformacionReferencia>.*?<\/InformacionReferencia>)/, "$1".repeat(11)) },
  { name: "REP with CondicionVenta 01", kind: "rep", xml: must(examples.rep, "<CondicionVenta>09</CondicionVenta>", "<CondicionVenta>01</CondicionVenta>") },
  { name: "REP without MedioPago", kind: "rep", xml: must(examples.rep, /<MedioPago>.*?<\/MedioPago>/, "") },
  { name: "FEE with BaseImponible", kind: "fee", xml: must(examples.fee, "<Impuesto>", "<BaseImponible>1.00000</BaseImponible><Impuesto>") },
  { name: "FEC without CodigoActividadReceptor", kind: "fec", xml: must(examples.fec, /<CodigoActividadReceptor>[\d.]+<\/CodigoActividadReceptor>/, "") },
  { name: "MR with Mensaje 4", kind: "mr", xml: must(examples.mr, "<Mensaje>1</Mensaje>", "<Mensaje>4</Mensaje>") },
  { name: "MR with letters in NumeroCedulaReceptor", kind: "mr", xml: must(examples.mr, "<NumeroCedulaReceptor>3101123456<", "<NumeroCedulaReceptor>3101A23456<") },
  { name: "MR with DetalleMensaje of 161 chars", kind: "mr", xml: must(examples.mr, "<DetalleMensaje>Mercadería recibida conforme</DetalleMensaje>", `<DetalleMensaje>${"a".repeat(161)}</DetalleMensaje>`) },
];

let xmllintOk = false;
let dir = "";

function xmllintValid(xml: string, kind: DocumentKind, name: string): boolean {
  const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, "_")}.xml`);
  writeFileSync(file, xml);
  const r = spawnSync("xmllint", ["--noout", "--nonet", "--schema", join(schemaDir(), XSD_FILE[kind]), file], { encoding: "utf8" });
  if (r.error) throw r.error;
  if (r.status !== 0 && r.status !== 3 && r.status !== 1) throw new Error(`xmllint failed unexpectedly (${r.status}): ${r.stderr}`);
  return r.status === 0;
}

beforeAll(() => {
  // Fails (does not skip) when xmllint is not installed.
  const v = execFileSync("xmllint", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  xmllintOk = v !== undefined;
  dir = mkdtempSync(join(tmpdir(), "colibri-xsd-"));
});

describe("compiled validator agrees with xmllint", () => {
  const set = testSchemaSet();
  for (const c of CASES) {
    it(c.name, () => {
      expect(xmllintOk).toBe(true);
      const xml = c.raw ? c.xml : withSignature(c.xml, c.kind);
      const official = xmllintValid(xml, c.kind, c.name);
      const ours = validateSchema(xml, set);
      expect({ valid: ours.length === 0, errors: ours }).toMatchObject({ valid: official });
      if (c.name.startsWith("example")) expect(official).toBe(true);
    });
  }
  it("covers both outcomes", () => {
    const outcomes = CASES.map((c) => xmllintValid(c.raw ? c.xml : withSignature(c.xml, c.kind), c.kind, `again ${c.name}`));
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(10);
    expect(outcomes.filter((x) => !x).length).toBeGreaterThan(30);
  });
});

describe("validateSchema messages and options", () => {
  const set = testSchemaSet();
  it("accepts the unsigned document only with { unsigned: true }", () => {
    expect(validateSchema(examples.fe, set, { unsigned: true })).toEqual([]);
    const errs = validateSchema(examples.fe, set);
    expect(errs).toHaveLength(1);
    expect(errs[0].path).toBe("FacturaElectronica/Signature");
  });
  it("names the field in Spanish", () => {
    const long = must(fe, "<Nombre>Distribuidora La Sabana Limitada</Nombre>", `<Nombre>${"x".repeat(101)}</Nombre>`);
    expect(validateSchema(long, set, { unsigned: true })).toEqual([
      { path: "FacturaElectronica/Receptor/Nombre", message: "El campo FacturaElectronica/Receptor/Nombre: admite como máximo 100 caracteres (tiene 101); acórtelo." },
    ]);
    const missing = validateSchema(must(fe, /<ProveedorSistemas>[^<]*<\/ProveedorSistemas>/, ""), set, { unsigned: true });
    expect(missing[0].message).toBe("El campo FacturaElectronica/ProveedorSistemas es obligatorio y falta (antes de CodigoActividadEmisor): agréguelo.");
    const en = validateSchema(must(fe, "<CondicionVenta>02</CondicionVenta>", "<CondicionVenta>98</CondicionVenta>"), set, { unsigned: true });
    expect(en[0].path).toBe("FacturaElectronica/CondicionVenta");
    expect(en[0].message).toMatch(/^El campo FacturaElectronica\/CondicionVenta: el valor "98" no está permitido/);
    const line = validateSchema(must(fe, "<Cantidad>2.000</Cantidad>", "<Cantidad>2.0001</Cantidad>"), set, { unsigned: true });
    expect(line[0].path).toBe("FacturaElectronica/DetalleServicio/LineaDetalle/Cantidad");
    expect(line[0].message).toMatch(/decimales/);
    const bad = validateSchema("<FacturaElectronica>", set);
    expect(bad[0].message).toMatch(/^El XML no está bien formado/);
  });
});

describe("XSD regex translation", () => {
  it("anchors and maps XSD classes", () => {
    expect(translateXsdPattern("\\d{9,12}").test("123456789")).toBe(true);
    expect(translateXsdPattern("\\d{9,12}").test("x123456789")).toBe(false);
    expect(translateXsdPattern("\\d\\d").test("١٢")).toBe(true); // XSD \d is any Unicode digit
    expect(translateXsdPattern("a|b").test("ab")).toBe(false);
    expect(translateXsdPattern("\\s*\\w+@\\w+\\.\\w+\\s*").test("ana@colibri.cr")).toBe(true);
    expect(translateXsdPattern("^a$").test("^a$")).toBe(true); // ^ and $ are literals in XSD
    expect(() => translateXsdPattern("[a-z-[aeiou]]")).toThrow();
  });
});

describe("schema files", () => {
  it("compilation fails loudly when a file is missing", () => {
    const files = testSchemaFiles();
    delete files["MensajeHacienda_V4.4.xsd"];
    expect(() => compileSchemaSet(files)).toThrow(/MensajeHacienda_V4.4.xsd/);
  });

  it("downloadOfficialSchemas fetches the 9 official files and xmldsig into a folder", async () => {
    const local = testSchemaFiles();
    const requested: string[] = [];
    const fakeFetch = async (url: string) => {
      requested.push(url);
      const name = url.startsWith("https://www.hacienda.go.cr/docs/") ? url.slice("https://www.hacienda.go.cr/docs/".length) : url.endsWith("/xmldsig-core-schema.xsd") ? XMLDSIG_SCHEMA_FILE : "";
      const text = local[name];
      return { ok: text !== undefined, status: text !== undefined ? 200 : 404, text: async () => text ?? "" };
    };
    const out = mkdtempSync(join(tmpdir(), "colibri-xsd-dl-"));
    const files = await downloadOfficialSchemas({ fetch: fakeFetch, dir: out });
    expect(requested).toEqual([...OFFICIAL_SCHEMA_FILES.map((f) => `https://www.hacienda.go.cr/docs/${f}`), expect.stringMatching(/xmldsig-core-schema\.xsd$/)]);
    expect(Object.keys(files).sort()).toEqual([...OFFICIAL_SCHEMA_FILES, XMLDSIG_SCHEMA_FILE].sort());
    for (const f of OFFICIAL_SCHEMA_FILES) expect(readFileSync(join(out, f), "utf8")).toBe(local[f]);
    // What was written validates like the shared copy.
    const { loadSchemaSet } = await import("./load.server.ts");
    expect(validateSchema(examples.fe, loadSchemaSet(out), { unsigned: true })).toEqual([]);
  });

  it("downloadOfficialSchemas reports HTTP failures in Spanish and writes nothing", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "colibri-xsd-dl-")), "schemas");
    const written: string[] = [];
    await expect(
      downloadOfficialSchemas({
        fetch: async () => ({ ok: false, status: 503, text: async () => "" }),
        dir: out,
        writeFile: async (p) => void written.push(p),
        mkdir: async () => {},
      }),
    ).rejects.toThrow(/No se pudo descargar el esquema FacturaElectronica_V4.4.xsd .*HTTP 503/);
    expect(written).toEqual([]);
  });
});
