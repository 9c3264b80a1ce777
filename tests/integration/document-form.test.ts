// The invoice/ticket form through its loader and action: intent re-renders keep everything typed,
// validation errors answer 400 with nothing saved, "Guardar" issues (consecutive 1 for each kind)
// and another company's client or item is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { clients, documents, exchangeRates, generalConfigurations, items, taxTypes, terms } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import { loadDocumentView } from "../../app/server/document-view.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";
import { parseDecimalInput } from "../../app/domain/number-input.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let company: Awaited<ReturnType<typeof issuingCompany>>;
let other: Awaited<ReturnType<typeof issuingCompany>>;
let tax13: number;
let tax4: number;
let itemId: number;
let otherItemId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  company = await issuingCompany(database.db);
  other = await issuingCompany(database.db);
  for (const c of [company, other]) await setupItemsForCompany(database.db, c.company.id);
  const taxes = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, company.company.id));
  tax13 = taxes.find((t) => t.name === "IVA 13%")!.id;
  tax4 = taxes.find((t) => t.name === "IVA 4%")!.id;
  const [item] = await database.db
    .insert(items)
    .values({ companyId: company.company.id, code: "LAP-14", cabysCode: "4523000000100", name: "Portátil", description: "Computadora portátil 14 pulgadas", categoryId: 1, unitCode: "Unid", taxTypeId: tax13, price: "450000" })
    .returning();
  itemId = item.id;
  const otherTax = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, other.company.id)))[0];
  const [foreign] = await database.db
    .insert(items)
    .values({ companyId: other.company.id, code: "X-1", cabysCode: "4523000000100", name: "Ajeno", description: "Artículo ajeno", categoryId: 1, unitCode: "Unid", taxTypeId: otherTax.id, price: "1000" })
    .returning();
  otherItemId = foreign.id;
  b = await signedIn(database.db, company.user.id, company.company.id);
}, 120_000);
afterAll(async () => database?.drop());

const twoLines = () => ({
  sale_condition: "01",
  "payments[0].code": "01",
  currency: "CRC",
  note: "Entrega en sitio",
  "lines[0].itemId": String(itemId),
  "lines[0].picked": String(itemId),
  "lines[0].code": "LAP-14",
  "lines[0].cabys": "4523000000100",
  "lines[0].description": "Computadora portátil 14 pulgadas",
  "lines[0].unit": "Unid",
  "lines[0].quantity": "2",
  "lines[0].price": "450000",
  "lines[0].discount": "5",
  "lines[0].taxTypeId": String(tax13),
  "lines[1].cabys": "8313100000000",
  "lines[1].description": "Horas de consultoría en sistemas",
  "lines[1].unit": "Sp",
  "lines[1].quantity": "10",
  "lines[1].price": "25000",
  "lines[1].discount": "0",
  "lines[1].taxTypeId": String(tax4),
});

/** Server-renders the form screen with its state (what a browser without JavaScript gets). */
function render(path: string, state: unknown): string {
  const Stub = createRoutesStub([{ id: "form", path, Component: formRoute.default as never, loader: () => null }]);
  return renderToString(createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { form: state } } }));
}

const post = (path: string, form: Record<string, string>) => call(b, formRoute.action, { path, form });
const countDocs = async (companyId: number) => (await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, companyId))).length;

describe("loader", () => {
  it("invoices offer neither the generic client nor providers; tickets preselect the generic client", async () => {
    const inv = await call(b, formRoute.loader, { path: "/new-invoice" });
    const ids = inv.data.lists.clients.map((c: { id: number }) => c.id);
    expect(ids).toEqual([company.client.id]);
    expect(inv.data.form.lines).toHaveLength(1);
    const pre = await call(b, formRoute.loader, { path: `/new-invoice?client_id=${company.client.id}` });
    expect(pre.data.form.clientId).toBe(String(company.client.id));
    const foreign = await call(b, formRoute.loader, { path: `/new-invoice?client_id=${other.client.id}` });
    expect(foreign.data.form.clientId).toBe("");
    const te = await call(b, formRoute.loader, { path: "/new-ticket" });
    expect(te.data.form.clientId).toBe(String(company.generic.id));
    expect(te.data.lists.clients.map((c: { id: number }) => c.id).sort()).toEqual([company.client.id, company.generic.id].sort());
  });
});

