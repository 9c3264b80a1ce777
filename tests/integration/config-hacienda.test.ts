// /config-hacienda/:company_id: numbering, access, the .p12 key and its checks, 'probar llave' and
// 'probar acceso' against the real local sandbox; secrets encrypted at rest and never sent back.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentCounters, haciendaConfigs } from "../../db/schema/index.ts";
import * as route from "../../app/routes/config/config-hacienda.tsx";
import { makeTestP12 } from "../../app/hacienda/cert.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import { DEFAULT_SANDBOX_USER, type Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { CONFIG_MESSAGES, CONSECUTIVE_TYPES, keyExpiryText } from "../../app/domain/config-schemas.ts";
import { setupConfigForCompany, setupDemoCompany } from "../../app/server/config-setup.server.ts";
import { decryptSecret } from "../../app/server/secrets.server.ts";
import { call, createCompany, createUser, signedIn, type CallResult } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

function toastOf(res: CallResult): string | undefined {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("colibri_flash="));
  if (!cookie) return undefined;
  const body = cookie.split(";")[0]!.slice("colibri_flash=".length).split(".")[0]!;
  return JSON.parse(Buffer.from(body, "base64url").toString())[0]?.text;
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const DAY = 86_400_000;
const now = new Date();
const PIN = "4321";
let goodKey: Buffer;
let expiredKey: Buffer;

beforeAll(async () => {
  database = await createTestDatabase();
  goodKey = makeTestP12({ cedula: "3101123456", idType: "02", name: "EMPRESA DE PRUEBA S.A.", pin: PIN, notBefore: new Date(now.getTime() - DAY), notAfter: new Date(now.getTime() + 400 * DAY) });
  expiredKey = makeTestP12({ cedula: "3101123456", idType: "02", name: "EMPRESA VENCIDA S.A.", pin: PIN, notBefore: new Date(now.getTime() - 800 * DAY), notAfter: new Date(now.getTime() - 2 * DAY) });
});
afterAll(() => database.drop());

async function setup() {
  const admin = await createUser(database.db, { role: "admin" });
  const staff = await createUser(database.db);
  // The test keys are made for cédula jurídica 3-101-123456: the company's own (decision 115).
  const company = await createCompany(database.db, { userIds: [admin.id, staff.id], identification: "3101123456" });
  await setupConfigForCompany(database.db, company.id);
  return { admin, staff, company, b: await signedIn(database.db, admin.id, company.id), s: await signedIn(database.db, staff.id, company.id) };
}

const p12File = (bytes: Buffer, name = "llave.p12") => new File([new Uint8Array(bytes)], name, { type: "application/x-pkcs12" });

function validForm(over: Record<string, string | Blob> = {}): Record<string, string | Blob> {
  const form: Record<string, string | Blob> = {
    intent: "save",
    branch: "1",
    terminal: "1",
    username: "cpj-3-101-123456@stag.comprobanteselectronicos.go.cr",
    password: "clave-hacienda-secreta",
    pin: PIN,
    email_rejection: "",
    environment: "staging",
    file_key: p12File(goodKey),
  };
  for (const t of CONSECUTIVE_TYPES) form[t.field] = "1";
  return { ...form, ...over };
}

const row = async (companyId: number) => (await database.db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId)))[0];
const counters = async (companyId: number, branch = 1, terminal = 1) =>
  Object.fromEntries(
    (
      await database.db
        .select()
        .from(documentCounters)
        .where(and(eq(documentCounters.companyId, companyId), eq(documentCounters.branch, branch), eq(documentCounters.terminal, terminal)))
    ).map((c) => [c.docType, c.nextNumber]),
  );

const path = (id: number) => `/config-hacienda/${id}`;
const params = (id: number) => ({ company_id: String(id) });

describe("access to the Hacienda screen", () => {
  it("admins of the company see it; staff get 403; another company's id is 404", async () => {
    const { b, s, company } = await setup();
    const other = await createCompany(database.db);
    expect((await call(b, route.loader, { path: path(company.id), params: params(company.id) })).status).toBe(200);
    expect((await call(s, route.loader, { path: path(company.id), params: params(company.id) })).status).toBe(403);
    expect((await call(s, route.action, { path: path(company.id), params: params(company.id), form: validForm() })).status).toBe(403);
    expect((await call(b, route.loader, { path: path(other.id), params: params(other.id) })).status).toBe(404);
    expect((await call(b, route.loader, { path: "/config-hacienda/abc", params: { company_id: "abc" } })).status).toBe(404);
    const res = await call(b, route.action, { path: path(other.id), params: params(other.id), form: validForm() });
    expect(res.status).toBe(404);
    expect((await row(other.id))).toBeUndefined();
  });
});

