// Payments and banks (spec part 2 "Payments, banks, reminders", §4, §5; docs/decisions/095):
// recordPayment in one transaction with the document locked (partial, full, over the due amount,
// rejected, another company's, two at once), deletePayment, the /payments route (form errors keep
// what was typed, the return path, 403 for plan 5, 404 across companies), the list and its search,
// banks, and what the lists and the client balance show afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { banks, companies, documents, payments } from "../../db/schema/index.ts";
import { clientBalances } from "../../db/queries/clients.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { deletePayment, recordPayment, saveBank } from "../../app/server/payments.server.ts";
import type { PaymentFormData } from "../../app/domain/payments.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import * as route from "../../app/routes/payments/payments.tsx";
import * as list from "../../app/routes/documents/documents-list.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import { call, signedIn } from "../setup/app.ts";
import { onOneCostaRicaDay } from "../setup/costa-rica-day.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const schemaSet = testSchemaSet();

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

type Setup = Awaited<ReturnType<typeof issuingCompany>>;

async function invoice(a: Setup, over: Parameters<typeof sampleDraft>[2] = {}, kind: "fe" | "te" | "fec" = "fe") {
  const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft(kind, kind === "fec" ? a.provider.id : a.client.id, over), now: new Date(), schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  await database.db.update(documents).set({ status: "aceptado" }).where(eq(documents.id, r.documentId));
  const [d] = await database.db.select().from(documents).where(eq(documents.id, r.documentId));
  return d;
}

const pay = (documentId: number, amount: string, over: Partial<PaymentFormData> = {}): PaymentFormData => ({
  document_id: documentId,
  amount,
  payment_form: "01",
  currency_id: 2,
  date: "2026-11-21",
  description: "Pago factura",
  reference: "",
  bank_id: null,
  ...over,
});

async function paidOf(id: number) {
  const [d] = await database.db.select({ paid: documents.paymentAmount }).from(documents).where(eq(documents.id, id));
  return d.paid;
}

