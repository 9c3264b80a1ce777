// What is due on a document (issue 14 points 1 and 2; docs/decisions/160, 161): accepted credit
// notes lower it and debit notes raise it, and every place that shows or uses it agrees — the
// invoice list (payment status, due marker, 'Pagar', the pagado / no-pagado filters), the detail
// viewer, the payment form's limit, the client balance, the account statement (screen and the
// e-mail actually sent) and the payment reminders.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { companies, documents } from "../../db/schema/index.ts";
import { clientBalances, clientsPage } from "../../db/queries/clients.ts";
import { documentList } from "../../db/queries/document-lists.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { applyHaciendaAnswer, creditNoteDraft } from "../../app/server/hacienda-pipeline.server.ts";
import { paymentFormState, recordPayment } from "../../app/server/payments.server.ts";
import { dueRemindersWhere } from "../../app/server/payment-reminders.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { amountDue, owes } from "../../app/domain/receivables.ts";
import { dec, money } from "../../app/domain/decimal.ts";
import { addDays, costaRicaDay } from "../../app/domain/document-status.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import type { PaymentFormData } from "../../app/domain/payments.ts";
import * as list from "../../app/routes/documents/documents-list.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { mailBody, mailSubject, startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";
import { onOneCostaRicaDay } from "../setup/costa-rica-day.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
const schemaSet = testSchemaSet();

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture({ auth: false });
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

type Setup = Awaited<ReturnType<typeof issuingCompany>>;

async function issue(a: Setup, draft: DocumentDraft) {
  const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft, now: new Date(), schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}
async function accept(clave: string | null) {
  await applyHaciendaAnswer(database.db, { clave: clave!, estado: "aceptado" }, new Date());
}
const docOf = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0];

/** An accepted credit invoice (1 226 150,00), due two days ago, counted in Costa Rica days as the app does. */
async function overdueInvoice(a: Setup, over: Partial<DocumentDraft> = {}) {
  const r = await issue(a, sampleDraft("fe", a.client.id, { saleCondition: "02", creditDays: 30, remindPayment: true, ...over }));
  await accept(r.clave);
  const twoDaysAgo = addDays(costaRicaDay(new Date()), -2);
  await database.db.update(documents).set({ expirationDate: twoDaysAgo }).where(eq(documents.id, r.documentId));
  return r;
}

/** A credit note for the invoice's second line only (10 h × ₡25 000 + 4 % = ₡260 000,00). */
async function partialCreditNote(a: Setup, invoiceId: number) {
  const draft = (await creditNoteDraft(database.db, a.company.id, invoiceId))!;
  return issue(a, { ...draft, lines: draft.lines.slice(1), references: [{ ...draft.references![0], code: "02", reason: "Corrige monto" }] });
}

const pay = (documentId: number, amount: string): PaymentFormData => ({ document_id: documentId, amount, payment_form: "01", currency_id: 2, date: "2026-11-25", description: "Pago", reference: "", bank_id: null });

const today = () => costaRicaDay(new Date());
async function listRow(a: Setup, id: number, filter = "") {
  const b = await signedIn(database.db, a.user.id, a.company.id);
  const r = await call(b, list.loader, { path: `/invoices${filter ? `?filter=${filter}` : ""}` });
  return (r.data.rows as Array<{ id: number; paymentStatus: string | null; due: string | null; owes: boolean; reminder: number | null }>).find((x) => x.id === id);
}
/**
 * The list's row of an invoice from `overdueInvoice`, due two days before the day the list is read:
 * its due date is set again first, on that day, so a run across Costa Rica's midnight does not see it
 * due three days ago.
 */
async function overdueRow(a: Setup, id: number) {
  const { result } = await onOneCostaRicaDay(async (day) => {
    await database.db.update(documents).set({ expirationDate: addDays(day, -2) }).where(eq(documents.id, id));
    return listRow(a, id);
  });
  return result;
}
async function detailOf(a: Setup, id: number) {
  const b = await signedIn(database.db, a.user.id, a.company.id);
  return (await call(b, detail.loader, { path: `/detail/invoice/${id}`, params: { type: "invoice", id: String(id) } })).data;
}
async function reminderDue(id: number) {
  const rows = await database.db.select({ id: documents.id }).from(documents).where(and(dueRemindersWhere(today()), eq(documents.id, id)));
  return rows.length === 1;
}

