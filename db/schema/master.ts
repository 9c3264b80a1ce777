import { sql } from "drizzle-orm";
import { boolean, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";

/** Clients and providers (provider = true) of a company; each company has one generic client for tickets. */
export const clients = pgTable(
  "clients",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    comercialName: text("comercial_name"),
    identificationTypeId: integer("identification_type_id").notNull(),
    identification: text("identification").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    address: text("address").notNull(),
    countryId: integer("country_id").notNull().default(60),
    provinceNumber: integer("province_number"),
    cantonNumber: integer("canton_number"),
    districtNumber: integer("district_number"),
    barrio: text("barrio"),
    economicActivityCode: text("economic_activity_code"),
    economicActivityName: text("economic_activity_name"),
    foundCompanyName: text("found_company_name"),
    foundRegimen: text("found_regimen"),
    provider: boolean("provider").notNull().default(false),
    generic: boolean("generic").notNull().default(false),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("clients_company_list_idx").on(t.companyId, t.provider, t.active, t.name),
    index("clients_company_identification_idx").on(t.companyId, t.identification),
    // List search (db/queries/clients.ts, docs/decisions/041): accent-folded words of name,
    // identification and e-mail (split at @ and .), prefix matching with :*.
    index("clients_search_words_idx")
      .using(
        "gin",
        sql`to_tsvector('simple'::regconfig, translate(lower(${t.name} || ' ' || ${t.identification} || ' ' || ${t.email}), 'áéíóúüñàèìòù@.', 'aeiouunaeiou  '))`,
      )
      .with({ fastupdate: false }),
  ],
);

/**
 * Live clients (deleted_at null) per company, provider or client, and active or not: the total of a
 * clients or providers list without a search (db/queries/clients.ts clientsPage), read from a row or
 * two instead of counted on every page (docs/decisions/200). Kept by the database (triggers on
 * clients, migration client_counts_triggers); a group without live clients has no row.
 */
export const clientCounts = pgTable(
  "client_counts",
  {
    companyId: integer("company_id").notNull(),
    provider: boolean("provider").notNull(),
    active: boolean("active").notNull(),
    clients: integer("clients").notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.provider, t.active] })],
);

export const clientContacts = pgTable(
  "client_contacts",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id").notNull(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    name: text("name"),
    email: text("email"),
    workstation: text("workstation"),
    sendCopyEmailInvoices: boolean("send_copy_email_invoices").notNull().default(false),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("client_contacts_client_idx").on(t.clientId)],
);

/** Students (school plan), each with a representative client. */
export const students = pgTable(
  "students",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id),
    name: text("name").notNull(),
    surname: text("surname").notNull(),
    identification: text("identification"),
    email: text("email"),
    phone: text("phone"),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("students_company_idx").on(t.companyId, t.name)],
);

export const items = pgTable(
  "items",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    code: text("code").notNull(),
    cabysCode: text("cabys_code"),
    name: text("name").notNull(),
    description: text("description").notNull(),
    categoryId: integer("category_id").notNull(),
    unitCode: text("unit_code").notNull(),
    taxTypeId: integer("tax_type_id").notNull(),
    currencyId: integer("currency_id").notNull().default(2),
    price: numeric("price", { precision: 18, scale: 5 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("items_company_name_idx").on(t.companyId, t.name)],
);

/** The CABYS catalogue (BCCR), shared by every company. */
export const cabysCodes = pgTable(
  "cabys_codes",
  {
    code: text("code").primaryKey(),
    description: text("description").notNull(),
    /** VAT rate in percent ("13", "0"...). */
    taxRate: numeric("tax_rate", { precision: 7, scale: 4 }).notNull(),
    /** Category descriptions 1–8 joined with " > ", for search context. */
    categories: text("categories"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("cabys_description_idx").on(sql`lower(${t.description})`),
    // Word search (db/queries/cabys.ts, docs/decisions/051): accent-folded words, prefix matching with :*.
    index("cabys_description_words_idx").using("gin", sql`to_tsvector('simple'::regconfig, translate(lower(${t.description}), 'áéíóúüñàèìòù', 'aeiouunaeiou'))`)
      // Without the pending list a bulk import leaves the index ready to search (no slow scans until vacuum).
      .with({ fastupdate: false }),
  ],
);

/** Economic activity catalogue (importable), shared by every company. */
export const economicActivities = pgTable("economic_activities", {
  code: text("code").primaryKey(),
  description: text("description").notNull(),
});

/** Dated exchange rates (colones per unit of the currency), from Hacienda's indicadores. */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    currencyCode: text("currency_code").notNull(),
    /** Costa Rica calendar date, YYYY-MM-DD. */
    rateDate: text("rate_date").notNull(),
    buy: numeric("buy", { precision: 18, scale: 5 }).notNull(),
    sell: numeric("sell", { precision: 18, scale: 5 }).notNull(),
    source: text("source").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.currencyCode, t.rateDate] })],
);

/** The company's 'Lista de IVA'. */
export const taxTypes = pgTable(
  "tax_types",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id),
    name: text("name").notNull(),
    rate: numeric("rate", { precision: 7, scale: 4 }).notNull(),
    /** Hacienda Impuesto/Codigo (01 IVA …). */
    taxCode: text("tax_code").notNull().default("01"),
    /** Hacienda CodigoTarifaIVA (01–11). */
    vatCode: text("vat_code").notNull(),
  },
  (t) => [index("tax_types_company_idx").on(t.companyId)],
);

