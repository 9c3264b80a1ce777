// The signed-in shell in one query (issue 16, docs/decisions/191-request-shell.md): the session's
// query brings the user, the active company, the switcher's companies and the remembered list pages;
// nothing is cached between requests, so whatever changes — here written through another connection,
// as another web or jobs process would — shows on the very next page.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../db/client.ts";
import { installQueryStats } from "../../db/query-stats.ts";
import { counted } from "../setup/query-count.ts";
import { advertisements, companies, companyUsers, documents, haciendaConfigs, users } from "../../db/schema/index.ts";
import * as layout from "../../app/routes/app-layout.tsx";
import * as companiesRoute from "../../app/routes/companies/companies.tsx";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import * as invoices from "../../app/routes/documents/documents-list.tsx";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

const SUPER = "anuncios-shell@colibri.test";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
/** Another process's connection (PostgreSQL); PGlite has one process, so its own. */
let other: Database;
let b: Browser;
let userId: number;
let superId: number;
let companyA: { id: number };


beforeAll(async () => {
  database = await createTestDatabase();
  other = database.url ? await openDatabase({ databaseUrl: database.url, maxConnections: 1 }) : database;
  installQueryStats();
  process.env.SUPER_ADMIN_EMAIL = SUPER;
  const u = await createUser(database.db, { role: "admin" });
  superId = (await createUser(database.db, { role: "admin", email: SUPER })).id;
  userId = u.id;
  companyA = await createCompany(database.db, { name: "Alfa Comercial", userIds: [u.id] });
  await createCompany(database.db, { name: "Beta Servicios", userIds: [u.id] });
  b = await signedIn(database.db, u.id, companyA.id);
}, 60_000);
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  if (other !== database) await other.close();
  await database?.drop();
});

const shell = async () => (await call(b, layout.loader, { path: "/dashboard" })).data as { company: { id: number; name: string }; companies: { id: number; name: string }[] };

