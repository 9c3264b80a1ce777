/**
 * The CLI end to end: most commands run through its entry point in this process; three run the real
 * binary (`tsx app/hacienda/cli.ts`) to prove its stdin, stdout, stderr and exit-code wiring.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain } from "./cli.ts";
import { startRealSandbox } from "./sandbox/real.ts";
import { DEFAULT_SANDBOX_USER, type Sandbox } from "./sandbox/server.ts";
import { testSchemaSet } from "./testing/schemas.ts";

const repo = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const tsx = join(repo, "node_modules", ".bin", "tsx");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real binary, as a user runs it (used where the process wiring itself is under test). */
function spawned(args: string[], { input, env = {} }: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tsx, ["app/hacienda/cli.ts", ...args], {
      cwd: repo,
      env: { ...process.env, ...BLANK_ENV, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

const BLANK_ENV = { HACIENDA_ENV: "", HACIENDA_USER: "", HACIENDA_PASSWORD: "" };

/** The same entry point in this process (what the binary runs after parsing its arguments). */
async function cli(args: string[], { input, env = {} }: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runMain(args, {
    stdin: async () => input ?? "",
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { ...process.env, ...BLANK_ENV, ...env },
  });
  return { code, stdout, stderr };
}

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "colibri-cli-"));
  sandbox = await startRealSandbox({ processingDelayMs: 0, schemaSet: testSchemaSet() });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("hacienda CLI", () => {
  it("example → build → cert → sign → validate → verify, then send and status against the sandbox", async () => {
    const example = await spawned(["example", "fe"]);
    expect(example.code).toBe(0);
    const model = JSON.parse(example.stdout);
    expect(model.kind).toBe("fe");
    writeFileSync(join(dir, "fe.json"), example.stdout);

    const built = await cli(["build", join(dir, "fe.json")]);
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/^<\?xml[^>]*\?><FacturaElectronica xmlns=/);
    expect(built.stdout).toContain(`<Clave>${model.clave}</Clave>`);

    const unsignedValid = await spawned(["validate"], { input: built.stdout });
    expect(unsignedValid.stdout).toContain("Documento válido (sin firma)");
    expect(unsignedValid.code).toBe(0);

    const cert = await cli(["cert", "--cedula", model.issuer.id.number, "--pin", "4321", "--out", join(dir, "llave.p12")]);
    expect(cert.code).toBe(0);
    expect(readFileSync(join(dir, "llave.p12")).length).toBeGreaterThan(1000);

    const signed = await cli(["sign", "--p12", join(dir, "llave.p12"), "--pin", "4321"], { input: built.stdout });
    expect(signed.code).toBe(0);
    expect(signed.stdout).toContain("<ds:Signature");
    writeFileSync(join(dir, "firmado.xml"), signed.stdout);

    const valid = await cli(["validate"], { input: signed.stdout });
    expect(valid.stdout).toContain("Documento válido: esquema y reglas de negocio.");
    expect(valid.code).toBe(0);

    const verified = await cli(["verify"], { input: signed.stdout });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("Firma válida");

    const parsed = await cli(["parse"], { input: signed.stdout });
    expect(parsed.code).toBe(0);
    const summary = JSON.parse(parsed.stdout);
    expect(summary).toMatchObject({ kind: "FE", version: "4.4", clave: model.clave });
    expect(summary.signature.valid).toBe(true);
    expect(summary.issuer.id).toBe(model.issuer.id.number);

    const tampered = await cli(["verify"], { input: signed.stdout.replace("<TotalComprobante>", "<TotalComprobante>1") });
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("Firma NO válida");

    const env = {
      HACIENDA_ENV: "sandbox",
      HACIENDA_BASE_URL: sandbox.url,
      HACIENDA_USER: DEFAULT_SANDBOX_USER.username,
      HACIENDA_PASSWORD: DEFAULT_SANDBOX_USER.password,
    };
    const sent = await cli(["send", "--file", join(dir, "firmado.xml")], { env });
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ clave: model.clave, enviado: true, yaRecibido: false, http: 202 });

    const again = await cli(["send", "--file", join(dir, "firmado.xml")], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ enviado: true, yaRecibido: true });

    const status = await cli(["status", model.clave], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ clave: model.clave, estado: "aceptado", mensaje: "1", firmaRespuestaValida: true });
    expect(sandbox.state.registrations.get(model.clave)).toBe(1);
  }, 120_000);

  it("validate prints schema and rule errors: a changed TotalComprobante (unsigned and re-signed), a broken document", async () => {
    const example = await cli(["example", "fe"]);
    writeFileSync(join(dir, "fe2.json"), example.stdout);
    const built = await cli(["build", join(dir, "fe2.json")]);
    expect(built.code).toBe(0);
    const total = /<TotalComprobante>([^<]+)<\/TotalComprobante>/.exec(built.stdout)![1];
    expect(total).not.toBe("1130.00000");
    const altered = built.stdout.replace(`<TotalComprobante>${total}</TotalComprobante>`, "<TotalComprobante>1130.00000</TotalComprobante>");
    const expected = `[reglas] ResumenFactura/TotalComprobante: ResumenFactura/TotalComprobante dice 1130.00000 pero las líneas suman ${total}`;

    const unsigned = await cli(["validate"], { input: altered });
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain(expected);
    expect(unsigned.stdout).not.toContain("[esquema]");
    expect(unsigned.stderr).toContain("1 error(es).");

    await cli(["cert", "--cedula", "3101123456", "--pin", "9876", "--out", join(dir, "llave2.p12")]);
    const resigned = await cli(["sign", "--p12", join(dir, "llave2.p12"), "--pin", "9876"], { input: altered });
    expect(resigned.code).toBe(0);
    expect((await cli(["verify"], { input: resigned.stdout })).code).toBe(0); // the signature is fine; the math is not
    const signedBad = await cli(["validate"], { input: resigned.stdout });
    expect(signedBad.code).toBe(1);
    expect(signedBad.stdout).toContain(expected);

    const broken = await cli(["validate"], { input: built.stdout.replace(/<CondicionVenta>[^<]+<\/CondicionVenta>/, "<CondicionVenta>77</CondicionVenta>") });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/\[esquema\] [^\n]*CondicionVenta/);

    const notXml = await cli(["validate"], { input: "esto no es XML" });
    expect(notXml.code).toBe(1);
    expect(notXml.stdout).toMatch(/\[(esquema|reglas)\]/);
  }, 120_000);

  it("send reads the identification types from the XML; a MensajeReceptor, which has none, needs --tipo-emisor/--tipo-receptor (issue 11 point 11)", async () => {
    const env = { HACIENDA_ENV: "sandbox", HACIENDA_BASE_URL: sandbox.url, HACIENDA_USER: DEFAULT_SANDBOX_USER.username, HACIENDA_PASSWORD: DEFAULT_SANDBOX_USER.password };
    // A MensajeReceptor answering a supplier with a NITE (10 digits, like a cédula jurídica).
    const mr = JSON.parse((await cli(["example", "mr"])).stdout);
    mr.issuerId = "4000123456";
    writeFileSync(join(dir, "mr.json"), JSON.stringify(mr));
    const built = await cli(["build", join(dir, "mr.json")]);
    await cli(["cert", "--cedula", "3101123456", "--pin", "1111", "--out", join(dir, "llave-mr.p12")]);
    const signedMr = await cli(["sign", "--p12", join(dir, "llave-mr.p12"), "--pin", "1111"], { input: built.stdout });
    writeFileSync(join(dir, "mr.xml"), signedMr.stdout);

    const guessed = await cli(["send", "--file", join(dir, "mr.xml")], { env });
    expect(guessed.code).toBe(2);
    expect(guessed.stderr).toContain("El XML no indica el tipo de identificación del emisor: indíquelo con --tipo-emisor");

    const sent = await cli(["send", "--file", join(dir, "mr.xml"), "--tipo-emisor", "04", "--tipo-receptor", "02"], { env });
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    const received = sandbox.state.documents.get(`${mr.clave}-${mr.receiverConsecutivo}`)!;
    expect(received.emisor).toEqual({ tipoIdentificacion: "04", numeroIdentificacion: "4000123456" });
    expect(received.receptor).toEqual({ tipoIdentificacion: "02", numeroIdentificacion: "3101123456" });

    // A comprobante states its types; a flag that contradicts the XML is refused.
    const contradicts = await cli(["send", "--file", join(dir, "firmado.xml"), "--tipo-emisor", "04"], { env });
    expect(contradicts.code).toBe(2);
    expect(contradicts.stderr).toContain("--tipo-emisor 04 no coincide con el tipo de identificación del emisor en el XML (02)");
  }, 120_000);

  it("validate --received judges a supplier's document as Hacienda does (issue 11 point 6)", async () => {
    const example = await cli(["example", "fe"]);
    writeFileSync(join(dir, "fe3.json"), example.stdout);
    const built = (await cli(["build", join(dir, "fe3.json")])).stdout;
    // A 2-decimal system's invoice: accepted as received, refused by the exact checks for what Colibrí issues.
    const rounded = built.replace(/<(Monto|MontoTotal|SubTotal|BaseImponible|ImpuestoNeto|MontoTotalLinea|MontoCargo|MontoDescuento|Total[A-Za-z]*|MontoExoneracion)>(\d+\.\d{5})</g, (_, tag: string, v: string) => `<${tag}>${(Math.round(Number(v) * 100 + 1e-9) / 100).toFixed(2)}<`);
    await cli(["cert", "--cedula", "3101123456", "--pin", "2222", "--out", join(dir, "llave3.p12")]);
    const signedRounded = (await cli(["sign", "--p12", join(dir, "llave3.p12"), "--pin", "2222"], { input: rounded })).stdout;
    writeFileSync(join(dir, "proveedor.xml"), signedRounded);

    const asReceived = await spawned(["validate", "--received", join(dir, "proveedor.xml")]);
    expect(asReceived.stdout).toContain("FacturaElectronica v4.4 — clave");
    expect(asReceived.stdout).toContain("Comprobante recibido aceptable: firma, esquema y reglas como las aplica Hacienda.");
    expect(asReceived.code).toBe(0);
    const asIssued = await cli(["validate", join(dir, "proveedor.xml")]);
    expect(asIssued.code).toBe(1);
    expect(asIssued.stdout).toContain("[reglas] ResumenFactura/TotalComprobante");

    // The real samples: the MR v4.2 passes (with notes), the FE v4.3 fails on its signature.
    const samples = resolve(repo, "../shared/hacienda/samples");
    const mr = await cli(["validate", "--received", join(samples, "MR_v4.2_signed_nehemiascr_factura.xml")]);
    expect(mr.code).toBe(0);
    expect(mr.stdout).toContain("[nota] No se revisó el esquema: no hay esquemas de la versión 4.2 disponibles aquí.");
    const fe43 = await cli(["validate", "--received", join(samples, "FE_v4.3_signed_devfynet_fe_firmada.xml")]);
    expect(fe43.code).toBe(1);
    expect(fe43.stdout).toMatch(/\[firma\] ds:Signature: .*modificado después de firmarse/);
    expect(fe43.stderr).toContain("1 problema(s).");

    writeFileSync(join(dir, "pedido.xml"), '<?xml version="1.0"?><Pedido xmlns="urn:x"/>');
    const notOne = await cli(["validate", "--received", join(dir, "pedido.xml")]);
    expect(notOne.code).toBe(1);
    expect(notOne.stdout).toMatch(/^\[no-comprobante\] \(documento\): El XML no es un comprobante electrónico de Hacienda/);

    const missing = await cli(["validate", "--received"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Indique el archivo del comprobante recibido");
  }, 120_000);

  it("reports errors on stderr with a non-zero exit", async () => {
    const bad = await spawned(["send", "--file", "/nonexistent.xml"], {
      env: { HACIENDA_ENV: "sandbox", HACIENDA_BASE_URL: sandbox.url, HACIENDA_USER: "x", HACIENDA_PASSWORD: "y" },
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/^Error/);

    writeFileSync(join(dir, "x.xml"), `<?xml version="1.0"?><FacturaElectronica xmlns="https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/facturaElectronica"><Clave>50621112600310112345600100001010000000042120261121</Clave><FechaEmision>2026-11-21T09:30:00-06:00</FechaEmision><Emisor><Identificacion><Tipo>02</Tipo><Numero>3101123456</Numero></Identificacion></Emisor></FacturaElectronica>`);
    const wrongPassword = await cli(["send", "--file", join(dir, "x.xml")], {
      env: { HACIENDA_ENV: "sandbox", HACIENDA_BASE_URL: sandbox.url, HACIENDA_USER: DEFAULT_SANDBOX_USER.username, HACIENDA_PASSWORD: "mala" },
    });
    expect(wrongPassword.code).toBe(1);
    expect(wrongPassword.stderr).toContain("[CREDENCIALES_INVALIDAS]");

    const usage = await cli(["nada"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Comando desconocido");

    const claveOk = await cli(["clave", "build", "--fecha", "2026-11-05T10:00:00-06:00", "--cedula", "3101123456", "--tipo-id", "02", "--tipo", "fe", "--numero", "42", "--codigo", "12345678"]);
    expect(JSON.parse(claveOk.stdout)).toEqual({ clave: "50605112600310112345600100001010000000042112345678", consecutivo: "00100001010000000042" });
    const parsed = await cli(["clave", "parse", "50605112600310112345600100001010000000042112345678"]);
    expect(parsed.code).toBe(0);
    expect(JSON.parse(parsed.stdout)).toMatchObject({ day: 5, month: 11 });
    const badClave = await cli(["clave", "parse", "123"]);
    expect(badClave.code).toBe(1);
    expect(badClave.stderr).toMatch(/clave/i);

    const faults = await cli(["faults", "--url", sandbox.url, "--5xx", "0.25", "--delay-ms", "3"]);
    expect(faults.code).toBe(0);
    expect(sandbox.faults()).toMatchObject({ error5xxShare: 0.25, delayMs: 3 });
    sandbox.setFaults({ error5xxShare: 0, delayMs: 0 });
  }, 120_000);
});
