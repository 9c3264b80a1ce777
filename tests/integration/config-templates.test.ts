// /template-email/:company_id and /terms/:company_id: defaults, placeholders, preview, 'flatan datos'
// for templates and 'faltan datos' for terms, setup idempotency.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentCounters, emailTemplates, haciendaConfigs, terms } from "../../db/schema/index.ts";
import * as templatesRoute from "../../app/routes/config/template-email.tsx";
import * as termsRoute from "../../app/routes/config/terms.tsx";
import { PLACEHOLDERS, SAMPLE_VALUES, renderTemplate } from "../../app/domain/config-schemas.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { call, createCompany, createUser, signedIn, type CallResult } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

function toastOf(res: CallResult): string | undefined {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("colibri_flash="));
  if (!cookie) return undefined;
  const body = cookie.split(";")[0]!.slice("colibri_flash=".length).split(".")[0]!;
  return JSON.parse(Buffer.from(body, "base64url").toString())[0]?.text;
}

async function setup() {
  const staff = await createUser(database.db);
  const company = await createCompany(database.db, { userIds: [staff.id], name: "Plantillas S.A." });
  await setupConfigForCompany(database.db, company.id);
  return { company, s: await signedIn(database.db, staff.id, company.id) };
}
const tp = (id: number, q = "") => ({ path: `/template-email/${id}${q}`, params: { company_id: String(id) } });
const tr = (id: number, q = "") => ({ path: `/terms/${id}${q}`, params: { company_id: String(id) } });

describe("setupConfigForCompany", () => {
  it("creates templates (incl. the payment reminder), terms, the Hacienda row in staging and counters at 1; twice adds nothing", async () => {
    const { company } = await setup();
    await setupConfigForCompany(database.db, company.id);
    const tpls = await database.db.select().from(emailTemplates).where(eq(emailTemplates.companyId, company.id));
    expect(tpls).toHaveLength(8);
    const reminder = tpls.find((t) => t.type === "payment_reminder")!;
    for (const ph of ["{cliente}", "{referencia}", "{monto}", "{vencimiento}", "{compania}"]) expect(reminder.body).toContain(ph);
    expect(await database.db.select().from(terms).where(eq(terms.companyId, company.id))).toHaveLength(1);
    expect((await database.db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, company.id)))[0]!.environment).toBe("staging");
    const counters = await database.db.select().from(documentCounters).where(eq(documentCounters.companyId, company.id));
    expect(counters.map((c) => c.docType).sort()).toEqual(["01", "02", "03", "04", "05", "06", "07", "08", "10", "qt"]);
    expect(counters.every((c) => c.nextNumber === 1)).toBe(true);
  });
});

describe("templates", () => {
  it("lists the templates; ?template= selects one; subject and body are saved: 'Guardado correctamente'", async () => {
    const { s, company } = await setup();
    const list = await call(s, templatesRoute.loader, tp(company.id));
    const reminder = list.data.templates.find((t: { type: string }) => t.type === "payment_reminder");
    expect(reminder.name).toBe("Recordatorio de pago");
    const res = await call(s, templatesRoute.action, { ...tp(company.id, `?template=${reminder.id}`), form: { id: String(reminder.id), subject: "Pago pendiente {referencia}", body: "Hola {cliente}, debe {monto}." } });
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/template-email/${company.id}?template=${reminder.id}`);
    expect(toastOf(res)).toBe("Guardado correctamente");
    const [row] = await database.db.select().from(emailTemplates).where(eq(emailTemplates.id, reminder.id));
    expect(row).toMatchObject({ subject: "Pago pendiente {referencia}", body: "Hola {cliente}, debe {monto}." });
    expect((await call(s, templatesRoute.loader, tp(company.id, `?template=${reminder.id}`))).data.templateId).toBe(reminder.id);
  });

  it.each([
    ["subject", ""],
    ["body", "  "],
  ])("empty %s → 'flatan datos', nothing saved, values kept", async (field, value) => {
    const { s, company } = await setup();
    const [tpl] = await database.db.select().from(emailTemplates).where(eq(emailTemplates.companyId, company.id)).limit(1);
    const form = { id: String(tpl!.id), subject: "Asunto nuevo", body: "Cuerpo nuevo", [field]: value };
    const res = await call(s, templatesRoute.action, { ...tp(company.id), form });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("flatan datos");
    expect(res.data.values.subject).toBe(form.subject);
    const [after] = await database.db.select().from(emailTemplates).where(eq(emailTemplates.id, tpl!.id));
    expect(after).toEqual(tpl);
  });

  it("the preview fills every listed placeholder with sample values", () => {
    const src = PLACEHOLDERS.map((p) => `{${p.key}}`).join("|") + "|{desconocido}";
    const out = renderTemplate(src, SAMPLE_VALUES);
    expect(out).toBe(PLACEHOLDERS.map((p) => p.sample).join("|") + "|{desconocido}");
  });
});

describe("terms", () => {
  it("edits a term and adds a new one: 'Guardado correctamente'", async () => {
    const { s, company } = await setup();
    const list = await call(s, termsRoute.loader, tr(company.id));
    const term = list.data.terms[0];
    const edit = await call(s, termsRoute.action, { ...tr(company.id), form: { id: String(term.id), name: "Garantía", body: "Seis meses de garantía." } });
    expect(edit.status).toBe(302);
    expect(toastOf(edit)).toBe("Guardado correctamente");
    const created = await call(s, termsRoute.action, { ...tr(company.id, "?term=new"), form: { id: "", name: "Devoluciones", body: "8 días naturales." } });
    expect(created.status).toBe(302);
    const rows = await database.db.select().from(terms).where(eq(terms.companyId, company.id));
    expect(rows.map((r) => r.name).sort()).toEqual(["Devoluciones", "Garantía"]);
    expect(created.location).toBe(`/terms/${company.id}?term=${rows.find((r) => r.name === "Devoluciones")!.id}`);
  });

  it.each([
    ["name", ""],
    ["body", ""],
  ])("empty %s → 'faltan datos', nothing saved", async (field, value) => {
    const { s, company } = await setup();
    const before = await database.db.select().from(terms).where(eq(terms.companyId, company.id));
    const res = await call(s, termsRoute.action, { ...tr(company.id), form: { id: String(before[0]!.id), name: "N", body: "B", [field]: value } });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("faltan datos");
    expect(await database.db.select().from(terms).where(eq(terms.companyId, company.id))).toEqual(before);
  });
});
