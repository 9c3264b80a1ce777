import { index, integer, pgTable, primaryKey, serial, text, timestamp, bigint, boolean, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";

/** Hacienda access and signing key of a company. Secrets are AES-256-GCM boxes (app/server/secrets.server.ts). */
export const haciendaConfigs = pgTable("hacienda_configs", {
  companyId: integer("company_id")
    .primaryKey()
    .references(() => companies.id),
  /** 'sandbox' (local simulator), 'staging' or 'production'. */
  environment: text("environment").notNull().default("staging"),
  /** Base URL of the local sandbox when environment = 'sandbox'. */
  sandboxUrl: text("sandbox_url"),
  branch: integer("branch").notNull().default(1),
  terminal: integer("terminal").notNull().default(1),
  username: text("username"),
  passwordEnc: text("password_enc"),
  pinEnc: text("pin_enc"),
  keyEnc: text("key_enc"),
  keyFilename: text("key_filename"),
  keySubject: text("key_subject"),
  keyCedula: text("key_cedula"),
  keyNotBefore: timestamp("key_not_before", { withTimezone: true }),
  keyNotAfter: timestamp("key_not_after", { withTimezone: true }),
  emailRejection: text("email_rejection"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The next consecutive number per company, branch, terminal and document type (01 FE … 10 REP, and
 * 'qt' for quotations). Issuing takes it with UPDATE … RETURNING in the issuing transaction.
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    branch: integer("branch").notNull().default(1),
    terminal: integer("terminal").notNull().default(1),
    docType: text("doc_type").notNull(),
    nextNumber: bigint("next_number", { mode: "number" }).notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.branch, t.terminal, t.docType] })],
);

/** Outgoing SMTP server ('outgoing') and reception mailbox ('reception') of a company. */
export const emailConfigs = pgTable(
  "email_configs",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    kind: text("kind").notNull(),
    protocol: text("protocol").notNull().default("smtp"),
    encryption: text("encryption"),
    host: text("host").notNull(),
    port: integer("port").notNull(),
    username: text("username").notNull(),
    passwordEnc: text("password_enc").notNull(),
    fromEmail: text("from_email"),
    fromName: text("from_name"),
    active: boolean("active").notNull().default(true),
  },
  (t) => [index("email_configs_company_idx").on(t.companyId, t.kind)],
);

export const emailTemplates = pgTable(
  "email_templates",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    /** invoice, ticket, note, quotation, purchase, payment_reminder, account_statement … */
    type: text("type").notNull(),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
  },
  (t) => [index("email_templates_company_idx").on(t.companyId, t.type)],
);

export const terms = pgTable(
  "terms",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    body: text("body").notNull(),
  },
  (t) => [index("terms_company_idx").on(t.companyId)],
);

/**
 * A company's own credit terms ('Nuevo plazo' on the document form), offered beside Hacienda's
 * usual ones (reference data paymentTerms). One per number of days.
 */
export const paymentTerms = pgTable(
  "payment_terms",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    days: integer("days").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_terms_company_days_idx").on(t.companyId, t.days)],
);

