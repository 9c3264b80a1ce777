import { sql } from "drizzle-orm";
import { boolean, customType, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const companies = pgTable(
  "companies",
  {
    id: serial("id").primaryKey(),
    /** The user who created the company (the company's administrator). */
    userId: integer("user_id"),
    name: text("name").notNull(),
    fantasyName: text("fantasy_name"),
    identificationTypeId: integer("identification_type_id").notNull(),
    identification: text("identification").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    countryId: integer("country_id").notNull().default(60),
    provinceNumber: integer("province_number"),
    cantonNumber: integer("canton_number"),
    districtNumber: integer("district_number"),
    otherSigns: text("other_signs"),
    economicActivityCode: text("economic_activity_code"),
    economicActivityName: text("economic_activity_name"),
    logo: bytea("logo"),
    logoMime: text("logo_mime"),
    /** Only shown to the super-admin account. */
    database: text("database"),
    /** Plan: 1 full, 2 reception only, 3 school, 4 "100 annual", 5 API. */
    permission: integer("permission").notNull().default(1),
    noHacienda: boolean("no_hacienda").notNull().default(false),
    invoiceFormat: text("invoice_format").notNull().default("1"),
    usernameApi: text("username_api"),
    passwordApiHash: text("password_api_hash"),
    modoConsecutiveApi: boolean("modo_consecutive_api").notNull().default(false),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Deleting a company archives it: documents are kept (docs/decisions/004). */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  // One API username per company whatever its case, compared as the sign-in compares it (lower()),
  // among the companies not archived (the sign-in ignores archived ones): docs/decisions/180,
  // migration 0050.
  (t) => [uniqueIndex("companies_username_api_unique").on(sql`lower(${t.usernameApi})`).where(sql`${t.deletedAt} is null`)],
);

export const companyUsers = pgTable(
  "company_users",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);

export const generalConfigurations = pgTable("general_configurations", {
  companyId: integer("company_id")
    .primaryKey()
    .references(() => companies.id, { onDelete: "cascade" }),
  customQuotationName: text("custom_quotation_name").notNull().default("Cotización"),
  currencyId: integer("currency_id").notNull().default(2),
  modePos: boolean("mode_pos").notNull().default(false),
  /** 0 ask, 1 dollars, 2 colones. */
  currencyEmitDoc: integer("currency_emit_doc").notNull().default(0),
  /** How tickets and the detail's print variant print: 'a4' (page), '80' or '58' (thermal receipt, mm). */
  printFormat: text("print_format").notNull().default("a4"),
});
