/**
 * The sandbox with the real library judges like Hacienda (issue 11 point 10, decision 142):
 * compiled XSD validation (code -1 with the validator's text), verify.ts (signature and signer),
 * the clave against the XML, the date window on the sandbox's own clock, the consecutive number
 * (-99), the engine's business rules with the amounts, receiver messages against the comprobante
 * they answer; MensajeHacienda signed with the sandbox's own test certificate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHaciendaClient, sandboxEnvironment, type HaciendaClient, type StatusResult } from "../client.ts";
import { buildXml } from "../build.ts";
import { buildClave, buildConsecutivo } from "../clave.ts";
import { EXAMPLE_ISSUED_AT, exampleDocument } from "../examples.ts";
import type { Comprobante, MensajeReceptor } from "../model.ts";
import { parseReceived, type ReceivedSummary } from "../parse.ts";
import { signXml } from "../sign.ts";
import { testSchemaSet } from "../testing/schemas.ts";
import { testSigner, type TestSigner } from "../testing/fixtures/documents.ts";
import { verifyXml } from "../verify.ts";
import { validateSchema } from "../xsd/index.ts";
import { startRealSandbox } from "./real.ts";
import { DEFAULT_SANDBOX_USER, SANDBOX_CODES, type Sandbox } from "./server.ts";

const creds = { username: DEFAULT_SANDBOX_USER.username, password: DEFAULT_SANDBOX_USER.password };

let sandbox: Sandbox;
let client: HaciendaClient;
let signer: TestSigner;
let other: TestSigner;
/** The sandbox's clock: issuing happens at EXAMPLE_ISSUED_AT, Hacienda receives a minute later. */
const clock = { now: EXAMPLE_ISSUED_AT.getTime() + 60_000 };

beforeAll(async () => {
  sandbox = await startRealSandbox({ processingDelayMs: 0, processingPolls: 1, schemaSet: testSchemaSet(), now: () => clock.now });
  client = createHaciendaClient({
    ...sandboxEnvironment(sandbox.url),
    verify: verifyXml,
    parse: parseReceived,
    backoffBaseMs: 5,
    rateLimitPerSecond: 0,
  });
  signer = testSigner();
  other = testSigner({ cedula: "112120468", idType: "01", name: "OTRA PERSONA" });
});
afterAll(async () => {
  await sandbox?.close();
});

let sequence = 100;

/** An example FE (or `kind`) with its own consecutive and a clave that matches it. */
function invoice(over: Partial<Comprobante> = {}, kind: "fe" | "te" = "fe"): Comprobante {
  const doc = exampleDocument(kind) as Comprobante;
  const issuedAt = over.issuedAt ?? doc.issuedAt;
  const consecutivo = buildConsecutivo({ branch: 1, terminal: 1, docType: kind === "fe" ? "01" : "04", sequence: ++sequence });
  const clave = buildClave({ issuedAt, issuerId: doc.issuer.id.number, issuerIdType: doc.issuer.id.type as never, consecutivo, situacion: 1, securityCode: "12345678" });
  return { ...doc, clave, consecutivo, ...over };
}

function sign(xml: string, by: TestSigner = signer): string {
  return signXml(xml, by.key, { now: EXAMPLE_ISSUED_AT });
}

async function send(xml: string, facts: { clave: string; emisor: string; tipo?: string; fecha?: string }): Promise<StatusResult> {
  await client.submit(creds, {
    clave: facts.clave,
    fecha: facts.fecha ?? "2026-11-21T09:30:00-06:00",
    emisor: { tipoIdentificacion: facts.tipo ?? "02", numeroIdentificacion: facts.emisor },
    receptor: { tipoIdentificacion: "02", numeroIdentificacion: "3102654321" },
    comprobanteXml: xml,
  });
  const first = await client.status(creds, facts.clave);
  expect(first.estado).toBe("recibido");
  return client.status(creds, facts.clave);
}

async function sendDoc(doc: Comprobante, by: TestSigner = signer, edit: (xml: string) => string = (x) => x) {
  const xml = sign(edit(buildXml(doc)), by);
  return send(xml, { clave: doc.clave, emisor: doc.issuer.id.number, tipo: doc.issuer.id.type });
}

/** The `codigo, mensaje` rows of an answer's DetalleMensaje. */
function rows(st: StatusResult): Array<[number, string]> {
  return [...(st.respuesta?.detalleMensaje ?? "").matchAll(/^(-?\d+), "(.*)", -?\d+, -?\d+$/gm)].map((m) => [Number(m[1]), m[2]!]);
}

