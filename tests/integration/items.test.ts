// Items (spec part 1 §2.3 Items, §3, §5 Item, §8 Items): form rules and messages, values kept on errors,
// CABYS code → tax type selection (without JS through the form, with JS through /cabys-search), the CABYS
// check against the catalogue and Hacienda's fe/cabys, create/edit/delete with the spec's messages.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cabysCodes, items, taxTypes } from "../../db/schema/index.ts";
import * as itemsRoute from "../../app/routes/items/items.tsx";
import * as itemForm from "../../app/routes/items/item-form.tsx";
import * as cabysSearch from "../../app/routes/items/cabys-search.tsx";
import { ITEM_MESSAGES } from "../../app/domain/item-schemas.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { REMOTE_CABYS, startFakeHaciendaPublic, type FakePublic } from "../fixtures/fake-hacienda-public.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: FakePublic;
let b: Browser;
let companyId: number;
let tax: Record<string, number>;

const CAFE = "2110000000013";
const ARROZ = "2110000000020";
const LECHE = "2110000000037";

function toastsOf(browser: Browser) {
  const flash = browser.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

function form(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "save",
    code: `A-${Math.random().toString(36).slice(2, 8)}`,
    cabys_code: CAFE,
    name: "Café tostado molido 500 g",
    description: "Bolsa de café tostado y molido",
    category: "1",
    unit: "Unid",
    tax_type: String(tax["IVA 13%"]),
    currency: "2",
    price: "1500.50",
    ...overrides,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeHaciendaPublic();
  process.env.HACIENDA_PUBLIC_API_URL = fake.url;
  process.env.HACIENDA_LOOKUP_TIMEOUT_MS = "500";
  const user = await createUser(database.db);
  const company = await createCompany(database.db, { userIds: [user.id] });
  companyId = company.id;
  await setupItemsForCompany(database.db, companyId);
  await setupItemsForCompany(database.db, companyId); // idempotent
  const rows = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, companyId));
  tax = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  await database.db.insert(cabysCodes).values([
    { code: CAFE, description: "Café tostado en grano o molido", taxRate: "13" },
    { code: ARROZ, description: "Arroz blanco pilado", taxRate: "1" },
    { code: LECHE, description: "Leche fluida entera", taxRate: "0" },
  ]);
  b = await signedIn(database.db, user.id, companyId);
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});
beforeEach(() => {
  fake.cabysDown = false;
});

/** GET /cabys-search through the middleware; the JSON body of its Response. */
async function searchJson(browser: Browser, q: string) {
  let body: any;
  const r = await call(browser, async (args: Parameters<typeof cabysSearch.loader>[0]) => {
    const res = await cabysSearch.loader(args);
    body = await res.clone().json();
    return res;
  }, { path: `/cabys-search?q=${encodeURIComponent(q)}` });
  expect(r.status).toBe(200);
  return body;
}

const post = (values: Record<string, string>, path = "/new-item", params: Record<string, string> = {}) => call(b, itemForm.action, { path, params, form: values });

describe("setup", () => {
  it("gives a new company the default Lista de IVA once", async () => {
    expect(Object.keys(tax).sort()).toEqual(["Exento", "IVA 0.5%", "IVA 1%", "IVA 13%", "IVA 2%", "IVA 4%", "No sujeto"].sort());
  });
});

