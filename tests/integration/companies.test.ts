import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, companyUsers, documents, generalConfigurations, sessions } from "../../db/schema/index.ts";
import * as companiesRoute from "../../app/routes/companies/companies.tsx";
import * as companyForm from "../../app/routes/companies/company-form.tsx";
import * as activityRoute from "../../app/routes/companies/activity-lookup.tsx";
import * as selectCompany from "../../app/routes/companies/select-company.tsx";
import * as logoRoute from "../../app/routes/companies/logo.tsx";
import * as downloadRoute from "../../app/routes/companies/download-all-files.tsx";
import { ACTIVITY_MESSAGES, COMPANY_MESSAGES, LOGO_MESSAGES } from "../../app/domain/company-schemas.ts";
import { ACTIVITY_CACHE_FRESH_MS, ACTIVITY_CACHE_KEEP_MS, ActivityCache, lookupActivities } from "../../app/server/activity-lookup.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { verifyPassword } from "../../app/server/password.server.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import { AE_CASES, startFakeHaciendaAe, type FakeHacienda } from "../fixtures/fake-hacienda-ae.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { companyFormFields } from "../fixtures/company-form.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: FakeHacienda;
beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeHaciendaAe({ slowMs: 1500 });
  process.env.HACIENDA_PUBLIC_API_URL = fake.url;
  process.env.HACIENDA_LOOKUP_TIMEOUT_MS = "300";
  process.env.SUPER_ADMIN_EMAIL = "root@colibri.test";
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});

