import { sql } from "drizzle-orm";
import { check, date, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";

/**
 * Expense categories of a company (spec part 2 §3 Expense category: company_id, name). A name is
 * unique per company, ignoring case. Received documents (reception) take a category too.
 */
export const expenseCategories = pgTable(
  "expense_categories",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("expense_categories_company_name_uq").on(t.companyId, sql`lower(${t.name})`)],
);

/**
 * A company's own payment methods for expenses (spec part 2 §3 Payment method: company_id, name,
 * code; "custom ones editable"), offered after Hacienda's TipoMedioPago list (Efectivo, Tarjeta…).
 */
export const expensePaymentMethods = pgTable(
  "expense_payment_methods",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    code: text("code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("expense_payment_methods_company_name_uq").on(t.companyId, sql`lower(${t.name})`)],
);

/**
 * The receipt of an expense (a photo or a PDF), stored as a file under DATA_DIR with a generated
 * name (app/server/expense-files.server.ts). A row without expense yet is an upload kept while the
 * form is being filled in (a failed submission, the new-category dialog); old ones are swept.
 */
export const expenseAttachments = pgTable(
  "expense_attachments",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    /** Generated file name (random hex and the extension of its type): never what the user sent. */
    storedName: text("stored_name").notNull(),
    /** The name the file had on the user's computer (shown, and offered on download). */
    originalName: text("original_name").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    createdBy: integer("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("expense_attachments_stored_name_uq").on(t.storedName), index("expense_attachments_company_idx").on(t.companyId, t.createdAt)],
);

/**
 * Expenses (spec part 2 §3 Expense: date, description, amount, currency, reference, category,
 * payment_method, file). The amount is in its own currency; exchange_rate is colones per dollar (1
 * for colones), so amount × exchange_rate is the amount in colones (reports and dashboard).
 * Deleting is a soft delete (deleted_at): the receipt is kept.
 */
export const expenses = pgTable(
  "expenses",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    /** The day of the expense (Costa Rica calendar, yyyy-MM-dd). */
    spentOn: date("spent_on").notNull(),
    description: text("description").notNull(),
    currencyId: integer("currency_id").notNull().default(2),
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 5 }).notNull().default("1"),
    amount: numeric("amount", { precision: 18, scale: 5 }).notNull(),
    reference: text("reference"),
    categoryId: integer("category_id")
      .notNull()
      .references(() => expenseCategories.id),
    /** Hacienda's TipoMedioPago code ('01' Efectivo …), or null when a custom method is chosen. */
    paymentMethodCode: text("payment_method_code"),
    paymentMethodId: integer("payment_method_id").references(() => expensePaymentMethods.id),
    attachmentId: integer("attachment_id").references(() => expenseAttachments.id),
    createdBy: integer("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedBy: integer("deleted_by"),
  },
  (t) => [
    // The list (newest day first) and the reports and dashboard (a month or a year of days).
    index("expenses_company_spent_idx").on(t.companyId, t.spentOn, t.id).where(sql`deleted_at is null`),
    check("expenses_one_payment_method", sql`(payment_method_code is null) <> (payment_method_id is null)`),
  ],
);

/**
 * The company's own live expenses (not deleted) added up per company, Costa Rica day (spent_on) and
 * category: how many and their amount in colones (each expense's amount × its own rate when in
 * dollars, rounded to céntimos before adding: expenseDaysSql's `colones`). Kept by the database
 * (deferred triggers on expenses, migration expense_days_triggers, decision 159), so the dashboard's
 * seven months and the expenses report read a few rows per day instead of every expense; a day and
 * category without live expenses has no row.
 */
export const expenseDays = pgTable(
  "expense_days",
  {
    companyId: integer("company_id").notNull(),
    day: date("day").notNull(),
    categoryId: integer("category_id").notNull(),
    expenses: integer("expenses").notNull(),
    amountCrc: numeric("amount_crc").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.categoryId] })],
);

/**
 * Live expenses (deleted_at null) per company: the total of the expenses list without a search
 * (db/queries/expenses.ts expensesPage), read from one row instead of counted on every page, as
 * client_counts for the clients lists (docs/decisions/200). Kept by the database (deferred triggers
 * on expenses, migration expense_counts_triggers); a company without live expenses has no row.
 */
export const expenseCounts = pgTable("expense_counts", {
  companyId: integer("company_id").notNull().primaryKey(),
  expenses: integer("expenses").notNull(),
});