describe("item form rules", () => {
  it("requires every field with a Spanish message and keeps the values", async () => {
    const r = await post({ intent: "save", code: "", cabys_code: "", name: "", description: "", category: "", unit: "", tax_type: "", currency: "", price: "", cabys_q: "café" });
    expect(r.status).toBe(400);
    expect(r.data.errors).toMatchObject({
      code: "El código es obligatorio",
      cabys_code: "El código CABYS es obligatorio",
      name: "El nombre es obligatorio",
      description: "La descripción es obligatoria",
      category: "La categoría es obligatoria",
      unit: "La unidad es obligatoria",
      tax_type: "El tipo de impuesto es obligatorio",
      currency: "La moneda es obligatoria",
      price: "El precio es obligatorio",
    });
    expect(r.data.values.cabys_q).toBe("café");
  });

  it.each([
    ["-5", "El precio no puede ser negativo"],
    ["12,345", "El precio debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)"],
    ["1.50.000", "El precio debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)"],
    ["abc", "El precio debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)"],
    ["1e3", "El precio debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)"],
  ])("refuses price %s", async (price, message) => {
    const r = await post(form({ price, name: "Conservar este nombre" }));
    expect(r.status).toBe(400);
    expect(r.data.errors.price).toBe(message);
    expect(r.data.values.name).toBe("Conservar este nombre");
  });

  it("refuses a CABYS code that is not 13 digits", async () => {
    const r = await post(form({ cabys_code: "12345" }));
    expect(r.data.errors.cabys_code).toBe("El código CABYS debe tener 13 dígitos");
  });

  it("refuses a unit outside v4.4 and a tax type of another company", async () => {
    const other = await createCompany(database.db);
    await setupItemsForCompany(database.db, other.id);
    const [foreign] = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, other.id)).limit(1);
    const r = await post(form({ unit: "XYZ", tax_type: String(foreign.id) }));
    expect(r.data.errors.unit).toBe("La unidad es obligatoria");
    expect(r.data.errors.tax_type).toBe("El tipo de impuesto es obligatorio");
  });

  it("refuses a CABYS code neither local nor known to Hacienda", async () => {
    const r = await post(form({ cabys_code: "1234567890123" }));
    expect(r.status).toBe(400);
    expect(r.data.errors.cabys_code).toBe(ITEM_MESSAGES.cabysNotFound);
  });

  it("says when Hacienda cannot be reached for an unknown code", async () => {
    fake.cabysDown = true;
    const r = await post(form({ cabys_code: "1234567890128" }));
    expect(r.data.errors.cabys_code).toBe(ITEM_MESSAGES.cabysOffline);
  });

  it("accepts a code found through fe/cabys and caches it", async () => {
    const r = await post(form({ cabys_code: REMOTE_CABYS.codigo, code: "REMOTO-1" }));
    expect(r.status).toBe(302);
    const [cached] = await database.db.select().from(cabysCodes).where(eq(cabysCodes.code, REMOTE_CABYS.codigo));
    expect(cached.description).toBe(REMOTE_CABYS.descripcion);
    expect(Number(cached.taxRate)).toBe(13);
    expect(fake.requests).toContain(`/fe/cabys?codigo=${REMOTE_CABYS.codigo}`);
  });
});

describe("choosing a CABYS code selects the tax type", () => {
  it("without JavaScript: 'Buscar CABYS' lists results, picking one sets the matching tax type", async () => {
    const searched = await post(form({ intent: "cabys-search", cabys_q: "cafe tostado", tax_type: String(tax["IVA 1%"]), name: "Se conserva" }));
    expect(searched.status).toBe(200);
    expect(searched.data.cabysResults.map((r: { code: string }) => r.code)).toEqual([CAFE]);
    expect(searched.data.values.name).toBe("Se conserva");
    const picked = await post(form({ intent: `cabys-pick:${ARROZ}`, tax_type: String(tax["IVA 13%"]) }));
    expect(picked.data.values.cabys_code).toBe(ARROZ);
    expect(picked.data.values.tax_type).toBe(String(tax["IVA 1%"]));
    expect(picked.data.cabysMessage).toBe(ITEM_MESSAGES.cabysChosen);
  });

  it("an exempt code (0%) selects Exento", async () => {
    const picked = await post(form({ intent: `cabys-pick:${LECHE}` }));
    expect(picked.data.values.tax_type).toBe(String(tax.Exento));
  });

  it("with JavaScript: /cabys-search returns the matching tax type id for each code", async () => {
    const body = await searchJson(b, "leche");
    expect(body.data).toEqual([{ code: LECHE, description: "Leche fluida entera", taxRate: "0", categories: null, taxTypeId: tax.Exento }]);
    const byCode = await searchJson(b, "21100000000");
    expect(byCode.data.map((d: { code: string; taxTypeId: number }) => [d.code, d.taxTypeId])).toEqual([
      [CAFE, tax["IVA 13%"]],
      [ARROZ, tax["IVA 1%"]],
      [LECHE, tax.Exento],
    ]);
  });
});