describe("intent re-renders (no JavaScript)", () => {
  it("Agregar línea, Quitar and Recalcular keep everything typed and recompute the totals", async () => {
    const added = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "add-line" });
    expect(added.status).toBe(200);
    expect(added.data.form.lines).toHaveLength(3);
    expect(added.data.form.note).toBe("Entrega en sitio");
    expect(added.data.form.lines[1].description).toBe("Horas de consultoría en sistemas");
    // The new blank row is left out of the totals (another row has a name and a price).
    expect(added.data.totals.total).toBe("1226150.00000");
    const removed = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "remove-line:0" });
    expect(removed.data.form.lines.map((l: { description: string }) => l.description)).toEqual(["Horas de consultoría en sistemas"]);
    expect(removed.data.totals.total).toBe("260000.00000");
    const recalc = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "recalc" });
    expect(recalc.data.totals).toEqual({ subtotal: "1150000.00000", discount: "45000.00000", tax: "121150.00000", exonerated: "0.00000", total: "1226150.00000", warnings: [] });
    expect(await countDocs(company.company.id)).toBe(0);
  });

  it("a line without CABYS is counted by its unit with a warning shown beside the totals, with and without JavaScript (issue 11 point 2)", async () => {
    const noCabys = { ...twoLines(), client_id: String(company.client.id), "lines[1].cabys": "" };
    const warning =
      "La línea 2 no tiene código CABYS: se contó como servicio por su unidad de medida (Sp). Hacienda clasifica por el CABYS: indíquelo para que los totales de mercancías y servicios coincidan.";
    const recalc = await post("/new-invoice", { ...noCabys, intent: "recalc" });
    expect(recalc.status).toBe(200);
    expect(recalc.data.totals.warnings).toEqual([warning]);
    expect(recalc.data.totals.total).toBe("1226150.00000");
    expect(render("/new-invoice", recalc.data)).toContain(warning);
    // The live totals (JavaScript) carry it too.
    const live = await post("/new-invoice", { ...noCabys, intent: "totals" });
    expect(live.data.totals.warnings).toEqual([warning]);
    // Saving an invoice still needs the CABYS (the warning is not the error).
    const saved = await post("/new-invoice", { ...noCabys, intent: "save" });
    expect(saved.status).toBe(400);
    expect(saved.data.errors["lines.1.cabys"]).toBe("El código CABYS de la línea 2 debe tener 13 dígitos: elija el producto o servicio del catálogo CABYS.");
  });

  it("live totals (with JavaScript): intent totals answers only the totals of what is typed, nothing saved", async () => {
    const live = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "totals" });
    expect(live.status).toBe(200);
    expect(live.data).toEqual({ totals: { subtotal: "1150000.00000", discount: "45000.00000", tax: "121150.00000", exonerated: "0.00000", total: "1226150.00000", warnings: [] } });
    const halfDone = await post("/new-invoice", { ...twoLines(), "lines[1].price": "", intent: "totals" });
    expect(halfDone.data).toEqual({ totals: null });
    expect((await post("/new-note/nc/invoice/999999", { ...twoLines(), intent: "totals" })).status).toBe(404);
    expect(await countDocs(company.company.id)).toBe(0);
    // Asking for totals does not reload the page's data, unless a save is leading to another page
    // meanwhile (decision 102); every other submission does.
    const here = new URL("http://x/new-ticket");
    const args = (intent: string, nextUrl = here) => {
      const formData = new FormData();
      formData.set("intent", intent);
      return { formData, currentUrl: here, nextUrl, defaultShouldRevalidate: true } as unknown as Parameters<typeof formRoute.shouldRevalidate>[0];
    };
    expect(formRoute.shouldRevalidate(args("totals"))).toBe(false);
    expect(formRoute.shouldRevalidate(args("totals", new URL("http://x/new-ticket?printed=7")))).toBe(true);
    expect(formRoute.shouldRevalidate(args("add-line"))).toBe(true);
  });

  it("picking an item fills its row on the next submit", async () => {
    const r = await post("/new-invoice", { client_id: String(company.client.id), "lines[0].itemId": String(itemId), "lines[0].quantity": "1", intent: "recalc" });
    expect(r.data.form.lines[0]).toMatchObject({ code: "LAP-14", cabys: "4523000000100", description: "Computadora portátil 14 pulgadas", price: "450.000,00", taxTypeId: String(tax13) });
    expect(r.data.totals.total).toBe("508500.00000");
  });
});

describe("validation", () => {
  it("errors next to the fields, status 400, values kept, nothing saved", async () => {
    const bad = { ...twoLines(), client_id: "", "lines[1].quantity": "0", "lines[1].discount": "150", intent: "save" };
    const r = await post("/new-invoice", bad);
    expect(r.status).toBe(400);
    expect(r.data.errors).toMatchObject({
      clientId: "Seleccione un cliente.",
      "lines.1.quantity": "La cantidad debe estar entre 0,1 y 100.000.",
      "lines.1.discountPercent": "El descuento debe estar entre 0 y 100.",
    });
    expect(r.data.form.lines[1]).toMatchObject({ quantity: "0", discount: "150", description: "Horas de consultoría en sistemas" });
    expect(r.data.form.note).toBe("Entrega en sitio");
    const empty = await post("/new-invoice", { client_id: String(company.client.id), sale_condition: "01", "payments[0].code": "01", currency: "CRC", intent: "save" });
    expect(empty.status).toBe(400);
    expect(empty.data.errors.lines).toBe("El documento debe contener minimo un artículo.");
    expect(await countDocs(company.company.id)).toBe(0);
  });
});

describe("payment methods", () => {
  it("Agregar medio de pago adds a row (up to 4); amounts that do not add up to the total are refused", async () => {
    const base = { ...twoLines(), client_id: String(company.client.id) };
    const added = await post("/new-invoice", { ...base, intent: "add-payment" });
    expect(added.data.form.payments).toHaveLength(2);
    expect(added.data.form.lines).toHaveLength(2);
    const four = await post("/new-invoice", { ...base, "payments[1].code": "02", "payments[2].code": "04", "payments[3].code": "06", intent: "add-payment" });
    expect(four.data.form.payments).toHaveLength(4);
    const removed = await post("/new-invoice", { ...base, "payments[1].code": "02", intent: "remove-payment:0" });
    expect(removed.data.form.payments).toEqual([{ code: "02", amount: "", other: "" }]);
    const wrong = await post("/new-invoice", { ...base, "payments[0].amount": "1000000", "payments[1].code": "04", "payments[1].amount": "1000", intent: "save" });
    expect(wrong.status).toBe(400);
    expect(wrong.data.errors.payments).toMatch(/deben sumar el total del comprobante/);
    expect(wrong.data.form.payments[1]).toEqual({ code: "04", amount: "1000", other: "" });
    expect(await countDocs(company.company.id)).toBe(0);
  });
});

