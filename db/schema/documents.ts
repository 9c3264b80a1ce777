import { index, integer, numeric, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";

/**
 * Issued documents. The foundation only needs what the dashboard and the company list count;
 * the issuing work extends this table.
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
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 5 }).notNull().default("1"),
    totalComprobante: numeric("total_comprobante", { precision: 18, scale: 5 }).notNull().default("0"),
  },
  (t) => [index("documents_company_kind_issued_idx").on(t.companyId, t.kind, t.issuedAt), index("documents_client_idx").on(t.companyId, t.clientId)],
);

export const expenses = pgTable(
  "expenses",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    spentAt: timestamp("spent_at", { withTimezone: true }).notNull(),
    currencyId: integer("currency_id").notNull().default(2),
    exchangeRate: numeric("exchange_rate", { precision: 18, scale: 5 }).notNull().default("1"),
    total: numeric("total", { precision: 18, scale: 5 }).notNull(),
  },
  (t) => [index("expenses_company_spent_idx").on(t.companyId, t.spentAt)],
);
