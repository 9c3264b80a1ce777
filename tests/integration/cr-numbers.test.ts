// Numbers typed the Costa Rican way (issue 14 point 5, docs/decisions/164): the document form, the
// payment form and the item form accept '1.500,50', '1500,50' and '1500.50'; values the app puts in
// inputs read '1.500,50'; a number that is not one gets a clear message and keeps what was typed;
// messages write their limits the same way; the template preview's amount comes from formatMoney.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { cabysCodes, documents, items, taxTypes } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { NUMBER_MESSAGES } from "../../app/domain/document-form.ts";
import { DRAFT_MESSAGES } from "../../app/domain/document-draft.ts";
import { PLACEHOLDERS } from "../../app/domain/config-schemas.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as payments from "../../app/routes/payments/payments.tsx";
import * as itemForm from "../../app/routes/items/item-form.tsx";
import * as newExpense from "../../app/routes/expenses/new-expense.tsx";
import { exchangeRates, expenseCategories, expenses } from "../../db/schema/index.ts";
import { expenseSchema } from "../../app/domain/expenses.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import { parseForm } from "../../app/domain/forms.ts";
import { messageAmounts, RECEPTION_MESSAGES, uploadSchema, type ReceptionDecision } from "../../app/domain/receptions.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let b: Browser;
let tax13: number;

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  await setupItemsForCompany(database.db, a.company.id);
  tax13 = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, a.company.id))).find((t) => t.name === "IVA 13%")!.id;
  b = await signedIn(database.db, a.user.id, a.company.id);
}, 120_000);
afterAll(async () => database?.drop());

const invoice = (line: Record<string, string>) => ({
  client_id: String(a.client.id),
  sale_condition: "01",
  "payments[0].code": "01",
  currency: "CRC",
  "lines[0].cabys": "4523000000100",
  "lines[0].description": "Computadora portátil 14 pulgadas",
  "lines[0].unit": "Unid",
  "lines[0].discount": "0",
  "lines[0].taxTypeId": String(tax13),
  ...line,
  intent: "save",
});

describe("the document form", () => {
  it.each([
    ["1.500,50", "1,5", 1500.5, 1.5],
    ["1500,50", "1.5", 1500.5, 1.5],
    ["1500.50", "1,500", 1500.5, 1.5],
    ["₡1.500", "2", 1500, 2],
  ])("price %s and quantity %s are issued as %s × %s", async (price, quantity, unitPrice, qty) => {
    const r = await call(b, formRoute.action, { path: "/new-invoice", form: invoice({ "lines[0].price": price, "lines[0].quantity": quantity }) });
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    const id = Number(r.location!.split("/").pop());
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, id));
    const draft = doc.draft as { lines: Array<{ unitPrice: string; quantity: string }> };
    expect(Number(draft.lines[0].unitPrice)).toBe(unitPrice);
    expect(Number(draft.lines[0].quantity)).toBe(qty);
  });

  it("a number that is not one: a clear message next to it, what was typed kept, nothing issued", async () => {
    const before = (await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, a.company.id))).length;
    const r = await call(b, formRoute.action, { path: "/new-invoice", form: invoice({ "lines[0].price": "1.50.000", "lines[0].quantity": "dos" }) });
    expect(r.status).toBe(400);
    expect(r.data.errors["lines.0.unitPrice"]).toBe(NUMBER_MESSAGES.price);
    expect(r.data.errors["lines.0.quantity"]).toBe(NUMBER_MESSAGES.quantity);
    expect(r.data.form.lines[0]).toMatchObject({ price: "1.50.000", quantity: "dos" });
    expect((await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, a.company.id))).length).toBe(before);
  });

  it("limits in messages are written the same way", async () => {
    const r = await call(b, formRoute.action, { path: "/new-invoice", form: invoice({ "lines[0].price": "0,05", "lines[0].quantity": "100.001" }) });
    expect(r.data.errors["lines.0.unitPrice"]).toBe("El precio debe estar entre 0,1 y 1.000.000.000.000.");
    expect(r.data.errors["lines.0.quantity"]).toBe("La cantidad debe estar entre 0,1 y 100.000.");
    expect(DRAFT_MESSAGES.priceRange).toBe("El precio debe estar entre 0,1 y 1.000.000.000.000.");
  });

  it("an item picked from the catalogue fills its price as '450.000,00'", async () => {
    const [item] = await database.db
      .insert(items)
      .values({ companyId: a.company.id, code: "P-1", cabysCode: "4523000000100", name: "Portátil", description: "Portátil", categoryId: 1, unitCode: "Unid", taxTypeId: tax13, price: "450000.5" })
      .returning();
    const r = await call(b, formRoute.action, { path: "/new-invoice", form: { ...invoice({ "lines[0].itemId": String(item.id), "lines[0].quantity": "1", "lines[0].price": "" }), intent: "recalc" } });
    expect(r.data.form.lines[0].price).toBe("450.000,50");
  });
});