describe("saving numbering, access and key", () => {
  it("saves, encrypts every secret, stores the counters, and never sends a secret back", async () => {
    const { b, company } = await setup();
    const form = validForm({ cfe: "1543", cnc: "12", cte: "9999999999", crep: "0", branch: "2", terminal: "15", email_rejection: "rechazos@empresa.cr" });
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form });
    expect(res.status).toBe(302);
    expect(res.location).toBe(path(company.id));
    expect(toastOf(res)).toBe("Configuración guardada correctamente");
    const r = (await row(company.id))!;
    expect(r.branch).toBe(2);
    expect(r.terminal).toBe(15);
    expect(r.keyCedula).toBe("3101123456");
    expect(r.emailRejection).toBe("rechazos@empresa.cr");
    const raw = JSON.stringify(r);
    expect(raw).not.toContain("clave-hacienda-secreta");
    expect(raw).not.toContain(goodKey.toString("base64"));
    expect(r.pinEnc).not.toContain(PIN);
    expect(decryptSecret(r.passwordEnc!).toString()).toBe("clave-hacienda-secreta");
    expect(decryptSecret(r.pinEnc!).toString()).toBe(PIN);
    expect(decryptSecret(r.keyEnc!).equals(goodKey)).toBe(true);
    expect(await counters(company.id, 2, 15)).toMatchObject({ "01": 1543, "03": 12, "04": 9999999999, "10": 0, "02": 1 });

    const loaded = await call(b, route.loader, { path: path(company.id), params: params(company.id) });
    const text = JSON.stringify(loaded.data);
    for (const secret of ["clave-hacienda-secreta", r.passwordEnc!, r.pinEnc!, r.keyEnc!.slice(0, 40), goodKey.toString("base64").slice(0, 40)]) expect(text).not.toContain(secret);
    expect(loaded.data.values).toMatchObject({ cfe: "1543", cte: "9999999999", branch: "2", terminal: "15" });
    expect(loaded.data.values.password).toBeUndefined();
    expect(loaded.data.values.pin).toBeUndefined();
    expect(loaded.data.hasPassword).toBe(true);
    expect(loaded.data.key.cedula).toBe("3101123456");
  });

  it("a second save may leave password, PIN and key blank to keep them", async () => {
    const { b, company } = await setup();
    expect((await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm() })).status).toBe(302);
    const before = (await row(company.id))!;
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ password: "", pin: "", file_key: new File([], ""), cfe: "77" }) });
    expect(res.status).toBe(302);
    const after = (await row(company.id))!;
    expect(after.passwordEnc).toBe(before.passwordEnc);
    expect(after.pinEnc).toBe(before.pinEnc);
    expect(after.keyEnc).toBe(before.keyEnc);
    expect((await counters(company.id))["01"]).toBe(77);
  });

  it("requires user, password, PIN and key the first time", async () => {
    const { b, company } = await setup();
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ username: "", password: "", pin: "", file_key: new File([], "") }) });
    expect(res.status).toBe(400);
    expect(res.data.errors).toMatchObject({ username: "El usuario de Hacienda es obligatorio", password: "La contraseña de Hacienda es obligatoria", pin: "El PIN de la llave es obligatorio" });
    const noKey = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ file_key: new File([], "") }) });
    expect(noKey.status).toBe(400);
    expect(noKey.data.errors.file_key).toBe(CONFIG_MESSAGES.keyRequired);
    expect((await row(company.id))!.keyEnc).toBeNull();
  });

  it.each([
    ["cfe", "", "Factura electrónica (FE): requerido, numérico, de 0 a 9999999999"],
    ["cnc", "abc", "Nota de crédito (NC): requerido, numérico, de 0 a 9999999999"],
    ["crep", "10000000000", "Recibo electrónico de pago (REP): requerido, numérico, de 0 a 9999999999"],
    ["fec", "-1", "Factura electrónica de compra (FEC): requerido, numérico, de 0 a 9999999999"],
    ["ccce", "1.5", "Aceptación de comprobante (CCE): requerido, numérico, de 0 a 9999999999"],
    ["branch", "0", "La sucursal debe ser un número de 1 a 999"],
    ["branch", "1000", "La sucursal debe ser un número de 1 a 999"],
    ["terminal", "100000", "La terminal debe ser un número de 1 a 99999"],
    ["email_rejection", "no-es-correo", "Ingresa un correo válido"],
    ["environment", "otro", "Seleccione el ambiente"],
  ])("rejects %s = %j, keeps what was typed, saves nothing", async (field, value, message) => {
    const { b, company } = await setup();
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ [field]: value, cnd: "345" }) });
    expect(res.status).toBe(400);
    expect(res.data.errors[field]).toBe(message);
    expect(res.data.values.cnd).toBe("345");
    expect(res.data.values.password).toBeUndefined();
    expect(res.data.values.pin).toBeUndefined();
    expect((await row(company.id))!.passwordEnc).toBeNull();
    expect((await counters(company.id))["02"]).toBe(1);
  });

  it("a wrong PIN, a file that is not a .p12, a non-.p12 name, an expired key and an oversized upload are refused; nothing saved", async () => {
    const { b, company } = await setup();
    const cases: [Record<string, string | Blob>, string, string][] = [
      [{ pin: "0000" }, "pin", "El PIN de la llave criptográfica es incorrecto."],
      [{ file_key: p12File(Buffer.from("esto no es una llave")) }, "file_key", "no es una llave criptográfica (.p12)"],
      [{ file_key: p12File(goodKey, "llave.pfx.txt") }, "file_key", CONFIG_MESSAGES.keyOnlyP12],
      [{ file_key: p12File(expiredKey) }, "file_key", "venc"],
      [{ file_key: p12File(Buffer.alloc(100 * 1024 + 1, 7)) }, "file_key", CONFIG_MESSAGES.keyTooLarge],
    ];
    for (const [over, field, text] of cases) {
      const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ ...over, cfe: "500" }) });
      expect(res.status, text).toBe(400);
      expect(res.data.errors[field]).toContain(text);
      expect(res.data.values.cfe).toBe("500");
      const r = (await row(company.id))!;
      expect(r.keyEnc).toBeNull();
      expect(r.pinEnc).toBeNull();
      expect((await counters(company.id))["01"]).toBe(1);
    }
  });

  it("a key of another cédula is refused naming both numbers, and saved only once the administrator confirms it", async () => {
    const { b, company } = await setup();
    // A freshly made certificate for another taxpayer (a physical person's, as a representative's would be).
    const otherKey = makeTestP12({ cedula: "109870654", idType: "01", name: "MARIA RODRIGUEZ SOLIS", pin: PIN, notBefore: new Date(now.getTime() - DAY), notAfter: new Date(now.getTime() + 400 * DAY) });
    const refused = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ file_key: p12File(otherKey), cfe: "42" }) });
    expect(refused.status).toBe(400);
    expect(refused.data.errors.file_key).toBe(
      "La llave pertenece a la cédula 109870654 y la compañía tiene la cédula 3101123456. Revise que sea la llave de esta compañía; si es la correcta (por ejemplo, la firma digital de su representante), adjúntela de nuevo y marque «Usar esta llave de otra cédula».",
    );
    expect(refused.data.askOtherOwner).toBe(true);
    expect(refused.data.values).toMatchObject({ cfe: "42", username: "cpj-3-101-123456@stag.comprobanteselectronicos.go.cr" });
    expect(await row(company.id)).toMatchObject({ keyEnc: null });

    const confirmed = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ file_key: p12File(otherKey), key_other_owner: "1" }) });
    expect(confirmed.status).toBe(302);
    expect((await row(company.id))!.keyCedula).toBe("109870654");
    // Saving again without a new key needs no confirmation: only a new key is checked.
    const again = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ password: "", pin: "", file_key: new File([], ""), cfe: "7" }) });
    expect(again.status).toBe(302);
  });

  it("a new PIN alone must open the stored key", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm() });
    const before = (await row(company.id))!;
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ pin: "9999", file_key: new File([], "") }) });
    expect(res.status).toBe(400);
    expect(res.data.errors.pin).toBe("El PIN de la llave criptográfica es incorrecto.");
    expect((await row(company.id))!.pinEnc).toBe(before.pinEnc);
  });
});