function toastsOf(b: Browser) {
  const flash = b.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

let idSeq = 0;
const nextIdentification = () => String(310170000 + ++idSeq).padEnd(10, "0");

function validForm(overrides: Record<string, string | Blob> = {}): Record<string, string | Blob> {
  return companyFormFields<string | Blob>({ fantasy_name: "SerTec", identification: nextIdentification(), ...overrides });
}

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

let root: Awaited<ReturnType<typeof adminWithCompany>> | undefined;
/** The super-admin account (SUPER_ADMIN_EMAIL), created once per file. */
async function superAdmin() {
  root ??= await adminWithCompany({ email: "root@colibri.test" });
  return root;
}

async function adminWithCompany(opts: { email?: string } = {}) {
  const admin = await createUser(database.db, { role: "admin", email: opts.email });
  const home = await createCompany(database.db, { userIds: [admin.id] });
  const b = await signedIn(database.db, admin.id, home.id);
  return { admin, home, b };
}

describe("company form validation", () => {
  it("reports every required field with a Spanish message and keeps what was typed", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, companyForm.action, {
      path: "/new-company",
      form: { intent: "save", name: "", identification: "", email: "", phone: "", other_signs: "", custom_quotation_name: "", fantasy_name: "Guardado" },
    });
    expect(res.status).toBe(400);
    expect(res.data.errors).toMatchObject({
      name: "El nombre es obligatorio",
      identification_type: "El tipo de identificación es obligatorio",
      identification: "La identificación es obligatoria",
      email: "El correo es obligatorio",
      phone: "El teléfono es obligatorio",
      other_signs: "Otras señas son obligatorias",
      economic_activity_code: "La actividad económica es obligatoria",
      custom_quotation_name: "El nombre de la cotización es obligatorio",
      currency: "La moneda es obligatoria",
      currency_emit_doc: "La moneda de emisión es obligatoria",
      invoice_format: "El formato de factura es obligatorio",
      permission: "El plan es obligatorio",
    });
    expect(res.data.values.fantasy_name).toBe("Guardado");
  });

  it.each([
    ["12345678", "La identificación debe tener entre 9 y 12 caracteres"],
    ["1234567890123", "La identificación debe tener entre 9 y 12 caracteres"],
    ["31O1234567", "La cédula jurídica debe tener 10 caracteres sin guiones: 4 dígitos y luego 6 dígitos o letras mayúsculas (por ejemplo 3101123456 o 3101A00001)"],
    ["1O1234567", "La identificación solo admite números", "1"],
  ])("rejects identification %s", async (identification, message, type = "2") => {
    const { b } = await adminWithCompany();
    const res = await call(b, companyForm.action, { path: "/new-company", form: validForm({ identification, identification_type: type }) });
    expect(res.status).toBe(400);
    expect(res.data.errors.identification).toBe(message);
    expect(res.data.values.identification).toBe(identification);
  });

  it("accepts identifications of 9 and 12 digits", async () => {
    const { b } = await adminWithCompany();
    for (const identification of ["109870654", "155812345678"]) {
      const res = await call(b, companyForm.action, { path: "/new-company", form: validForm({ identification }) });
      expect(res.data?.errors ?? {}).toEqual({});
      expect(res.status).toBe(302);
    }
  });

  it("validates e-mail, phone, activity code, type, currency and invoice format", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, companyForm.action, {
      path: "/new-company",
      form: validForm({ email: "no-es-correo", phone: "2233-4455", economic_activity_code: "6201", identification_type: "5", currency: "3", invoice_format: "3", currency_emit_doc: "7" }),
    });
    expect(res.status).toBe(400);
    expect(res.data.errors).toMatchObject({
      email: "Ingresa un correo válido",
      phone: "El teléfono debe ser un número entero",
      economic_activity_code: "La actividad económica debe tener un código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0)",
      identification_type: "El tipo de identificación es obligatorio",
      currency: "La moneda es obligatoria",
      invoice_format: "El formato de factura es obligatorio",
      currency_emit_doc: "La moneda de emisión es obligatoria",
    });
  });

  it("requires API user and password for plan 5 and stores the password hashed", async () => {
    const { b } = await adminWithCompany();
    const missing = await call(b, companyForm.action, { path: "/new-company", form: validForm({ permission: "5" }) });
    expect(missing.status).toBe(400);
    expect(missing.data.errors.username_api).toBe("El usuario API es obligatorio para el plan 5");
    expect(missing.data.errors.password_api).toBe("La contraseña API es obligatoria para el plan 5");
    expect(missing.data.values.password_api).toBeUndefined();
    const identification = nextIdentification();
    const ok = await call(b, companyForm.action, { path: "/new-company", form: validForm({ permission: "5", username_api: "api-user", password_api: "clave-api-1", identification }) });
    expect(ok.status).toBe(302);
    const [row] = await database.db.select().from(companies).where(eq(companies.identification, identification));
    expect(row.permission).toBe(5);
    expect(row.usernameApi).toBe("api-user");
    expect(row.passwordApiHash).not.toContain("clave-api-1");
    expect(await verifyPassword("clave-api-1", row.passwordApiHash!)).toBe(true);
  });

  it("refuses a second company with the same identification among non-archived companies", async () => {
    const { b } = await adminWithCompany();
    const identification = nextIdentification();
    expect((await call(b, companyForm.action, { path: "/new-company", form: validForm({ identification }) })).status).toBe(302);
    const dup = await call(b, companyForm.action, { path: "/new-company", form: validForm({ identification, name: "Otra" }) });
    expect(dup.status).toBe(400);
    expect(dup.data.errors.identification).toBe(COMPANY_MESSAGES.duplicateIdentification);
    expect(dup.data.values.name).toBe("Otra");
    // Archived companies do not block the identification.
    await database.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.identification, identification));
    expect((await call(b, companyForm.action, { path: "/new-company", form: validForm({ identification }) })).status).toBe(302);
  });
});

