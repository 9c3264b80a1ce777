import { boolean, integer, numeric, pgTable, primaryKey, serial, text } from "drizzle-orm/pg-core";

export const identificationTypes = pgTable("identification_types", {
  id: integer("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  forCompanies: boolean("for_companies").notNull().default(true),
});

export const currencies = pgTable("currencies", {
  id: integer("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  symbol: text("symbol").notNull(),
});

export const countries = pgTable("countries", {
  id: integer("id").primaryKey(),
  code: text("code").notNull(),
  name: text("name").notNull(),
});

export const provinces = pgTable("provinces", {
  number: integer("number").primaryKey(),
  name: text("name").notNull(),
});

export const cantons = pgTable(
  "cantons",
  {
    provinceNumber: integer("province_number").notNull(),
    number: integer("number").notNull(),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provinceNumber, t.number] })],
);

export const districts = pgTable(
  "districts",
  {
    provinceNumber: integer("province_number").notNull(),
    cantonNumber: integer("canton_number").notNull(),
    number: integer("number").notNull(),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provinceNumber, t.cantonNumber, t.number] })],
);

export const barrios = pgTable("barrios", {
  id: serial("id").primaryKey(),
  provinceNumber: integer("province_number").notNull(),
  cantonNumber: integer("canton_number").notNull(),
  districtNumber: integer("district_number").notNull(),
  name: text("name").notNull(),
});

/** Generic code tables: one table, keyed by (kind, code), keeps the seed and the lookups in one place. */
export const codeTables = pgTable(
  "code_tables",
  {
    kind: text("kind").notNull(),
    id: integer("id").notNull(),
    code: text("code"),
    name: text("name").notNull(),
    /** Extra attributes of the row (rate, days, symbol, flags) as JSON text. */
    extra: text("extra"),
    rate: numeric("rate", { precision: 9, scale: 5 }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);