describe("probar llave", () => {
  it("shows subject, cédula, validity and days left", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm() });
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: { intent: "test-key" } });
    expect(res.status).toBe(200);
    expect(res.data.result.keyTest).toMatchObject({ ok: true, cedula: "3101123456" });
    expect(res.data.result.keyTest.subject).toContain("EMPRESA DE PRUEBA S.A.");
    expect(res.data.result.keyTest.daysLeft).toBeGreaterThanOrEqual(399);
    expect(res.data.result.keyTest.notAfter).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });

  it("without a key: 'No se logro probar la llave'", async () => {
    const { b, company } = await setup();
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: { intent: "test-key" } });
    expect(res.data.result.keyTest).toMatchObject({ ok: false, message: "No se logro probar la llave" });
  });

  it("a stored key that no longer opens (expired since): 'No se logro probar la llave'", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm() });
    // The key expired after it was saved: swap in the expired one with the same PIN.
    const { encryptSecret } = await import("../../app/server/secrets.server.ts");
    await database.db.update(haciendaConfigs).set({ keyEnc: encryptSecret(expiredKey) }).where(eq(haciendaConfigs.companyId, company.id));
    const res = await call(b, route.action, { path: path(company.id), params: params(company.id), form: { intent: "test-key" } });
    expect(res.data.result.keyTest.ok).toBe(false);
    expect(res.data.result.keyTest.message).toBe("No se logro probar la llave");
    expect(res.data.result.keyTest.detail).toBeTruthy();
  });
});