describe("the payment form", () => {
  it("offers the due as '1.130.000,00' and takes '1.000,50'", async () => {
    const r = await call(b, formRoute.action, { path: "/new-invoice", form: invoice({ "lines[0].price": "1.000.000", "lines[0].quantity": "1" }) });
    const id = Number(r.location!.split("/").pop());
    const path = `/payments?document_id=${id}&volver=%2Finvoices`;
    const form = await call(b, payments.loader, { path });
    expect(form.data.defaults.amount).toBe("1.130.000,00");
    const paid = await call(b, payments.action, { path, form: { intent: "pay", document_id: String(id), volver: "/invoices", amount: "1.000,50", payment_form: "01", currency_id: "2", date: "2026-11-25", description: "Abono", reference: "", bank_id: "" } });
    expect(paid.status).toBe(302);
    const [doc] = await database.db.select({ paid: documents.paymentAmount }).from(documents).where(eq(documents.id, id));
    expect(doc.paid).toBe("1000.50000");
    const over = await call(b, payments.action, { path, form: { intent: "pay", document_id: String(id), volver: "/invoices", amount: "2.000.000", payment_form: "01", currency_id: "2", date: "2026-11-25", description: "Abono", reference: "", bank_id: "" } });
    expect(over.data.errors.amount).toBe("El monto no puede ser mayor al saldo pendiente (₡1.128.999,50)");
  });
});

describe("the expense form and the reception form", () => {
  it("an expense typed '1.500,50' in dollars at '505,25' is stored as 1500.50 at 505.25; the rate offered reads '505,25'", async () => {
    const [category] = await database.db.insert(expenseCategories).values({ companyId: a.company.id, name: "Papelería" }).returning();
    const form = { intent: "save", date: "2026-10-15", description: "Hosting", amount: "1.500,50", currency_id: "1", exchange_rate: "505,25", reference: "", category_id: String(category.id), payment_method: "01" };
    const r = await call(b, newExpense.action, { path: "/expenses/new", form });
    expect(r.status, JSON.stringify(r.data)).toBe(302);
    const [e] = await database.db.select().from(expenses).where(eq(expenses.companyId, a.company.id));
    expect(e).toMatchObject({ amount: "1500.50000", exchangeRate: "505.25000", currencyId: 1 });
    for (const [amount, stored] of [["1500,50", "1500.50000"], ["1500.50", "1500.50000"], ["1.500", "1500.00000"]]) {
      const p = parseForm(expenseSchema, { ...form, amount });
      expect(p.ok && p.data.amount, amount).toBe(stored);
    }
    const bad = await call(b, newExpense.action, { path: "/expenses/new", form: { ...form, amount: "1.500,505", exchange_rate: "5,05,25" } });
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toEqual({ amount: "El monto debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)", exchange_rate: "Indique el tipo de cambio del dólar (mayor que cero)." });
    expect(bad.data.values).toMatchObject({ amount: "1.500,505", exchange_rate: "5,05,25" });

    await database.db
      .insert(exchangeRates)
      .values({ currencyCode: "USD", rateDate: costaRicaDay(new Date()), buy: "500", sell: "505.25", source: "test" })
      .onConflictDoUpdate({ target: [exchangeRates.currencyCode, exchangeRates.rateDate], set: { sell: "505.25" } });
    const page = await call(b, newExpense.loader, { path: "/expenses/new" });
    expect(page.data.values.exchange_rate).toBe("505,25");
  });

  it("the reception form's amounts are typed the same way and its limits read '127.000,00'", () => {
    const base = { message: "1", message_detail: "", expense_category: "3", tax_condition: "02" };
    const p = parseForm(uploadSchema, { ...base, tax_credit: "1.500,50", applicable_expense: "12500,5" });
    expect(p.ok && [p.data.tax_credit, p.data.applicable_expense]).toEqual(["1500.50", "12500.5"]);
    const bad = parseForm(uploadSchema, { ...base, tax_credit: "1.50.0", applicable_expense: "" });
    expect(bad.ok ? null : bad.errors).toEqual({ tax_credit: RECEPTION_MESSAGES.amountFormat });
    const decision: ReceptionDecision = { message: 1, detail: null, expenseCategoryId: 3, taxCondition: "02", creditableTax: "200000", applicableExpense: "1500.5" };
    const r = messageAmounts(decision, { tax: "127000.00000", total: "1277000.00000" });
    expect(r.ok ? null : r.errors).toEqual({ tax_credit: "El impuesto acreditable no puede ser mayor que el impuesto del comprobante (127.000,00)" });
  });
});

describe("the item form and the template preview", () => {
  it("an item price typed '1.500,50' is stored as 1500.50 and shown back as '1.500,50'", async () => {
    await database.db.insert(cabysCodes).values({ code: "2110000000013", description: "Café tostado en grano o molido", taxRate: "13" }).onConflictDoNothing();
    const form = { intent: "save", code: "CR-1", cabys_code: "2110000000013", name: "Silla", description: "Silla de oficina", category: "1", unit: "Unid", tax_type: String(tax13), currency: "2", price: "1.500,50" };
    const r = await call(b, itemForm.action, { path: "/new-item", form });
    expect(r.status, JSON.stringify(r.data)).toBe(302);
    const [row] = await database.db.select().from(items).where(eq(items.code, "CR-1"));
    expect(row.price).toBe("1500.50000");
    const edit = await call(b, itemForm.loader, { path: `/edit-item/${row.id}`, params: { id: String(row.id) } });
    expect(edit.data.values.price).toBe("1.500,50");
  });

  it("the preview's sample amount is formatted like every amount", () => {
    expect(PLACEHOLDERS.find((p) => p.key === "monto")!.sample).toBe("₡125.000,00");
  });
});
