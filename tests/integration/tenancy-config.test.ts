// Cross-tenant checks for every configuration route and form: another company's id in the URL or
// in a form field → 404/refused and nothing changes; non-admins refused on the admin screens;
// the super-admin reaches any company.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentCounters, emailConfigs, emailTemplates, generalConfigurations, haciendaConfigs, terms } from "../../db/schema/index.ts";
import * as tabs from "../../app/routes/config/configurations.tsx";
import * as hacienda from "../../app/routes/config/config-hacienda.tsx";
import * as generals from "../../app/routes/config/config-generals.tsx";
import * as email from "../../app/routes/config/config-email.tsx";
import * as templates from "../../app/routes/config/template-email.tsx";
import * as termsRoute from "../../app/routes/config/terms.tsx";
import { CONSECUTIVE_TYPES } from "../../app/domain/config-schemas.ts";
import { setupConfigForCompany, setupDemoCompany } from "../../app/server/config-setup.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let A: { id: number };
let B: { id: number };
let asAdminA: Browser;
let asUserA: Browser;

beforeAll(async () => {
  database = await createTestDatabase();
  const adminA = await createUser(database.db, { role: "admin" });
  const userA = await createUser(database.db, { createdById: adminA.id });
  const adminB = await createUser(database.db, { role: "admin" });
  A = await createCompany(database.db, { userIds: [adminA.id, userA.id], name: "Tenant A" });
  B = await createCompany(database.db, { userIds: [adminB.id], name: "Tenant B" });
  await setupConfigForCompany(database.db, A.id);
  await setupDemoCompany(database.db, B.id);
  asAdminA = await signedIn(database.db, adminA.id, A.id);
  asUserA = await signedIn(database.db, userA.id, A.id);
});
afterAll(() => database.drop());

async function snapshotB() {
  const by = <T extends { companyId: unknown }>(t: T) => eq(t.companyId as never, B.id);
  return JSON.stringify([
    await database.db.select().from(haciendaConfigs).where(by(haciendaConfigs)),
    await database.db.select().from(documentCounters).where(by(documentCounters)),
    await database.db.select().from(emailConfigs).where(by(emailConfigs)),
    await database.db.select().from(emailTemplates).where(by(emailTemplates)),
    await database.db.select().from(terms).where(by(terms)),
    await database.db.select().from(generalConfigurations).where(by(generalConfigurations)),
  ]);
}

const haciendaForm = () => {
  const f: Record<string, string> = { intent: "save", branch: "1", terminal: "1", username: "x", password: "y", pin: "1", environment: "production" };
  for (const t of CONSECUTIVE_TYPES) f[t.field] = "999";
  return f;
};
const outgoing = { section: "email-outgoing", protocol: "smtp", host: "evil.example", port: "25", username: "u", password: "p", from_email: "a@b.cr", from_name: "X" };

const routes = [
  ["main-configurations", tabs, { section: "generals", custom_quotation_name: "X", currency: "1", mode_pos: "1", currency_emit_doc: "1" }],
  ["all-configurations", tabs, { section: "generals", custom_quotation_name: "X", currency: "1", mode_pos: "1", currency_emit_doc: "1" }],
  ["config-hacienda", hacienda, haciendaForm()],
  ["config-generals", generals, { custom_quotation_name: "X", currency: "1", mode_pos: "1", currency_emit_doc: "1" }],
  ["config-email", email, outgoing],
  ["template-email", templates, { id: "1", subject: "x", body: "y" }],
  ["terms", termsRoute, { id: "", name: "x", body: "y" }],
] as const;

describe("another company's id in the URL", () => {
  it.each(routes)("/%s/:B → 404 on loader and action, nothing changes", async (name, mod, form) => {
    const before = await snapshotB();
    for (const b of [asAdminA, asUserA]) {
      const at = { path: `/${name}/${B.id}`, params: { company_id: String(B.id) } };
      expect((await call(b, mod.loader, at)).status).toBe(404);
      expect((await call(b, mod.action, { ...at, form })).status).toBe(404);
    }
    expect(await snapshotB()).toBe(before);
  });

  it.each(routes)("/%s/:missing and /%s/abc → 404", async (name, mod) => {
    for (const id of ["999999", "abc", "0", "-1"]) expect((await call(asAdminA, mod.loader, { path: `/${name}/${id}`, params: { company_id: id } })).status).toBe(404);
  });
});

