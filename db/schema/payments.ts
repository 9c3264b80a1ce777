import { sql } from "drizzle-orm";
import { date, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";
import { documents } from "./documents.ts";

/**
 * The company's banks (spec part 2 §3 Bank: id, name, company_id), offered in the payment form's
 * bank select. A name is unique per company, ignoring case and surrounding spaces.
 */
export const banks = pgTable(
  "banks",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("banks_company_name_uq").on(t.companyId, sql`lower(${t.name})`)],
);

/**
 * Payments received against a document (spec part 2 §3 Payment; docs/decisions/095-payments.md).
 * Always in the document's own currency and exchange rate; the document's payment_amount is the sum
 * of its live payments, kept in the same transaction (app/server/payments.server.ts). Deleting a
 * payment is a soft delete that subtracts it back.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    documentId: integer("document_id")
      .notNull()
      .references(() => documents.id),
    /** Forma de pago: a TipoMedioPago code (db/seed/reference-data.ts paymentMethods), e.g. '01' Efectivo. */
    paymentForm: text("payment_form").notNull(),
    /** The day of the payment (Costa Rica calendar). */
    paidOn: date("paid_on").notNull(),
    amount: numeric("amount", { precision: 18, scale: 5 }).notNull(),
    currencyId: integer("currency_id").notNull(),
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 5 }).notNull(),
    description: text("description").notNull(),
    reference: text("reference"),
    bankId: integer("bank_id").references(() => banks.id),
    /**
     * The Recibo Electrónico de Pago issued with this payment (a documents row of kind 'rep') when the
     * invoice's sale condition requires one (08, 10: docs/decisions/135-rep-on-payments.md).
     */
    repDocumentId: integer("rep_document_id").references(() => documents.id),
    /** Why no REP was issued although the sale condition asks for one (plain Spanish), else null. */
    repNote: text("rep_note"),
    createdBy: integer("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedBy: integer("deleted_by"),
  },
  (t) => [
    // The list: newest payment day first, ties by id.
    index("payments_company_paid_idx").on(t.companyId, t.paidOn, t.id).where(sql`deleted_at is null`),
    index("payments_document_idx").on(t.documentId),
  ],
);
