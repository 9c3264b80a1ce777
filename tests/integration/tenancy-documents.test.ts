// Cross-tenant attempts on every document route in one table: company A's user, signed in, tries
// company B's documents (each type), downloads, quotation, recurring template, payment, bank, client,
// provider, item and terms through the real loaders and actions. Every attempt is refused (404, or
// the form's 'no existe en esta empresa') without a trace of B in the answer, and B's rows, the row
// counts and the mailbox are the same afterwards. Each GET row is also run by B's own user, whose
// answer must differ: the refusal comes from the tenancy check, not from a wrong URL. Then B's public
// link: it works without a session and shows only that document; any altered code is 'No hay
// información'. A route added later is one row of `attempts`.
import { createHash, createHmac } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { banks, clients, documentReferences, documents, haciendaConfigs, items, jobs, payments, recurringDocuments, taxTypes, terms } from "../../db/schema/index.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import { LIVE_TOTALS_INTENT } from "../../app/components/form.tsx";
import { FORM_MESSAGES } from "../../app/domain/document-form.ts";
import { PAYMENT_MESSAGES } from "../../app/domain/payments.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { PDF_UNAVAILABLE } from "../../app/pdf/invoice-pdf.server.tsx";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { recordPayment, saveBank } from "../../app/server/payments.server.ts";
import { publicCode } from "../../app/server/public-link.server.ts";
import { NOT_FOUND_TEXT } from "../../app/server/public-page.server.tsx";
import { createRecurring } from "../../app/server/recurring.server.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import * as clientDetail from "../../app/routes/clients/client-detail.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as detailPrint from "../../app/routes/documents/detail-print.tsx";
import * as recurringDetail from "../../app/routes/documents/recurring-detail.tsx";
import * as documentFile from "../../app/routes/documents/document-file.tsx";
import * as documentForm from "../../app/routes/documents/document-form.tsx";
import * as lists from "../../app/routes/documents/documents-list.tsx";
import * as recurringForm from "../../app/routes/documents/recurring-form.tsx";
import * as recurrings from "../../app/routes/documents/recurrings.tsx";
import * as sourcedForm from "../../app/routes/documents/sourced-form.tsx";
import * as paymentsRoute from "../../app/routes/payments/payments.tsx";
import * as publicRoute from "../../app/routes/public/query-public.tsx";
import * as quotations from "../../app/routes/quotations/quotations.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";
import { anonymous, call, signedIn, type CallResult } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
const schemaSet = testSchemaSet();
const DAY = 24 * 60 * 60 * 1000;

/** Only B's client and provider carry this word: any answer to A that contains it leaks B. */
const MARK = "Zafiro";

