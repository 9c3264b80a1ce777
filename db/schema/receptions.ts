import { sql } from "drizzle-orm";
import { bigint, customType, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { bytea, companies } from "./companies.ts";
import { expenseCategories } from "./expenses.ts";

const money = (name: string) => numeric(name, { precision: 18, scale: 5 });
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Documents suppliers sent to the company (spec part 2 §3 Received document; DESIGN §5;
 * docs/decisions/170). One row per company and clave. The supplier's XML is kept byte for byte
 * (upload_xml), with its MensajeHacienda when we have it (issuer_response_xml); the
 * MensajeReceptor we send (send_xml, signed) and Hacienda's answer to it (response_xml) too.
 *
 * message: the acceptance condition — 4 pending, 1 aceptado, 2 aceptado parcialmente, 3 rechazado.
 * issuer_status: Hacienda's verdict on the supplier's document — 'aceptado', 'rechazado' or null
 *   (not known yet: asked by the jobs).
 * status: our MensajeReceptor — 'pendiente' (not processed), 'esperando' (processed, waiting for
 *   Hacienda's verdict on the supplier's document), 'por enviar', 'procesando', 'aceptado',
 *   'rechazado', 'no enviado' (Hacienda rejected the supplier's document: no message is sent).
 */
export const receivedDocuments = pgTable(
  "received_documents",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    clave: text("clave").notNull(),
    /** FE, NC or ND (ReceivedKind of app/hacienda/parse.ts). */
    kind: text("kind").notNull(),
    /** 4.2, 4.3 or 4.4. */
    version: text("version").notNull(),
    /** NumeroConsecutivo of the supplier's document. */
    consecutive: text("consecutive"),
    /** FechaEmision of the supplier's document. */
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    issuerName: text("issuer_name").notNull(),
    issuerIdType: text("issuer_id_type"),
    issuerId: text("issuer_id").notNull(),
    receiverName: text("receiver_name"),
    receiverId: text("receiver_id"),
    /** ISO code as written in the XML (CRC, USD, EUR …) and its TipoCambio. */
    currency: text("currency").notNull().default("CRC"),
    exchangeRate: money("exchange_rate").notNull().default("1"),
    subtotal: money("subtotal").notNull().default("0"),
    discount: money("discount").notNull().default("0"),
    tax: money("tax").notNull().default("0"),
    ivaDevuelto: money("iva_devuelto").notNull().default("0"),
    exonerated: money("exonerated").notNull().default("0"),
    otherCharges: money("other_charges").notNull().default("0"),
    total: money("total").notNull().default("0"),
    lineCount: integer("line_count").notNull().default(0),
    /** The spec's `data`: issuer and receiver as written, sale condition, activity codes. */
    data: jsonb("data"),

    /** 'upload' or 'email'. */
    source: text("source").notNull(),
    uploadFilename: text("upload_filename"),
    uploadXml: bytea("upload_xml").notNull(),
    issuerResponseXml: bytea("issuer_response_xml"),
    issuerStatus: text("issuer_status"),
    issuerDetail: text("issuer_detail"),
    issuerCheckedAt: timestamp("issuer_checked_at", { withTimezone: true }),

    // The acceptance (Reception form).
    message: smallint("message").notNull().default(4),
    messageDetail: text("message_detail"),
    expenseCategoryId: integer("expense_category_id").references(() => expenseCategories.id),
    /** CondicionImpuesto 01–05. */
    taxCondition: text("tax_condition"),
    creditableTax: money("creditable_tax"),
    applicableExpense: money("applicable_expense"),
    /**
     * As an expense (the view received_expenses, decision 176; the expenses report and the dashboard
     * through expenseDaysSql): its amount in colones rounded to céntimos — the applicable expense
     * of its MensajeReceptor, else the total less the creditable tax, × its TipoCambio, a credit note
     * negative — and its Costa Rica day. Kept by the database (decision 194): a year's expenses are
     * read from received_documents_expenses_idx alone, without converting each document again.
     */
    expenseCrc: numeric("expense_crc").generatedAlwaysAs(
      sql`round(case when kind = 'NC' then -1 else 1 end * coalesce(applicable_expense, total - coalesce(creditable_tax, 0)) * exchange_rate, 2)`,
    ),
    expenseDay: date("expense_day").generatedAlwaysAs(sql`(issued_at at time zone 'America/Costa_Rica')::date`),
    /** Last day (Costa Rica calendar) to send a rejection: app/domain/reception-deadline.ts (decision 172). */
    rejectDeadline: date("reject_deadline").notNull(),
    /** When the company was e-mailed that the deadline is near (once). */
    deadlineWarnedAt: timestamp("deadline_warned_at", { withTimezone: true }),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    processedBy: integer("processed_by"),

    // Our MensajeReceptor (numbered with the company's CCE/CPCE/RCE counters: 05/06/07).
    status: text("status").notNull().default("pendiente"),
    branch: integer("branch"),
    terminal: integer("terminal"),
    messageDocType: text("message_doc_type"),
    messageNumber: bigint("message_number", { mode: "number" }),
    messageConsecutive: text("message_consecutive"),
    messageIssuedAt: timestamp("message_issued_at", { withTimezone: true }),
    sendXml: bytea("send_xml"),
    responseXml: bytea("response_xml"),
    haciendaDetail: text("hacienda_detail"),
    haciendaMessage: text("hacienda_message"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    submitAttempts: integer("submit_attempts").notNull().default(0),
    lastError: text("last_error"),

    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer("created_by"),
    /** List search: accent-folded words of the issuer's name and identification, the clave and consecutive. */
    searchWords: tsvector("search_words").generatedAlwaysAs(
      sql`to_tsvector('simple'::regconfig, translate(lower(issuer_name || ' ' || issuer_id || ' ' || clave || ' ' || coalesce(consecutive, '')), 'áéíóúüñàèìòù@.,', 'aeiouunaeiou   '))`,
    ),
  },
  (t) => [
    uniqueIndex("received_documents_company_clave_uq").on(t.companyId, t.clave),
    // The list (db/queries/receptions.ts): a month of the company, newest first, ties by id.
    index("received_documents_company_issued_idx").on(t.companyId, t.issuedAt, t.id),
    index("received_documents_company_message_issued_idx").on(t.companyId, t.message, t.issuedAt, t.id),
    index("received_documents_search_words_idx").using("gin", t.searchWords).with({ fastupdate: false }),
    // Pending documents by deadline (dashboard, list banner, deadline warnings).
    index("received_documents_pending_deadline_idx").on(t.companyId, t.rejectDeadline).where(sql`message = 4`),
    // The jobs' safety net: messages waiting, to send or being answered.
    index("received_documents_pipeline_idx").on(t.status).where(sql`status in ('esperando', 'por enviar', 'procesando')`),
    // The received documents that are expenses (the view received_expenses: a category, accepted, the
    // message not rejected by Hacienda): the expenses report and the dashboard read a company's range
    // of days of them here, with each one's category and amount, without the table (decisions 151, 194).
    index("received_documents_expenses_idx")
      .on(t.companyId, t.expenseDay, t.expenseCategoryId, t.expenseCrc)
      .where(sql`expense_category_id is not null and message in (1, 2) and status not in ('rechazado', 'no enviado')`),
    // Gapless, unique message numbers per counter.
    uniqueIndex("received_documents_message_number_uq").on(t.companyId, t.branch, t.terminal, t.messageDocType, t.messageNumber),
  ],
);

/**
 * Each received document's IVA by tariff (docs/decisions/193): one row per element of its
 * `data.IvaPorTarifa` (`ordinal`, from 1), or one row without a tariff (`ordinal` 0) for a document
 * stored without that breakdown — base subtotal − discount, its tax. `base` and `tax` as the
 * document states them, in its currency; `base_crc`, `tax_crc` and `creditable_crc` (the creditable
 * IVA of its MensajeReceptor, shared among its tariffs in proportion to their IVA) in colones with its
 * TipoCambio, signed (a credit note negative), rounded half-up to céntimos per document and tariff:
 * the IVA summary's purchases add them up. `issued_at`, `message` and `status` are the document's,
 * for the month and the acceptance (ACCEPTED_RECEIVED).
 *
 * Written only by the database: the triggers of received_documents (custom migration
 * `received_document_tariffs_backfill`) rewrite a document's rows in the same transaction whenever it
 * is stored or one of the columns they are computed from changes; they go with it when it is deleted.
 */
export const receivedDocumentTariffs = pgTable(
  "received_document_tariffs",
  {
    receivedDocumentId: integer("received_document_id")
      .notNull()
      .references(() => receivedDocuments.id, { onDelete: "cascade" }),
    ordinal: integer("ordinal").notNull(),
    companyId: integer("company_id").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    message: smallint("message").notNull(),
    status: text("status").notNull(),
    /** CodigoTarifaIVA (Nota 8.1), null: no breakdown by tariff. */
    tarifaCode: text("tarifa_code"),
    base: numeric("base").notNull(),
    tax: numeric("tax").notNull(),
    baseCrc: numeric("base_crc").notNull(),
    taxCrc: numeric("tax_crc").notNull(),
    creditableCrc: numeric("creditable_crc").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.receivedDocumentId, t.ordinal] }),
    // The IVA summary's purchases: a company's month of accepted documents, read from the index alone.
    index("received_document_tariffs_month_idx")
      .on(t.companyId, t.issuedAt, t.tarifaCode, t.baseCrc, t.taxCrc, t.creditableCrc)
      .where(sql`message in (1, 2) and status not in ('rechazado', 'no enviado')`),
  ],
);