describe("recordPayment", () => {
  it("partial then full: payment_amount rises, the due shrinks; more than the due is refused", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    expect(d.totalComprobante).toBe("1226150.00000");
    const first = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "226150.12345") });
    expect(first).toMatchObject({ ok: true, paymentAmount: "226150.12345", due: "999999.87655" });
    expect(await paidOf(d.id)).toBe("226150.12345");
    const over = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "999999.87656") });
    expect(over).toEqual({ ok: false, reason: "invalid", errors: { amount: "El monto no puede ser mayor al saldo pendiente (₡999.999,88)" } });
    const full = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "999999.87655") });
    expect(full).toMatchObject({ ok: true, paymentAmount: "1226150.00000", due: "0.00000" });
    const again = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "1") });
    expect(again).toEqual({ ok: false, reason: "invalid", errors: { amount: "Este documento ya está pagado." } });
    const stored = await database.db.select().from(payments).where(eq(payments.documentId, d.id));
    expect(stored.map((p) => p.amount).sort()).toEqual(["226150.12345", "999999.87655"]);
    expect(stored[0]).toMatchObject({ companyId: a.company.id, currencyId: 2, exchangeRate: "1.00000", paymentForm: "01", paidOn: "2026-11-21", createdBy: a.user.id, deletedAt: null });
  });

  it("refuses rejected documents, quotations, another currency and another company's bank; tickets and purchase invoices take payments", async () => {
    const a = await issuingCompany(database.db);
    const b = await issuingCompany(database.db);
    const rejected = await invoice(a);
    await database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, rejected.id));
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(rejected.id, "10") })).toEqual({ ok: false, reason: "invalid", errors: { _form: "No se puede registrar un pago a un documento rechazado por Hacienda." } });
    const q = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("qt", a.client.id), now: new Date(), schemaSet });
    if (!q.ok) throw new Error("quotation");
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(q.documentId, "10") })).toEqual({ ok: false, reason: "invalid", errors: { _form: "Este documento no admite pagos." } });
    const d = await invoice(a);
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "10", { currency_id: 1 }) })).toMatchObject({ ok: false, errors: { currency_id: "El pago se registra en la moneda del documento" } });
    const foreignBank = await saveBank(database.db, { companyId: b.company.id, id: null, name: "Banco Nacional", now: new Date() });
    if (!foreignBank?.ok) throw new Error("bank");
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "10", { bank_id: foreignBank.id }) })).toMatchObject({ ok: false, errors: { bank_id: "El banco seleccionado no existe" } });
    expect(await paidOf(rejected.id)).toBe("0.00000");
    expect(await paidOf(d.id)).toBe("0.00000");
    const ticket = await invoice(a, {}, "te");
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(ticket.id, "100") })).toMatchObject({ ok: true });
    const fec = await invoice(
      a,
      {
        references: [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-02T18:00:00.000Z", code: "04", reason: "Compra a productor de régimen especial" }],
        lines: [{ cabys: "0113100000100", description: "Café en grano oro", quantity: "50", unit: "Kg", unitPrice: "3200", tax: { tarifaCode: "02" } }],
      },
      "fec",
    );
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(fec.id, "100") })).toMatchObject({ ok: true, paymentAmount: "100.00000" });
  });

  it("a dollar invoice is paid in dollars and the payment keeps the invoice's exchange rate", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a, { currency: "USD", exchangeRate: "505.25" });
    expect(d.currencyId).toBe(1);
    const r = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "100.5", { currency_id: 1 }) });
    if (!r.ok) throw new Error(JSON.stringify(r));
    const [p] = await database.db.select().from(payments).where(eq(payments.id, r.paymentId));
    expect(p).toMatchObject({ currencyId: 1, exchangeRate: "505.25000", amount: "100.50000" });
  });

  it("another company's document: not found, nothing changes", async () => {
    const a = await issuingCompany(database.db);
    const b = await issuingCompany(database.db);
    const d = await invoice(a);
    expect(await recordPayment(database.db, { companyId: b.company.id, userId: b.user.id, payment: pay(d.id, "10") })).toEqual({ ok: false, reason: "not-found" });
    expect(await paidOf(d.id)).toBe("0.00000");
    expect(await database.db.select().from(payments).where(eq(payments.documentId, d.id))).toHaveLength(0);
  });

  it("two payments at once for more than the due between them: one is recorded, the other refused (never overpaid)", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    for (let round = 0; round < 3; round++) {
      if (round > 0) {
        // Back to unpaid for the next round (deleting an already deleted payment is a no-op).
        const all = await database.db.select({ id: payments.id }).from(payments).where(eq(payments.documentId, d.id));
        for (const p of all) await deletePayment(database.db, { companyId: a.company.id, userId: a.user.id, id: p.id, now: new Date() });
      }
      const results = await Promise.all([
        recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "800000") }),
        recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "800000") }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)[0]).toEqual({ ok: false, reason: "invalid", errors: { amount: "El monto no puede ser mayor al saldo pendiente (₡426.150,00)" } });
      expect(await paidOf(d.id)).toBe("800000.00000");
    }
    // Two that fit together both go through, and add up exactly.
    const live = await database.db.select({ id: payments.id, deletedAt: payments.deletedAt }).from(payments).where(eq(payments.documentId, d.id));
    for (const p of live.filter((x) => !x.deletedAt)) await deletePayment(database.db, { companyId: a.company.id, userId: a.user.id, id: p.id, now: new Date() });
    const both = await Promise.all(["613075.00001", "613074.99999"].map((amount) => recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, amount) })));
    expect(both.every((r) => r.ok)).toBe(true);
    expect(await paidOf(d.id)).toBe("1226150.00000");
  });

  it("eight payments at once of 200 000 on 1 226 150: exactly six fit, the paid amount is their sum", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    const results = await Promise.all(Array.from({ length: 8 }, () => recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "200000") })));
    expect(results.filter((r) => r.ok)).toHaveLength(6);
    expect(await paidOf(d.id)).toBe("1200000.00000");
    const live = await database.db.select({ amount: payments.amount }).from(payments).where(eq(payments.documentId, d.id));
    expect(live).toHaveLength(6);
  });
});