const fecReference = [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-02T18:00:00.000Z", code: "04", reason: "Compra a productor de régimen especial" }];
const fecLines: DocumentDraft["lines"] = [{ cabys: "0113100000100", description: "Café en grano oro", quantity: "50", unit: "Kg", unitPrice: "3200", tax: { tarifaCode: "02" } }];

/** A company with one of everything a document route can name, and its user signed in. */
async function tenant(opts: { terminal: number; clientName: string; providerName: string }) {
  const db = database.db;
  const t = await issuingCompany(db);
  const companyId = t.company.id;
  // Its own terminal, so its consecutives differ from the other company's (the list search).
  await db.update(haciendaConfigs).set({ terminal: opts.terminal }).where(eq(haciendaConfigs.companyId, companyId));
  await db.update(clients).set({ name: opts.clientName }).where(eq(clients.id, t.client.id));
  await db.update(clients).set({ name: opts.providerName }).where(eq(clients.id, t.provider.id));
  await setupItemsForCompany(db, companyId);
  await setupConfigForCompany(db, companyId);
  await saveOutgoingEmail(db, companyId, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtp.port, username: "u", password: "p", from_email: "facturas@empresa.example", from_name: "Empresa" });
  const tax13 = (await db.select().from(taxTypes).where(eq(taxTypes.companyId, companyId))).find((x) => x.name === "IVA 13%")!.id;
  const [item] = await db.insert(items).values({ companyId, code: "SRV-1", cabysCode: "8313100000000", name: "Soporte", description: "Soporte técnico", categoryId: 1, unitCode: "Sp", taxTypeId: tax13, price: "1000" }).returning();
  const [term] = await db.insert(terms).values({ companyId, name: "Garantía", body: "Seis meses de garantía." }).returning();
  const bank = await saveBank(db, { companyId, id: null, name: "Banco Nacional", now: new Date() });
  if (!bank?.ok) throw new Error("bank");
  const issue = async (draft: DocumentDraft, now = new Date()) => {
    const r = await issueDocument(db, { companyId, userId: t.user.id, draft, now, schemaSet });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r;
  };
  // An accepted credit invoice, due two weeks ago, with Hacienda's answer: every action applies to it.
  const invoice = await issue(sampleDraft("fe", t.client.id, { saleCondition: "02", creditDays: 5, remindPayment: true, emails: ["contabilidad@cliente.example"] }), new Date(Date.now() - 20 * DAY));
  await db.update(documents).set({ status: "aceptado", responseXml: Buffer.from("<MensajeHacienda/>") }).where(eq(documents.id, invoice.documentId));
  // A rejected ticket: it can also be replaced (/new-clone/ticket/:id?replace=1).
  const ticket = await issue(sampleDraft("te", t.generic.id));
  await db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, ticket.documentId));
  const note = await issue(
    sampleDraft("nc", t.client.id, { note: "Devolución", references: [{ documentId: invoice.documentId, docType: "", number: "", issuedAt: "", code: "06", reason: "Devolución" }], lines: sampleDraft("fe", 1).lines.slice(0, 1) }),
  );
  const purchase = await issue(sampleDraft("fec", t.provider.id, { references: fecReference, lines: fecLines }));
  const quotation = await issue(sampleDraft("qt", t.client.id, { note: "Válida por 15 días" }));
  const recurring = await createRecurring(db, { companyId, userId: t.user.id, draft: sampleDraft("fe", t.client.id), startDay: costaRicaDay(new Date(Date.now() + 10 * DAY)), cycle: "monthly", now: new Date(), schemaSet });
  if (!recurring.ok) throw new Error(JSON.stringify(recurring.errors));
  const payment = await recordPayment(db, {
    companyId,
    userId: t.user.id,
    payment: { document_id: invoice.documentId, amount: "1000", payment_form: "01", currency_id: 2, date: costaRicaDay(new Date()), description: "Abono", reference: "", bank_id: null },
  });
  if (!payment.ok) throw new Error(JSON.stringify(payment));
  return {
    ...t,
    companyId,
    browser: await signedIn(db, t.user.id, companyId),
    tax13,
    itemId: item.id,
    termId: term.id,
    bankId: bank.id,
    docs: { invoice, ticket, note, simple: purchase, quotation },
    recurringId: recurring.id,
    paymentId: payment.paymentId,
  };
}
type Tenant = Awaited<ReturnType<typeof tenant>>;

let A: Tenant;
let B: Tenant;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture();
  A = await tenant({ terminal: 1, clientName: "Distribuidora Rubí Limitada", providerName: "Productora Rubí" });
  B = await tenant({ terminal: 7, clientName: `Comercial ${MARK} Limitada`, providerName: `Proveedora ${MARK}` });
}, 240_000);
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

/** Byte columns as their length, so a failing comparison stays readable. */
const plain = <T extends Record<string, unknown>>(rows: T[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Uint8Array ? `${v.byteLength} bytes` : v])));

/** Everything of B an attempt could change, and the row counts of every company (nothing created). */
async function snapshot() {
  const db = database.db;
  const b = B.companyId;
  const rows = async (q: Promise<{ n: number }[]>) => (await q)[0].n;
  return {
    documents: plain(await db.select().from(documents).where(eq(documents.companyId, b)).orderBy(documents.id)),
    payments: plain(await db.select().from(payments).where(eq(payments.companyId, b)).orderBy(payments.id)),
    recurring: plain(await db.select().from(recurringDocuments).where(eq(recurringDocuments.companyId, b)).orderBy(recurringDocuments.id)),
    clients: plain(await db.select().from(clients).where(eq(clients.companyId, b)).orderBy(clients.id)),
    items: plain(await db.select().from(items).where(eq(items.companyId, b)).orderBy(items.id)),
    banks: plain(await db.select().from(banks).where(eq(banks.companyId, b)).orderBy(banks.id)),
    terms: plain(await db.select().from(terms).where(eq(terms.companyId, b)).orderBy(terms.id)),
    counts: {
      documents: await rows(db.select({ n: count() }).from(documents)),
      references: await rows(db.select({ n: count() }).from(documentReferences)),
      payments: await rows(db.select({ n: count() }).from(payments)),
      recurring: await rows(db.select({ n: count() }).from(recurringDocuments)),
      clients: await rows(db.select({ n: count() }).from(clients)),
      jobs: await rows(db.select({ n: count() }).from(jobs)),
    },
  };
}