describe("the signed-in shell", () => {
  it("costs one query: session, user, company and the switcher's companies together", async () => {
    const { result, queries } = await counted(() => call(b, layout.loader, { path: "/dashboard" }));
    expect(result.status).toBe(200);
    expect(result.data.companies.map((c: { name: string }) => c.name)).toEqual(["Alfa Comercial", "Beta Servicios"]);
    expect(result.data.company).toMatchObject({ id: companyA.id, name: "Alfa Comercial" });
    expect(queries).toBe(1);
  });

  it("a list page that fits on one page: the shell's query, then its rows — no count (its remembered page comes with the session)", async () => {
    await call(b, companiesRoute.loader, { path: "/companies" }); // the first visit remembers the page (one write)
    const { result, queries } = await counted(() => call(b, companiesRoute.loader, { path: "/companies" }));
    expect(result.data.rows).toHaveLength(2);
    expect(result.data.total).toBe(2);
    expect(queries).toBe(2);
    // Another page number is remembered, and the next visit without one comes back to it.
    await call(b, companiesRoute.loader, { path: "/companies?page=1&perPage=20" });
    const again = await call(b, companiesRoute.loader, { path: "/companies" });
    expect([again.data.page, again.data.perPage, again.data.rows.length]).toEqual([1, 20, 2]);
    await call(b, companiesRoute.loader, { path: "/companies?perPage=10" });
  });

  it("a company renamed elsewhere shows its new name on the next page, in the header and the switcher", async () => {
    await other.db.update(companies).set({ name: "Alfa Comercial Renombrada" }).where(eq(companies.id, companyA.id));
    const s = await shell();
    expect(s.company.name).toBe("Alfa Comercial Renombrada");
    expect(s.companies.map((c) => c.name)).toContain("Alfa Comercial Renombrada");
  });

  it("a user's companies changed elsewhere: the switcher follows on the next page", async () => {
    const gamma = await createCompany(other.db, { name: "Gamma Nueva" });
    await other.db.insert(companyUsers).values({ companyId: gamma.id, userId });
    expect((await shell()).companies.map((c) => c.name)).toEqual(["Alfa Comercial Renombrada", "Beta Servicios", "Gamma Nueva"]);
    await other.db.delete(companyUsers).where(and(eq(companyUsers.companyId, gamma.id), eq(companyUsers.userId, userId)));
    expect((await shell()).companies.map((c) => c.name)).toEqual(["Alfa Comercial Renombrada", "Beta Servicios"]);
    // An archived company leaves the switcher too.
    const beta = (await shell()).companies.find((c) => c.name === "Beta Servicios")!;
    await other.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, beta.id));
    expect((await shell()).companies.map((c) => c.name)).toEqual(["Alfa Comercial Renombrada"]);
  });

  it("the advertisement changed elsewhere: the next dashboard shows the new one", async () => {
    await other.db.insert(advertisements).values({ title: "Aviso uno", contentHtml: "<p>Uno</p>", active: true, code: 1, savedById: superId });
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.ad).toMatchObject({ title: "Aviso uno", code: 1 });
    await other.db.update(advertisements).set({ title: "Aviso dos", code: 2 });
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.ad).toMatchObject({ title: "Aviso dos", code: 2 });
    await other.db.update(advertisements).set({ active: false });
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.ad).toBeNull();
  });

  it("the banners come with the session: a document list is the shell's query and its rows, the dashboard nothing more while its figures are unchanged", async () => {
    await call(b, invoices.loader, { path: "/invoices" }); // remembers the page
    const list = await counted(() => call(b, invoices.loader, { path: "/invoices" }));
    expect(list.result.data.pending).toBeNull();
    expect(list.queries).toBe(2);
    // The advertisement is read only while this user has not closed it.
    await database.db.update(advertisements).set({ active: false });
    const board = await counted(() => call(b, dashboard.loader, { path: "/dashboard" }));
    expect(board.result.data.ad).toBeNull();
    // The session only, with the figures' version: the sums and the deadlines were read by an earlier
    // view and have not changed since (decisions 200, 202). An invoice issued elsewhere changes them:
    // the next view reads the daily sums, the month's expenses and the deadlines again, and shows it.
    expect(board.queries).toBe(1);
    const before = board.result.data.figures.invoices;
    const [invoice] = await other.db.insert(documents).values({ companyId: companyA.id, kind: "fe", status: "aceptado", issuedAt: new Date(), totalComprobante: "1000.00000" }).returning({ id: documents.id });
    const changed = await counted(() => call(b, dashboard.loader, { path: "/dashboard" }));
    // The version moved, so the embedded database reads the session's row again too (decision 202).
    expect(changed.queries).toBe(4);
    expect(Number(changed.result.data.figures.invoices)).toBe(Number(before) + 1000);
    await other.db.delete(documents).where(eq(documents.id, invoice.id));
  });

  it("documents issued elsewhere and waiting: the next list and dashboard show the banner", async () => {
    const [doc] = await other.db.insert(documents).values({ companyId: companyA.id, kind: "fe", status: "por enviar", issuedAt: new Date(), totalComprobante: "1.00000" }).returning({ id: documents.id });
    expect((await call(b, invoices.loader, { path: "/invoices" })).data.pending).toBe("1 documento espera respuesta de Hacienda (1 por enviar). Se envían solos cuando Hacienda responde; no hace falta emitirlos de nuevo.");
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.pending).toBe("1 documento espera respuesta de Hacienda (1 por enviar). Se envían solos cuando Hacienda responde; no hace falta emitirlos de nuevo.");
    await other.db.delete(documents).where(eq(documents.id, doc.id));
    expect((await call(b, invoices.loader, { path: "/invoices" })).data.pending).toBeNull();
  });

  it("an advertisement this user closed is not read again; a new version is", async () => {
    await other.db.update(advertisements).set({ active: true, code: 7 });
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.ad).toMatchObject({ code: 7 });
    await other.db.update(users).set({ advertisementCode: 7 }).where(eq(users.id, userId));
    const closed = await counted(() => call(b, dashboard.loader, { path: "/dashboard" }));
    expect(closed.result.data.ad).toBeNull();
    expect(closed.queries).toBe(1);
    await other.db.update(advertisements).set({ code: 8 });
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.ad).toMatchObject({ code: 8 });
    await other.db.update(advertisements).set({ active: false });
  });

  it("a key uploaded elsewhere that expires soon: the next dashboard warns", async () => {
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.keyWarning).toBeNull();
    await other.db.insert(haciendaConfigs).values({ companyId: companyA.id, keyNotAfter: new Date(Date.now() + 10 * 86_400_000) });
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).data.keyWarning?.text).toMatch(/^La llave criptográfica vence el /);
  });
});