describe("deletePayment", () => {
  it("subtracts the payment back, hides it, and only for its own company", async () => {
    const a = await issuingCompany(database.db);
    const b = await issuingCompany(database.db);
    const d = await invoice(a);
    const r1 = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "1000") });
    const r2 = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "250.5") });
    if (!r1.ok || !r2.ok) throw new Error("payments");
    expect(await deletePayment(database.db, { companyId: b.company.id, userId: b.user.id, id: r1.paymentId, now: new Date() })).toBeNull();
    expect(await paidOf(d.id)).toBe("1250.50000");
    expect(await deletePayment(database.db, { companyId: a.company.id, userId: a.user.id, id: r1.paymentId, now: new Date() })).toEqual({ documentId: d.id, paymentAmount: "250.50000" });
    expect(await paidOf(d.id)).toBe("250.50000");
    // Twice: not found the second time, nothing subtracted again.
    expect(await deletePayment(database.db, { companyId: a.company.id, userId: a.user.id, id: r1.paymentId, now: new Date() })).toBeNull();
    expect(await paidOf(d.id)).toBe("250.50000");
    const [gone] = await database.db.select().from(payments).where(eq(payments.id, r1.paymentId));
    expect(gone.deletedAt).not.toBeNull();
    expect(gone.deletedBy).toBe(a.user.id);
  });
});