// ---- what an answer must be ----------------------------------------------------------------------

type Check = (r: CallResult) => void | Promise<void>;

/** The answer's text: the thrown message, the loader's data (less the echoed search), or a resource route's body. */
async function textOf(r: CallResult): Promise<string> {
  if (r.data !== undefined) return typeof r.data === "string" ? r.data : JSON.stringify({ ...r.data, search: undefined });
  return r.response.clone().text();
}

async function noTraceOfB(r: CallResult) {
  const text = await textOf(r);
  expect(text).not.toContain(MARK);
  for (const d of Object.values(B.docs)) if (d.clave) expect(text).not.toContain(d.clave);
}

/** Refused with this status (and this message, when given), nothing of B in the answer. */
const refused =
  (status: number, message?: string): Check =>
  async (r) => {
    expect(r.status).toBe(status);
    if (message !== undefined) expect(await textOf(r)).toBe(message);
    await noTraceOfB(r);
  };
const notFound = (message = "No encontrado") => refused(404, message);
const fileUnavailable = refused(404, PDF_UNAVAILABLE);

/** The form answers 400 with the error on the field and keeps what was typed. */
const formRefused =
  (field: string, message: string): Check =>
  async (r) => {
    expect(r.status).toBe(400);
    expect(r.data.errors[field]).toBe(message);
    await noTraceOfB(r);
  };
const foreignClient = formRefused("clientId", FORM_MESSAGES.clientNotAllowed);

/** A form that opened without B's client chosen or offered. */
const notPreselected: Check = async (r) => {
  expect(r.status).toBe(200);
  expect([B.client.id, B.provider.id].map(String)).not.toContain(r.data.form.clientId);
  expect(r.data.lists.clients.map((c: { id: number }) => c.id)).not.toContain(B.client.id);
  await noTraceOfB(r);
};

/** A list with no rows (`key`: where the loader puts them). */
const noRows =
  (key = "rows"): Check =>
  async (r) => {
    expect(r.status).toBe(200);
    expect(r.data[key]).toEqual([]);
    await noTraceOfB(r);
  };

/** B's own user, for the control: the route answers it. */
const ok: Check = (r) => {
  expect(r.status).toBe(200);
};
const preselects =
  (id: () => number): Check =>
  (r) => {
    expect(r.status).toBe(200);
    expect(r.data.form.clientId).toBe(String(id()));
  };
const someRows =
  (key = "rows"): Check =>
  (r) => {
    expect(r.status).toBe(200);
    expect(r.data[key].length).toBeGreaterThan(0);
  };

// ---- how a request is made ---------------------------------------------------------------------------

type Fn = (args: never) => unknown;
const get = (as: Tenant, fn: Fn, path: string, params: Record<string, string> = {}) => call(as.browser, fn as never, { path, params });
const post = (as: Tenant, fn: Fn, path: string, form: Record<string, string>, params: Record<string, string> = {}) => call(as.browser, fn as never, { path, params, form });

const DETAIL_TYPES = ["invoice", "ticket", "note", "simple", "quotation"] as const;
type DetailType = (typeof DETAIL_TYPES)[number];
const docId = (type: DetailType) => B.docs[type].documentId;
const detailParams = (type: string, id: number, print?: string) => ({ type, id: String(id), ...(print ? { print } : {}) });
const formParams = (documentType: string, id: number, noteType?: string) => ({ document_type: documentType, document_id: String(id), ...(noteType ? { note_type: noteType } : {}) });

/** A complete, valid form for the acting company (only the id under test is foreign). */
const lines = (as: Tenant) => ({
  sale_condition: "01",
  "payments[0].code": "01",
  currency: "CRC",
  note: "Intento",
  "lines[0].cabys": "8313100000000",
  "lines[0].description": "Horas de consultoría en sistemas",
  "lines[0].unit": "Sp",
  "lines[0].quantity": "1",
  "lines[0].price": "25000",
  "lines[0].discount": "0",
  "lines[0].taxTypeId": String(as.tax13),
  intent: "save",
});
const emailForm = (intent: string) => ({ intent, emails: "intruso@example.cr", subject: "Asunto", body: "Texto" });
const recurrence = () => ({ recurring_start_day: costaRicaDay(new Date(Date.now() + 5 * DAY)), common_cycle: "monthly" });
const clientForm = {
  intent: "save",
  name: "Robado",
  identification_type: "2",
  identification: "3102654321",
  email: "x@example.cr",
  phone: "22224444",
  address: "x",
  country: "60",
  province: "1",
  canton: "1",
  district: "1",
  contact_count: "0",
  economic_activity_code: "4649.0",
};