describe("creating and editing a company", () => {
  it("creates the company, its configuration, links the creator, and returns to all-companies", async () => {
    const { admin, b } = await adminWithCompany();
    const identification = nextIdentification();
    const res = await call(b, companyForm.action, { path: "/new-company", form: validForm({ identification, no_hacienda: "on", invoice_format: "2", currency: "1", currency_emit_doc: "2" }) });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/all-companies");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Compañia guardada" }]);
    const [row] = await database.db.select().from(companies).where(eq(companies.identification, identification));
    expect(row).toMatchObject({ userId: admin.id, noHacienda: true, invoiceFormat: "2", economicActivityCode: "6201.0", permission: 1, database: null });
    const [config] = await database.db.select().from(generalConfigurations).where(eq(generalConfigurations.companyId, row.id));
    expect(config).toMatchObject({ customQuotationName: "Proforma", currencyId: 1, currencyEmitDoc: 2 });
    const links = await database.db.select().from(companyUsers).where(eq(companyUsers.companyId, row.id));
    expect(links.map((l) => l.userId)).toEqual([admin.id]);
  });

  it("edits a company (activity optional on edit) with 'Compañia actualizada'", async () => {
    const { home, b } = await adminWithCompany();
    const page = await call(b, companyForm.loader, { path: `/edit-company/${home.id}`, params: { id: String(home.id) } });
    expect(page.status).toBe(200);
    expect(page.data.values.name).toBe(home.name);
    const res = await call(b, companyForm.action, {
      path: `/edit-company/${home.id}`,
      params: { id: String(home.id) },
      form: validForm({ identification: home.identification, name: "Nombre nuevo", economic_activity_code: "" }),
    });
    expect(res.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Compañia actualizada" }]);
    const [row] = await database.db.select().from(companies).where(eq(companies.id, home.id));
    expect(row.name).toBe("Nombre nuevo");
  });

  it("lets only the super-admin edit the database field", async () => {
    const { home, b } = await adminWithCompany();
    await call(b, companyForm.action, { path: `/edit-company/${home.id}`, params: { id: String(home.id) }, form: validForm({ identification: home.identification, database: "otra_db" }) });
    expect((await database.db.select().from(companies).where(eq(companies.id, home.id)))[0].database).toBeNull();
    const root = await superAdmin();
    const res = await call(root.b, companyForm.action, { path: `/edit-company/${home.id}`, params: { id: String(home.id) }, form: validForm({ identification: home.identification, database: "otra_db" }) });
    expect(res.status).toBe(302);
    expect((await database.db.select().from(companies).where(eq(companies.id, home.id)))[0].database).toBe("otra_db");
  });

  it("refuses non-admins", async () => {
    const user = await createUser(database.db);
    const home = await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, home.id);
    const before = await database.db.select({ n: companies.id }).from(companies);
    expect((await call(b, companyForm.loader, { path: "/new-company" })).status).toBe(403);
    const res = await call(b, companyForm.action, { path: "/new-company", form: validForm() });
    expect(res.status).toBe(403);
    expect((await database.db.select({ n: companies.id }).from(companies)).length).toBe(before.length);
  });
});

describe("logo", () => {
  it("accepts one PNG, replaces it with a second image, and serves it to linked users", async () => {
    const { home, b } = await adminWithCompany();
    const path = `/edit-company/${home.id}`;
    const params = { id: String(home.id) };
    const first = await call(b, companyForm.action, { path, params, form: validForm({ identification: home.identification, logo: new Blob([PNG], { type: "image/png" }) }) });
    expect(first.status).toBe(302);
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1");
    expect((await call(b, companyForm.action, { path, params, form: validForm({ identification: home.identification, logo: new Blob([gif]) }) })).status).toBe(302);
    const [row] = await database.db.select().from(companies).where(eq(companies.id, home.id));
    expect(row.logoMime).toBe("image/gif");
    const served = await call(b, logoRoute.loader, { path: `/company-logo/${home.id}`, params });
    expect(served.status).toBe(200);
    // Saving without choosing a file keeps the logo.
    await call(b, companyForm.action, { path, params, form: validForm({ identification: home.identification }) });
    expect((await database.db.select().from(companies).where(eq(companies.id, home.id)))[0].logoMime).toBe("image/gif");
  });

  it("refuses a file that is not an image even when named .png, and images over 1 MB", async () => {
    const { home, b } = await adminWithCompany();
    const path = `/edit-company/${home.id}`;
    const params = { id: String(home.id) };
    const fake = new File(["<?php echo 'hola'; ?>"], "logo.png", { type: "image/png" });
    const bad = await call(b, companyForm.action, { path, params, form: validForm({ identification: home.identification, name: "Se conserva", logo: fake }) });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.logo).toBe(LOGO_MESSAGES.type);
    expect(bad.data.values.name).toBe("Se conserva");
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    const tooBig = await call(b, companyForm.action, { path, params, form: validForm({ identification: home.identification, logo: new File([big], "logo.png") }) });
    expect(tooBig.status).toBe(400);
    expect(tooBig.data.errors.logo).toBe(LOGO_MESSAGES.size);
    const [row] = await database.db.select().from(companies).where(eq(companies.id, home.id));
    expect(row.logo).toBeNull();
  });
});