describe("credit", () => {
  it("credit needs 1 to 365 days; the typed days are kept", async () => {
    const r = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), sale_condition: "02", credit_days: "400", intent: "save" });
    expect(r.status).toBe(400);
    expect(r.data.errors.creditDays).toBe("Los días de crédito deben estar entre 1 y 365.");
    expect(r.data.form).toMatchObject({ saleCondition: "02", creditDays: "400" });
    expect(await countDocs(company.company.id)).toBe(0);
  });
});

describe("Nuevo plazo (credit terms)", () => {
  const credit = () => ({ ...twoLines(), client_id: String(company.client.id), sale_condition: "02", credit_days: "" });

  it("offers Hacienda's usual terms, without 'Contado'", async () => {
    const inv = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(inv.data.lists.creditTerms.map((t: { days: number }) => t.days)).toEqual([8, 15, 30, 45, 60, 90]);
  });

  it("adds the company's term, chooses it, keeps everything typed and issues nothing; the other company does not see it", async () => {
    const r = await post("/new-invoice", { ...credit(), new_term_name: "20 días hábiles", new_term_days: "20", intent: "add-term" });
    expect(r.status).toBe(200);
    expect(r.data.form).toMatchObject({ saleCondition: "02", creditDays: "20", note: "Entrega en sitio" });
    expect(r.data.form.lines).toHaveLength(2);
    expect(r.data.message).toBe("Plazo agregado: 20 días hábiles");
    expect(r.data.lists.creditTerms).toContainEqual({ name: "20 días hábiles", days: 20 });
    expect(await countDocs(company.company.id)).toBe(0);
    const again = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(again.data.lists.creditTerms.map((t: { days: number }) => t.days)).toEqual([8, 15, 20, 30, 45, 60, 90]);
    const otherBrowser = await signedIn(database.db, other.user.id, other.company.id);
    const theirs = await call(otherBrowser, formRoute.loader, { path: "/new-invoice" });
    expect(theirs.data.lists.creditTerms.map((t: { days: number }) => t.days)).not.toContain(20);
  });

  it("refuses a term without a name, outside 1 to 365 days or already offered, keeping what was typed", async () => {
    const bad = await post("/new-invoice", { ...credit(), new_term_name: " ", new_term_days: "400", intent: "add-term" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toMatchObject({ newTermName: "El nombre del plazo es obligatorio.", newTermDays: "Los días deben ser un número entero entre 1 y 365." });
    expect(bad.data.newTerm).toEqual({ name: "", days: "400" });
    expect(bad.data.form.note).toBe("Entrega en sitio");
    const usual = await post("/new-invoice", { ...credit(), new_term_name: "Un mes", new_term_days: "30", intent: "add-term" });
    expect(usual.data.errors.newTermDays).toBe("Ya existe un plazo de 30 días.");
    const own = await post("/new-invoice", { ...credit(), new_term_name: "Otra vez", new_term_days: "20", intent: "add-term" });
    expect(own.data.errors.newTermDays).toBe("Ya existe un plazo de 20 días.");
  });

  it("the new term's days pass the credit check (the invoice itself is issued in the other tests)", async () => {
    const r = await post("/new-invoice", { ...credit(), client_id: "", credit_days: "20", intent: "save" });
    expect(r.status).toBe(400);
    expect(r.data.errors.clientId).toBeTruthy();
    expect(r.data.errors.creditDays).toBeUndefined();
  });
});

describe("currency", () => {
  it("dollars without a stored rate: the message shows and Guardar asks for the rate; with a rate it is filled in", async () => {
    const usd = { ...twoLines(), client_id: String(company.client.id), currency: "USD", exchange_rate: "" };
    const none = await post("/new-invoice", { ...usd, intent: "recalc" });
    expect(none.data.message).toBe("No hay tipo de cambio registrado y no se pudo obtener el de hoy de Hacienda. Inténtalo más tarde.");
    const refused = await post("/new-invoice", { ...usd, intent: "save" });
    expect(refused.status).toBe(400);
    expect(refused.data.errors.exchangeRate).toBe("Indique el tipo de cambio del dólar (mayor que cero).");
    await database.db.insert(exchangeRates).values({ currencyCode: "USD", rateDate: "2026-01-05", buy: "500", sell: "505.5", source: "test" });
    const filled = await post("/new-invoice", { ...usd, intent: "recalc" });
    expect(filled.data.form.exchangeRate).toBe("505,5");
    const typed = await post("/new-invoice", { ...usd, exchange_rate: "510", intent: "recalc" });
    expect(typed.data.form.exchangeRate).toBe("510");
    expect(await countDocs(company.company.id)).toBe(0);
  });
});

describe("Hacienda rules", () => {
  it("a free line without CABYS is refused with the error on its row", async () => {
    const r = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), "lines[1].cabys": "", intent: "save" });
    expect(r.status).toBe(400);
    expect(r.data.errors["lines.1.cabys"]).toMatch(/^El código CABYS de la línea 2 debe tener 13 dígitos/);
    expect(r.data.general).toEqual([]);
    expect(r.data.form.lines[1].description).toBe("Horas de consultoría en sistemas");
    expect(await countDocs(company.company.id)).toBe(0);
  });
});