describe("/payments route", () => {
  it("the form: the document, total, paid and due; defaults (amount = due, today in Costa Rica, the description)", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "226150") });
    const br = await signedIn(database.db, a.user.id, a.company.id);
    // The form's default date is Costa Rica's day when the loader runs: `day` is the one it saw.
    const { day, result: r } = await onOneCostaRicaDay(() => call(br, route.loader, { path: `/payments?document_id=${d.id}&volver=${encodeURIComponent("/invoices?page=2")}` }));
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      mode: "pay",
      volver: "/invoices?page=2",
      blocked: null,
      document: { id: d.id, label: `Factura ${d.consecutivo}`, total: "₡1.226.150,00", paid: "₡226.150,00", due: "₡1.000.000,00" },
      defaults: { amount: "1.000.000,00", payment_form: "01", currency_id: "2", description: `Pago factura Nº ${d.consecutivo}`, bank_id: "" },
    });
    expect(r.data.defaults.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.data.defaults.date).toBe(day);
    // A return path off the whitelist falls back to the payments list.
    const evil = await call(br, route.loader, { path: `/payments?document_id=${d.id}&volver=${encodeURIComponent("https://evil.example/x")}` });
    expect(evil.data.volver).toBe("/payments");
  });

  it("errors come back in Spanish next to the fields with what was typed; success goes back with the toast", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    const br = await signedIn(database.db, a.user.id, a.company.id);
    const path = `/payments?document_id=${d.id}&volver=%2Finvoices`;
    const typed = { intent: "pay", document_id: String(d.id), volver: "/invoices", amount: "12,345678", payment_form: "04", currency_id: "2", date: "2026-02-30", description: "  ", reference: "Depósito 778899", bank_id: "" };
    const bad = await call(br, route.action, { path, form: typed });
    expect(bad.status).toBe(400);
    expect(bad.data.errors).toEqual({ amount: "El monto debe ser un número con máximo 5 decimales (por ejemplo 1.500,50)", date: "La fecha no es válida", description: "La descripción es obligatoria" });
    expect(bad.data.values).toMatchObject({ amount: "12,345678", payment_form: "04", reference: "Depósito 778899", date: "2026-02-30" });
    const empty = await call(br, route.action, { path, form: { ...typed, amount: "", date: "", payment_form: "" } });
    expect(empty.data.errors).toMatchObject({ amount: "El monto es obligatorio", date: "La fecha es obligatoria", payment_form: "La forma de pago es obligatoria" });
    const zero = await call(br, route.action, { path, form: { ...typed, amount: "0", date: "2026-11-21", description: "Abono" } });
    expect(zero.data.errors).toEqual({ amount: "El monto debe ser mayor que cero" });
    const over = await call(br, route.action, { path, form: { ...typed, amount: "1226150.00001", date: "2026-11-21", description: "Abono" } });
    expect(over.status).toBe(400);
    expect(over.data.errors).toEqual({ amount: "El monto no puede ser mayor al saldo pendiente (₡1.226.150,00)" });
    expect(over.data.values).toMatchObject({ amount: "1226150.00001", reference: "Depósito 778899", description: "Abono" });
    expect(await paidOf(d.id)).toBe("0.00000");

    const bank = await saveBank(database.db, { companyId: a.company.id, id: null, name: "BAC Credomatic", now: new Date() });
    if (!bank?.ok) throw new Error("bank");
    const ok = await call(br, route.action, { path, form: { ...typed, amount: "1000,5", date: "2026-11-21", description: "Abono", bank_id: String(bank.id) } });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/invoices");
    expect(ok.headers.get("set-cookie")).toContain("colibri_flash");
    expect(await paidOf(d.id)).toBe("1000.50000");
    const [p] = await database.db.select().from(payments).where(eq(payments.documentId, d.id));
    expect(p).toMatchObject({ amount: "1000.50000", paymentForm: "04", reference: "Depósito 778899", bankId: bank.id, description: "Abono" });
    // Back to the detail viewer or the client detail when it came from there.
    const fromDetail = await call(br, route.action, { path, form: { ...typed, amount: "1", date: "2026-11-21", description: "Abono", volver: `/detail/invoice/${d.id}` } });
    expect(fromDetail.location).toBe(`/detail/invoice/${d.id}`);
    const fromClient = await call(br, route.action, { path, form: { ...typed, amount: "1", date: "2026-11-21", description: "Abono", volver: `/client-detail/${a.client.id}?tab=invoices` } });
    expect(fromClient.location).toBe(`/client-detail/${a.client.id}?tab=invoices`);
    const offsite = await call(br, route.action, { path, form: { ...typed, amount: "1", date: "2026-11-21", description: "Abono", volver: "//evil.example" } });
    expect(offsite.location).toBe("/payments");
  });

  it("plan 5: no form (403), no posts (403), no pay button, no actions column; nothing changes", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    const r = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "100") });
    if (!r.ok) throw new Error("pay");
    await database.db.update(companies).set({ permission: 5 }).where(eq(companies.id, a.company.id));
    const br = await signedIn(database.db, a.user.id, a.company.id);
    expect((await call(br, route.loader, { path: `/payments?document_id=${d.id}` })).status).toBe(403);
    const form = { intent: "pay", document_id: String(d.id), amount: "10", payment_form: "01", currency_id: "2", date: "2026-11-21", description: "x" };
    expect((await call(br, route.action, { path: `/payments?document_id=${d.id}`, form })).status).toBe(403);
    expect((await call(br, route.action, { path: "/payments", form: { intent: "delete", confirm: "yes", payment_id: String(r.paymentId) } })).status).toBe(403);
    expect((await call(br, route.action, { path: "/payments", form: { intent: "bank", name: "Banco de Costa Rica" } })).status).toBe(403);
    expect(await paidOf(d.id)).toBe("100.00000");
    const page = await call(br, route.loader, { path: "/payments" });
    expect(page.data).toMatchObject({ mode: "list", plan5: true, bankForm: null });
    expect(page.data.rows).toHaveLength(1);
    expect((await call(br, detail.loader, { path: `/detail/invoice/${d.id}`, params: { type: "invoice", id: String(d.id) } })).data.actions.pay).toBe(false);
    expect(((await call(br, list.loader, { path: "/invoices" })).data.rows as Array<{ id: number; owes: boolean }>).find((x) => x.id === d.id)!.owes).toBe(false);
  });

  it("another company's document or payment: 404 and nothing changes", async () => {
    const a = await issuingCompany(database.db);
    const b = await issuingCompany(database.db);
    const d = await invoice(a);
    const r = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "100") });
    if (!r.ok) throw new Error("pay");
    const bank = await saveBank(database.db, { companyId: a.company.id, id: null, name: "Banco Popular", now: new Date() });
    if (!bank?.ok) throw new Error("bank");
    const other = await signedIn(database.db, b.user.id, b.company.id);
    expect((await call(other, route.loader, { path: `/payments?document_id=${d.id}` })).status).toBe(404);
    const form = { intent: "pay", document_id: String(d.id), amount: "10", payment_form: "01", currency_id: "2", date: "2026-11-21", description: "x" };
    expect((await call(other, route.action, { path: `/payments?document_id=${d.id}`, form })).status).toBe(404);
    expect((await call(other, route.action, { path: "/payments", form: { intent: "delete", confirm: "yes", payment_id: String(r.paymentId) } })).status).toBe(404);
    expect((await call(other, route.action, { path: `/payments?bank=${bank.id}`, form: { intent: "bank", bank_id: String(bank.id), name: "Mío" } })).status).toBe(404);
    expect((await call(other, route.loader, { path: `/payments?bank=${bank.id}` })).status).toBe(404);
    expect(await paidOf(d.id)).toBe("100.00000");
    const [still] = await database.db.select().from(banks).where(eq(banks.id, bank.id));
    expect(still.name).toBe("Banco Popular");
    const theirs = await call(other, route.loader, { path: "/payments" });
    expect(theirs.data.rows).toEqual([]);
  });

  it("the list: columns, 'S/B', search, delete with a confirmation (cancel changes nothing)", async () => {
    const a = await issuingCompany(database.db);
    const br = await signedIn(database.db, a.user.id, a.company.id);
    const empty = await call(br, route.loader, { path: "/payments" });
    expect(empty.data.rows).toEqual([]);
    const d1 = await invoice(a);
    const d2 = await invoice(a);
    const bank = await saveBank(database.db, { companyId: a.company.id, id: null, name: "Banco de Costa Rica", now: new Date() });
    if (!bank?.ok) throw new Error("bank");
    const p1 = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d1.id, "5000", { payment_form: "06", reference: "SINPE-4455", date: "2026-11-20" }) });
    const p2 = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d2.id, "7000.25", { payment_form: "04", bank_id: bank.id, date: "2026-11-21" }) });
    if (!p1.ok || !p2.ok) throw new Error("pay");
    const page = await call(br, route.loader, { path: "/payments" });
    expect(page.data.rows).toEqual([
      { id: p2.paymentId, document: { id: d2.id, number: d2.consecutivo, href: `/detail/invoice/${d2.id}` }, clientId: a.client.id, clientName: a.client.name, paymentForm: "Transferencia – depósito bancario", amount: "₡7.000,25", bank: "Banco de Costa Rica", reference: "", date: "21/11/2026", receipt: null, receiptNote: null },
      { id: p1.paymentId, document: { id: d1.id, number: d1.consecutivo, href: `/detail/invoice/${d1.id}` }, clientId: a.client.id, clientName: a.client.name, paymentForm: "SINPE Móvil", amount: "₡5.000,00", bank: "S/B", reference: "SINPE-4455", date: "20/11/2026", receipt: null, receiptNote: null },
    ]);
    const ids = async (search: string) => ((await call(br, route.loader, { path: `/payments?search=${encodeURIComponent(search)}` })).data.rows as Array<{ id: number }>).map((r) => r.id);
    expect(await ids("sinpe-4455")).toEqual([p1.paymentId]);
    expect(await ids("costa rica")).toEqual([p2.paymentId]);
    expect(await ids("sinpe movil")).toEqual([p1.paymentId]);
    expect(await ids("transferencia")).toEqual([p2.paymentId]);
    expect(await ids(d1.consecutivo!)).toEqual([p1.paymentId]);
    expect(await ids("sabana")).toEqual([p2.paymentId, p1.paymentId]);
    expect(await ids("no existe nada así")).toEqual([]);
    expect(await ids("100%_")).toEqual([]);

    const cancel = await call(br, route.action, { path: "/payments", form: { intent: "delete", confirm: "cancel", payment_id: String(p1.paymentId), back: "/payments" } });
    expect(cancel.status).toBe(302);
    expect(await paidOf(d1.id)).toBe("5000.00000");
    const del = await call(br, route.action, { path: "/payments", form: { intent: "delete", confirm: "yes", payment_id: String(p1.paymentId), back: "/payments?page=1" } });
    expect(del.status).toBe(302);
    expect(del.location).toBe("/payments?page=1");
    expect(await paidOf(d1.id)).toBe("0.00000");
    expect(((await call(br, route.loader, { path: "/payments" })).data.rows as Array<{ id: number }>).map((r) => r.id)).toEqual([p2.paymentId]);
  });

  it("the list's pages without a search: newest first, and the total of live payments past one page", async () => {
    const a = await issuingCompany(database.db);
    const br = await signedIn(database.db, a.user.id, a.company.id);
    const d = await invoice(a);
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const p = await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "10", { date: `2026-11-${String(i).padStart(2, "0")}` }) });
      if (!p.ok) throw new Error("pay");
      ids.push(p.paymentId);
    }
    expect(await deletePayment(database.db, { companyId: a.company.id, userId: a.user.id, id: ids[0], now: new Date() })).toMatchObject({ documentId: d.id });
    const first = await call(br, route.loader, { path: "/payments?perPage=10&page=1" });
    expect(first.data.lastPage).toBe(2);
    expect(first.data.rows[0].id).toBe(ids[11]);
    const second = await call(br, route.loader, { path: "/payments?perPage=10&page=2" });
    expect(second.data.rows.map((r: { id: number }) => r.id)).toEqual([ids[1]]);
  });

  it("banks: new, duplicate refused (any case), edit; listed in the form's bank select", async () => {
    const a = await issuingCompany(database.db);
    const br = await signedIn(database.db, a.user.id, a.company.id);
    const blank = await call(br, route.action, { path: "/payments?bank=new", form: { intent: "bank", name: "   " } });
    expect(blank.status).toBe(400);
    expect(blank.data.errors).toEqual({ name: "El nombre del banco es obligatorio" });
    const created = await call(br, route.action, { path: "/payments?bank=new", form: { intent: "bank", name: "Banco Nacional" } });
    expect(created.status).toBe(302);
    const [row] = await database.db.select().from(banks).where(eq(banks.companyId, a.company.id));
    expect(row.name).toBe("Banco Nacional");
    const dup = await call(br, route.action, { path: "/payments?bank=new", form: { intent: "bank", name: "banco nacional" } });
    expect(dup.status).toBe(400);
    expect(dup.data).toMatchObject({ errors: { name: "Ya existe un banco con ese nombre" }, values: { name: "banco nacional" } });
    const edit = await call(br, route.loader, { path: `/payments?bank=${row.id}` });
    expect(edit.data.bankForm).toEqual({ id: row.id, name: "Banco Nacional" });
    const renamed = await call(br, route.action, { path: `/payments?bank=${row.id}`, form: { intent: "bank", bank_id: String(row.id), name: "Banco Nacional de Costa Rica" } });
    expect(renamed.status).toBe(302);
    const d = await invoice(a);
    const form = await call(br, route.loader, { path: `/payments?document_id=${d.id}` });
    expect(form.data.banks).toEqual([{ id: row.id, name: "Banco Nacional de Costa Rica" }]);
    // Another company may use the same name.
    const b = await issuingCompany(database.db);
    expect(await saveBank(database.db, { companyId: b.company.id, id: null, name: "Banco Nacional de Costa Rica", now: new Date() })).toMatchObject({ ok: true });
  });

  it("after payments the invoices list shows paid, 'Pago Parcial' then 'Pagado', hides 'Pagar'; the client balance follows", async () => {
    const a = await issuingCompany(database.db);
    const d = await invoice(a);
    const br = await signedIn(database.db, a.user.id, a.company.id);
    const row = async () => ((await call(br, list.loader, { path: "/invoices" })).data.rows as Array<{ id: number; paid: string; paymentStatus: string; owes: boolean }>).find((x) => x.id === d.id)!;
    const balance = async () => (await clientBalances(database.db, { companyId: a.company.id, clientIds: [a.client.id] })).get(a.client.id);
    expect(await row()).toMatchObject({ paid: "₡0,00", paymentStatus: "No pagado", owes: true });
    expect(await balance()).toBe("1226150.00000");
    await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "226150") });
    expect(await row()).toMatchObject({ paid: "₡226.150,00", paymentStatus: "Pago Parcial", owes: true });
    expect(await balance()).toBe("1000000.00000");
    await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(d.id, "1000000") });
    expect(await row()).toMatchObject({ paid: "₡1.226.150,00", paymentStatus: "Pagado", owes: false });
    expect(await balance()).toBe("0");
    const paidOnly = ((await call(br, list.loader, { path: "/invoices?filter=pagado" })).data.rows as Array<{ id: number }>).map((r) => r.id);
    expect(paidOnly).toContain(d.id);
  });
});
