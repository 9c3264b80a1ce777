// Content every tenant sees or uses belongs to the super-admin alone (issue 10 point 4,
// docs/decisions/121-shared-content.md): the welcome advertisement, the CABYS catalogue and the
// activity catalogue. An ordinary administrator neither sees the screens nor gets through by posting;
// an advertisement saved by anyone but the super-admin reaches nobody.
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advertisements, cabysCodes, economicActivities } from "../../db/schema/index.ts";
import * as adRoute from "../../app/routes/dashboard/advertisement.tsx";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import * as itemsRoute from "../../app/routes/items/items.tsx";
import { navigationFor } from "../../app/domain/navigation.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { cabysXlsxBytes } from "../fixtures/cabys-xlsx.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

const SUPER = "operador-anuncios@colibri.test";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let root: Browser;
let admin: Browser;
/** A user of a company unrelated to the ordinary admin. */
let stranger: Browser;
let adminId: number;

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const rows = async (table: typeof cabysCodes | typeof economicActivities | typeof advertisements) => Number((await database.db.select({ n: count() }).from(table))[0].n);

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.SUPER_ADMIN_EMAIL = SUPER;
  const db = database.db;
  const s = await createUser(db, { role: "admin", email: SUPER });
  const a = await createUser(db, { role: "admin" });
  const u = await createUser(db);
  const sc = await createCompany(db, { userIds: [s.id] });
  const ac = await createCompany(db, { userIds: [a.id] });
  const uc = await createCompany(db, { userIds: [u.id], name: "Empresa Sin Relación" });
  for (const c of [sc, ac, uc]) await setupItemsForCompany(db, c.id);
  root = await signedIn(db, s.id, sc.id);
  admin = await signedIn(db, a.id, ac.id);
  stranger = await signedIn(db, u.id, uc.id);
  adminId = a.id;
}, 60_000);
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  await database?.drop();
});

describe("the advertisement is the super-admin's", () => {
  it("an ordinary admin gets 403 on the screen and on a post, nothing is saved, and the menu does not offer it", async () => {
    expect((await call(admin, adRoute.loader, { path: "/advertisement" })).status).toBe(403);
    const res = await call(admin, adRoute.action, { path: "/advertisement", form: { active: "on", title: "Gana un premio", content: '<p><a href="https://phish.example">Entra</a><img src="https://track.example/p.gif"></p>' } });
    expect(res.status).toBe(403);
    expect(await rows(advertisements)).toBe(0);
    const state = { signedIn: true, hasCompany: true, isAdmin: true, companyActive: true, permission: 1 };
    const labels = (isSuperAdmin: boolean) => navigationFor({ ...state, isSuperAdmin }).flatMap((g) => g.items.map((i) => i.to));
    expect(labels(false)).not.toContain("/advertisement");
    expect(labels(true)).toContain("/advertisement");
  });

  it("an advertisement someone else saved (before this rule) reaches nobody; the super-admin's reaches users of every company", async () => {
    await database.db.insert(advertisements).values({ title: "Gana un premio", contentHtml: '<p><a href="https://phish.example">Entra</a></p>', active: true, code: 7, savedById: adminId });
    expect((await call(stranger, dashboard.loader, { path: "/dashboard" })).data.ad).toBeNull();
    await database.db.delete(advertisements);
    await database.db.insert(advertisements).values({ title: "Anuncio viejo", contentHtml: "<p>Sin autor</p>", active: true, code: 3 });
    expect((await call(stranger, dashboard.loader, { path: "/dashboard" })).data.ad).toBeNull();

    const saved = await call(root, adRoute.action, { path: "/advertisement", form: { active: "on", title: "Novedades de Colibrí", content: "<p>Nueva versión</p>" } });
    expect(saved.status).toBe(302);
    const shown = (await call(stranger, dashboard.loader, { path: "/dashboard" })).data.ad;
    expect(shown).toMatchObject({ title: "Novedades de Colibrí", html: "<p>Nueva versión</p>" });
    expect((await call(admin, dashboard.loader, { path: "/dashboard" })).data.ad).toMatchObject({ title: "Novedades de Colibrí" });
  });
});

describe("the shared catalogues are imported by the super-admin only", () => {
  it("CABYS: an ordinary admin does not see the import and a post is refused (403), nothing imported; the super-admin imports", async () => {
    const page = await call(admin, itemsRoute.loader, { path: "/items" });
    expect(page.data.canImportCabys).toBe(false);
    expect(page.data.cabysCount).toBeNull();
    const before = await rows(cabysCodes);
    const file = () => new File([new Uint8Array(cabysXlsxBytesCache!)], "Catalogo.xlsx", { type: XLSX_TYPE });
    const res = await call(admin, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: file() } });
    expect(res.status).toBe(403);
    expect(await rows(cabysCodes)).toBe(before);
    expect((await call(root, itemsRoute.loader, { path: "/items" })).data.canImportCabys).toBe(true);
    const ok = await call(root, itemsRoute.action, { path: "/items", form: { intent: "import-cabys", file: file() } });
    expect(ok.status).toBe(302);
    expect(await rows(cabysCodes)).toBeGreaterThan(before);
  });

  it("activities: an ordinary admin does not see the import and a post is refused (403), nothing imported; the super-admin imports", async () => {
    const page = await call(admin, clientsRoute.loader, { path: "/clients?activities=1" });
    expect(page.data.canImportActivities).toBe(false);
    expect(page.data.activities).toBeNull();
    const before = await rows(economicActivities);
    const csv = () => new Blob(["codigo;descripcion\n9999.1;ACTIVIDAD FALSA DE PRUEBA\n"], { type: "text/csv" });
    const res = await call(admin, clientsRoute.action, { path: "/clients", form: { intent: "import-activities", file: csv() } });
    expect(res.status).toBe(403);
    expect(await rows(economicActivities)).toBe(before);
    expect((await call(root, clientsRoute.loader, { path: "/clients?activities=1" })).data.canImportActivities).toBe(true);
    const ok = await call(root, clientsRoute.action, { path: "/clients", form: { intent: "import-activities", file: csv() } });
    expect(ok.status).toBe(302);
    expect(await rows(economicActivities)).toBe(before + 1);
  });
});

let cabysXlsxBytesCache: Buffer | Uint8Array | undefined;
beforeAll(async () => {
  cabysXlsxBytesCache = await cabysXlsxBytes({ rows: 3 });
});