describe("cross-tenant", () => {
  it("another company's client or item is refused and nothing is saved", async () => {
    const r1 = await post("/new-invoice", { ...twoLines(), client_id: String(other.client.id), intent: "save" });
    expect(r1.status).toBe(400);
    expect(r1.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
    const r2 = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), "lines[0].itemId": String(otherItemId), intent: "save" });
    expect(r2.status).toBe(400);
    expect(r2.data.errors["lines.0.itemId"]).toBe("El artículo seleccionado no existe en esta empresa.");
    const r3 = await post("/new-invoice", { ...twoLines(), client_id: String(company.generic.id), intent: "save" });
    expect(r3.status).toBe(400);
    expect(r3.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
    const r4 = await post("/new-ticket", { ...twoLines(), client_id: String(company.provider.id), intent: "save" });
    expect(r4.status).toBe(400);
    expect(r4.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
    expect(await countDocs(company.company.id)).toBe(0);
    expect(await countDocs(other.company.id)).toBe(0);
  });
});

describe("Guardar", () => {
  it("issues an invoice and a ticket (consecutive 1 each) and redirects to the detail with the toast", async () => {
    const inv = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "save" });
    expect(inv.status).toBe(302);
    expect(inv.location).toMatch(/^\/detail\/invoice\/\d+$/);
    const te = await post("/new-ticket", { ...twoLines(), client_id: String(company.generic.id), intent: "save" });
    expect(te.status).toBe(302);
    expect(te.location).toMatch(/^\/detail\/ticket\/\d+$/);
    const rows = await database.db.select().from(documents).where(eq(documents.companyId, company.company.id));
    expect(rows).toHaveLength(2);
    const byKind = Object.fromEntries(rows.map((d) => [d.kind, d]));
    expect(byKind.fe.number).toBe(1);
    expect(byKind.te.number).toBe(1);
    expect(byKind.fe.id).toBe(Number(inv.location!.split("/").pop()));
    expect(b.cookies.has("colibri_flash")).toBe(true);
    const split = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), "payments[0].code": "02", "payments[0].amount": "1000000", "payments[1].code": "04", "payments[1].amount": "226150", intent: "save" });
    expect(split.status).toBe(302);
    const [second] = await database.db.select().from(documents).where(eq(documents.id, Number(split.location!.split("/").pop())));
    expect(second.number).toBe(2);
    // Both methods, each with its amount, are in the signed XML (v4.4: up to 4 MedioPago with TotalMedioPago).
    const medios = [...second.signedXml!.toString("utf8").matchAll(/<MedioPago><TipoMedioPago>(\d+)<\/TipoMedioPago><TotalMedioPago>([\d.]+)<\/TotalMedioPago><\/MedioPago>/g)];
    expect(medios.map((m) => [m[1], Number(m[2])])).toEqual([
      ["02", 1000000],
      ["04", 226150],
    ]);
    const intl = await post("/new-ticket", { ...twoLines(), client_id: String(company.generic.id), international: "on", international_name: "John Smith", international_cedula: "P1234567", intent: "save" });
    expect(intl.status).toBe(302);
    const [ticket2] = await database.db.select().from(documents).where(eq(documents.id, Number(intl.location!.split("/").pop())));
    expect(ticket2).toMatchObject({ kind: "te", number: 2 });
  });
});