describe("location cascade without JavaScript", () => {
  it("re-renders with the cantons of the new province, first canton and district selected, keeping what was typed", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, companyForm.action, { path: "/new-company", form: validForm({ intent: "refresh-location", province: "2", canton: "99", district: "99", name: "Escrito" }) });
    expect(res.status).toBe(200);
    expect(res.data.values).toMatchObject({ province: "2", canton: "1", district: "1", name: "Escrito" });
    expect(res.data.lists.cantons[0].number).toBe(1);
    expect(res.data.lists.cantons.length).toBeGreaterThan(5);
    expect(res.data.lists.districts.length).toBeGreaterThan(0);
    const [{ n }] = await database.db.select({ n: companies.id }).from(companies).where(eq(companies.name, "Escrito")).then((r) => (r.length ? r : [{ n: 0 }]));
    expect(n).toBe(0);
  });

  it("fills the lists for the company's saved location on the edit page", async () => {
    const { home, b } = await adminWithCompany();
    const page = await call(b, companyForm.loader, { path: `/edit-company/${home.id}`, params: { id: String(home.id) } });
    expect(page.data.values).toMatchObject({ province: "1", canton: "1", district: "1" });
    expect(page.data.lists.provinces).toHaveLength(7);
    expect(page.data.lists.identificationTypes.map((t: { code: string }) => t.code)).toEqual(["01", "02", "03", "04"]);
  });
});

