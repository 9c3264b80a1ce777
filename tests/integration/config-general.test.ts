// /config-generals/:company_id and the tabbed configuration screen: general configuration rules
// ('faltan datos', 'Guardado correctamente'), tabs, and who sees what.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generalConfigurations } from "../../db/schema/index.ts";
import * as route from "../../app/routes/config/config-generals.tsx";
import * as tabs from "../../app/routes/config/configurations.tsx";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { call, createCompany, createUser, signedIn, type CallResult } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** The toast carried by a redirect's flash cookie. */
function toastOf(res: CallResult): string | undefined {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("colibri_flash="));
  if (!cookie) return undefined;
  const body = cookie.split(";")[0]!.slice("colibri_flash=".length).split(".")[0]!;
  return JSON.parse(Buffer.from(body, "base64url").toString())[0]?.text;
}

async function setup() {
  const admin = await createUser(database.db, { role: "admin" });
  const staff = await createUser(database.db);
  const company = await createCompany(database.db, { userIds: [admin.id, staff.id] });
  await setupConfigForCompany(database.db, company.id);
  return { company, b: await signedIn(database.db, admin.id, company.id), s: await signedIn(database.db, staff.id, company.id) };
}

const form = (over: Record<string, string> = {}) => ({ custom_quotation_name: "Proforma", currency: "1", mode_pos: "1", currency_emit_doc: "2", ...over });
const p = (id: number) => ({ path: `/config-generals/${id}`, params: { company_id: String(id) } });
const row = async (id: number) => (await database.db.select().from(generalConfigurations).where(eq(generalConfigurations.companyId, id)))[0]!;

describe("general configuration", () => {
  it("any linked user saves it: 'Guardado correctamente'", async () => {
    const { s, company } = await setup();
    const res = await call(s, route.action, { ...p(company.id), form: form() });
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/config-generals/${company.id}`);
    expect(toastOf(res)).toBe("Guardado correctamente");
    expect(await row(company.id)).toMatchObject({ customQuotationName: "Proforma", currencyId: 1, modePos: true, currencyEmitDoc: 2 });
    const loaded = await call(s, route.loader, p(company.id));
    expect(loaded.data.values).toEqual({ custom_quotation_name: "Proforma", currency: "1", mode_pos: "1", currency_emit_doc: "2", print_format: "a4" });
  });

  it.each([
    ["custom_quotation_name", ""],
    ["custom_quotation_name", "   "],
    ["currency", ""],
    ["currency", "3"],
    ["mode_pos", ""],
    ["currency_emit_doc", ""],
    ["currency_emit_doc", "5"],
  ])("%s = %j → 'faltan datos', nothing saved, values kept", async (field, value) => {
    const { b, company } = await setup();
    const before = await row(company.id);
    const res = await call(b, route.action, { ...p(company.id), form: form({ [field]: value }) });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("faltan datos");
    expect(res.data.errors[field]).toBe("faltan datos");
    expect(res.data.values.custom_quotation_name).toBe(field === "custom_quotation_name" ? value : "Proforma");
    expect(await row(company.id)).toEqual(before);
  });

  it("currency_emit_doc 0 (ask), 1 (dollars), 2 (colones) are all accepted", async () => {
    const { b, company } = await setup();
    for (const v of ["0", "1", "2"]) {
      expect((await call(b, route.action, { ...p(company.id), form: form({ currency_emit_doc: v }) })).status).toBe(302);
      expect((await row(company.id)).currencyEmitDoc).toBe(Number(v));
    }
  });
});

describe("configuration tabs", () => {
  const t = (id: number, tab?: string, prefix = "main-configurations") => ({ path: `/${prefix}/${id}${tab ? `?tab=${tab}` : ""}`, params: { company_id: String(id) } });

  it("admins get the four tabs' data; each tab renders its own form data", async () => {
    const { b, company } = await setup();
    const gen = await call(b, tabs.loader, t(company.id));
    expect(gen.data).toMatchObject({ tab: "generales", isAdmin: true });
    expect(gen.data.general.custom_quotation_name).toBe("Cotización");
    expect((await call(b, tabs.loader, t(company.id, "email", "all-configurations"))).data.email.outgoing.hasPassword).toBe(false);
    const tpl = await call(b, tabs.loader, t(company.id, "plantillas"));
    expect(tpl.data.templates.map((x: { type: string }) => x.type)).toEqual(
      expect.arrayContaining(["invoice", "ticket", "credit_note", "debit_note", "quotation", "purchase_invoice", "payment_reminder", "account_statement"]),
    );
    expect((await call(b, tabs.loader, t(company.id, "terminos"))).data.terms.length).toBeGreaterThan(0);
  });

  it("saving from the Generales tab returns to the tab with 'Guardado correctamente'; errors stay in the tab", async () => {
    const { b, company } = await setup();
    const ok = await call(b, tabs.action, { ...t(company.id, "generales"), form: { section: "generals", ...form() } });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe(`/main-configurations/${company.id}?tab=generales`);
    expect(toastOf(ok)).toBe("Guardado correctamente");
    const bad = await call(b, tabs.action, { ...t(company.id, "generales"), form: { section: "generals", ...form({ currency: "" }) } });
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ section: "generals", message: "faltan datos" });
  });

  it("an unknown section is refused", async () => {
    const { b, company } = await setup();
    expect((await call(b, tabs.action, { ...t(company.id), form: { section: "otra" } })).status).toBe(400);
  });
});