describe("probar acceso against the real local sandbox", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startRealSandbox({ port: 0 });
    process.env.HACIENDA_SANDBOX_URL = sandbox.url;
  });
  afterAll(async () => {
    delete process.env.HACIENDA_SANDBOX_URL;
    await sandbox?.close().catch(() => {});
  });

  const access = (b: Parameters<typeof call>[0], id: number) => call(b, route.action, { path: path(id), params: params(id), form: { intent: "test-access" } });

  it("right credentials → 'Hacceso a hacienda correcto'; wrong → 'Acceso negado a hacienda'", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ environment: "sandbox", username: DEFAULT_SANDBOX_USER.username, password: DEFAULT_SANDBOX_USER.password }) });
    const ok = await access(b, company.id);
    expect(ok.status).toBe(200);
    expect(ok.data.result.accessTest).toMatchObject({ ok: true, message: "Hacceso a hacienda correcto" });
    await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ environment: "sandbox", username: DEFAULT_SANDBOX_USER.username, password: "equivocada", pin: "", file_key: new File([], "") }) });
    const denied = await access(b, company.id);
    expect(denied.data.result.accessTest).toMatchObject({ ok: false, message: "Acceso negado a hacienda" });
  });

  it("the demo company works offline out of the box (generated key + sandbox)", async () => {
    const { b, company } = await setup();
    await setupDemoCompany(database.db, company.id);
    await setupDemoCompany(database.db, company.id); // idempotent
    const r = (await row(company.id))!;
    expect(r.environment).toBe("sandbox");
    expect((await access(b, company.id)).data.result.accessTest.message).toBe("Hacceso a hacienda correcto");
    const key = await call(b, route.action, { path: path(company.id), params: params(company.id), form: { intent: "test-key" } });
    expect(key.data.result.keyTest).toMatchObject({ ok: true });
  });

  it("without credentials stored, or with the sandbox stopped → 'No se logro probar el acceso'", async () => {
    const { b, company } = await setup();
    expect((await access(b, company.id)).data.result.accessTest.message).toBe("No se logro probar el acceso");
    await call(b, route.action, { path: path(company.id), params: params(company.id), form: validForm({ environment: "sandbox", username: DEFAULT_SANDBOX_USER.username, password: DEFAULT_SANDBOX_USER.password }) });
    await sandbox.close();
    const res = await access(b, company.id);
    expect(res.data.result.accessTest).toMatchObject({ ok: false, message: "No se logro probar el acceso" });
  });
});

/** The dashboard's key warning from the stored expiry (the dashboard reads it with the session: request-shell.test.ts). */
const keyWarning = async (companyId: number, now: Date) =>
  keyExpiryText((await database.db.select({ notAfter: haciendaConfigs.keyNotAfter }).from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId)))[0]?.notAfter, now);

describe("key expiry warning", () => {
  it("nothing far from expiry; the spec text within 30 days; a clear message once expired", async () => {
    const { company } = await setup();
    expect(await keyWarning(company.id, now)).toBeNull();
    const notAfter = new Date("2027-03-10T18:00:00Z");
    await database.db.update(haciendaConfigs).set({ keyNotAfter: notAfter }).where(eq(haciendaConfigs.companyId, company.id));
    expect(await keyWarning(company.id, new Date("2027-01-01T12:00:00Z"))).toBeNull();
    expect((await keyWarning(company.id, new Date("2027-02-28T18:00:00Z")))!.text).toBe("La llave criptográfica vence el 10/03/2027 (faltan 10 días).");
    const expired = (await keyWarning(company.id, new Date("2027-03-11T12:00:00Z")))!;
    expect(expired.kind).toBe("expired");
    expect(expired.text).toContain("La llave criptográfica venció el 10/03/2027");
  });
});
