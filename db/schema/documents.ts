import { sql } from "drizzle-orm";
import { bigint, boolean, customType, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { bytea, companies } from "./companies.ts";

/**
 * An accepted document whose e-mail failed, is still unsent and has someone to send it to (the
 * client's e-mail at issue or the notify list). The partial index and the sweep use this same text.
 */
export const EMAIL_RETRY_PREDICATE =
  "email_sent_at is null and email_error is not null and status = 'aceptado' and (coalesce(client_snapshot->>'email', '') <> '' or coalesce(emails, '[]'::jsonb) <> '[]'::jsonb)";

/**
 * Something is still due on the document: payments plus accepted credit notes below the total plus
 * accepted debit notes. The SQL form of app/domain/receivables.ts `owes` (a test checks they agree),
 * for filters and the partial indexes that serve them.
 */
export const OWING_PREDICATE = "payment_amount + credit_note_total < total_comprobante + debit_note_total";

/**
 * What is still due on a document where OWING_PREDICATE holds (so it is above zero): the SQL form of
 * app/domain/receivables.ts `amountDue`, for sums the database adds up (a test checks they agree).
 */
export const DUE_EXPRESSION = "total_comprobante + debit_note_total - payment_amount - credit_note_total";

const money = (name: string) => numeric(name, { precision: 18, scale: 5 });

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Issued documents (fe, te, nc, nd, fec) and quotations (qt). The dashboard reads id, company_id,
 * kind, client_id, status, issued_at, currency_id, exchange_rate, total_comprobante — keep them.
 * Totals are computed once at issue (app/domain/document-draft.ts → app/domain/totals.ts) and stored;
 * the signed XML is stored as bytes and submitted as is (docs/decisions/070).
 *
 * status: 'por enviar' | 'procesando' | 'aceptado' | 'rechazado' | 'no aplica' (quotations and
 * no_hacienda companies: no Hacienda status is shown).
 */
export const documents = pgTable(
  "documents",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    /** fe, te, nc, nd, fec, qt, … */
    kind: text("kind").notNull(),
    clientId: integer("client_id"),
    status: text("status").notNull().default("por enviar"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    currencyId: integer("currency_id").notNull().default(2),
    exchangeRate: money("exchange_rate").notNull().default("1"),
    totalComprobante: money("total_comprobante").notNull().default("0"),

    // Numbering
    branch: integer("branch"),
    terminal: integer("terminal"),
    /** Counter value (per company, branch, terminal, type). */
    number: bigint("number", { mode: "number" }),
    /** 20-digit NumeroConsecutivo (null for quotations). */
    consecutivo: text("consecutivo"),
    /** 50-character clave (null for quotations): Hacienda's idempotency key. */
    clave: text("clave"),
    /** 1 normal, 2 contingencia, 3 sin internet. */
    situacion: integer("situacion"),
    createdBy: integer("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),

    // Commercial terms
    saleCondition: text("sale_condition"),
    creditDays: integer("credit_days"),
    /** Due date (Costa Rica calendar day): issue day + credit days. */
    expirationDate: date("expiration_date"),
    payments: jsonb("payments"),
    note: text("note"),
    terms: text("terms"),
    emails: jsonb("emails"),
    /** The party on the other side as it was at issue (receiver; the provider for fec). */
    clientSnapshot: jsonb("client_snapshot"),
    /**
     * The company as it was at issue (the issuer of the XML; the receiver of a purchase invoice) and
     * its print format: what the PDF, the preview, the public page and the e-mails print
     * (docs/decisions/162). Null on documents issued before it was stored: their signed XML is read.
     */
    issuerSnapshot: jsonb("issuer_snapshot"),
    /** The draft as submitted (clone, replacement, recurring templates read it). */
    draft: jsonb("draft"),

    // Stored totals (5 decimals, as in the XML)
    subtotal: money("subtotal").notNull().default("0"),
    discount: money("discount").notNull().default("0"),
    tax: money("tax").notNull().default("0"),
    exonerated: money("exonerated").notNull().default("0"),
    ivaDevuelto: money("iva_devuelto").notNull().default("0"),
    otherCharges: money("other_charges").notNull().default("0"),
    /** Full ResumenFactura as computed (jsonb of strings). */
    totals: jsonb("totals"),
    /** Sum of payments received (payments screen adds to it). */
    paymentAmount: money("payment_amount").notNull().default("0"),
    /** Sum of accepted credit notes that reference this document (in its currency). */
    creditNoteTotal: money("credit_note_total").notNull().default("0"),
    /** Sum of accepted debit notes that reference this document (in its currency). */
    debitNoteTotal: money("debit_note_total").notNull().default("0"),

    // Hacienda
    signedXml: bytea("signed_xml"),
    responseXml: bytea("response_xml"),
    /** DetalleMensaje of the MensajeHacienda (plain Spanish reasons when rejected). */
    haciendaDetail: text("hacienda_detail"),
    haciendaMessage: text("hacienda_message"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    submitAttempts: integer("submit_attempts").notNull().default(0),
    lastError: text("last_error"),
    // The e-mail to the client and the notify list, sent by a job once Hacienda accepts.
    emailSentAt: timestamp("email_sent_at", { withTimezone: true }),
    emailSentTo: text("email_sent_to"),
    /** The last sending failure (plain Spanish); cleared when it is sent. */
    emailError: text("email_error"),
    /** Set while a sender is e-mailing the document (a lease, so two job runners never both send). */
    emailSendingAt: timestamp("email_sending_at", { withTimezone: true }),
    /** The form's payment-reminder checkbox (invoices): e-mailed once, the day after the due date. */
    remindPayment: boolean("remind_payment").notNull().default(false),
    remindersSent: integer("reminders_sent").notNull().default(0),
    lastReminderAt: timestamp("last_reminder_at", { withTimezone: true }),
    /** The rejected document this one replaces (InformacionReferencia 16). */
    replacesDocumentId: integer("replaces_document_id"),

    // Issued by a recurring document, once per period.
    recurringId: integer("recurring_id"),
    recurringPeriod: date("recurring_period"),

    /** An invoice converted from a quotation: that quotation (unique: a quotation converts once). */
    quotationId: integer("quotation_id"),
    /**
     * The integrator's own reference (API, plan 5): shown in the lists' 'N° de control' column and
     * filterable through the API. Not unique: an integrator may refer to one order from several documents.
     */
    controlNumber: text("control_number"),
    /** Soft delete (quotations): hidden from lists, the detail viewer and the forms. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * List search (docs/decisions/092, 098): accent-folded words of the client's name and
     * identification, the consecutive, the counter number, the clave and the status. Stored, so a
     * list page can test it row by row in issue order without computing it.
     */
    searchWords: tsvector("search_words").generatedAlwaysAs(
      sql`to_tsvector('simple'::regconfig, translate(lower(coalesce(client_snapshot->>'name', '') || ' ' || coalesce(client_snapshot->>'idNumber', '') || ' ' || coalesce(consecutivo, '') || ' ' || coalesce(number::text, '') || ' ' || coalesce(clave, '') || ' ' || status), 'áéíóúüñàèìòù@.', 'aeiouunaeiou  '))`,
    ),
  },
  (t) => [
    // Lists (db/queries/document-lists.ts, docs/decisions/092): newest first, ties by id.
    index("documents_company_kind_issued_idx").on(t.companyId, t.kind, t.issuedAt, t.id),
    // The aceptado / rechazado list filters: a page and its (capped) count read only matching rows.
    index("documents_company_kind_status_issued_idx").on(t.companyId, t.kind, t.status, t.issuedAt, t.id),
    // The pagado / no-pagado filters: two partial indexes, together the size of one. Their
    // predicates are OWING_PREDICATE (nothing due / something due, app/domain/receivables.ts).
    index("documents_paid_issued_idx").on(t.companyId, t.kind, t.issuedAt, t.id).where(sql.raw(`not (${OWING_PREDICATE})`)),
    index("documents_unpaid_issued_idx").on(t.companyId, t.kind, t.issuedAt, t.id).where(sql.raw(OWING_PREDICATE)),
    // List search (docs/decisions/092, 098): whole words and beginnings.
    index("documents_search_words_idx").using("gin", t.searchWords).with({ fastupdate: false }),
    index("documents_client_idx").on(t.companyId, t.clientId),
    // The reports' month of documents (db/queries/reports.ts: the items report and the IVA summary
    // look up each document's lines and convert with its rate): the documents that count, with what
    // those reports read of them, so PostgreSQL reads this index alone instead of a heap page for
    // every dozen documents (decision 151).
    index("documents_report_idx")
      .on(t.companyId, t.kind, t.issuedAt, t.id, t.currencyId, t.exchangeRate, t.ivaDevuelto)
      .where(sql`deleted_at is null and status <> 'rechazado'`),
    // The API's document list without a kind (newest first, cursor on issued_at and id).
    index("documents_company_issued_idx").on(t.companyId, t.issuedAt, t.id),
    index("documents_control_number_idx").on(t.companyId, t.controlNumber).where(sql`control_number is not null`),
    uniqueIndex("documents_clave_uq").on(t.clave),
    uniqueIndex("documents_number_uq").on(t.companyId, t.kind, t.branch, t.terminal, t.number),
    uniqueIndex("documents_recurring_period_uq").on(t.recurringId, t.recurringPeriod),
    // Payment reminders still to send (app/server/payment-reminders.server.ts), by due date.
    index("documents_reminders_due_idx").on(t.expirationDate).where(sql`remind_payment and reminders_sent = 0`),
    uniqueIndex("documents_quotation_uq").on(t.quotationId),
    // Accepted documents whose e-mail failed and that have recipients: the sweep re-queues them
    // (app/server/hacienda-pipeline.server.ts, docs/decisions/100).
    index("documents_email_retry_idx").on(t.id).where(sql.raw(EMAIL_RETRY_PREDICATE)),
    index("documents_pending_idx")
      .on(t.companyId, t.status)
      .where(sql`status in ('por enviar', 'procesando')`),
    // A list's capped count (db/queries/document-lists.ts): up to COUNT_AHEAD rows read from the index
    // alone. The index above also holds deleted quotations, so the count visited the table for each
    // row: 33 ms for a busy company's tickets, 1.9 ms with this one (decision 156).
    index("documents_live_kind_issued_idx").on(t.companyId, t.kind, t.issuedAt, t.id).where(sql`deleted_at is null`),
    // The receivables of a page of clients (db/queries/clients.ts clientBalances, the account
    // statement): only their live invoices with something due, not every document of each client
    // (1,000,000 documents: 2.1–2.3 → 1.05–1.14 ms for a page of ten; decision 148).
    index("documents_owing_client_idx").on(t.companyId, t.clientId).where(sql.raw(`kind = 'fe' and deleted_at is null and ${OWING_PREDICATE}`)),
  ],
);

/**
 * Issued documents added up per company, Costa Rica day, kind and whether Hacienda rejected them:
 * how many and their total in colones (total_comprobante × exchange_rate, unrounded). Kept by the
 * database (triggers on documents, migration 0029, decision 156), so the dashboard's seven months and
 * the companies list's documents of the year read a few hundred rows instead of every document.
 */
export const documentDays = pgTable(
  "document_days",
  {
    companyId: integer("company_id").notNull(),
    day: date("day").notNull(),
    kind: text("kind").notNull(),
    rejected: boolean("rejected").notNull(),
    documents: integer("documents").notNull(),
    totalCrc: numeric("total_crc").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.kind, t.rejected] })],
);