describe("exoneration", () => {
  const exonerated = () => ({
    ...twoLines(),
    client_id: String(company.client.id),
    "lines[0].exType": "03",
    "lines[0].exNumber": "AL-00012345-24",
    "lines[0].exInstitution": "01",
    "lines[0].exDate": "2026-01-15",
    "lines[0].exArticle": "8",
    "lines[0].exInciso": "2",
    "lines[0].exPercent": "13",
  });

  it("wrong or missing exoneration fields are refused on their row, everything typed is kept", async () => {
    const before = await countDocs(company.company.id);
    const r = await post("/new-invoice", { ...exonerated(), "lines[0].exType": "99", "lines[0].exPercent": "14", "lines[0].exArticle": "8a", "lines[1].exNumber": "X", intent: "save" });
    expect(r.status).toBe(400);
    expect(r.data.errors["lines.0.exoneration.percentage"]).toBe("El porcentaje de exoneración debe estar entre 0 y la tarifa del impuesto.");
    expect(r.data.errors["lines.0.exoneration.other"]).toBe("Con 'Otros', describa el tipo de documento o la institución (de 5 a 100 caracteres).");
    expect(r.data.errors["lines.0.exoneration.article"]).toBe("El artículo y el inciso de la exoneración son números de hasta 6 dígitos.");
    // A number alone on the second row: the other fields are asked for.
    expect(r.data.errors["lines.1.exoneration"]).toBe("Complete el tipo, número, fecha e institución de la exoneración.");
    expect(r.data.form.lines[0]).toMatchObject({ exType: "99", exNumber: "AL-00012345-24", exDate: "2026-01-15", exPercent: "14" });
    expect(r.data.form.lines[1].exNumber).toBe("X");
    expect(await countDocs(company.company.id)).toBe(before);
  });

  it("exoneration types reserved for notes (01, 05, 06, 07) are not offered on an invoice and refused if posted (A44 p.74)", async () => {
    const page = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(page.data.lists.exonerationTypes.map(([code]: [string, string]) => code)).toEqual(["02", "03", "04", "08", "09", "10", "11", "99"]);
    const typeSelect = /<select id="lines\[0\]\.exType"[\s\S]*?<\/select>/.exec(render("/new-invoice", page.data))![0];
    expect(typeSelect).toContain('value="02"');
    expect(typeSelect).not.toContain('value="05"');
    const r = await post("/new-invoice", { ...exonerated(), "lines[0].exType": "05", intent: "save" });
    expect(r.status).toBe(400);
    expect(r.data.errors["lines.0.exoneration.type"]).toBe("El tipo de exoneración 05 solo se admite en notas de crédito y débito (Anexo 4.4, nota 10.1): elija otro tipo.");
  });

  it("Recalcular shows the exonerated tax; Guardar signs it into the XML and stores the totals", async () => {
    const preview = await post("/new-invoice", { ...exonerated(), intent: "recalc" });
    expect(preview.data.totals).toMatchObject({ tax: "10000.00000", exonerated: "111150.00000", total: "1115000.00000" });
    const r = await post("/new-invoice", { ...exonerated(), intent: "save" });
    expect(r.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(r.location!.split("/").pop())));
    expect(doc.exonerated).toBe("111150.00000");
    expect(doc.totalComprobante).toBe("1115000.00000");
    const xml = Buffer.from(doc.signedXml!).toString("utf8");
    expect(xml).toMatch(
      /<Exoneracion><TipoDocumentoEX1>03<\/TipoDocumentoEX1><NumeroDocumento>AL-00012345-24<\/NumeroDocumento><Articulo>8<\/Articulo><Inciso>2<\/Inciso><NombreInstitucion>01<\/NombreInstitucion><FechaEmisionEX>2026-01-15T12:00:00-06:00<\/FechaEmisionEX><TarifaExonerada>13\.00<\/TarifaExonerada><MontoExoneracion>111150\.00000<\/MontoExoneracion><\/Exoneracion>/,
    );
    expect(xml).toContain("<TotalExonerado>");
  });
});

describe("Guardar e imprimir (tickets)", () => {
  it("saves, then a fresh ticket form names the saved ticket to print; only the company's own tickets", async () => {
    const r = await post("/new-ticket", { ...twoLines(), client_id: String(company.generic.id), intent: "save-print" });
    expect(r.status).toBe(302);
    const m = /^\/new-ticket\?printed=(\d+)$/.exec(r.location!);
    expect(m).not.toBeNull();
    const [ticket] = await database.db.select().from(documents).where(eq(documents.id, Number(m![1])));
    expect(ticket.kind).toBe("te");
    const page = await call(b, formRoute.loader, { path: r.location! });
    expect(page.data.printed).toEqual({ id: ticket.id, consecutivo: ticket.consecutivo });
    // The form starts over: the generic client, colones, one blank line.
    expect(page.data.form).toMatchObject({ clientId: String(company.generic.id), currency: "CRC" });
    expect(page.data.form.lines).toHaveLength(1);
    expect(page.data.form.lines[0].description).toBe("");

    const [invoice] = await database.db.select().from(documents).where(eq(documents.kind, "fe")).limit(1);
    expect((await call(b, formRoute.loader, { path: `/new-ticket?printed=${invoice.id}` })).data.printed).toBeNull();
    const foreign = await signedIn(database.db, other.user.id, other.company.id);
    expect((await call(foreign, formRoute.loader, { path: r.location! })).data.printed).toBeNull();
    // An invoice saved with that intent still goes to its detail page.
    const inv = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "save-print" });
    expect(inv.location).toMatch(/^\/detail\/invoice\/\d+$/);
  });
});