/**
 * The company's reception mailbox as the jobs read it (docs/decisions/175): the IMAP UIDVALIDITY
 * and the highest UID already handled, so a message is never ingested twice; and counters shown on
 * the configuration screen.
 */
export const receptionMailboxes = pgTable("reception_mailboxes", {
  companyId: integer("company_id")
    .primaryKey()
    .references(() => companies.id),
  uidValidity: bigint("uid_validity", { mode: "number" }),
  lastUid: bigint("last_uid", { mode: "number" }).notNull().default(0),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }),
  lastError: text("last_error"),
  messagesRead: integer("messages_read").notNull().default(0),
  documentsIngested: integer("documents_ingested").notNull().default(0),
  messagesWithoutDocument: integer("messages_without_document").notNull().default(0),
});

/**
 * Defaults applied to documents that arrive by e-mail (and prefilled in the upload form): the tax
 * condition and expense category (docs/decisions/175).
 */
export const receptionSettings = pgTable("reception_settings", {
  companyId: integer("company_id")
    .primaryKey()
    .references(() => companies.id),
  taxCondition: text("tax_condition").notNull().default("01"),
  expenseCategoryId: integer("expense_category_id").references(() => expenseCategories.id),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Files of an upload form kept while the user creates a category without JavaScript ('Nueva'), so
 * the chosen XML is not lost (decision 171). Kept one hour.
 */
export const receptionUploadStash = pgTable(
  "reception_upload_stash",
  {
    id: serial("id").primaryKey(),
    token: text("token").notNull(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    userId: integer("user_id").notNull(),
    position: integer("position").notNull(),
    filename: text("filename").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reception_upload_stash_token_idx").on(t.token), index("reception_upload_stash_created_idx").on(t.createdAt)],
);

/**
 * Received documents counted as expenses (accepted, with a category: the view received_expenses,
 * decision 176), added up per company, Costa Rica day and category: how many and their amount in
 * colones (the sum of expense_crc, already rounded per document). Kept by the database (deferred
 * triggers on received_documents, migration 0031, decision 156), so the dashboard's seven months and
 * the expenses report read a few rows per day instead of every document.
 */
export const receivedExpenseDays = pgTable(
  "received_expense_days",
  {
    companyId: integer("company_id").notNull(),
    day: date("day").notNull(),
    categoryId: integer("category_id").notNull(),
    documents: integer("documents").notNull(),
    amountCrc: numeric("amount_crc").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.categoryId] })],
);

/**
 * How many received documents of a company wait for its acceptance or rejection (message 4), by the
 * last day to reject them: the deadline banner of the dashboard and of the reception list
 * (pendingDeadlines). Kept by the database (triggers on received_documents, migration
 * pending_receptions_triggers, decision 158); a day without pending documents has no row.
 */
export const pendingReceptions = pgTable(
  "pending_receptions",
  {
    companyId: integer("company_id").notNull(),
    rejectDeadline: date("reject_deadline").notNull(),
    documents: integer("documents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.rejectDeadline] })],
);

/**
 * Received documents per company and Costa Rica day (expense_day, the day the list's range is in):
 * the total of the received-documents list without a filter or search (db/queries/receptions.ts
 * receptionList), added up from a month's rows instead of counted from the documents on every page,
 * as expense_counts for the expenses list. Every received document counts, whatever its acceptance.
 * Kept by the database (deferred triggers on received_documents, migration reception_days_triggers);
 * a day without documents has no row.
 */
export const receptionDays = pgTable(
  "reception_days",
  {
    companyId: integer("company_id").notNull(),
    day: date("day").notNull(),
    documents: integer("documents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);