describe("a credit note that cancels the invoice", () => {
  it("leaves nothing due anywhere: balance, statement, list, detail, payment form, reminders", async () => {
    const a = await issuingCompany(database.db);
    const inv = await overdueInvoice(a);
    expect(await reminderDue(inv.documentId)).toBe(true);
    expect(await overdueRow(a, inv.documentId)).toMatchObject({ paymentStatus: "No pagado", owes: true, due: "Vencida hace 2 dias" });
    const nc = await issue(a, (await creditNoteDraft(database.db, a.company.id, inv.documentId))!);
    // Not yet accepted: it does not count.
    expect((await docOf(inv.documentId)).creditNoteTotal).toBe("0.00000");
    await accept(nc.clave);
    expect((await docOf(inv.documentId)).creditNoteTotal).toBe("1226150.00000");

    expect((await clientBalances(database.db, { companyId: a.company.id, clientIds: [a.client.id] })).get(a.client.id)).toBe("0");
    const row = await listRow(a, inv.documentId);
    expect(row).toMatchObject({ paymentStatus: "Con nota de credito", owes: false, due: null, reminder: null });
    expect(await listRow(a, inv.documentId, "no-pagado")).toBeUndefined();
    expect(await listRow(a, inv.documentId, "pagado")).toBeDefined();
    const d = await detailOf(a, inv.documentId);
    expect(d.actions.pay).toBe(false);
    expect(d.paymentStatus).toBe("Con nota de credito");
    expect(d.due).toBeNull();
    const form = await paymentFormState(database.db, { companyId: a.company.id, documentId: inv.documentId, now: new Date() });
    expect(form!.blocked).toBe("Este documento no tiene saldo pendiente: sus notas de crédito lo anulan.");
    expect(form!.document.credited).toBe("₡1.226.150,00");
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(inv.documentId, "1") })).toEqual({
      ok: false,
      reason: "invalid",
      errors: { amount: "Este documento no tiene saldo pendiente: sus notas de crédito lo anulan." },
    });
    expect(await reminderDue(inv.documentId)).toBe(false);

    const b = await signedIn(database.db, a.user.id, a.company.id);
    const statement = (await call(b, clientsRoute.loader, { path: `/clients?statement=${a.client.id}` })).data.statement;
    expect(statement).toMatchObject({ pendingTotal: "₡0,00", rows: [] });
  });
});

describe("a partial credit note", () => {
  it("lowers what is due: the form offers and accepts only the rest, then it is 'Pagado'", async () => {
    const a = await issuingCompany(database.db);
    const inv = await overdueInvoice(a);
    const nc = await partialCreditNote(a, inv.documentId);
    await accept(nc.clave);
    expect((await docOf(inv.documentId)).creditNoteTotal).toBe("260000.00000");
    const form = (await paymentFormState(database.db, { companyId: a.company.id, documentId: inv.documentId, now: new Date() }))!;
    expect(form.blocked).toBeNull();
    expect(form.document.due).toBe("₡966.150,00");
    expect(await overdueRow(a, inv.documentId)).toMatchObject({ paymentStatus: "No pagado", owes: true, due: "Vencida hace 2 dias" });
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(inv.documentId, "1226150") })).toEqual({
      ok: false,
      reason: "invalid",
      errors: { amount: "El monto no puede ser mayor al saldo pendiente (₡966.150,00)" },
    });
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(inv.documentId, "966150") })).toMatchObject({ ok: true, due: "0.00000" });
    expect(await listRow(a, inv.documentId)).toMatchObject({ paymentStatus: "Pagado", owes: false, due: null });
    expect(await reminderDue(inv.documentId)).toBe(false);
    expect((await clientBalances(database.db, { companyId: a.company.id, clientIds: [a.client.id] })).get(a.client.id)).toBe("0");
  });
});