describe("another company's ids inside A's forms", () => {
  it("a template id of B posted to A's screens → 404, B's template unchanged", async () => {
    const [tplB] = await database.db.select().from(emailTemplates).where(eq(emailTemplates.companyId, B.id)).limit(1);
    const before = await snapshotB();
    for (const [mod, path, extra] of [
      [templates, `/template-email/${A.id}`, {}],
      [tabs, `/main-configurations/${A.id}?tab=plantillas`, { section: "template" }],
    ] as const) {
      const res = await call(asUserA, mod.action, { path, params: { company_id: String(A.id) }, form: { ...extra, id: String(tplB!.id), subject: "Robado", body: "Robado" } });
      expect(res.status).toBe(404);
    }
    expect(await snapshotB()).toBe(before);
  });

  it("a term id of B posted to A's screens → 404, B's term unchanged", async () => {
    const [termB] = await database.db.select().from(terms).where(eq(terms.companyId, B.id)).limit(1);
    const before = await snapshotB();
    for (const [mod, path, extra] of [
      [termsRoute, `/terms/${A.id}`, {}],
      [tabs, `/main-configurations/${A.id}?tab=terminos`, { section: "term" }],
    ] as const) {
      const res = await call(asUserA, mod.action, { path, params: { company_id: String(A.id) }, form: { ...extra, id: String(termB!.id), name: "Robado", body: "Robado" } });
      expect(res.status).toBe(404);
    }
    expect(await snapshotB()).toBe(before);
  });

  it("a company_id field in A's form is ignored: only A changes", async () => {
    const before = await snapshotB();
    const res = await call(asUserA, generals.action, { path: `/config-generals/${A.id}`, params: { company_id: String(A.id) }, form: { company_id: String(B.id), companyId: String(B.id), custom_quotation_name: "Solo A", currency: "1", mode_pos: "0", currency_emit_doc: "0" } });
    expect(res.status).toBe(302);
    expect(await snapshotB()).toBe(before);
    const [a] = await database.db.select().from(generalConfigurations).where(eq(generalConfigurations.companyId, A.id));
    expect(a!.customQuotationName).toBe("Solo A");
  });

  it("A's template and term lists never include B's rows", async () => {
    const tpl = await call(asUserA, templates.loader, { path: `/template-email/${A.id}`, params: { company_id: String(A.id) } });
    const [tplB] = await database.db.select().from(emailTemplates).where(eq(emailTemplates.companyId, B.id)).limit(1);
    expect(tpl.data.templates.map((t: { id: number }) => t.id)).not.toContain(tplB!.id);
    const trm = await call(asUserA, termsRoute.loader, { path: `/terms/${A.id}?term=999999`, params: { company_id: String(A.id) } });
    const idsB = (await database.db.select().from(terms).where(eq(terms.companyId, B.id))).map((t) => t.id);
    for (const t of trm.data.terms) expect(idsB).not.toContain(t.id);
  });
});

describe("admin-only screens of the user's own company", () => {
  it("non-admins get 403 on Hacienda and e-mail (loader and action); nothing changes", async () => {
    const before = JSON.stringify(await database.db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, A.id)));
    for (const [mod, name, form] of [
      [hacienda, "config-hacienda", haciendaForm()],
      [email, "config-email", outgoing],
    ] as const) {
      const at = { path: `/${name}/${A.id}`, params: { company_id: String(A.id) } };
      expect((await call(asUserA, mod.loader, at)).status).toBe(403);
      expect((await call(asUserA, mod.action, { ...at, form })).status).toBe(403);
    }
    expect(JSON.stringify(await database.db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, A.id)))).toBe(before);
    expect(await database.db.select().from(emailConfigs).where(eq(emailConfigs.companyId, A.id))).toHaveLength(0);
  });
});

describe("super-admin", () => {
  it("reaches any company's configuration", async () => {
    const prev = process.env.SUPER_ADMIN_EMAIL;
    const root = await createUser(database.db, { role: "admin", email: "root-config@colibri.cr" });
    process.env.SUPER_ADMIN_EMAIL = "root-config@colibri.cr";
    try {
      const home = await createCompany(database.db, { userIds: [root.id] });
      const b = await signedIn(database.db, root.id, home.id);
      const res = await call(b, hacienda.loader, { path: `/config-hacienda/${B.id}`, params: { company_id: String(B.id) } });
      expect(res.status).toBe(200);
      expect(res.data.key.cedula).toBeTruthy();
      expect((await call(b, tabs.loader, { path: `/all-configurations/${B.id}`, params: { company_id: String(B.id) } })).status).toBe(200);
    } finally {
      if (prev === undefined) delete process.env.SUPER_ADMIN_EMAIL;
      else process.env.SUPER_ADMIN_EMAIL = prev;
    }
  });
});
