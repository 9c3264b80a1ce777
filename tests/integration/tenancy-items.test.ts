// Cross-tenant attempts on every items route and form: a user (even an admin) of company A cannot see,
// edit or delete company B's items, use B's tax types, or read/change B's Lista de IVA.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cabysCodes, items, taxTypes } from "../../db/schema/index.ts";
import * as itemsRoute from "../../app/routes/items/items.tsx";
import * as itemForm from "../../app/routes/items/item-form.tsx";
import * as taxesRoute from "../../app/routes/items/taxes.tsx";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let asAdminA: Browser;
let asUserA: Browser;
let A: { id: number };
let B: { id: number };
let itemB: number;
let taxB: number;
let taxA: number;
const CODE = "2110000000013";

beforeAll(async () => {
  database = await createTestDatabase();
  const adminA = await createUser(database.db, { role: "admin" });
  const userA = await createUser(database.db);
  const adminB = await createUser(database.db, { role: "admin" });
  A = await createCompany(database.db, { userIds: [adminA.id, userA.id] });
  B = await createCompany(database.db, { userIds: [adminB.id] });
  await setupItemsForCompany(database.db, A.id);
  await setupItemsForCompany(database.db, B.id);
  await database.db.insert(cabysCodes).values({ code: CODE, description: "Café", taxRate: "13" });
  [{ id: taxA }] = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, A.id)).limit(1);
  [{ id: taxB }] = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, B.id)).limit(1);
  [{ id: itemB }] = await database.db
    .insert(items)
    .values({ companyId: B.id, code: "B-1", cabysCode: CODE, name: "Secreto de B", description: "x", categoryId: 1, unitCode: "Unid", taxTypeId: taxB, price: "10" })
    .returning({ id: items.id });
  asAdminA = await signedIn(database.db, adminA.id, A.id);
  asUserA = await signedIn(database.db, userA.id, A.id);
});
afterAll(() => database.drop());

const valid = (taxId: number) => ({ intent: "save", code: "A-1", cabys_code: CODE, name: "Mío", description: "d", category: "1", unit: "Unid", tax_type: String(taxId), currency: "2", price: "5" });

describe("items of another company", () => {
  it("are not listed, even when searched", async () => {
    const r = await call(asAdminA, itemsRoute.loader, { path: "/items?search=Secreto" });
    expect(r.data.rows).toEqual([]);
  });

  it("edit page and edit post give 404 and change nothing", async () => {
    const page = await call(asAdminA, itemForm.loader, { path: `/edit-item/${itemB}`, params: { id: String(itemB) } });
    expect(page.status).toBe(404);
    const post = await call(asAdminA, itemForm.action, { path: `/edit-item/${itemB}`, params: { id: String(itemB) }, form: valid(taxA) });
    expect(post.status).toBe(404);
    const [row] = await database.db.select().from(items).where(eq(items.id, itemB));
    expect(row.name).toBe("Secreto de B");
  });

  it("delete fails with 'Ocurrio un problema' and the item stays", async () => {
    await call(asUserA, itemsRoute.action, { path: "/items", form: { intent: "delete", item_id: String(itemB), confirm: "yes" } });
    const [row] = await database.db.select().from(items).where(eq(items.id, itemB));
    expect(row.deletedAt).toBeNull();
  });

  it("B's tax types cannot be used on A's items", async () => {
    const r = await call(asUserA, itemForm.action, { path: "/new-item", form: valid(taxB) });
    expect(r.status).toBe(400);
    expect(r.data.errors.tax_type).toBe("El tipo de impuesto es obligatorio");
  });
});

describe("Lista de IVA of another company", () => {
  it("404 to read and to change, even for an admin", async () => {
    const page = await call(asAdminA, taxesRoute.loader, { path: `/taxes/${B.id}`, params: { company_id: String(B.id) } });
    expect(page.status).toBe(404);
    const post = await call(asAdminA, taxesRoute.action, { path: `/taxes/${B.id}`, params: { company_id: String(B.id) }, form: { intent: "save", name: "Hack", rate: "1", vat_code: "02" } });
    expect(post.status).toBe(404);
    const bogus = await call(asAdminA, taxesRoute.loader, { path: "/taxes/abc", params: { company_id: "abc" } });
    expect(bogus.status).toBe(404);
  });

  it("editing B's row through A's page changes nothing", async () => {
    await call(asAdminA, taxesRoute.action, { path: `/taxes/${A.id}`, params: { company_id: String(A.id) }, form: { intent: "save", tax_id: String(taxB), name: "Hack", rate: "1", vat_code: "02" } });
    const [row] = await database.db.select().from(taxTypes).where(eq(taxTypes.id, taxB));
    expect(row.name).not.toBe("Hack");
  });
});