describe("a debit note", () => {
  it("raises what is due on a paid invoice: 'Pago Parcial', 'Pagar' again, the balance and the statement show it", async () => {
    const a = await issuingCompany(database.db);
    const inv = await overdueInvoice(a);
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(inv.documentId, "1226150") })).toMatchObject({ ok: true });
    expect(await listRow(a, inv.documentId)).toMatchObject({ paymentStatus: "Pagado", owes: false });
    const nd = await issue(
      a,
      sampleDraft("nd", a.client.id, { note: "Horas extra", references: [{ documentId: inv.documentId, docType: "", number: "", issuedAt: "", code: "02", reason: "Horas adicionales" }], lines: sampleDraft("fe", 1).lines.slice(1) }),
    );
    await accept(nd.clave);
    expect((await docOf(inv.documentId)).debitNoteTotal).toBe("260000.00000");
    expect(await overdueRow(a, inv.documentId)).toMatchObject({ paymentStatus: "Pago Parcial", owes: true, due: "Vencida hace 2 dias" });
    expect((await detailOf(a, inv.documentId)).actions.pay).toBe(true);
    expect((await clientBalances(database.db, { companyId: a.company.id, clientIds: [a.client.id] })).get(a.client.id)).toBe("260000.00000");
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(inv.documentId, "260000.00001") })).toMatchObject({ ok: false });
    expect(await recordPayment(database.db, { companyId: a.company.id, userId: a.user.id, payment: pay(inv.documentId, "260000") })).toMatchObject({ ok: true, due: "0.00000" });
  });

  it("a company that does not send to Hacienda: its notes count at once", async () => {
    const a = await issuingCompany(database.db, { noHacienda: true });
    const inv = await issue(a, sampleDraft("fe", a.client.id));
    await issue(a, (await creditNoteDraft(database.db, a.company.id, inv.documentId))!);
    expect((await docOf(inv.documentId)).creditNoteTotal).toBe("1226150.00000");
    expect((await listRow(a, inv.documentId))?.paymentStatus).toBe("Con nota de credito");
  });
});

describe("the SQL filter and the domain rule agree", () => {
  it("pagado / no-pagado select exactly the documents with nothing / something due", async () => {
    const a = await issuingCompany(database.db);
    const cases = [
      ["1000", "0", "0", "0"],
      ["1000", "1000", "0", "0"],
      ["1000", "999.99999", "0", "0"],
      ["1000", "0", "1000", "0"],
      ["1000", "400", "600", "0"],
      ["1000", "400", "599.99999", "0"],
      ["1000", "1000", "0", "0.00001"],
      ["1000", "0", "1000", "50"],
      ["1000", "50", "1000", "50"],
      ["1000", "1500", "0", "0"],
    ] as const;
    const ids: number[] = [];
    for (const [total, paid, nc, nd] of cases) {
      const r = await issue(a, sampleDraft("fe", a.client.id));
      await database.db.update(documents).set({ totalComprobante: total, paymentAmount: paid, creditNoteTotal: nc, debitNoteTotal: nd }).where(eq(documents.id, r.documentId));
      ids.push(r.documentId);
    }
    const page = async (filter: "pagado" | "no-pagado") => new Set((await documentList(database.db, { companyId: a.company.id, kinds: ["fe"], filter, page: 1, perPage: 100 })).rows.map((r) => r.id));
    const [unpaid, paid] = [await page("no-pagado"), await page("pagado")];
    cases.forEach(([total, paymentAmount, creditNoteTotal, debitNoteTotal], i) => {
      const due = owes({ total, paymentAmount, creditNoteTotal, debitNoteTotal });
      expect(unpaid.has(ids[i]), `case ${i}`).toBe(due);
      expect(paid.has(ids[i]), `case ${i}`).toBe(!due);
    });
  });
});

