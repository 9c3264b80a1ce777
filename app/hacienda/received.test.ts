// judgeReceivedDocument (issue 11 point 6, rules part): a supplier's document judged as Hacienda
// judges it — real signed samples from shared/hacienda/samples, documents built and signed here, and
// named broken copies. docs/decisions/134.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildXml } from "./build.ts";
import { exampleDocument } from "./examples.ts";
import type { Comprobante } from "./model.ts";
import { judgeReceivedDocument, type JudgeDeps } from "./received.ts";
import { signXml } from "./sign.ts";
import { testSigner, TEST_NOW, type TestSigner } from "./testing/fixtures/documents.ts";
import { testSchemaSet } from "./testing/schemas.ts";
import { xmlsecVerify } from "./testing/xmlsec.ts";
import { loadSchemaFolder } from "./xsd/load.server.ts";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const samplesDir = process.env.HACIENDA_SAMPLES_DIR ?? resolve(repoRoot, "../shared/hacienda/samples");
const xsd43 = process.env.HACIENDA_XSD43_DIR ?? resolve(samplesDir, "..", "xsd", "v4.3");
let deps: JudgeDeps;
let signer: TestSigner;
let other: TestSigner;
beforeAll(() => {
  deps = { schemas44: testSchemaSet(), schemas43: loadSchemaFolder(xsd43) };
  signer = testSigner(); // cédula jurídica 3101123456, the examples' issuer
  other = testSigner({ cedula: "112120468", idType: "01", name: "OTRA PERSONA" });
});

const sample = (name: string) => readFileSync(resolve(samplesDir, name));
const signed = (xml: string, s = signer) => signXml(xml, s.key, { now: TEST_NOW });
/** The amounts of a 5-decimal document as a 2-decimal system writes them (half-up at 2 decimals). */
const twoDecimals = (xml: string) =>
  xml.replace(/<(Monto|MontoTotal|SubTotal|BaseImponible|ImpuestoNeto|MontoTotalLinea|MontoCargo|MontoDescuento|Total[A-Za-z]*|MontoExoneracion)>(\d+\.\d{5})</g, (_, tag: string, v: string) => {
    const cents = Math.round(Number(v) * 100 + 1e-9) / 100;
    return `<${tag}>${cents.toFixed(2)}<`;
  });

describe("real signed samples (shared/hacienda/samples)", () => {
  it("the MensajeReceptor v4.2, signed with the v4.1 signature policy, passes: signature valid, nothing else applies to 4.2", () => {
    const xml = sample("MR_v4.2_signed_nehemiascr_factura.xml");
    expect(xmlsecVerify(xml).ok).toBe(true);
    expect(xml.toString()).toContain("v4.1/Resolucion_Comprobantes_Electronicos_DGT-R-48-2016.pdf"); // not the 4.4 policy
    const j = judgeReceivedDocument(xml, deps);
    expect(j.problems).toEqual([]);
    expect(j.ok).toBe(true);
    expect(j.summary).toMatchObject({ kind: "MR", version: "4.2" });
    expect(j.warnings).toEqual([]);
    expect(j.notes).toEqual(["No se revisó el esquema: no hay esquemas de la versión 4.2 disponibles aquí.", "Las reglas de negocio de la versión 4.4 no se aplican a un documento de la versión 4.2."]);
  });

  it("the FacturaElectronica v4.3 passes its 4.3 schema but not its signature, as xmlsec1 says (its document was changed after signing)", () => {
    const xml = sample("FE_v4.3_signed_devfynet_fe_firmada.xml");
    expect(xmlsecVerify(xml).ok).toBe(false);
    const j = judgeReceivedDocument(xml, deps);
    expect(j.ok).toBe(false);
    expect(j.problems).toHaveLength(1);
    expect(j.problems[0]).toMatchObject({ kind: "firma", code: "FIRMA", title: "Firma no válida", path: "ds:Signature" });
    expect(j.problems[0].message).toMatch(/modificado después de firmarse/);
    expect(j.notes).toEqual(["Las reglas de negocio de la versión 4.4 no se aplican a un documento de la versión 4.3."]);
  });
});