describe("create, list, edit, delete", () => {
  let id: number;
  it("creates with 'Artículo Guardado correctamente' and returns to the list", async () => {
    const r = await post(form({ code: "CAF-500", name: "Café tostado molido en bolsa de 500 gramos", price: "1500,5" }));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/items");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Artículo Guardado correctamente" }]);
    const [row] = await database.db.select().from(items).where(and(eq(items.companyId, companyId), eq(items.code, "CAF-500")));
    id = row.id;
    expect(row.price).toBe("1500.50000");
    expect(row.cabysCode).toBe(CAFE);
  });

  it("refuses a duplicate code in the same company", async () => {
    const r = await post(form({ code: "caf-500" }));
    expect(r.data.errors.code).toBe(ITEM_MESSAGES.duplicateCode);
  });

  it("lists it (searchable) with price formatted", async () => {
    const r = await call(b, itemsRoute.loader, { path: "/items?search=CAF-500" });
    expect(r.data.rows).toHaveLength(1);
    expect(r.data.rows[0]).toMatchObject({ code: "CAF-500", cabysCode: CAFE, category: "Bienes", unit: "Unid", tax: "IVA 13%", price: "₡1.500,50" });
    const none = await call(b, itemsRoute.loader, { path: "/items?search=nada-parecido" });
    expect(none.data.rows).toEqual([]);
  });

  it("edits with 'Artículo actualizado correctamente'", async () => {
    const loaded = await call(b, itemForm.loader, { path: `/edit-item/${id}`, params: { id: String(id) } });
    expect(loaded.data.values).toMatchObject({ code: "CAF-500", price: "1.500,50", cabys_code: CAFE });
    const r = await post(form({ ...loaded.data.values, intent: "save", price: "1600" }), `/edit-item/${id}`, { id: String(id) });
    expect(r.location).toBe("/items");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Artículo actualizado correctamente" }]);
    const [row] = await database.db.select().from(items).where(eq(items.id, id));
    expect(row.price).toBe("1600.00000");
  });

  it("a cancelled delete says 'Acción cancelada'; delete says 'Artículo eliminado'; again 'Ocurrio un problema'", async () => {
    await call(b, itemsRoute.action, { path: "/items", form: { intent: "delete", item_id: String(id), confirm: "cancel" } });
    expect(toastsOf(b)).toEqual([{ type: "info", text: "Acción cancelada" }]);
    await call(b, itemsRoute.action, { path: "/items", form: { intent: "delete", item_id: String(id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Artículo eliminado" }]);
    await call(b, itemsRoute.action, { path: "/items", form: { intent: "delete", item_id: String(id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "error", text: "Ocurrio un problema" }]);
    const r = await call(b, itemForm.loader, { path: `/edit-item/${id}`, params: { id: String(id) } });
    expect(r.status).toBe(404);
  });

  it("pages without a search: the rows by name and the total of the company's live items only", async () => {
    const u = await createUser(database.db);
    const c = await createCompany(database.db, { userIds: [u.id] });
    await setupItemsForCompany(database.db, c.id);
    const [iva] = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, c.id));
    const item = (i: number) => ({ companyId: c.id, code: `P-${i}`, cabysCode: CAFE, name: `Producto ${String(i).padStart(2, "0")}`, description: "x", categoryId: 1, unitCode: "Unid", taxTypeId: iva.id, price: "1" });
    const rows = await database.db.insert(items).values(Array.from({ length: 13 }, (_, i) => item(i))).returning({ id: items.id });
    await database.db.update(items).set({ deletedAt: new Date() }).where(eq(items.id, rows[12].id));
    const browser = await signedIn(database.db, u.id, c.id);
    const first = await call(browser, itemsRoute.loader, { path: "/items?perPage=10&page=1" });
    expect(first.data).toMatchObject({ total: 12, lastPage: 2 });
    const second = await call(browser, itemsRoute.loader, { path: "/items?perPage=10&page=2" });
    expect(second.data.rows.map((r: { name: string }) => r.name)).toEqual(["Producto 10", "Producto 11"]);
    // Another company's list never shows them.
    expect((await call(b, itemsRoute.loader, { path: "/items?perPage=100" })).data.rows.some((r: { name: string }) => r.name.startsWith("Producto "))).toBe(false);
  });

  it("an empty list for a company without items", async () => {
    const u = await createUser(database.db);
    const c = await createCompany(database.db, { userIds: [u.id] });
    const r = await call(await signedIn(database.db, u.id, c.id), itemsRoute.loader, { path: "/items" });
    expect(r.data.rows).toEqual([]);
    expect(r.data.total).toBe(0);
  });
});

describe("the item dialog over the list (?new=1, ?edit=ID)", () => {
  const dialogPost = (path: string, values: Record<string, string>) => call(b, itemsRoute.action, { path, form: values });
  let id: number;

  it("GET /items?new=1 renders the list with an empty form in the dialog", async () => {
    const r = await call(b, itemsRoute.loader, { path: "/items?new=1" });
    expect(r.status).toBe(200);
    expect(r.data.dialog).toMatchObject({ id: null, values: { category: "1", unit: "Unid", currency: "2", price: "" }, errors: {} });
    expect(r.data.dialog.lists.taxTypes.map((t: { id: number }) => t.id)).toContain(tax["IVA 13%"]);
    expect(r.data.dialogAction).toBe("/items?new=1");
    expect(r.data.back).toBe("/items");
    const plain = await call(b, itemsRoute.loader, { path: "/items" });
    expect(plain.data.dialog).toBeNull();
  });

  it("a validation error re-renders the dialog with everything typed (400), nothing saved", async () => {
    const r = await dialogPost("/items?new=1&search=DLG", form({ code: "DLG-1", name: "Escrito en el diálogo", price: "12,345", cabys_q: "café" }));
    expect(r.status).toBe(400);
    expect(r.data.dialog.errors.price).toBe("El precio debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)");
    expect(r.data.dialog.values).toMatchObject({ code: "DLG-1", name: "Escrito en el diálogo", price: "12,345", cabys_q: "café", tax_type: String(tax["IVA 13%"]) });
    expect(r.data.dialog.id).toBeNull();
    const rows = await database.db.select().from(items).where(and(eq(items.companyId, companyId), eq(items.code, "DLG-1")));
    expect(rows).toEqual([]);
  });

  it("without JavaScript the CABYS search and pick work inside the dialog", async () => {
    const searched = await dialogPost("/items?new=1", form({ intent: "cabys-search", cabys_q: "arroz", name: "Se conserva" }));
    expect(searched.status).toBe(200);
    expect(searched.data.dialog.cabysResults.map((r: { code: string }) => r.code)).toEqual([ARROZ]);
    expect(searched.data.dialog.values.name).toBe("Se conserva");
    const picked = await dialogPost("/items?new=1", form({ intent: `cabys-pick:${ARROZ}` }));
    expect(picked.data.dialog.values).toMatchObject({ cabys_code: ARROZ, tax_type: String(tax["IVA 1%"]) });
  });

  it("saving from the dialog returns to /items with the same search and page and 'Artículo Guardado correctamente'", async () => {
    const r = await dialogPost("/items?new=1&search=DLG&page=2", form({ code: "DLG-1", name: "Artículo del diálogo" }));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/items?search=DLG&page=2");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Artículo Guardado correctamente" }]);
    const [row] = await database.db.select().from(items).where(and(eq(items.companyId, companyId), eq(items.code, "DLG-1")));
    expect(row.name).toBe("Artículo del diálogo");
    id = row.id;
  });

  it("GET /items?edit=ID renders the item in the dialog; saving updates it and returns to /items", async () => {
    const r = await call(b, itemsRoute.loader, { path: `/items?edit=${id}&search=DLG` });
    expect(r.status).toBe(200);
    expect(r.data.dialog).toMatchObject({ id, values: { code: "DLG-1", name: "Artículo del diálogo", price: "1.500,50", cabys_code: CAFE } });
    expect(r.data.dialogAction).toBe(`/items?search=DLG&edit=${id}`);
    expect(r.data.back).toBe("/items?search=DLG");
    expect(r.data.rows.map((x: { id: number }) => x.id)).toEqual([id]);

    const bad = await dialogPost(`/items?edit=${id}`, form({ ...r.data.dialog.values, intent: "save", name: "" }));
    expect(bad.status).toBe(400);
    expect(bad.data.dialog).toMatchObject({ id, errors: { name: "El nombre es obligatorio" }, values: { code: "DLG-1", name: "" } });

    const saved = await dialogPost(`/items?edit=${id}&search=DLG`, form({ ...r.data.dialog.values, intent: "save", price: "99.90" }));
    expect(saved.location).toBe("/items?search=DLG");
    expect(toastsOf(b)).toEqual([{ type: "success", text: "Artículo actualizado correctamente" }]);
    const [row] = await database.db.select().from(items).where(eq(items.id, id));
    expect(row.price).toBe("99.90000");
  });

  it("another company's item (or a malformed id) is a 404 for the dialog, on GET and POST, and changes nothing", async () => {
    const other = await createCompany(database.db);
    await setupItemsForCompany(database.db, other.id);
    const [foreignTax] = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, other.id)).limit(1);
    const [{ id: foreign }] = await database.db
      .insert(items)
      .values({ companyId: other.id, code: "AJENO-1", cabysCode: CAFE, name: "Ajeno", description: "x", categoryId: 1, unitCode: "Unid", taxTypeId: foreignTax.id, price: "10" })
      .returning({ id: items.id });
    expect((await call(b, itemsRoute.loader, { path: `/items?edit=${foreign}` })).status).toBe(404);
    expect((await call(b, itemsRoute.loader, { path: "/items?edit=abc" })).status).toBe(404);
    const post = await dialogPost(`/items?edit=${foreign}`, form({ code: "AJENO-1", name: "Cambiado" }));
    expect(post.status).toBe(404);
    const [row] = await database.db.select().from(items).where(eq(items.id, foreign));
    expect(row.name).toBe("Ajeno");
  });
});
