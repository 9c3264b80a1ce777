import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestContext } from "../../app/server/context.ts";
import { economicActivities } from "../../db/schema/index.ts";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import * as search from "../../app/routes/clients/activities-search.tsx";
import { parseActivityLine } from "../../app/domain/client-schemas.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: Browser;
let staffB: Browser;
beforeAll(async () => {
  database = await createTestDatabase();
  // The catalogue is shared: only the super-admin imports it (tests/integration/shared-content.test.ts).
  process.env.SUPER_ADMIN_EMAIL = "actividades-raiz@colibri.test";
  const a = await createUser(database.db, { role: "admin", email: "actividades-raiz@colibri.test" });
  const u = await createUser(database.db);
  const c = await createCompany(database.db, { userIds: [a.id, u.id] });
  admin = await signedIn(database.db, a.id, c.id);
  staffB = await signedIn(database.db, u.id, c.id);
});
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  await database.drop();
});

const toast = (b: Browser) => {
  const flash = b.cookies.get("colibri_flash");
  return (flash ? readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) : [])?.[0];
};
const csv = (text: string) => new Blob([text], { type: "text/csv" });
async function searchJson(path: string) {
  const context = new RouterContextProvider();
  context.set(requestContext, { ip: "127.0.0.1", csrf: "", toasts: [] });
  const res = (await search.loader({ request: new Request(`http://localhost${path}`), context, params: {} } as never)) as Response;
  return (await res.json()) as { data: { code: string; description: string }[] };
}
const count = async () => (await database.db.select().from(economicActivities)).length;
const upload = (b: Browser, text: string) => call(b, clientsRoute.action, { path: "/clients", form: { intent: "import-activities", file: csv(text) } });

describe("activity catalogue import (CSV code;description)", () => {
  it("imports a valid file with a header, then searches it with the default limit of 50", async () => {
    // CIIU 4 codes as Hacienda writes them since TRIBU-CR: 6201.0, 6201.1, … 6206.9.
    const code = (i: number) => `${6201 + Math.floor(i / 10)}.${i % 10}`;
    const lines = ["codigo;descripcion", ...Array.from({ length: 60 }, (_, i) => `${code(i)};ACTIVIDAD DE PRUEBA ${i}`), "4711.0;VENTA AL POR MENOR EN SUPERMERCADOS"];
    const res = await upload(admin, lines.join("\r\n") + "\r\n");
    expect(res.status).toBe(302);
    expect(res.location).toBe("/clients?activities=1");
    expect(toast(admin)).toEqual({ type: "success", text: "Catálogo de actividades importado: 61 actividades" });
    expect(await count()).toBe(61);
    const body = await searchJson("/activities?search=");
    expect(body.data).toHaveLength(50);
    const sup = await searchJson("/activities?search=supermercados&limit=50");
    expect(sup.data).toEqual([{ code: "4711.0", description: "VENTA AL POR MENOR EN SUPERMERCADOS" }]);
    const byCode = await searchJson("/activities?search=6201.&limit=5");
    expect(byCode.data).toHaveLength(5);
  });

  it("reads a code written without its dot (62015) as CIIU 4 (6201.5); refuses an old six-digit code (issue 11 point 1)", async () => {
    expect(parseActivityLine("62015;PROGRAMACION")).toEqual({ ok: true, code: "6201.5", description: "PROGRAMACION" });
    expect(parseActivityLine("722003;DISEÑADOR")).toEqual({ ok: false, why: "el código debe ser CIIU 4 de la forma 0000.0 (p. ej. 6201.0)" });
  });

  it("offers only CIIU 4 codes: a row of the old catalogue left by an earlier import is not searched", async () => {
    await database.db.insert(economicActivities).values({ code: "722003", description: "DISEÑADOR GRAFICO, DE SOFTWARE Y PAGINAS WEB" }).onConflictDoNothing();
    expect((await searchJson("/activities?search=DISEÑADOR")).data).toEqual([]);
    expect((await searchJson("/activities?search=7220")).data).toEqual([]);
    await database.db.delete(economicActivities).where(eq(economicActivities.code, "722003"));
  });

  it.each([
    ["6201.0;BIEN\n62A1.0;MAL\n", "Línea 2: el código debe ser CIIU 4 de la forma 0000.0 (p. ej. 6201.0)"],
    ["6201.0;BIEN\n6201.1\n", "Línea 2: debe tener el formato código;descripción"],
    ["6201.0;BIEN\n6201.1;\n", "Línea 2: la descripción es obligatoria (máximo 250 caracteres)"],
    ["6201.0;BIEN\n6201.0;OTRA VEZ\n", "Línea 2: el código 6201.0 está repetido"],
    ["", "El archivo está vacío"],
  ])("a broken file is refused with the line and nothing is saved (%#)", async (text, message) => {
    const before = await count();
    const res = await upload(admin, text.replace("BIEN", "CAMBIADA"));
    expect(res.status).toBe(302);
    expect(toast(admin)).toEqual({ type: "error", text: text === "" ? "Seleccione un archivo CSV" : message });
    expect(await count()).toBe(before);
    const [row] = (await database.db.select().from(economicActivities)).filter((r) => r.code === "6201.0");
    expect(row.description).toBe("ACTIVIDAD DE PRUEBA 0");
  });

  it("a broken line after many good ones (past a batch) saves nothing", async () => {
    const before = await count();
    const lines = Array.from({ length: 1200 }, (_, i) => `${7000 + Math.floor(i / 10)}.${i % 10};NUEVA ${i}`);
    lines.push("xx;rota");
    const res = await upload(admin, lines.join("\n"));
    expect(res.status).toBe(302);
    expect(toast(admin)?.text).toBe("Línea 1201: el código debe ser CIIU 4 de la forma 0000.0 (p. ej. 6201.0)");
    expect(await count()).toBe(before);
  });

  it("refuses a file that is not UTF-8 text", async () => {
    const before = await count();
    const res = await call(admin, clientsRoute.action, { path: "/clients", form: { intent: "import-activities", file: new Blob([Buffer.from([0x36, 0x32, 0x30, 0x31, 0x30, 0x30, 0x3b, 0xff, 0xfe, 0x0a])]) } });
    expect(res.status).toBe(302);
    expect(toast(admin)?.type).toBe("error");
    expect(await count()).toBe(before);
  });

  it("a non-admin may not import", async () => {
    const res = await upload(staffB, "6201.0;X\n");
    expect(res.status).toBe(403);
  });

  it("parses lines", () => {
    expect(parseActivityLine("6201.0;Programación; y más")).toEqual({ ok: true, code: "6201.0", description: "Programación; y más" });
    expect(parseActivityLine('"6201.0";"Con comillas"')).toEqual({ ok: true, code: "6201.0", description: "Con comillas" });
  });
});
