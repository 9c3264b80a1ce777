/**
 * The sandbox with the real library: compiled XSD validation, verify.ts, sign.ts (MensajeHacienda
 * signed with the sandbox's own test certificate).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHaciendaClient, sandboxEnvironment, type HaciendaClient } from "../client.ts";
import { buildXml } from "../build.ts";
import { buildClave, buildConsecutivo } from "../clave.ts";
import { exampleDocument } from "../examples.ts";
import type { Comprobante } from "../model.ts";
import { parseReceived, type ReceivedSummary } from "../parse.ts";
import { signXml } from "../sign.ts";
import { testSchemaSet } from "../testing/schemas.ts";
import { TEST_NOW, testSigner, unsignedDoc44, type TestSigner } from "../testing/fixtures/documents.ts";
import { verifyXml } from "../verify.ts";
import { validateSchema } from "../xsd/index.ts";
import { startRealSandbox } from "./real.ts";
import { DEFAULT_SANDBOX_USER, type Sandbox } from "./server.ts";

const creds = { username: DEFAULT_SANDBOX_USER.username, password: DEFAULT_SANDBOX_USER.password };
const UBICACION =
  "<Ubicacion><Provincia>1</Provincia><Canton>01</Canton><Distrito>01</Distrito><OtrasSenas>Frente al parque central</OtrasSenas></Ubicacion>";

let sandbox: Sandbox;
let client: HaciendaClient;
let signer: TestSigner;

beforeAll(async () => {
  sandbox = await startRealSandbox({ processingDelayMs: 0, processingPolls: 1, schemaSet: testSchemaSet() });
  client = createHaciendaClient({
    ...sandboxEnvironment(sandbox.url),
    verify: verifyXml,
    parse: parseReceived,
    backoffBaseMs: 5,
    rateLimitPerSecond: 0,
  });
  signer = testSigner();
});
afterAll(async () => {
  await sandbox?.close();
});

function claveFor(n: number): string {
  return `506150626003101123456001000010100000${String(n).padStart(5, "0")}112345678`;
}

/** Fixture document with its own clave; `valid` adds the Ubicacion the XSD requires. */
function signedDoc(n: number, { valid = true } = {}): { clave: string; xml: string } {
  const clave = claveFor(n);
  let unsigned = unsignedDoc44().replace(/<Clave>\d{50}<\/Clave>/, `<Clave>${clave}</Clave>`);
  if (valid) unsigned = unsigned.replace("<CorreoElectronico>facturas", `${UBICACION}<CorreoElectronico>facturas`);
  return { clave, xml: signXml(unsigned, signer.key, { now: TEST_NOW }) };
}

async function sendAndPoll(clave: string, xml: string) {
  await client.submit(creds, {
    clave,
    fecha: "2026-06-15T10:30:00-06:00",
    emisor: { tipoIdentificacion: "02", numeroIdentificacion: "3101123456" },
    receptor: { tipoIdentificacion: "01", numeroIdentificacion: "112120468" },
    comprobanteXml: xml,
  });
  const first = await client.status(creds, clave);
  expect(first.estado).toBe("procesando");
  return client.status(creds, clave);
}

describe("sandbox with the real validator, verifier and signer", () => {
  it("accepts a valid signed comprobante; its MensajeHacienda is schema-valid and its signature verifies", async () => {
    const { clave, xml } = signedDoc(1);
    expect(validateSchema(xml, testSchemaSet())).toEqual([]);
    const st = await sendAndPoll(clave, xml);
    expect(st.estado).toBe("aceptado");
    const mh = st.respuesta!;
    expect(mh.verification?.valid).toBe(true);
    expect(mh.clave).toBe(clave);
    expect(mh.mensaje).toBe("1");
    expect(validateSchema(mh.xml, testSchemaSet())).toEqual([]);
    const v = verifyXml(mh.xml);
    expect(v.certificate?.cedula).toBe("2100042005");
    expect(mh.xml).toContain("<NombreEmisor>Ferretería Ñandú S.A.</NombreEmisor>");
    expect(mh.xml).toContain("<NumeroCedulaReceptor>112120468</NumeroCedulaReceptor>");
  });

  it("rejects a schema error naming the missing field", async () => {
    const { clave, xml } = signedDoc(2, { valid: false });
    const st = await sendAndPoll(clave, xml);
    expect(st.estado).toBe("rechazado");
    expect(st.respuesta?.mensaje).toBe("3");
    expect(st.respuesta?.detalleMensaje).toContain("FacturaElectronica/Emisor/Ubicacion");
    expect(st.respuesta?.verification?.valid).toBe(true);
  });

  it("rejects a comprobante altered after signing", async () => {
    const { clave, xml } = signedDoc(3);
    const tampered = xml.replace("<TotalComprobante>", "<TotalComprobante>1");
    expect(tampered).not.toBe(xml);
    const st = await sendAndPoll(clave, tampered);
    expect(st.estado).toBe("rechazado");
    expect(st.respuesta?.detalleMensaje).toContain("La firma del comprobante electrónico no es válida");
  });

  it("a MensajeHacienda altered in transit no longer verifies on the client", async () => {
    const { clave, xml } = signedDoc(4);
    const st = await sendAndPoll(clave, xml);
    const altered = st.respuesta!.xml.replace("<Mensaje>1</Mensaje>", "<Mensaje>3</Mensaje>");
    expect(verifyXml(altered).valid).toBe(false);
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
      expect(st.estado).toBe("procesando");
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