describe("the client balance added up by the database and the domain rule agree", () => {
  it("equals the sum of amountDue in colones (dollar invoices at their own rate), to 5 decimals, half-up", async () => {
    const a = await issuingCompany(database.db);
    // [total, paid, credit notes, debit notes, currency id (1 = USD), rate]
    const cases = [
      ["1000.00000", "0", "0", "0", 2, "1"],
      ["1000.00000", "999.99999", "0", "0", 2, "1"],
      ["1000.00000", "400.00000", "599.99999", "0", 2, "1"],
      ["1000.00000", "1000.00000", "0", "0.00001", 2, "1"],
      ["2452.29210", "0", "0", "0", 1, "506.33333"],
      ["10.00001", "3.33333", "0", "1.11111", 1, "507.12345"],
      ["0.00001", "0", "0", "0", 1, "0.50000"],
      ["1000.00000", "1000.00000", "0", "0", 2, "1"],
      ["1000.00000", "1500.00000", "0", "0", 1, "500.00000"],
    ] as const;
    let expected = dec("0");
    for (const [total, paymentAmount, creditNoteTotal, debitNoteTotal, currencyId, exchangeRate] of cases) {
      const r = await issue(a, sampleDraft("fe", a.client.id));
      await database.db.update(documents).set({ totalComprobante: total, paymentAmount, creditNoteTotal, debitNoteTotal, currencyId, exchangeRate }).where(eq(documents.id, r.documentId));
      const due = dec(amountDue({ total, paymentAmount, creditNoteTotal, debitNoteTotal }));
      expected = expected.plus(currencyId === 1 ? due.times(dec(exchangeRate)) : due);
    }
    // 1000 + 3 × 0.00001 + 2452.2921 × 506.33333 + 7.77779 × 507.12345 + 0.00001 × 0.5
    // = 1 246 621.5248588685; the paid and the overpaid invoices add nothing.
    expect(money(expected)).toBe("1246621.52486");
    expect((await clientBalances(database.db, { companyId: a.company.id, clientIds: [a.client.id, a.provider.id] })).get(a.client.id)).toBe(money(expected));
    expect((await clientBalances(database.db, { companyId: a.company.id, clientIds: [a.provider.id] })).get(a.provider.id)).toBe("0");
    // The clients list reads the same figure with each row (decision 189).
    const page = await clientsPage(database.db, { companyId: a.company.id, provider: false, search: "", page: 1, perPage: 50, balances: true });
    expect(page.rows.find((r) => r.id === a.client.id)?.balance).toBe(money(expected));
    expect(page.rows.filter((r) => r.id !== a.client.id).map((r) => r.balance)).toEqual(page.rows.filter((r) => r.id !== a.client.id).map(() => "0"));
  });
});

describe("the account statement", () => {
  it("consecutives, DD/MM/YYYY, each amount in its currency, on screen and in the e-mail sent; no double period after 'S.A.'", async () => {
    const a = await issuingCompany(database.db);
    await database.db.update(companies).set({ name: "Colibrí Demo S.A.", fantasyName: null }).where(eq(companies.id, a.company.id));
    await setupConfigForCompany(database.db, a.company.id);
    await saveOutgoingEmail(database.db, a.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtp.port, username: "", password: "", from_email: "cobros@empresa.example", from_name: "Empresa" });
    const crc = await overdueInvoice(a);
    const usd = await overdueInvoice(a, { currency: "USD", exchangeRate: "500", lines: [{ cabys: "8313100000000", description: "Soporte mensual", quantity: "1", unit: "Sp", unitPrice: "2170.17", tax: { tarifaCode: "08" } }] });
    const nc = await partialCreditNote(a, crc.documentId);
    await accept(nc.clave);
    const usdDoc = await docOf(usd.documentId);
    const b = await signedIn(database.db, a.user.id, a.company.id);
    const st = (await call(b, clientsRoute.loader, { path: `/clients?statement=${a.client.id}` })).data.statement;
    const day = /^\d{2}\/\d{2}\/\d{4}$/;
    expect(st.rows).toHaveLength(2);
    expect(st.rows[0]).toMatchObject({ reference: crc.consecutivo, pending: "₡966.150,00" });
    expect(usdDoc.totalComprobante).toBe("2452.29210");
    expect(st.rows[1]).toMatchObject({ reference: usd.consecutivo, pending: "$2.452,29" });
    for (const r of st.rows) expect(r.date).toMatch(day);
    // Pending total in colones: 966 150 + 2 452,2921 × 500.
    expect(st.pendingTotal).toBe("₡2.192.296,05");

    const before = smtp.received.length;
    const sent = await call(b, clientsRoute.action, { path: "/clients", form: { intent: "send-statement", client_id: String(a.client.id) } });
    expect(sent.status).toBe(302);
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received[before];
    const subject = mailSubject(mail.raw);
    const body = mailBody(mail.raw);
    expect(subject).toBe("Estado de cuenta de Distribuidora La Sabana Limitada con Colibrí Demo S.A.");
    expect(body).toContain("Le enviamos su estado de cuenta con Colibrí Demo S.A. El saldo pendiente es de ₡2.192.296,05.");
    expect(body).not.toContain("S.A..");
    expect(body).toContain(`${crc.consecutivo}  ${st.rows[0].date}  ₡966.150,00`);
    expect(body).toContain(`${usd.consecutivo}  ${st.rows[1].date}  $2.452,29`);
    expect(body).not.toMatch(/Referencia \d/);
    expect(mail.to).toEqual(["cliente@example.cr"]);
  });
});
