// A company with more clients and items than a form lists (FORM_LIST_LIMIT, docs/decisions/101):
// the form lists only what it uses and offers 'Buscar cliente' and the item search instead; every
// client and item can still be chosen, another company's never; small catalogues are unchanged.
import { createElement } from "react";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { clients, documents, items, taxTypes } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import { FORM_LIST_LIMIT } from "../../app/domain/document-form.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, renderPage, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let big: Awaited<ReturnType<typeof issuingCompany>>;
let small: Awaited<ReturnType<typeof issuingCompany>>;
let b: Browser;
let smallBrowser: Browser;
let tax13: number;
let lastClient: number;
let lastItem: number;
let foreignClient: number;
let foreignItem: number;
const N = FORM_LIST_LIMIT + 20;

beforeAll(async () => {
  database = await createTestDatabase();
  big = await issuingCompany(database.db);
  small = await issuingCompany(database.db);
  for (const c of [big, small]) await setupItemsForCompany(database.db, c.company.id);
  tax13 = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, big.company.id))).find((t) => t.name === "IVA 13%")!.id;
  const base = { companyId: big.company.id, identificationTypeId: 2, email: "c@example.cr", phone: "22224444", address: "San José", provinceNumber: 1, cantonNumber: 1, districtNumber: 1 };
  const cs = await database.db
    .insert(clients)
    .values(Array.from({ length: N }, (_, i) => ({ ...base, name: `Comercial Número ${String(i).padStart(4, "0")}`, identification: String(3101100000 + i) })))
    .returning({ id: clients.id });
  lastClient = cs[cs.length - 1].id;
  const its = await database.db
    .insert(items)
    .values(Array.from({ length: N }, (_, i) => ({ companyId: big.company.id, code: `F-${i}`, cabysCode: "4523000000100", name: `Tornillo número ${i}`, description: `Tornillo de acero ${i}`, categoryId: 1, unitCode: "Unid", taxTypeId: tax13, price: "150" })))
    .returning({ id: items.id });
  lastItem = its[its.length - 1].id;
  foreignClient = small.client.id;
  const smallTax = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, small.company.id)))[0];
  const [fi] = await database.db.insert(items).values({ companyId: small.company.id, code: "F-1", cabysCode: "4523000000100", name: "Ajeno", description: "Ajeno", categoryId: 1, unitCode: "Unid", taxTypeId: smallTax.id, price: "1" }).returning();
  foreignItem = fi.id;
  b = await signedIn(database.db, big.user.id, big.company.id);
  smallBrowser = await signedIn(database.db, small.user.id, small.company.id);
}, 120_000);
afterAll(async () => database?.drop());

const post = (path: string, form: Record<string, string>) => call(b, formRoute.action, { path, form });
const html = (loaderData: unknown) => {
  const Stub = createRoutesStub([{ id: "f", path: "/new-invoice", Component: formRoute.default as never, loader: () => null }]);
  // The searches are loaded lazily in the browser: rendered as the server does, waiting for them.
  return renderPage(createElement(Stub, { initialEntries: ["/new-invoice"], hydrationData: { loaderData: { f: loaderData } } }));
};
const line = (over: Record<string, string> = {}) => ({
  sale_condition: "01",
  "payments[0].code": "01",
  currency: "CRC",
  note: "Entrega en bodega",
  "lines[0].cabys": "4523000000100",
  "lines[0].description": "Tornillo",
  "lines[0].unit": "Unid",
  "lines[0].quantity": "3",
  "lines[0].price": "150",
  "lines[0].discount": "0",
  "lines[0].taxTypeId": String(tax13),
  ...over,
});