describe("economic activity lookup", () => {
  it("selects the principal activity automatically and lists only active ones", async () => {
    const r = await lookupActivities(AE_CASES.found);
    expect(r).toMatchObject({ ok: true, selected: "6201.0", message: ACTIVITY_MESSAGES.principal });
    expect(r.activities.map((a) => a.code)).toEqual(["4711.0", "6201.0"]);
    expect(fake.requests.at(-1)).toBe(`/fe/ae?identificacion=${AE_CASES.found}`);
  });

  it("picks the first activity when there is no principal one", async () => {
    expect(await lookupActivities(AE_CASES.noPrincipal)).toMatchObject({ ok: true, selected: "4711.0", message: ACTIVITY_MESSAGES.loaded });
  });

  it.each([
    [AE_CASES.inactive, ACTIVITY_MESSAGES.noActive],
    [AE_CASES.notFound, ACTIVITY_MESSAGES.none],
    [AE_CASES.empty, ACTIVITY_MESSAGES.none],
    [AE_CASES.error, ACTIVITY_MESSAGES.network],
  ])("%s → %s", async (identification, message) => {
    expect(await lookupActivities(identification)).toMatchObject({ ok: false, message });
  });

  it("gives up after the timeout with 'Error conectando con Hacienda'", async () => {
    // The fake answers (with an activity) only after the timeout: an answer would mean no timeout.
    expect(await lookupActivities(AE_CASES.slow)).toMatchObject({ ok: false, message: ACTIVITY_MESSAGES.network });
  });

  it("reports a network failure (nothing listening) when it knows no earlier answer", async () => {
    expect(await lookupActivities(AE_CASES.found, { baseUrl: "http://127.0.0.1:1", cache: new ActivityCache() })).toMatchObject({ ok: false, message: ACTIVITY_MESSAGES.network });
  });

  it("caches the answers per identification: Hacienda is asked once while the answer is fresh (issue 11: fe/ae answers 429)", async () => {
    const cache = new ActivityCache();
    let t = 1_000_000;
    const now = () => t;
    const before = fake.requests.length;
    const first = await lookupActivities(AE_CASES.found, { cache, now });
    expect(await lookupActivities("3-101-000001", { cache, now })).toEqual(first);
    expect(fake.requests.length - before).toBe(1);
    t += ACTIVITY_CACHE_FRESH_MS + 1;
    await lookupActivities(AE_CASES.found, { cache, now });
    expect(fake.requests.length - before).toBe(2);
    // "No activities" (404) is remembered too.
    await lookupActivities(AE_CASES.notFound, { cache, now });
    expect(await lookupActivities(AE_CASES.notFound, { cache, now })).toMatchObject({ ok: false, message: ACTIVITY_MESSAGES.none });
    expect(fake.requests.length - before).toBe(3);
  });

  it("on HTTP 429 answers from the cache, else says that Hacienda is limiting the lookups", async () => {
    const cache = new ActivityCache();
    expect(await lookupActivities(AE_CASES.limited, { cache })).toEqual({ ok: false, activities: [], message: "Hacienda está limitando las consultas: intente de nuevo en un minuto." });
    // An answer known from before (stale, 2 days old) is given while Hacienda limits or fails.
    let t = 5_000_000;
    const found = await lookupActivities(AE_CASES.found, { cache, now: () => t });
    t += 2 * 24 * 60 * 60 * 1000;
    const limited = (async () => new Response("{}", { status: 429 })) as typeof fetch;
    expect(await lookupActivities(AE_CASES.found, { cache, now: () => t, fetch: limited })).toEqual(found);
    expect(await lookupActivities(AE_CASES.found, { cache, now: () => t, baseUrl: "http://127.0.0.1:1" })).toEqual(found);
    // … but not forever.
    t += ACTIVITY_CACHE_KEEP_MS;
    expect(await lookupActivities(AE_CASES.found, { cache, now: () => t, fetch: limited })).toMatchObject({ ok: false, message: ACTIVITY_MESSAGES.rateLimited });
  });

  it("forgets the oldest identification beyond its size", () => {
    const cache = new ActivityCache(2);
    const a = { ok: false as const, activities: [], message: "x" };
    cache.set("1", a, 0);
    cache.set("2", a, 0);
    cache.set("3", a, 0);
    expect([cache.size, cache.get("1", 0, 1), cache.get("3", 0, 1)]).toEqual([2, null, a]);
  });

  it("uses an injected fetch and does not call Hacienda for short identifications", async () => {
    let calls = 0;
    const fetchStub = (async () => {
      calls++;
      return new Response("{}");
    }) as typeof fetch;
    expect(await lookupActivities("12345678", { fetch: fetchStub })).toMatchObject({ ok: false });
    expect(calls).toBe(0);
  });

  it("serves JSON on /activity-lookup for the script", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, activityRoute.loader, { path: `/activity-lookup?identificacion=${AE_CASES.found}` });
    expect(res.status).toBe(200);
  });

  it("without JavaScript, 'Buscar actividad' re-renders the form with the activities and the principal preselected", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, companyForm.action, { path: "/new-company", form: validForm({ intent: "lookup-activity", identification: AE_CASES.found, economic_activity_code: "", name: "Tecleado" }) });
    expect(res.status).toBe(200);
    expect(res.data.message).toBe(ACTIVITY_MESSAGES.principal);
    expect(res.data.values).toMatchObject({ economic_activity_code: "6201.0", economic_activity_name: "ACTIVIDADES DE PROGRAMACION INFORMATICA", name: "Tecleado" });
    expect(res.data.activities).toHaveLength(2);
    // The activities travel with the form; saving keeps the description of the chosen one.
    const save = await call(b, companyForm.action, {
      path: "/new-company",
      form: validForm({ identification: AE_CASES.found, economic_activity_code: "4711.0", economic_activity_name: "", activity_options: JSON.stringify(res.data.activities) }),
    });
    expect(save.status).toBe(302);
    const [row] = await database.db.select().from(companies).where(eq(companies.identification, AE_CASES.found));
    expect(row.economicActivityName).toBe("VENTA AL POR MENOR EN SUPERMERCADOS");
    const failed = await call(b, companyForm.action, { path: "/new-company", form: validForm({ intent: "lookup-activity", identification: AE_CASES.error }) });
    expect(failed.data.message).toBe(ACTIVITY_MESSAGES.network);
  });
});