/**
 * How many documents of a company wait for Hacienda, by state ('por enviar', 'procesando'): the
 * pending banner of the document lists and the dashboard (pendingOf, read with the session). Kept by
 * the database (triggers on documents, migration pending_documents_triggers, decision 158); a state
 * without documents has no row.
 */
export const pendingDocuments = pgTable(
  "pending_documents",
  {
    companyId: integer("company_id").notNull(),
    status: text("status").notNull(),
    documents: integer("documents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.status] })],
);

/**
 * Live documents (deleted_at null) per company and kind: the total of a document list without search,
 * filter or client (db/queries/document-lists.ts), read from a row per kind instead of counted in the
 * index on every page (docs/decisions/200). Kept by the database (triggers on documents, migration
 * document_counts_triggers); a kind without live documents has no row.
 */
export const documentCounts = pgTable(
  "document_counts",
  {
    companyId: integer("company_id").notNull(),
    kind: text("kind").notNull(),
    documents: integer("documents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind] })],
);

/**
 * A number that changes whenever the company's figures of the dashboard may have changed: every
 * change of its rows in document_days, expense_days, received_expense_days or expense_categories
 * adds one (triggers, migration document_counts_triggers). The dashboard keeps the figures it read
 * with the number it read them at, and reads them again only when the number has moved
 * (app/server/dashboard-figures.server.ts, docs/decisions/200). A company whose figures never
 * changed has no row (number 0).
 */
export const figuresVersions = pgTable("figures_versions", {
  companyId: integer("company_id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull(),
});

export const documentLines = pgTable(
  "document_lines",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    itemId: integer("item_id"),
    code: text("code"),
    cabys: text("cabys"),
    description: text("description").notNull(),
    quantity: numeric("quantity", { precision: 16, scale: 3 }).notNull(),
    unit: text("unit").notNull(),
    unitPrice: money("unit_price").notNull(),
    discountPercent: numeric("discount_percent", { precision: 8, scale: 5 }).notNull().default("0"),
    taxCode: text("tax_code"),
    tarifaCode: text("tarifa_code"),
    taxRate: numeric("tax_rate", { precision: 8, scale: 5 }).notNull().default("0"),
    exoneration: jsonb("exoneration"),
    subtotal: money("subtotal").notNull(),
    discount: money("discount").notNull(),
    tax: money("tax").notNull(),
    exonerated: money("exonerated").notNull(),
    total: money("total").notNull(),
  },
  (t) => [index("document_lines_document_idx").on(t.documentId, t.position)],
);

export const documentReferences = pgTable(
  "document_references",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    /** Our own referenced document, when it is one. */
    referencedDocumentId: integer("referenced_document_id"),
    /** TipoDocIR (Nota 10). */
    docType: text("doc_type").notNull(),
    /** Clave or number of the referenced document. */
    number: text("number"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /** Codigo (Nota 9). */
    code: text("code"),
    reason: text("reason"),
  },
  (t) => [index("document_references_document_idx").on(t.documentId), index("document_references_referenced_idx").on(t.companyId, t.referencedDocumentId)],
);

/**
 * Recurring invoices: a template draft that issues a real document once per period. next_send_date
 * advances in the same transaction as the issue (conditional UPDATE), and documents has a unique
 * (recurring_id, recurring_period): exactly once even with two job processes (docs/decisions/072).
 */
export const recurringDocuments = pgTable(
  "recurring_documents",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    /** Kind issued each period: fe, te or qt. */
    kind: text("kind").notNull(),
    clientId: integer("client_id"),
    createdBy: integer("created_by"),
    draft: jsonb("draft").notNull(),
    startDay: date("start_day").notNull(),
    /** weekly | biweekly (15 days) | monthly | quarterly | yearly | days | weeks | months | years */
    cycle: text("cycle").notNull(),
    /** For the custom cycles: every N units (≥ 1). */
    every: integer("every").notNull().default(1),
    nextSendDate: date("next_send_date").notNull(),
    lastSentDate: date("last_sent_date"),
    paused: boolean("paused").notNull().default(false),
    lastError: text("last_error"),
    /** The company's recurring consecutive (counter 'fr'), shown as Número. */
    number: integer("number"),
    /** Totals of the template as last saved (the list shows them; each issue computes its own). */
    currency: text("currency").notNull().default("CRC"),
    subtotal: money("subtotal").notNull().default("0"),
    discount: money("discount").notNull().default("0"),
    tax: money("tax").notNull().default("0"),
    total: money("total").notNull().default("0"),
    /** The form's payment-reminder checkbox (spec part 2 §2: invoices and recurring). */
    remindPayment: boolean("remind_payment").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("recurring_documents_due_idx").on(t.nextSendDate).where(sql`not paused and deleted_at is null`), index("recurring_documents_company_idx").on(t.companyId)],
);