describe("v4.4 documents judged in received mode", () => {
  it("a correct supplier invoice passes, and the result carries what a screen shows", () => {
    const j = judgeReceivedDocument(signed(buildXml(exampleDocument("fe"))), deps);
    expect(j.problems).toEqual([]);
    expect(j.ok).toBe(true);
    expect(j.summary).toMatchObject({ kind: "FE", version: "4.4", issuer: { id: "3101123456" } });
    expect(j.model).toMatchObject({ kind: "fe", activityCode: "6201.0" });
    expect(j.notes).toEqual([]);
  });

  it("amounts rounded to 2 decimals pass (Hacienda's margin, A44 p.12), a wrong total does not", () => {
    const rounded = twoDecimals(buildXml(exampleDocument("fe")));
    expect(rounded).toContain("<TotalComprobante>1230970.99</TotalComprobante>");
    expect(judgeReceivedDocument(signed(rounded), deps).problems).toEqual([]);
    const wrong = judgeReceivedDocument(signed(rounded.replace("<TotalComprobante>1230970.99<", "<TotalComprobante>1230970.00<")), deps);
    expect(wrong.problems.map((p) => [p.kind, p.path])).toEqual([
      ["reglas", "ResumenFactura/MedioPago/TotalMedioPago"],
      ["reglas", "ResumenFactura/TotalComprobante"],
    ]);
  });

  it("a 2025 invoice with an old six-digit activity code passes with a warning", () => {
    const doc = { ...(exampleDocument("fe") as Comprobante), activityCode: "722003" };
    const j = judgeReceivedDocument(signed(buildXml(doc)), deps);
    expect(j.ok).toBe(true);
    expect(j.warnings).toEqual([expect.objectContaining({ kind: "reglas", code: "AVISO", path: "CodigoActividadEmisor" })]);
  });

  it("a broken signature, a schema error and a rule error each come with their kind, in Spanish", () => {
    const xml = signed(buildXml(exampleDocument("te")));
    const tampered = judgeReceivedDocument(xml.replace("<Detalle>Computadora", "<Detalle>Tableta"), deps);
    expect(tampered.problems.map((p) => p.kind)).toEqual(["firma"]);
    expect(tampered.problems[0].message).toMatch(/modificado después de firmarse/);

    const schema = judgeReceivedDocument(signed(buildXml(exampleDocument("te")).replace("<CondicionVenta>01</CondicionVenta>", "<CondicionVenta>77</CondicionVenta>")), deps);
    expect(schema.problems.some((p) => p.kind === "esquema" && /CondicionVenta/.test(p.path) && p.title === "No cumple el formato de Hacienda (esquema XSD)")).toBe(true);

    // A cash sale without a payment method: schema-valid, refused by the rules (A44 p.54).
    const noPayment = judgeReceivedDocument(signed(buildXml({ ...(exampleDocument("te") as Comprobante), payments: [] })), deps);
    expect(noPayment.problems).toEqual([
      expect.objectContaining({ kind: "reglas", code: "REGLAS", title: "Montos o datos que Hacienda rechaza", path: "ResumenFactura/MedioPago", message: expect.stringMatching(/^Falta el medio de pago/) }),
    ]);
  });

  it("signed with another cédula's certificate: a warning naming both (a representative's Firma Digital is accepted by Hacienda)", () => {
    const j = judgeReceivedDocument(signed(buildXml(exampleDocument("fe")), other), deps);
    expect(j.ok).toBe(true);
    expect(j.warnings).toEqual([
      expect.objectContaining({ kind: "firma", code: "FIRMANTE", message: "La firma es del certificado de la cédula 112120468, no de el emisor (3101123456): confirme que quien firmó representa a 3101123456." }),
    ]);
  });

  it("not a comprobante: refused with the reason", () => {
    const j = judgeReceivedDocument('<?xml version="1.0"?><Pedido xmlns="urn:x"><Total>1</Total></Pedido>', deps);
    expect(j).toMatchObject({ ok: false, summary: null, model: null });
    expect(j.problems).toEqual([expect.objectContaining({ kind: "no-comprobante", code: "NO_COMPROBANTE", title: "No es un comprobante electrónico" })]);
    expect(judgeReceivedDocument("esto no es XML", deps).problems[0].kind).toBe("no-comprobante");
  });
});
