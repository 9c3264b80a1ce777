// 'Lista de IVA' (/taxes/:company_id): list, 'Nuevo IVA', a working 'Editar', 'invalido' on bad input,
// admins only for changes, pagination above 10 rows.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taxTypes } from "../../db/schema/index.ts";
import * as taxesRoute from "../../app/routes/items/taxes.tsx";
import { readToasts } from "../../app/server/flash.server.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: Browser;
let staff: Browser;
let companyId: number;

function toastsOf(browser: Browser) {
  const flash = browser.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}
const path = () => `/taxes/${companyId}`;
const params = () => ({ company_id: String(companyId) });

beforeAll(async () => {
  database = await createTestDatabase();
  const a = await createUser(database.db, { role: "admin" });
  const u = await createUser(database.db);
  const c = await createCompany(database.db, { userIds: [a.id, u.id] });
  companyId = c.id;
  await setupItemsForCompany(database.db, c.id);
  admin = await signedIn(database.db, a.id, c.id);
  staff = await signedIn(database.db, u.id, c.id);
});
afterAll(() => database.drop());

describe("Lista de IVA", () => {
  it("lists the default rows with name, rate and CodigoTarifaIVA", async () => {
    const r = await call(staff, taxesRoute.loader, { path: path(), params: params() });
    expect(r.status).toBe(200);
    expect(r.data.rows.map((x: { name: string; rate: string; vatCode: string }) => [x.name, x.rate, x.vatCode])).toEqual([
      ["IVA 13%", "13", "08"],
      ["IVA 4%", "4", "04"],
      ["IVA 2%", "2", "03"],
      ["IVA 1%", "1", "02"],
      ["IVA 0.5%", "0.5", "09"],
      ["Exento", "0", "10"],
      ["No sujeto", "0", "11"],
    ]);
    expect(r.data.isAdmin).toBe(false);
    expect(r.data.lastPage).toBe(1);
  });

  it("'Nuevo IVA': name and rate required, 'invalido' otherwise, values kept", async () => {
    for (const bad of [
      { name: "", rate: "13", vat_code: "08" },
      { name: "IVA especial", rate: "", vat_code: "08" },
      { name: "IVA especial", rate: "abc", vat_code: "08" },
      { name: "IVA especial", rate: "101", vat_code: "08" },
      { name: "IVA especial", rate: "5", vat_code: "99" },
    ]) {
      const r = await call(admin, taxesRoute.action, { path: path(), params: params(), form: { intent: "save", ...bad } });
      expect(r.status).toBe(400);
      expect(Object.values(r.data.errors)).toContain("invalido");
      expect(r.data.open).toBe("new");
      expect(r.data.values.name).toBe(bad.name);
    }
    const ok = await call(admin, taxesRoute.action, { path: path(), params: params(), form: { intent: "save", name: "IVA transitorio 8%", rate: "8", vat_code: "07" } });
    expect(ok.location).toBe(path());
    expect(toastsOf(admin)).toEqual([{ type: "success", text: "Guardado correctamente" }]);
  });

  it("'Editar' really edits", async () => {
    const [row] = await database.db.select().from(taxTypes).where(eq(taxTypes.name, "IVA transitorio 8%"));
    const bad = await call(admin, taxesRoute.action, { path: path(), params: params(), form: { intent: "save", tax_id: String(row.id), name: "", rate: "8", vat_code: "07" } });
    expect(bad.data.open).toBe(String(row.id));
    expect(bad.data.errors.name).toBe("invalido");
    await call(admin, taxesRoute.action, { path: path(), params: params(), form: { intent: "save", tax_id: String(row.id), name: "IVA 8% (notas)", rate: "8,0", vat_code: "07" } });
    const [after] = await database.db.select().from(taxTypes).where(eq(taxTypes.id, row.id));
    expect(after.name).toBe("IVA 8% (notas)");
    expect(Number(after.rate)).toBe(8);
  });

  it("only admins change it", async () => {
    const r = await call(staff, taxesRoute.action, { path: path(), params: params(), form: { intent: "save", name: "X", rate: "1", vat_code: "02" } });
    expect(r.status).toBe(403);
  });

  it("pages only above 10 rows", async () => {
    for (let i = 0; i < 4; i++) await call(admin, taxesRoute.action, { path: path(), params: params(), form: { intent: "save", name: `Extra ${i}`, rate: "1", vat_code: "02" } });
    const r = await call(admin, taxesRoute.loader, { path: path(), params: params() });
    expect(r.data.rows).toHaveLength(10);
    expect(r.data.lastPage).toBe(2);
  });
});