interface Attempt {
  name: string;
  /** The request, made by `as` (A for the attempt, B for the control) on B's ids. */
  run: (as: Tenant) => Promise<CallResult>;
  /** What A gets. */
  expect: Check;
  /** What B itself gets from the same request (GET rows): proves the route and ids are right. */
  owner?: Check;
}

const attempts: Attempt[] = [
  // Detail viewer: each type, its print variant (and its receipt), the reminder form; a recurring template's preview.
  ...DETAIL_TYPES.flatMap((type): Attempt[] => [
    { name: `GET /detail/${type}/:id`, run: (as) => get(as, detail.loader, `/detail/${type}/${docId(type)}`, detailParams(type, docId(type))), expect: notFound(), owner: ok },
    { name: `GET /detail/${type}/:id/print`, run: (as) => get(as, detailPrint.loader, `/detail/${type}/${docId(type)}/print`, detailParams(type, docId(type), "print")), expect: notFound(), owner: ok },
    { name: `GET /detail/${type}/:id/print?formato=80`, run: (as) => get(as, detailPrint.loader, `/detail/${type}/${docId(type)}/print?formato=80`, detailParams(type, docId(type), "print")), expect: notFound(), owner: ok },
  ]),
  {
    name: "GET /detail/invoice/:id?recordatorio=1",
    run: (as) => get(as, detail.loader, `/detail/invoice/${docId("invoice")}?recordatorio=1`, detailParams("invoice", docId("invoice"))),
    expect: notFound(),
    owner: (r) => {
      expect(r.status).toBe(200);
      expect(r.data.reminderForm).not.toBeNull();
    },
  },
  { name: "GET /detail/recurring/:id (preview)", run: (as) => get(as, recurringDetail.loader, `/detail/recurring/${B.recurringId}`, { id: String(B.recurringId) }), expect: notFound(), owner: ok },
  // Downloads.
  ...(["pdf", "recibo", "xml", "respuesta"] as const).map(
    (file): Attempt => ({ name: `GET /document-file/:invoice/${file}`, run: (as) => get(as, documentFile.loader, `/document-file/${docId("invoice")}/${file}`, { id: String(docId("invoice")), file }), expect: fileUnavailable, owner: ok }),
  ),
  ...(["ticket", "note", "simple"] as const).flatMap((type) =>
    (["pdf", "xml"] as const).map((file): Attempt => ({ name: `GET /document-file/:${type}/${file}`, run: (as) => get(as, documentFile.loader, `/document-file/${docId(type)}/${file}`, { id: String(docId(type)), file }), expect: fileUnavailable, owner: ok })),
  ),
  { name: "GET /document-file/:quotation/pdf", run: (as) => get(as, documentFile.loader, `/document-file/${docId("quotation")}/pdf`, { id: String(docId("quotation")), file: "pdf" }), expect: fileUnavailable, owner: ok },
  // Prefilled forms on B's documents.
  ...(["nc", "nd"] as const).flatMap((noteType) =>
    (["invoice", "ticket", "simple"] as const).map(
      (type): Attempt => ({ name: `GET /new-note/${noteType}/${type}/:id`, run: (as) => get(as, sourcedForm.loader, `/new-note/${noteType}/${type}/${docId(type)}`, formParams(type, docId(type), noteType)), expect: notFound(), owner: ok }),
    ),
  ),
  ...(["invoice", "ticket", "quotation", "simple"] as const).map(
    (type): Attempt => ({ name: `GET /new-clone/${type}/:id`, run: (as) => get(as, sourcedForm.loader, `/new-clone/${type}/${docId(type)}`, formParams(type, docId(type))), expect: notFound(), owner: ok }),
  ),
  { name: "GET /new-clone/ticket/:id?replace=1", run: (as) => get(as, sourcedForm.loader, `/new-clone/ticket/${docId("ticket")}?replace=1`, formParams("ticket", docId("ticket"))), expect: notFound(), owner: ok },
  { name: "GET /new-recurring/invoice/:id", run: (as) => get(as, recurringForm.loader, `/new-recurring/invoice/${docId("invoice")}`, formParams("invoice", docId("invoice"))), expect: notFound(), owner: ok },
  { name: "GET /edit-quotation/quotation/:id", run: (as) => get(as, sourcedForm.loader, `/edit-quotation/quotation/${docId("quotation")}`, formParams("quotation", docId("quotation"))), expect: notFound(), owner: ok },
  { name: "GET /edit-recurring/recurring/:id", run: (as) => get(as, recurringForm.loader, `/edit-recurring/recurring/${B.recurringId}`, formParams("recurring", B.recurringId)), expect: notFound(), owner: ok },
  // Payments and banks.
  { name: "GET /payments?document_id=:invoice", run: (as) => get(as, paymentsRoute.loader, `/payments?document_id=${docId("invoice")}&volver=/invoices`), expect: notFound(), owner: ok },
  { name: "GET /payments?document_id=:simple", run: (as) => get(as, paymentsRoute.loader, `/payments?document_id=${docId("simple")}`), expect: notFound(), owner: ok },
  { name: "GET /payments?bank=:bank", run: (as) => get(as, paymentsRoute.loader, `/payments?bank=${B.bankId}`), expect: notFound(), owner: ok },
  // B's client and provider.
  ...["", "?tab=quotations", "?tab=invoices", "?tab=tickets", "?activity=edit"].map(
    (query): Attempt => ({ name: `GET /client-detail/:client${query}`, run: (as) => get(as, clientDetail.loader, `/client-detail/${B.client.id}${query}`, { id: String(B.client.id) }), expect: notFound(), owner: ok }),
  ),
  { name: "GET /client-detail/:provider", run: (as) => get(as, clientDetail.loader, `/client-detail/${B.provider.id}`, { id: String(B.provider.id) }), expect: notFound(), owner: ok },
  // New forms given B's client: they open, without it.
  { name: "GET /new-invoice?id=:client", run: (as) => get(as, documentForm.loader, `/new-invoice?id=${B.client.id}`), expect: notPreselected, owner: preselects(() => B.client.id) },
  { name: "GET /new-invoice?client_id=:client", run: (as) => get(as, documentForm.loader, `/new-invoice?client_id=${B.client.id}`), expect: notPreselected, owner: preselects(() => B.client.id) },
  { name: "GET /new-ticket?client_id=:client", run: (as) => get(as, documentForm.loader, `/new-ticket?client_id=${B.client.id}`), expect: notPreselected, owner: preselects(() => B.client.id) },
  { name: "GET /new-simple?id=:provider", run: (as) => get(as, sourcedForm.loader, `/new-simple?id=${B.provider.id}`), expect: notPreselected, owner: preselects(() => B.provider.id) },
  { name: "GET /recurring-new?id=:client", run: (as) => get(as, recurringForm.loader, `/recurring-new?id=${B.client.id}`), expect: notPreselected, owner: preselects(() => B.client.id) },
  // Back from a quick-add (what was typed is kept) with B's client or provider as the new one.
  ...(
    [
      ["/new-invoice", documentForm, () => B.client.id],
      ["/new-quotation", sourcedForm, () => B.client.id],
      ["/recurring-new", recurringForm, () => B.client.id],
      ["/new-simple", sourcedForm, () => B.provider.id],
    ] as const
  ).map(
    ([path, route, id]): Attempt => ({
      name: `GET ${path}?restore=1&id=<B's> after a quick-add`,
      run: async (as) => {
        const away = await post(as, route.action, path, { ...lines(as), ...recurrence(), client_id: "", intent: "quick-add" });
        expect(away.status).toBe(302);
        return get(as, route.loader, `${path}?restore=1&id=${id()}`);
      },
      expect: notPreselected,
      owner: preselects(id),
    }),
  ),
  // The lists searched by B's consecutive or client name find nothing.
  ...(["invoice", "ticket", "note", "simple"] as const).map((type): Attempt => {
    const section = { invoice: "invoices", ticket: "tickets", note: "notes", simple: "simples" }[type];
    return { name: `GET /${section}?search=<B's consecutive>`, run: (as) => get(as, lists.loader, `/${section}?search=${B.docs[type].consecutivo}`), expect: noRows(), owner: someRows() };
  }),
  { name: "GET /invoices?search=<B's client>", run: (as) => get(as, lists.loader, `/invoices?search=${MARK}`), expect: noRows(), owner: someRows() },
  { name: "GET /simples?search=<B's provider>", run: (as) => get(as, lists.loader, `/simples?search=${MARK}`), expect: noRows(), owner: someRows() },
  { name: "GET /quotations?search=<B's client>", run: (as) => get(as, quotations.loader, `/quotations?search=${MARK}`), expect: noRows(), owner: someRows() },
  { name: "GET /recurrings?search=<B's client>", run: (as) => get(as, recurrings.loader, `/recurrings?search=${MARK}`), expect: noRows(), owner: someRows() },
  { name: "GET /payments?search=<B's client>", run: (as) => get(as, paymentsRoute.loader, `/payments?search=${MARK}`), expect: noRows(), owner: someRows() },
  {
    name: "GET /detail/invoice/<own>?search=<B's consecutive> (the side list)",
    run: (as) => get(as, detail.loader, `/detail/invoice/${as.docs.invoice.documentId}?search=${B.docs.invoice.consecutivo}`, detailParams("invoice", as.docs.invoice.documentId)),
    expect: noRows("list"),
    owner: someRows("list"),
  },

  // ---- POST: every action on B's ids, and forms carrying B's ids ----
  ...DETAIL_TYPES.map((type): Attempt => ({ name: `POST /detail/${type}/:id intent=email`, run: (as) => post(as, detail.action, `/detail/${type}/${docId(type)}`, emailForm("email"), detailParams(type, docId(type))), expect: notFound() })),
  { name: "POST /detail/invoice/:id intent=reminder", run: (as) => post(as, detail.action, `/detail/invoice/${docId("invoice")}?recordatorio=1`, emailForm("reminder"), detailParams("invoice", docId("invoice"))), expect: notFound() },
  { name: "POST /detail/invoice/:id unknown intent", run: (as) => post(as, detail.action, `/detail/invoice/${docId("invoice")}`, emailForm("delete"), detailParams("invoice", docId("invoice"))), expect: notFound() },
  ...["convert", "delete"].map(
    (intent): Attempt => ({ name: `POST /quotations intent=${intent}`, run: (as) => post(as, quotations.action, "/quotations", { intent, quotation_id: String(docId("quotation")), confirm: "yes", back: "/quotations" }), expect: notFound() }),
  ),
  ...["pause", "resume", "delete"].map((intent): Attempt => ({ name: `POST /recurrings intent=${intent}`, run: (as) => post(as, recurrings.action, "/recurrings", { intent, id: String(B.recurringId), confirm: "yes" }), expect: notFound() })),
  {
    name: "POST /payments intent=pay on B's invoice",
    run: (as) =>
      post(as, paymentsRoute.action, `/payments?document_id=${docId("invoice")}`, { intent: "pay", document_id: String(docId("invoice")), volver: "/invoices", amount: "1", payment_form: "01", currency_id: "2", date: costaRicaDay(new Date()), description: "Pago", reference: "", bank_id: "" }),
    expect: notFound(),
  },
  { name: "POST /payments intent=delete B's payment", run: (as) => post(as, paymentsRoute.action, "/payments", { intent: "delete", payment_id: String(B.paymentId), confirm: "yes", back: "/payments" }), expect: notFound() },
  { name: "POST /payments intent=bank renaming B's bank", run: (as) => post(as, paymentsRoute.action, `/payments?bank=${B.bankId}`, { intent: "bank", bank_id: String(B.bankId), name: "Mío" }), expect: notFound() },
  {
    name: "POST /payments intent=pay on A's invoice with B's bank",
    run: (as) =>
      post(as, paymentsRoute.action, `/payments?document_id=${as.docs.invoice.documentId}`, {
        intent: "pay",
        document_id: String(as.docs.invoice.documentId),
        volver: "/invoices",
        amount: "1",
        payment_form: "04",
        currency_id: "2",
        date: costaRicaDay(new Date()),
        description: "Pago",
        reference: "",
        bank_id: String(B.bankId),
      }),
    expect: formRefused("bank_id", PAYMENT_MESSAGES.bankInvalid),
  },
  // Notes, clones and templates posted on B's documents (save, and the form's other intents).
  ...(["nc", "nd"] as const).flatMap((noteType) =>
    (["invoice", "ticket", "simple"] as const).map(
      (type): Attempt => ({
        name: `POST /new-note/${noteType}/${type}/:id`,
        run: (as) => post(as, sourcedForm.action, `/new-note/${noteType}/${type}/${docId(type)}`, { ...lines(as), reference_reason: "Intento" }, formParams(type, docId(type), noteType)),
        expect: notFound(),
      }),
    ),
  ),
  ...["recalc", "add-line", "remove-line:0", "quick-add", LIVE_TOTALS_INTENT].map(
    (intent): Attempt => ({ name: `POST /new-note/nc/invoice/:id intent=${intent}`, run: (as) => post(as, sourcedForm.action, `/new-note/nc/invoice/${docId("invoice")}`, { ...lines(as), intent }, formParams("invoice", docId("invoice"), "nc")), expect: notFound() }),
  ),
  ...(["invoice", "ticket", "quotation", "simple"] as const).map(
    (type): Attempt => ({ name: `POST /new-clone/${type}/:id`, run: (as) => post(as, sourcedForm.action, `/new-clone/${type}/${docId(type)}`, { ...lines(as), client_id: String(as.client.id) }, formParams(type, docId(type))), expect: notFound() }),
  ),
  {
    name: "POST /new-clone/ticket/:id?replace=1",
    run: (as) => post(as, sourcedForm.action, `/new-clone/ticket/${docId("ticket")}?replace=1`, { ...lines(as), client_id: String(as.generic.id) }, formParams("ticket", docId("ticket"))),
    expect: notFound(),
  },
  ...["save", "save-email", "save-print"].map(
    (intent): Attempt => ({
      name: `POST /edit-quotation/quotation/:id intent=${intent}`,
      run: (as) => post(as, sourcedForm.action, `/edit-quotation/quotation/${docId("quotation")}`, { ...lines(as), client_id: String(as.client.id), intent }, formParams("quotation", docId("quotation"))),
      expect: notFound(),
    }),
  ),
  {
    name: "POST /new-recurring/invoice/:id",
    run: (as) => post(as, recurringForm.action, `/new-recurring/invoice/${docId("invoice")}`, { ...lines(as), ...recurrence(), client_id: String(as.client.id) }, formParams("invoice", docId("invoice"))),
    expect: notFound(),
  },
  {
    name: "POST /edit-recurring/recurring/:id",
    run: (as) => post(as, recurringForm.action, `/edit-recurring/recurring/${B.recurringId}`, { ...lines(as), ...recurrence(), client_id: String(as.client.id) }, formParams("recurring", B.recurringId)),
    expect: notFound(),
  },
  // New documents carrying B's client, provider, item or terms.
  { name: "POST /new-invoice with B's client", run: (as) => post(as, documentForm.action, "/new-invoice", { ...lines(as), client_id: String(B.client.id) }), expect: foreignClient },
  { name: "POST /new-ticket with B's client", run: (as) => post(as, documentForm.action, "/new-ticket", { ...lines(as), client_id: String(B.client.id) }), expect: foreignClient },
  {
    name: "POST /new-invoice with B's item",
    run: (as) => post(as, documentForm.action, "/new-invoice", { ...lines(as), client_id: String(as.client.id), "lines[0].itemId": String(B.itemId) }),
    expect: formRefused("lines.0.itemId", FORM_MESSAGES.itemNotFound),
  },
  { name: "POST /new-invoice with B's terms", run: (as) => post(as, documentForm.action, "/new-invoice", { ...lines(as), client_id: String(as.client.id), term_id: String(B.termId) }), expect: formRefused("termId", FORM_MESSAGES.termNotFound) },
  { name: "POST /new-simple with B's provider", run: (as) => post(as, sourcedForm.action, "/new-simple", { ...lines(as), client_id: String(B.provider.id) }), expect: foreignClient },
  { name: "POST /new-quotation with B's client", run: (as) => post(as, sourcedForm.action, "/new-quotation", { ...lines(as), client_id: String(B.client.id) }), expect: foreignClient },
  { name: "POST /recurring-new with B's client", run: (as) => post(as, recurringForm.action, "/recurring-new", { ...lines(as), ...recurrence(), client_id: String(B.client.id) }), expect: foreignClient },
  { name: "POST /new-clone/invoice/<own> with B's client", run: (as) => post(as, sourcedForm.action, `/new-clone/invoice/${as.docs.invoice.documentId}`, { ...lines(as), client_id: String(B.client.id) }, formParams("invoice", as.docs.invoice.documentId)), expect: foreignClient },
  // B's client's own screen.
  ...["save", "activity-save", "activity-lookup"].map(
    (intent): Attempt => ({ name: `POST /client-detail/:client intent=${intent}`, run: (as) => post(as, clientDetail.action, `/client-detail/${B.client.id}`, { ...clientForm, intent }, { id: String(B.client.id) }), expect: notFound() }),
  ),
];