describe("quick-add client", () => {
  const newClientForm = (identification: string) => ({
    intent: "save",
    name: "Cliente Rápido",
    identification_type: "2",
    identification,
    email: "rapido@example.cr",
    phone: "88887777",
    address: "Frente al parque",
    country: "60",
    province: "1",
    canton: "1",
    district: "1",
    barrio: "",
    economic_activity_code: "6201.0",
    contact_count: "1",
    contact_name_0: "Rápido",
    contact_email_0: "rapido@example.cr",
  });

  it("the new-client page returns to the document form with the new client selected; a provider for the purchase invoice; no other return", async () => {
    const newClient = await import("../../app/routes/clients/new-client.tsx");
    // 'Nuevo cliente' on a ticket being typed: the typed values are kept in the session.
    const typed = { ...twoLines(), client_id: String(company.generic.id), note: "Venta de mostrador", intent: "quick-add" };
    const leave = await post("/new-ticket", typed);
    expect(leave.status).toBe(302);
    expect(leave.location).toBe("/new-client?volver=%2Fnew-ticket");
    const r = await call(b, newClient.action, { path: "/new-client?volver=%2Fnew-ticket", form: newClientForm("3101777001") });
    expect(r.status).toBe(302);
    const id = /^\/new-ticket\?id=(\d+)&restore=1$/.exec(r.location!)![1];
    const ticket = await call(b, formRoute.loader, { path: r.location! });
    // Back on the ticket: the new client chosen, everything typed still there, nothing issued.
    expect(ticket.data.form.clientId).toBe(id);
    expect(ticket.data.form.note).toBe("Venta de mostrador");
    expect(ticket.data.form.lines.map((l: { description: string }) => l.description)).toEqual(["Computadora portátil 14 pulgadas", "Horas de consultoría en sistemas"]);
    // Taken once: reloading gives a fresh form with the client preselected.
    const again = await call(b, formRoute.loader, { path: r.location! });
    expect(again.data.form.clientId).toBe(id);
    expect(again.data.form.note).toBe("");
    expect((await call(b, formRoute.loader, { path: `/new-invoice?client_id=${id}` })).data.form.clientId).toBe(id);

    const page = await call(b, newClient.loader, { path: "/new-client?volver=%2Fnew-simple" });
    expect(page.data).toMatchObject({ volver: "/new-simple", provider: true });
    const provider = await call(b, newClient.action, { path: "/new-client?volver=%2Fnew-simple", form: newClientForm("3101777002") });
    expect(provider.location).toMatch(/^\/new-simple\?id=\d+&restore=1$/);
    const [row] = await database.db.select({ provider: clients.provider }).from(clients).where(eq(clients.id, Number(/id=(\d+)/.exec(provider.location!)![1])));
    expect(row.provider).toBe(true);

    // Where there is no quick-add (or nothing could be kept), the intent only re-renders: never saves.
    const before = await countDocs(company.company.id);
    const [invoice] = await database.db.select().from(documents).where(eq(documents.kind, "fe")).limit(1);
    const clone = await call(b, formRoute.action, {
      path: `/new-clone/invoice/${invoice.id}`,
      params: { document_type: "invoice", document_id: String(invoice.id) },
      form: { ...twoLines(), client_id: String(company.client.id), intent: "quick-add" },
    });
    expect(clone.status).toBe(200);
    expect(await countDocs(company.company.id)).toBe(before);

    // Anything else is not a return address: the list, as before.
    const elsewhere = await call(b, newClient.action, { path: "/new-client?volver=https%3A%2F%2Fevil.example", form: newClientForm("3101777003") });
    expect(elsewhere.location).toBe("/clients");
  });
});

describe("point of sale (mode_pos)", () => {
  it("off: no search box; on: Enter with a code adds the item, text lists matches, 'Agregar' adds one, typed values kept", async () => {
    expect((await call(b, formRoute.loader, { path: "/new-ticket" })).data.pos).toBeNull();
    await database.db.update(generalConfigurations).set({ modePos: true }).where(eq(generalConfigurations.companyId, company.company.id));
    try {
      expect((await call(b, formRoute.loader, { path: "/new-ticket" })).data.pos).toEqual({ query: "", results: [], message: null });
      const base = { client_id: String(company.generic.id), sale_condition: "01", "payments[0].code": "01", currency: "CRC", note: "Caja 1", "lines[0].quantity": "1", "lines[0].discount": "0", "lines[0].unit": "Unid", "lines[0].taxTypeId": String(tax13) };
      // A barcode reader types the code and presses Enter (the form's first button: recalc).
      const scanned = await post("/new-ticket", { ...base, pos_search: "LAP-14", intent: "recalc" });
      expect(scanned.status).toBe(200);
      expect(scanned.data.form.lines).toHaveLength(1);
      expect(scanned.data.form.lines[0]).toMatchObject({ itemId: String(itemId), description: "Computadora portátil 14 pulgadas", price: "450.000,00" });
      expect(scanned.data.pos.query).toBe("");
      expect(scanned.data.form.note).toBe("Caja 1");
      const found = await post("/new-ticket", { ...base, pos_search: "portatil", intent: "pos-search" });
      expect(found.data.pos.results.map((i: { id: number }) => i.id)).toEqual([itemId]);
      expect(found.data.pos.query).toBe("portatil");
      const none = await post("/new-ticket", { ...base, pos_search: "zzz", intent: "pos-search" });
      expect(none.data.pos.message).toBe("No se encontraron artículos.");
      const added = await post("/new-ticket", { ...base, intent: `pos-add:${itemId}` });
      expect(added.data.form.lines[0].itemId).toBe(String(itemId));
      // Another company's item is never added.
      const foreign = await post("/new-ticket", { ...base, intent: `pos-add:${otherItemId}` });
      expect(foreign.data.form.lines[0].itemId).toBe("");
    } finally {
      await database.db.update(generalConfigurations).set({ modePos: false }).where(eq(generalConfigurations.companyId, company.company.id));
    }
  });
});

describe("currency to issue in (currency_emit_doc)", () => {
  it("1 (dollars): a new invoice starts in dollars with the day's rate; 0 and 2 start in colones", async () => {
    const at = (v: number) => database.db.update(generalConfigurations).set({ currencyEmitDoc: v }).where(eq(generalConfigurations.companyId, company.company.id));
    try {
      await at(1);
      const usd = await call(b, formRoute.loader, { path: "/new-invoice" });
      expect(usd.data.form.currency).toBe("USD");
      expect(Number(parseDecimalInput(usd.data.form.exchangeRate))).toBeGreaterThan(0);
      await at(2);
      expect((await call(b, formRoute.loader, { path: "/new-ticket" })).data.form.currency).toBe("CRC");
    } finally {
      await at(0);
    }
    expect((await call(b, formRoute.loader, { path: "/new-invoice" })).data.form.currency).toBe("CRC");
  });
});