describe("company lists", () => {
  it("lists the user's companies with documents of the current year, highlights the selected one, 'No hay Compañias' when searching finds nothing", async () => {
    const user = await createUser(database.db);
    const a = await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" });
    const bCo = await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" });
    await createCompany(database.db, { name: "Ajena S.A." });
    const now = new Date();
    // The year is Costa Rica's, as the list counts it (until 06:00 UTC on 1 January it is still the last one).
    const year = Number(costaRicaDay(now).slice(0, 4));
    await database.db.insert(documents).values([
      { companyId: a.id, kind: "fe", issuedAt: now },
      { companyId: a.id, kind: "te", issuedAt: now },
      { companyId: a.id, kind: "fe", issuedAt: new Date(Date.UTC(year - 1, 5, 1)) },
    ]);
    const b = await signedIn(database.db, user.id, bCo.id);
    const res = await call(b, companiesRoute.loader, { path: "/companies" });
    expect(res.status).toBe(200);
    expect(res.data.rows.map((r: { name: string }) => r.name)).toEqual(["Alfa Comercial", "Beta Servicios"]);
    expect(res.data.rows[0].documentsThisYear).toBe(2);
    expect(res.data.selectedId).toBe(bCo.id);
    expect(res.data.isAdmin).toBe(false);
    const search = await call(b, companiesRoute.loader, { path: "/companies?search=beta" });
    expect(search.data.rows.map((r: { name: string }) => r.name)).toEqual(["Beta Servicios"]);
    const none = await call(b, companiesRoute.loader, { path: "/companies?search=zzz" });
    expect(none.data.rows).toEqual([]);
    // Non-admins do not reach /all-companies.
    const all = await call(b, companiesRoute.loader, { path: "/all-companies" });
    expect(all.status).toBe(302);
    expect(all.location).toBe("/companies");
  });

  it("pages with the chosen page size", async () => {
    const user = await createUser(database.db);
    const first = await createCompany(database.db, { userIds: [user.id] });
    for (let i = 0; i < 11; i++) await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, first.id);
    const p1 = await call(b, companiesRoute.loader, { path: "/companies" });
    expect(p1.data.rows).toHaveLength(10);
    expect(p1.data.lastPage).toBe(2);
    const p2 = await call(b, companiesRoute.loader, { path: "/companies?page=2" });
    expect(p2.data.rows).toHaveLength(2);
    const big = await call(b, companiesRoute.loader, { path: "/companies?perPage=20" });
    expect(big.data.rows).toHaveLength(12);
  });

  it("shows every company and the administrator only to the super-admin", async () => {
    const creator = await createUser(database.db, { role: "admin", name: "Creadora Uno" });
    const zeta = await createCompany(database.db, { userIds: [creator.id], name: "Zeta Creada" });
    // A plain admin sees only linked companies on /all-companies, without the administrator column.
    const plain = await adminWithCompany();
    const seen = await call(plain.b, companiesRoute.loader, { path: "/all-companies?search=Zeta" });
    expect(seen.data.rows).toEqual([]);
    expect(seen.data.isSuperAdmin).toBe(false);
    const root = await superAdmin();
    const all = await call(root.b, companiesRoute.loader, { path: "/all-companies?search=Zeta" });
    expect(all.data.isSuperAdmin).toBe(true);
    expect(all.data.rows).toEqual([expect.objectContaining({ id: zeta.id, administrator: "Creadora Uno" })]);
    // The super-admin's /companies stays their own companies.
    const mine = await call(root.b, companiesRoute.loader, { path: "/companies?search=Zeta" });
    expect(mine.data.rows).toEqual([]);
  });

  it("download answers 'No hay documentos' when the company has none", async () => {
    const { home, b } = await adminWithCompany();
    const res = await call(b, downloadRoute.loader, { path: `/download-all-files/${home.id}`, params: { id: String(home.id) } });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/companies");
    expect(toastsOf(b)).toEqual([{ type: "info", text: "No hay documentos" }]);
  });
});