describe("company A cannot reach company B's documents", () => {
  it("B's documents, template, payment and mail exist to be protected", async () => {
    const s = await snapshot();
    expect(s.documents.map((d) => d.kind).sort()).toEqual(["fe", "fec", "nc", "qt", "te"]);
    expect(s.documents.find((d) => d.kind === "fe")).toMatchObject({ status: "aceptado", paymentAmount: "1000.00000", remindersSent: 0, emailSentAt: null, responseXml: "18 bytes" });
    expect(s.recurring).toHaveLength(1);
    expect(s.payments).toHaveLength(1);
  });

  for (const attempt of attempts) {
    it(attempt.name, async () => {
      const before = await snapshot();
      const mails = smtp.received.length;
      await attempt.expect(await attempt.run(A));
      expect(await snapshot()).toEqual(before);
      expect(smtp.received.length).toBe(mails);
      if (attempt.owner) await attempt.owner(await attempt.run(B));
    });
  }

  it("no e-mail went out", () => {
    expect(smtp.received).toEqual([]);
  });
});

describe("B's public link", () => {
  const open = (code: string) => call(anonymous(), publicRoute.loader as never, { path: `/query-public/${encodeURIComponent(code)}`, params: { code64: code } });
  /** The payload of a code signed for these ids under another secret (or the real one, with `mac`). */
  const payloadOf = (c: number, d: number) => Buffer.from(JSON.stringify({ c, d }), "utf8").toString("base64url");
  const signedWith = (secret: string, payload: string) =>
    `${payload}.${createHmac("sha256", createHash("sha256").update("colibri:public-link:").update(secret).digest()).update(payload).digest("base64url").slice(0, 22)}`;
  let realCode: string;

  beforeAll(async () => {
    const own = await call(B.browser, detail.loader as never, { path: `/detail/invoice/${B.docs.invoice.documentId}`, params: detailParams("invoice", B.docs.invoice.documentId) });
    realCode = decodeURIComponent(own.data.publicUrl.split("/query-public/")[1]);
  });

  it("works without a session and shows that document only", async () => {
    const r = await open(realCode);
    expect(r.status).toBe(200);
    const html = await r.response.text();
    expect(html).toContain(B.docs.invoice.clave!);
    expect(html).toContain(`Comercial ${MARK} Limitada`);
    for (const other of [B.docs.ticket, B.docs.note, B.docs.simple, A.docs.invoice]) expect(html).not.toContain(other.clave!);
    expect(html).not.toContain(A.company.name);
  });

  const altered: { name: string; code: () => string }[] = [
    { name: "another document's id, the real signature", code: () => `${payloadOf(B.companyId, B.docs.ticket.documentId)}.${realCode.split(".")[1]}` },
    { name: "another company's id, the real signature", code: () => `${payloadOf(A.companyId, B.docs.invoice.documentId)}.${realCode.split(".")[1]}` },
    { name: "a genuine code of A's company for B's document", code: () => publicCode({ companyId: A.companyId, documentId: B.docs.invoice.documentId }) },
    { name: "a genuine code of B's company for A's document", code: () => publicCode({ companyId: B.companyId, documentId: A.docs.invoice.documentId }) },
    { name: "truncated", code: () => realCode.slice(0, -1) },
    { name: "without its signature", code: () => realCode.split(".")[0] },
    { name: "re-signed with another key", code: () => signedWith("another-secret", realCode.split(".")[0]) },
    { name: "the bare document id", code: () => String(B.docs.invoice.documentId) },
    { name: "garbage", code: () => "%%garbage..¿?" },
    { name: "very long", code: () => "A".repeat(5000) },
  ];
  for (const link of altered) {
    it(`${link.name}: 404 'No hay información'`, async () => {
      const r = await open(link.code());
      expect(r.status).toBe(404);
      const html = await r.response.text();
      expect(html).toContain(NOT_FOUND_TEXT);
      expect(html).not.toContain(MARK);
      expect(html).not.toContain(B.docs.invoice.clave!);
    });
  }

  it("the wrong-key signer matches the real one (so that row tests the key, not the format)", () => {
    expect(signedWith(process.env.APP_SECRET!, realCode.split(".")[0])).toBe(realCode);
  });
});