describe("terms and conditions", () => {
  it("the chosen terms are copied onto the invoice; another company's terms are refused", async () => {
    const [mine] = await database.db.insert(terms).values({ companyId: company.company.id, name: "Garantía", body: "Garantía de 12 meses contra defectos de fábrica." }).returning();
    const [theirs] = await database.db.insert(terms).values({ companyId: other.company.id, name: "Ajenos", body: "No" }).returning();
    const page = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(page.data.lists.terms).toContainEqual({ id: mine.id, name: "Garantía" });
    expect(page.data.lists.terms.some((t: { id: number }) => t.id === theirs.id)).toBe(false);
    const refused = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), term_id: String(theirs.id), intent: "save" });
    expect(refused.status).toBe(400);
    expect(refused.data.errors.termId).toBe("Los términos seleccionados no existen en esta empresa.");
    expect(refused.data.form.termId).toBe(String(theirs.id));
    const saved = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), term_id: String(mine.id), intent: "save" });
    expect(saved.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(/\d+$/.exec(saved.location!)![0])));
    expect(doc.terms).toBe("Garantía de 12 meses contra defectos de fábrica.");
  });
});

describe("contingency", () => {
  it("an invoice replacing a provisional contingency document: situation 2 in the clave, reference 08/05; a future day or a missing number is refused", async () => {
    const yesterday = new Date(Date.now() - 30 * 3600_000 - 6 * 3600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 30 * 3600_000).toISOString().slice(0, 10);
    const before = await countDocs(company.company.id);
    const bad = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), contingency_number: "P-000123", contingency_date: tomorrow, intent: "save" });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.contingency).toBe("Indique el número y la fecha (hoy o antes) del comprobante provisional de contingencia.");
    expect(bad.data.form.contingencyNumber).toBe("P-000123");
    const noNumber = await post("/new-ticket", { ...twoLines(), client_id: String(company.generic.id), contingency_date: yesterday, intent: "save" });
    expect(noNumber.status).toBe(400);
    expect(await countDocs(company.company.id)).toBe(before);

    const ok = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), contingency_number: "P-000123", contingency_date: yesterday, intent: "save" });
    expect(ok.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(/\d+$/.exec(ok.location!)![0])));
    expect(doc.situacion).toBe(2);
    expect(doc.clave![41]).toBe("2");
    const xml = Buffer.from(doc.signedXml!).toString("utf8");
    expect(xml).toMatch(/<InformacionReferencia><TipoDocIR>08<\/TipoDocIR><Numero>P-000123<\/Numero><FechaEmisionIR>[^<]+<\/FechaEmisionIR><Codigo>05<\/Codigo><Razon>Sustituye comprobante provisional por contingencia<\/Razon><\/InformacionReferencia>/);
  });
});

describe("plan 5 (API, read-only interface)", () => {
  it("refuses to issue from the form (403) and saves nothing", async () => {
    const { companies } = await import("../../db/schema/index.ts");
    await database.db.update(companies).set({ permission: 5 }).where(eq(companies.id, company.company.id));
    try {
      const before = await countDocs(company.company.id);
      const r = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), intent: "save" });
      expect(r.status).toBe(403);
      expect(await countDocs(company.company.id)).toBe(before);
    } finally {
      await database.db.update(companies).set({ permission: 1 }).where(eq(companies.id, company.company.id));
    }
  });
});

describe("optional reference (new invoices and tickets)", () => {
  it("a complete reference goes into the XML; an incomplete one or a code for notes is refused with what was typed kept", async () => {
    const yesterday = new Date(Date.now() - 36 * 3600_000).toISOString().slice(0, 10);
    const blank = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(blank.data.reference).toMatchObject({ mode: "editable", docType: "01", code: "04", number: "" });
    const before = await countDocs(company.company.id);
    const incomplete = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), reference_doc_type: "01", reference_code: "04", reference_reason: "Entrega parcial", intent: "save" });
    expect(incomplete.status).toBe(400);
    expect(incomplete.data.errors["references.0"]).toBe("Complete todos los campos de la referencia.");
    expect(incomplete.data.reference.reason).toBe("Entrega parcial");
    const noteCode = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), reference_doc_type: "01", reference_number: "FAC-1", reference_date: yesterday, reference_code: "01", reference_reason: "Anula", intent: "save" });
    expect(noteCode.data.errors["references.0.code"]).toBe("Seleccione un código de referencia válido.");
    expect(await countDocs(company.company.id)).toBe(before);
    const ok = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), reference_doc_type: "05", reference_number: "DESP-778", reference_date: yesterday, reference_code: "04", reference_reason: "Entrega según nota de despacho", intent: "save" });
    expect(ok.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(/\d+$/.exec(ok.location!)![0])));
    expect(doc.situacion).toBe(1);
    expect(Buffer.from(doc.signedXml!).toString("utf8")).toMatch(/<InformacionReferencia><TipoDocIR>05<\/TipoDocIR><Numero>DESP-778<\/Numero><FechaEmisionIR>[^<]+<\/FechaEmisionIR><Codigo>04<\/Codigo><Razon>Entrega según nota de despacho<\/Razon><\/InformacionReferencia>/);
  });
});

