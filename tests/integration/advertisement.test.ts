import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advertisements } from "../../db/schema/index.ts";
import * as adRoute from "../../app/routes/dashboard/advertisement.tsx";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import * as seen from "../../app/routes/dashboard/advertisement-seen.tsx";
import { sanitizeAdvertisement } from "../../app/server/advertisement.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const SUPER = "anuncios-raiz@colibri.test";
beforeAll(async () => {
  database = await createTestDatabase();
  process.env.SUPER_ADMIN_EMAIL = SUPER;
});
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  await database.drop();
});

function toastsOf(b: Browser) {
  const flash = b.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

describe("sanitising", () => {
  it("removes scripts, event handlers, javascript: links and non-https images; keeps the whitelist", () => {
    const out = sanitizeAdvertisement(
      `<h2>Hola</h2><p onclick="x()">Texto <strong>fuerte</strong> <em>e</em> <u>u</u><br></p><script>alert(1)</script>` +
        `<img src="https://cdn.example/a.png" onerror="alert(2)"><img src="http://inseguro/a.png"><a href="javascript:alert(3)">mal</a>` +
        `<a href="mailto:hola@colibri.cr">correo</a><ul><li>uno</li></ul><iframe src="https://x"></iframe><style>p{}</style><h1>grande</h1>`,
    );
    expect(out).not.toMatch(/script|onerror|onclick|javascript:|iframe|style|alert\(/i);
    expect(out).toContain("<h2>Hola</h2>");
    expect(out).toContain("<strong>fuerte</strong>");
    expect(out).toContain('<img src="https://cdn.example/a.png" />');
    expect(out).not.toContain("http://inseguro");
    expect(out).toContain('href="mailto:hola@colibri.cr"');
    expect(out).toContain("<li>uno</li>");
    expect(out).not.toContain("<h1>");
  });
});

describe("advertisement admin (the super-admin's: tests/integration/shared-content.test.ts)", () => {
  it("requires title and content, saves sanitised HTML, increments the code, and users see it once per code", async () => {
    const admin = await createUser(database.db, { role: "admin", email: SUPER });
    const home = await createCompany(database.db, { userIds: [admin.id] });
    const b = await signedIn(database.db, admin.id, home.id);
    const empty = await call(b, adRoute.action, { path: "/advertisement", form: { title: "", content: "" } });
    expect(empty.status).toBe(400);
    expect(empty.data.errors).toEqual({ title: "El título es obligatorio", content: "El contenido es obligatorio" });

    const res = await call(b, adRoute.action, { path: "/advertisement", form: { active: "on", title: "Novedades", content: '<p>Hola</p><script>alert(1)</script><img src="https://x.cr/a.png" onerror="alert(1)">' } });
    expect(res.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Anuncio actualizado correctamente" }]);
    const [row] = await database.db.select().from(advertisements);
    expect(row.contentHtml).toBe('<p>Hola</p><img src="https://x.cr/a.png" />');
    expect(row.active).toBe(true);
    const firstCode = row.code;

    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const ub = await signedIn(database.db, user.id, home.id);
    const d1 = await call(ub, dashboard.loader, { path: "/dashboard" });
    expect(d1.data.ad).toMatchObject({ title: "Novedades", code: firstCode });
    await call(ub, seen.action, { path: "/advertisement-seen", form: { code: String(firstCode) } });
    expect((await call(ub, dashboard.loader, { path: "/dashboard" })).data.ad).toBeNull();

    await call(b, adRoute.action, { path: "/advertisement", form: { active: "on", title: "Novedades 2", content: "<p>Otra</p>" } });
    const [again] = await database.db.select().from(advertisements);
    expect(again.code).toBe(firstCode + 1);
    expect((await call(ub, dashboard.loader, { path: "/dashboard" })).data.ad).toMatchObject({ title: "Novedades 2" });

    const page = await call(b, adRoute.loader, { path: "/advertisement" });
    expect(page.data.values).toMatchObject({ active: "on", title: "Novedades 2", content: "<p>Otra</p>" });
  });

  it("is for admins only", async () => {
    const user = await createUser(database.db);
    const home = await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, home.id);
    expect((await call(b, adRoute.loader, { path: "/advertisement" })).status).toBe(403);
    const before = await database.db.select().from(advertisements);
    expect((await call(b, adRoute.action, { path: "/advertisement", form: { active: "on", title: "Hack", content: "<p>x</p>" } })).status).toBe(403);
    expect(await database.db.select().from(advertisements)).toEqual(before);
  });
});