describe("sandbox with the real validator, verifier, rules and signer", () => {
  it("accepts a valid signed comprobante; its MensajeHacienda is schema-valid and its signature verifies", async () => {
    const doc = invoice();
    const st = await sendDoc(doc);
    expect(st.respuesta?.detalleMensaje).toBe("Este comprobante fue aceptado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios");
    expect(st.estado).toBe("aceptado");
    const mh = st.respuesta!;
    expect(mh.verification?.valid).toBe(true);
    expect(mh.clave).toBe(doc.clave);
    expect(mh.mensaje).toBe("1");
    expect(validateSchema(mh.xml, testSchemaSet())).toEqual([]);
    expect(verifyXml(mh.xml).certificate?.cedula).toBe("2100042005");
    expect(mh.xml).toContain("<NombreEmisor>Soluciones Colibrí Sociedad Anónima</NombreEmisor>");
    expect(mh.xml).toContain("<NumeroCedulaReceptor>3102654321</NumeroCedulaReceptor>");
  });

  it("rejects a schema error with code -1 and the validator's text", async () => {
    const doc = invoice();
    const st = await sendDoc(doc, signer, (x) => x.replace(/<Ubicacion>[\s\S]*?<\/Ubicacion>/, ""));
    expect(st.estado).toBe("rechazado");
    expect(st.respuesta?.mensaje).toBe("3");
    const schema = rows(st).filter(([c]) => c === SANDBOX_CODES.schema);
    expect(schema.length).toBeGreaterThan(0);
    expect(schema[0]![1]).toMatch(/^El comprobante no cumple el esquema XSD v4\.4 en FacturaElectronica\/Emisor\/Ubicacion: El campo FacturaElectronica\/Emisor\/Ubicacion es obligatorio/);
    expect(st.respuesta?.verification?.valid).toBe(true);
  });

  it("rejects a comprobante altered after signing", async () => {
    const doc = invoice();
    const xml = sign(buildXml(doc)).replace("<TotalComprobante>", "<TotalComprobante>1");
    const st = await send(xml, { clave: doc.clave, emisor: doc.issuer.id.number });
    expect(st.estado).toBe("rechazado");
    expect(rows(st).map(([c]) => c)).toContain(SANDBOX_CODES.signature);
    expect(st.respuesta?.detalleMensaje).toContain("La firma del comprobante electrónico no es válida");
  });

  it("a MensajeHacienda altered in transit no longer verifies on the client", async () => {
    const st = await sendDoc(invoice());
    const altered = st.respuesta!.xml.replace("<Mensaje>1</Mensaje>", "<Mensaje>3</Mensaje>");
    expect(verifyXml(altered).valid).toBe(false);
  });
});