describe("select, activate/deactivate, delete", () => {
  it("selects a linked company with 'La compañia {name} esta activa'", async () => {
    const { admin, b } = await adminWithCompany();
    const other = await createCompany(database.db, { userIds: [admin.id], name: "Segunda S.A." });
    const res = await call(b, selectCompany.action, { path: "/select-company", form: { company_id: String(other.id) } });
    expect(res.location).toBe("/dashboard");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "La compañia Segunda S.A. esta activa" }]);
  });

  it("a cancelled confirmation changes nothing and says 'Acción cancelada'", async () => {
    const { admin, b } = await adminWithCompany();
    const other = await createCompany(database.db, { userIds: [admin.id] });
    const res = await call(b, companiesRoute.action, { path: "/companies", form: { intent: "toggle", company_id: String(other.id), confirm: "cancel" } });
    expect(res.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "info", text: "Acción cancelada" }]);
    expect((await database.db.select().from(companies).where(eq(companies.id, other.id)))[0].active).toBe(true);
  });

  it("toggles the active flag and tells the new state", async () => {
    const { admin, b } = await adminWithCompany();
    const other = await createCompany(database.db, { userIds: [admin.id] });
    await call(b, companiesRoute.action, { path: "/all-companies", form: { intent: "toggle", company_id: String(other.id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Compañia desactivada" }]);
    expect((await database.db.select().from(companies).where(eq(companies.id, other.id)))[0].active).toBe(false);
    await call(b, companiesRoute.action, { path: "/all-companies", form: { intent: "toggle", company_id: String(other.id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Compañia activada" }]);
  });

  it("refuses to delete the session's own company", async () => {
    const { home, b } = await adminWithCompany();
    await call(b, companiesRoute.action, { path: "/companies", form: { intent: "delete", company_id: String(home.id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "error", text: COMPANY_MESSAGES.cannotDeleteCurrent }]);
    expect((await database.db.select().from(companies).where(eq(companies.id, home.id)))[0].deletedAt).toBeNull();
  });

  it("archives a company with documents: documents kept, gone from lists, other sessions moved to their next company", async () => {
    const { admin, b } = await adminWithCompany();
    const doomed = await createCompany(database.db, { userIds: [admin.id], name: "Archivada S.A." });
    await database.db.insert(documents).values({ companyId: doomed.id, kind: "fe", issuedAt: new Date() });
    const colleague = await createUser(database.db);
    const colleagueHome = await createCompany(database.db, { userIds: [colleague.id] });
    await database.db.insert(companyUsers).values({ companyId: doomed.id, userId: colleague.id });
    const lonely = await createUser(database.db);
    await database.db.insert(companyUsers).values({ companyId: doomed.id, userId: lonely.id });
    await signedIn(database.db, colleague.id, doomed.id);
    await signedIn(database.db, lonely.id, doomed.id);

    const res = await call(b, companiesRoute.action, { path: "/companies", form: { intent: "delete", company_id: String(doomed.id), confirm: "yes" } });
    expect(res.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Compañia eliminada" }]);
    const [row] = await database.db.select().from(companies).where(eq(companies.id, doomed.id));
    expect(row.deletedAt).not.toBeNull();
    expect(await database.db.select().from(documents).where(eq(documents.companyId, doomed.id))).toHaveLength(1);
    const list = await call(b, companiesRoute.loader, { path: "/companies" });
    expect(list.data.rows.map((r: { id: number }) => r.id)).not.toContain(doomed.id);
    const [moved] = await database.db.select().from(sessions).where(eq(sessions.userId, colleague.id));
    expect(moved.companyId).toBe(colleagueHome.id);
    const [none] = await database.db.select().from(sessions).where(eq(sessions.userId, lonely.id));
    expect(none.companyId).toBeNull();
    // Selecting the archived company is refused.
    await call(b, selectCompany.action, { path: "/select-company", form: { company_id: String(doomed.id) } });
    expect(toastsOf(b)).toEqual([{ type: "error", text: "Ocurrio un error" }]);
    const links = await database.db.select().from(companyUsers).where(and(eq(companyUsers.companyId, doomed.id), eq(companyUsers.userId, admin.id)));
    expect(links).toHaveLength(1);
  });

  it("non-admins cannot toggle or delete", async () => {
    const user = await createUser(database.db);
    const home = await createCompany(database.db, { userIds: [user.id] });
    const other = await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, home.id);
    expect((await call(b, companiesRoute.action, { path: "/companies", form: { intent: "toggle", company_id: String(other.id), confirm: "yes" } })).status).toBe(403);
    expect((await call(b, companiesRoute.action, { path: "/companies", form: { intent: "delete", company_id: String(other.id), confirm: "yes" } })).status).toBe(403);
    const [row] = await database.db.select().from(companies).where(eq(companies.id, other.id));
    expect(row).toMatchObject({ active: true, deletedAt: null });
  });
});