describe("a catalogue larger than the form lists", () => {
  it("lists only what the form uses and offers the searches; the page stays small", async () => {
    const r = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(r.data.lists.clientSearch).toEqual({ query: "", found: 0 });
    expect(r.data.lists.clients).toEqual([]);
    expect(r.data.lists.itemSearch).toBe(true);
    expect(r.data.lists.items).toEqual([]);
    expect(r.data.pos).toEqual({ query: "", results: [], message: null });
    const page = await html(r.data);
    expect(page).toContain('aria-label="Buscar cliente"');
    expect(page).toContain('aria-label="Artículos del catálogo"');
    expect(page.match(/<option/g)!.length).toBeLessThan(150);
    expect(page).not.toContain("Comercial Número");
    // ?id= still preselects any of the company's clients.
    const pre = await call(b, formRoute.loader, { path: `/new-invoice?id=${lastClient}` });
    expect(pre.data.form.clientId).toBe(String(lastClient));
    expect(pre.data.lists.clients.map((c: { id: number }) => c.id)).toEqual([lastClient]);
  });

  it("'Buscar cliente' offers the matches, keeps what was typed, and any client can be invoiced", async () => {
    const found = await post("/new-invoice", { ...line(), client_search: "comercial 0219", intent: "client-search" });
    expect(found.status).toBe(200);
    expect(found.data.lists.clientSearch).toEqual({ query: "comercial 0219", found: 1 });
    expect(found.data.lists.clients.map((c: { id: number }) => c.id)).toEqual([lastClient]);
    expect(found.data.form.note).toBe("Entrega en bodega");
    expect(found.data.form.lines[0].description).toBe("Tornillo");
    expect(await html(found.data)).toContain("1 encontrados: elija uno en la lista.");
    const none = await post("/new-invoice", { ...line(), client_search: "zzzz", intent: "client-search" });
    expect(await html(none.data)).toContain("No se encontraron clientes.");
    const saved = await post("/new-invoice", { ...line(), client_id: String(lastClient), intent: "save" });
    expect(saved.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(saved.location!.split("/").pop())));
    expect(doc.clientId).toBe(lastClient);
  });

  it("the item search adds any item of the catalogue; the line keeps it on the next submit", async () => {
    const searched = await post("/new-invoice", { ...line(), client_id: String(lastClient), pos_search: "tornillo 219", intent: "pos-search" });
    expect(searched.data.pos.results.map((it: { id: number }) => it.id)).toEqual([lastItem]);
    const byCode = await post("/new-invoice", { ...line(), client_id: String(lastClient), pos_search: `F-${N - 1}`, intent: "recalc" });
    expect(byCode.data.form.lines.map((l: { itemId: string }) => l.itemId)).toEqual(["", String(lastItem)]);
    expect(byCode.data.lists.items.map((it: { id: number }) => it.id)).toEqual([lastItem]);
    const added = await post("/new-invoice", { ...line(), client_id: String(lastClient), intent: `pos-add:${lastItem}` });
    const filled = added.data.form.lines[1];
    expect(filled).toMatchObject({ itemId: String(lastItem), picked: String(lastItem), code: `F-${N - 1}`, price: "150,00" });
    const again = await post("/new-invoice", { ...line({ "lines[1].itemId": String(lastItem), "lines[1].picked": String(lastItem), "lines[1].description": "Tornillo de acero", "lines[1].quantity": "2", "lines[1].price": "150", "lines[1].taxTypeId": String(tax13), "lines[1].cabys": "4523000000100", "lines[1].unit": "Unid", "lines[1].discount": "0" }), client_id: String(lastClient), intent: "recalc" });
    expect(again.data.form.lines[1].itemId).toBe(String(lastItem));
    expect(again.data.errors).toEqual({});
    expect(await html(again.data)).toContain(`value="${lastItem}" selected=""`);
  });

  it("another company's client or item is refused, never listed", async () => {
    const client = await post("/new-invoice", { ...line(), client_id: String(foreignClient), intent: "save" });
    expect(client.status).toBe(400);
    expect(client.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
    const item = await post("/new-invoice", { ...line({ "lines[0].itemId": String(foreignItem) }), client_id: String(lastClient), intent: "save" });
    expect(item.status).toBe(400);
    expect(item.data.errors["lines.0.itemId"]).toBe("El artículo seleccionado no existe en esta empresa.");
    const add = await post("/new-invoice", { ...line(), client_id: String(lastClient), intent: `pos-add:${foreignItem}` });
    expect(add.data.form.lines).toHaveLength(1);
    expect(add.data.lists.items).toEqual([]);
    const search = await post("/new-invoice", { ...line(), client_search: "sabana", intent: "client-search" });
    expect(search.data.lists.clients.map((c: { id: number }) => c.id)).not.toContain(foreignClient);
  });

  it("a clone lists the cloned document's client and items", async () => {
    const saved = await post("/new-invoice", { ...line({ "lines[0].itemId": String(lastItem) }), client_id: String(lastClient), intent: "save" });
    expect(saved.status).toBe(302);
    const id = saved.location!.split("/").pop();
    const clone = await call(b, formRoute.loader, { path: `/new-clone/invoice/${id}`, params: { document_type: "invoice", document_id: id! } });
    expect(clone.data.form.clientId).toBe(String(lastClient));
    expect(clone.data.form.lines[0].itemId).toBe(String(lastItem));
    expect(clone.data.lists.items.map((it: { id: number }) => it.id)).toEqual([lastItem]);
  });
});

describe("a small catalogue", () => {
  it("lists every client and item, with no searches", async () => {
    const r = await call(smallBrowser, formRoute.loader, { path: "/new-invoice" });
    expect(r.data.lists.clientSearch).toBeNull();
    expect(r.data.lists.itemSearch).toBe(false);
    expect(r.data.pos).toBeNull();
    expect(r.data.lists.clients.map((c: { id: number }) => c.id)).toEqual([small.client.id]);
    expect(r.data.lists.items.map((it: { id: number }) => it.id)).toEqual([foreignItem]);
  });
});