describe("it judges like Hacienda what it used to accept", () => {
  it("a clave whose date, consecutive or issuer does not match the XML", async () => {
    const base = invoice();
    const wrongDate = { ...base, clave: buildClave({ issuedAt: new Date("2026-11-20T15:30:00Z"), issuerId: "3101123456", consecutivo: base.consecutivo, situacion: 1, securityCode: "12345678" }) };
    const st1 = await sendDoc(wrongDate);
    expect(st1.estado).toBe("rechazado");
    expect(rows(st1)).toContainEqual([SANDBOX_CODES.clave, expect.stringMatching(/La fecha de la clave \(20\/11\/26\) no corresponde a la FechaEmision del comprobante \(21\/11\/26/)]);

    const other = invoice();
    const wrongConsecutive = { ...other, clave: buildClave({ issuedAt: other.issuedAt, issuerId: "3101123456", consecutivo: buildConsecutivo({ branch: 1, terminal: 1, docType: "01", sequence: 9999 }), situacion: 1, securityCode: "12345678" }) };
    const st2 = await sendDoc(wrongConsecutive);
    expect(rows(st2)).toContainEqual([SANDBOX_CODES.clave, expect.stringMatching(/El consecutivo de la clave \(00100001010000009999\) no corresponde al NumeroConsecutivo/)]);

    const third = invoice();
    const wrongIssuer = { ...third, clave: buildClave({ issuedAt: third.issuedAt, issuerId: "3101999999", consecutivo: third.consecutivo, situacion: 1, securityCode: "12345678" }) };
    const st3 = await sendDoc(wrongIssuer);
    expect(rows(st3)).toContainEqual([SANDBOX_CODES.clave, "La identificación de la clave (003101999999) no corresponde a la del emisor en el comprobante (3101123456)."]);
  });

  it("a document signed with another cédula's certificate", async () => {
    const st = await sendDoc(invoice(), other);
    expect(st.estado).toBe("rechazado");
    expect(rows(st)).toEqual([
      [SANDBOX_CODES.signer, "El comprobante está firmado con el certificado de la identificación 112120468, que no es la del emisor (3101123456): debe firmarse con la llave criptográfica del emisor."],
    ]);
  });

  it("dates in 2020 and 2030 (the window is the sandbox's own clock); a late one is accepted with the -16 warning", async () => {
    const old = await sendDoc(invoice({ issuedAt: new Date("2020-03-02T15:00:00Z") }));
    expect(old.estado).toBe("rechazado");
    expect(rows(old)).toEqual([[SANDBOX_CODES.date, expect.stringMatching(/^La FechaEmision \(2020-03-02T09:00:00-06:00\) es anterior al 01\/06\/2025/)]]);
    const future = await sendDoc(invoice({ issuedAt: new Date("2030-01-15T15:00:00Z") }));
    expect(future.estado).toBe("rechazado");
    expect(rows(future)).toEqual([[SANDBOX_CODES.date, expect.stringMatching(/^La FechaEmision \(2030-01-15T09:00:00-06:00\) es posterior al momento en que Hacienda recibió el comprobante \(2026-11-21T15:31:00Z\)/)]]);
    // Three days late: accepted, with Hacienda's -16 row inside the accepted answer.
    const late = await sendDoc(invoice({ issuedAt: new Date(EXAMPLE_ISSUED_AT.getTime() - 3 * 86_400_000) }));
    expect(late.estado).toBe("aceptado");
    expect(late.respuesta?.mensaje).toBe("1");
    expect(late.respuesta?.detalleMensaje).toMatch(/^Este comprobante fue aceptado en el ambiente de pruebas/);
    expect(rows(late)).toEqual([[SANDBOX_CODES.late, expect.stringMatching(/de manera extemporánea/)]]);
    // Within the clock skew allowance (a couple of minutes ahead of the sandbox): accepted.
    expect((await sendDoc(invoice({ issuedAt: new Date(clock.now + 120_000) }))).estado).toBe("aceptado");
  });

  it("a TotalComprobante of 1.00 on a 1,000 colones sale with a valid signature", async () => {
    const doc = invoice({
      saleCondition: "01",
      creditDays: undefined,
      otherCharges: [],
      payments: [{ code: "01" }],
      lines: [{ cabys: "4523000000100", quantity: "1", unit: "Unid", description: "Venta exenta de prueba", unitPrice: "1000", taxes: [{ code: "01", tarifaCode: "10" }] }],
    });
    const built = buildXml(doc);
    expect(built).toContain("<TotalComprobante>1000.00000</TotalComprobante>");
    const st = await sendDoc(doc, signer, (x) => x.replace("<TotalComprobante>1000.00000</TotalComprobante>", "<TotalComprobante>1.00000</TotalComprobante>"));
    expect(st.respuesta?.verification?.valid).toBe(true);
    expect(st.estado).toBe("rechazado");
    expect(rows(st)).toContainEqual([SANDBOX_CODES.rule, expect.stringMatching(/ResumenFactura\/TotalComprobante dice 1\.00000 pero las líneas suman 1000\.00000/)]);
    expect(rows(st).every(([c]) => c === SANDBOX_CODES.rule)).toBe(true);
  });

  it("a rule violation the engine detects: a credit sale without PlazoCredito", async () => {
    const st = await sendDoc(invoice({ saleCondition: "02", creditDays: undefined }));
    expect(st.estado).toBe("rechazado");
    expect(rows(st)).toEqual([[SANDBOX_CODES.rule, "Una venta a crédito (CondicionVenta 02) necesita PlazoCredito: indique los días de crédito (1 o más)."]]);
  });

  it("a duplicated consecutive number gets -99", async () => {
    const first = invoice();
    expect((await sendDoc(first)).estado).toBe("aceptado");
    // Same issuer and NumeroConsecutivo, another security code: another clave.
    const twin = { ...first, clave: `${first.clave.slice(0, 42)}87654321` };
    const st = await sendDoc(twin);
    expect(st.estado).toBe("rechazado");
    expect(rows(st)).toEqual([[SANDBOX_CODES.duplicateConsecutive, `La numeración consecutiva ${first.consecutivo} de la identificación 3101123456 ya fue utilizada por el comprobante ${first.clave}.`]]);
  });

  it("a MensajeReceptor for a clave it never received; one for a received invoice is accepted; one with another total is not", async () => {
    const mr = (over: Partial<MensajeReceptor>, n: number): MensajeReceptor => ({
      ...(exampleDocument("mr") as MensajeReceptor),
      issuedAt: EXAMPLE_ISSUED_AT,
      receiverConsecutivo: buildConsecutivo({ branch: 1, terminal: 1, docType: "05", sequence: n }),
      ...over,
    });
    // The receiver (3102654321) answers with its own key.
    const receiver = testSigner({ cedula: "3102654321", idType: "02", name: "DISTRIBUIDORA LA SABANA LIMITADA" });
    const sendMr = async (m: MensajeReceptor) => {
      const xml = signXml(buildXml(m), receiver.key, { now: EXAMPLE_ISSUED_AT });
      await client.submit(creds, {
        clave: m.clave,
        fecha: "2026-11-21T09:31:00-06:00",
        emisor: { tipoIdentificacion: "02", numeroIdentificacion: m.issuerId },
        receptor: { tipoIdentificacion: "02", numeroIdentificacion: m.receiverId },
        consecutivoReceptor: m.receiverConsecutivo,
        comprobanteXml: xml,
      });
      expect((await client.status(creds, m.clave, m.receiverConsecutivo)).estado).toBe("recibido");
      return client.status(creds, m.clave, m.receiverConsecutivo);
    };

    const unknown = await sendMr(mr({ issuerId: "3101123456", receiverId: "3102654321" }, 1));
    expect(unknown.estado).toBe("rechazado");
    expect(rows(unknown)).toEqual([[SANDBOX_CODES.receiverMessage, expect.stringMatching(/^Hacienda no ha recibido el comprobante con clave 50621112600310265432100100001010000001234112345678/)]]);

    const doc = invoice();
    const accepted = await sendDoc(doc);
    expect(accepted.estado).toBe("aceptado");
    const total = /<TotalComprobante>([^<]*)</.exec(buildXml(doc))![1]!;
    const tax = /<TotalImpuesto>([^<]*)</.exec(buildXml(doc))![1]!;
    const answer = { clave: doc.clave, issuerId: "3101123456", receiverId: "3102654321", total, taxTotal: tax, creditableTax: tax };
    const ok = await sendMr(mr(answer, 2));
    expect(ok.respuesta?.detalleMensaje).toBe("Este comprobante fue aceptado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios");
    expect(ok.respuesta?.xml).toContain("<NombreEmisor>Soluciones Colibrí Sociedad Anónima</NombreEmisor>");

    const wrong = await sendMr(mr({ ...answer, total: "1.00000" }, 3));
    expect(wrong.estado).toBe("rechazado");
    expect(rows(wrong)).toEqual([[SANDBOX_CODES.receiverMessage, `TotalFactura (1.00000) no es el total del comprobante (${total}).`]]);
  });

  it("a document that is not a v4.4 comprobante is received and answered 'error'", async () => {
    const clave = invoice().clave;
    await client.submit(creds, {
      clave,
      fecha: "2026-11-21T09:30:00-06:00",
      emisor: { tipoIdentificacion: "02", numeroIdentificacion: "3101123456" },
      comprobanteXml: `<?xml version="1.0"?><Pedido><Clave>${clave}</Clave></Pedido>`,
    });
    expect((await client.status(creds, clave)).estado).toBe("recibido");
    const st = await client.status(creds, clave);
    expect(st.estado).toBe("error");
    expect(st.respuesta).toBeUndefined();
    expect(sandbox.state.errorKeys()).toContain(clave);
  });
});

describe("end to end: build → sign → send → poll → aceptado", () => {
  it("issues five invoices built by build.ts and gets a verified MensajeHacienda for each", async () => {
    for (let n = 1; n <= 5; n++) {
      const doc = exampleDocument("fe") as Comprobante;
      const consecutivo = buildConsecutivo({ branch: 1, terminal: 1, docType: "01", sequence: 500 + n });
      const clave = buildClave({
        issuedAt: doc.issuedAt,
        issuerId: doc.issuer.id.number,
        issuerIdType: doc.issuer.id.type as never,
        consecutivo,
        situacion: 1,
        securityCode: String(10_000_000 + n),
      });
      const built = { ...doc, clave, consecutivo };
      const unsigned = buildXml(built);
      expect(validateSchema(unsigned, testSchemaSet(), { unsigned: true })).toEqual([]);
      const signed = signXml(unsigned, signer.key, { now: doc.issuedAt });
      expect(verifyXml(signed).valid).toBe(true);
      await client.submit(creds, {
        clave,
        fecha: doc.issuedAt,
        emisor: { tipoIdentificacion: doc.issuer.id.type, numeroIdentificacion: doc.issuer.id.number },
        comprobanteXml: signed,
      });
      let st = await client.status(creds, clave);
      expect(st.estado).toBe("recibido");
      st = await client.status(creds, clave);
      expect(st.estado).toBe("aceptado");
      expect(st.respuesta?.verification?.valid).toBe(true);
      expect(st.respuesta?.clave).toBe(clave);
      expect(st.respuesta?.detalleMensaje).toMatch(/aceptado en el ambiente de pruebas/);
      expect(validateSchema(st.respuesta!.xml, testSchemaSet())).toEqual([]);
      const summary = st.respuesta?.summary as ReceivedSummary;
      expect(summary.kind).toBe("MH");
      expect(summary.message?.mensaje).toBe("1");
      expect(summary.signature.valid).toBe(true);
    }
    expect(sandbox.state.doubleRegistrations()).toEqual([]);
  });
});