describe("'Otros' (code 99): sale condition and payment method descriptions", () => {
  const otros = () => ({ ...twoLines(), client_id: String(company.client.id), sale_condition: "99", sale_condition_other: "Permuta de servicios", "payments[0].code": "99", "payments[0].other": "Canje de mercadería" });

  it("without the descriptions: the Spanish errors next to the fields, everything typed kept, nothing saved", async () => {
    const before = await countDocs(company.company.id);
    const r = await post("/new-invoice", { ...otros(), sale_condition_other: "", "payments[0].other": "", intent: "save" });
    expect(r.status).toBe(400);
    expect(r.data.errors.saleConditionOther).toBe("Con la condición de venta 'Otros', describa la condición (de 5 a 100 caracteres).");
    expect(r.data.errors["payments.0.other"]).toBe("Con el medio de pago 'Otros', describa el medio de pago (de 3 a 100 caracteres).");
    expect(r.data.general).toEqual([]);
    expect(r.data.form).toMatchObject({ saleCondition: "99", payments: [{ code: "99", amount: "", other: "" }], note: "Entrega en sitio" });
    expect(await countDocs(company.company.id)).toBe(before);
    // Without JavaScript: the labelled inputs are on the page, each error next to its input.
    const html = render("/new-invoice", r.data);
    const escaped = (m: string) => m.replaceAll("'", "&#x27;");
    expect(html).toMatch(/<label for="sale_condition_other">Otra condición de venta \(si es Otros\)<\/label><div class="mt-1"><input id="sale_condition_other"[^>]*aria-invalid="true" name="sale_condition_other"/);
    expect(html).toContain(`<p class="field-error" id="sale_condition_other-error">${escaped(r.data.errors.saleConditionOther)}</p>`);
    expect(html).toMatch(/<label for="payments\[0\]\.other">Otro medio de pago 1 \(si es Otros\)<\/label><div class="mt-1"><input id="payments\[0\]\.other"[^>]*name="payments\[0\]\.other"/);
    expect(html).toContain(`<p class="field-error" id="payments[0].other-error">${escaped(r.data.errors["payments.0.other"])}</p>`);
    // Agregar línea / medio de pago keep the descriptions typed.
    const kept = await post("/new-invoice", { ...otros(), intent: "add-line" });
    expect(kept.data.form).toMatchObject({ saleConditionOther: "Permuta de servicios", payments: [{ code: "99", other: "Canje de mercadería" }] });
    const morePay = await post("/new-invoice", { ...otros(), intent: "add-payment" });
    expect(morePay.data.form.payments).toEqual([{ code: "99", amount: "", other: "Canje de mercadería" }, { code: "01", amount: "", other: "" }]);
  });

  it("with them: the invoice is issued and its signed XML carries CondicionVentaOtros and MedioPagoOtros", async () => {
    const r = await post("/new-invoice", { ...otros(), intent: "save" });
    expect(r.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(r.location!.split("/").pop())));
    expect(doc.saleCondition).toBe("99");
    const xml = Buffer.from(doc.signedXml!).toString("utf8");
    expect(xml).toContain("<CondicionVenta>99</CondicionVenta><CondicionVentaOtros>Permuta de servicios</CondicionVentaOtros>");
    expect(xml).toMatch(/<MedioPago><TipoMedioPago>99<\/TipoMedioPago><MedioPagoOtros>Canje de mercadería<\/MedioPagoOtros><TotalMedioPago>1226150\.00000<\/TotalMedioPago><\/MedioPago>/);
    // Printed (PDF, detail, public page) with its description.
    const view = await loadDocumentView(database.db, { companyId: company.company.id, documentId: doc.id });
    expect(view!.saleCondition).toBe("Otros: Permuta de servicios");
    // A clone of it comes back with both descriptions.
    const clone = await call(b, formRoute.loader, { path: `/new-clone/invoice/${doc.id}`, params: { document_type: "invoice", document_id: String(doc.id) } });
    expect(clone.data.form).toMatchObject({ saleCondition: "99", saleConditionOther: "Permuta de servicios", payments: [{ code: "99", other: "Canje de mercadería" }] });
  });
});

describe("blank item rows (part 2 §5)", () => {
  const blankRow = { "lines[2].description": "", "lines[2].price": "", "lines[2].quantity": "1", "lines[2].unit": "Unid", "lines[2].discount": "0", "lines[2].taxTypeId": String(tax13) };

  it("a blank extra row is left out when issuing; a row partly filled or priced under 0.1 is refused with the Spanish message", async () => {
    const before = await countDocs(company.company.id);
    const zero = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), "lines[1].price": "0", ...blankRow, intent: "save" });
    expect(zero.status).toBe(400);
    expect(zero.data.errors["lines.1.unitPrice"]).toBe("El precio debe estar entre 0,1 y 1.000.000.000.000.");
    // The blank row goes away from the form; the rows typed stay as typed.
    expect(zero.data.form.lines).toHaveLength(2);
    expect(zero.data.form.lines[1]).toMatchObject({ description: "Horas de consultoría en sistemas", price: "0" });
    const partly = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), ...blankRow, "lines[2].description": "Viáticos", intent: "save" });
    expect(partly.status).toBe(400);
    expect(partly.data.errors["lines.2.unitPrice"]).toBe("El precio debe estar entre 0,1 y 1.000.000.000.000.");
    expect(await countDocs(company.company.id)).toBe(before);
    const ok = await post("/new-invoice", { ...twoLines(), client_id: String(company.client.id), ...blankRow, intent: "save" });
    expect(ok.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, Number(ok.location!.split("/").pop())));
    expect(doc.totalComprobante).toBe("1226150.00000");
  });
});
