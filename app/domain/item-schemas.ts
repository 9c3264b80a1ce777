// Items, the CABYS catalogue and the company's 'Lista de IVA' (spec part 1 §2.3 Items, §3 Item/Tax,
// §5 Item/Tax, §8 Items, §9): form schemas with Spanish messages and the pure rules around them
// (CABYS rate → tax type, CABYS spreadsheet cell parsing). No database, env or clock here.
import { z } from "zod";
import { formatRate, TAX_MESSAGES } from "./item-texts.ts";
import { parseDecimalInput } from "./number-input.ts";
import { decimalField } from "./number-schemas.ts";

export { CABYS_IMPORT_MESSAGES, CABYS_MAX_BYTES, ITEM_MESSAGES, TAX_MESSAGES } from "./item-texts.ts";

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

/** Price: required, not negative, at most 2 decimals; kept as a decimal string (never a float). */
export const priceSchema = z
  .string({ error: "El precio es obligatorio" })
  .trim()
  .refine((v) => !v.startsWith("-"), { message: "El precio no puede ser negativo", abort: true })
  .pipe(decimalField({ required: "El precio es obligatorio", format: "El precio debe ser un número con máximo 2 decimales (por ejemplo 1.500,50)", maxDecimals: 2 }))
  .transform((v) => normalizeDecimal(v));

function normalizeDecimal(v: string): string {
  const [i, f = ""] = v.split(".");
  return `${i.replace(/^0+(?=\d)/, "")}${f ? "." + f : ""}`;
}

const intFrom = (message: string, allowed?: readonly number[]) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0 && (!allowed || allowed.includes(Number(v))), message)
    .transform(Number);

export interface ItemSchemaOptions {
  categoryIds: readonly number[];
  unitSymbols: readonly string[];
  currencyIds: readonly number[];
  /** The company's tax types (its Lista de IVA). */
  taxTypeIds: readonly number[];
}

/** The schema's options from the lists the item form offers (the same on the server and in the browser). */
export function itemSchemaOptions(lists: { categories: { id: number }[]; units: { symbol: string }[]; currencies: { id: number }[]; taxTypes: { id: number }[] }): ItemSchemaOptions {
  return {
    categoryIds: lists.categories.map((c) => c.id),
    unitSymbols: lists.units.map((u) => u.symbol),
    currencyIds: lists.currencies.map((c) => c.id),
    taxTypeIds: lists.taxTypes.map((t) => t.id),
  };
}

export function itemSchema(opts: ItemSchemaOptions) {
  return z.object({
    code: required("El código es obligatorio").pipe(z.string().max(20, "El código admite máximo 20 caracteres")),
    cabys_code: required("El código CABYS es obligatorio").pipe(z.string().regex(/^\d{13}$/, "El código CABYS debe tener 13 dígitos")),
    name: required("El nombre es obligatorio").pipe(z.string().max(200, "El nombre admite máximo 200 caracteres")),
    description: required("La descripción es obligatoria").pipe(z.string().max(500, "La descripción admite máximo 500 caracteres")),
    category: intFrom("La categoría es obligatoria", opts.categoryIds),
    unit: required("La unidad es obligatoria").refine((v) => opts.unitSymbols.includes(v), "La unidad es obligatoria"),
    tax_type: intFrom("El tipo de impuesto es obligatorio", opts.taxTypeIds),
    currency: intFrom("La moneda es obligatoria", opts.currencyIds),
    price: priceSchema,
  });
}
export type ItemInput = z.output<ReturnType<typeof itemSchema>>;

/** 'Lista de IVA' row: name and rate required; any invalid value shows 'invalido' (spec §5 Tax). */
export function taxSchema(vatCodes: readonly string[]) {
  const invalid = TAX_MESSAGES.invalid;
  return z.object({
    name: z.string({ error: invalid }).trim().min(1, invalid).max(60, invalid),
    rate: z
      .string({ error: invalid })
      .trim()
      .transform((v) => parseDecimalInput(v.replace(/%$/, "")) ?? "")
      .refine((v) => /^\d{1,3}(\.\d{1,4})?$/.test(v) && Number(v) <= 100, invalid)
      .transform((v) => normalizeDecimal(v)),
    vat_code: z
      .string({ error: invalid })
      .trim()
      .refine((v) => vatCodes.includes(v), invalid),
  });
}
export type TaxInput = z.output<ReturnType<typeof taxSchema>>;

// ───────────── CABYS rate → tax type ─────────────

export interface TaxTypeOption {
  id: number;
  name: string;
  /** Percent as a decimal string ("13", "13.0000"). */
  rate: string;
  /** CodigoTarifaIVA. */
  vatCode: string;
}

/** The CodigoTarifaIVA usual for a CABYS rate (13 → 08 general, 0 → 10 Exento, …). */
const VAT_CODE_FOR_RATE: Record<string, string> = { "13": "08", "4": "04", "2": "03", "1": "02", "0.5": "09", "0": "10" };

export function sameRate(a: string | number, b: string | number): boolean {
  return Math.abs(Number(a) - Number(b)) < 1e-9;
}

/**
 * The company tax type matching a CABYS rate: the one with the usual CodigoTarifaIVA for that rate
 * (Exento, code 10, when the rate is 0), else any with the same rate, else none.
 */
export function taxTypeForRate(options: readonly TaxTypeOption[], rate: string | number | null | undefined): TaxTypeOption | undefined {
  if (rate === null || rate === undefined || rate === "" || !Number.isFinite(Number(rate))) return undefined;
  const key = String(Number(rate));
  const code = VAT_CODE_FOR_RATE[key];
  const byRate = options.filter((o) => sameRate(o.rate, rate));
  return byRate.find((o) => o.vatCode === code) ?? (Number(rate) === 0 ? byRate.find((o) => /exent/i.test(o.name)) : undefined) ?? byRate[0];
}

export { formatRate };

// ───────────── CABYS spreadsheet cells ─────────────

/**
 * A CABYS rate cell: "13%", "13 %", "13", 13 (percent), "Exento" → 0. (A percentage-formatted number
 * cell, 0.13, is converted by the reader, which knows the cell's format.)
 * Returns the percent as a decimal string, or null when the value is not a rate.
 */
export function parseCabysRate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0 || value > 100) return null;
    return String(Math.round(value * 10000) / 10000);
  }
  const s = String(value).trim().toLowerCase();
  if (!s) return null;
  if (/^exent[oa]$/.test(s)) return "0";
  const m = /^(\d{1,3}(?:[.,]\d{1,4})?)\s*%?$/.exec(s);
  if (!m) return null;
  const n = Number(m[1].replace(",", "."));
  if (n > 100) return null;
  return String(n);
}

/** A CABYS code cell: digits only (a number cell or text), else the raw text for the error message. */
export function cabysCodeText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  return String(value).trim();
}

export interface CabysRow {
  code: string;
  description: string;
  taxRate: string;
  categories: string | null;
}

/** Validates one spreadsheet row; returns the row or the Spanish error naming it. */
export function checkCabysRow(
  rowNumber: number,
  cells: { code: unknown; description: unknown; tax: unknown; categories: unknown[] },
): { ok: true; row: CabysRow } | { ok: false; error: string } {
  const code = cabysCodeText(cells.code);
  if (!/^\d{13}$/.test(code)) return { ok: false, error: `Fila ${rowNumber}: el código CABYS debe tener 13 dígitos` };
  const description = cellText(cells.description);
  if (!description) return { ok: false, error: `Fila ${rowNumber}: falta la descripción del código ${code}` };
  const taxRate = parseCabysRate(typeof cells.tax === "string" ? cells.tax : cellValue(cells.tax));
  if (taxRate === null) return { ok: false, error: `Fila ${rowNumber}: el impuesto «${cellText(cells.tax)}» no es válido (por ejemplo 13%)` };
  const categories = cells.categories.map(cellText).filter(Boolean).join(" > ");
  return { ok: true, row: { code, description: description.slice(0, 1000), taxRate, categories: categories || null } };
}

/** Plain value of an exceljs cell value (rich text, formula results, hyperlinks). */
export function cellValue(v: unknown): unknown {
  if (v && typeof v === "object") {
    const o = v as { richText?: { text: string }[]; result?: unknown; text?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join("");
    if ("result" in o) return cellValue(o.result);
    if ("text" in o) return cellValue(o.text);
  }
  return v;
}

export function cellText(v: unknown): string {
  const plain = cellValue(v);
  if (plain === null || plain === undefined) return "";
  return String(plain).replace(/\s+/g, " ").trim();
}

/** Normalises a header cell for matching: lower case, no accents, single spaces. */
export function headerKey(v: unknown): string {
  return cellText(v)
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ");
}

/** Words of a CABYS search, lower case without accents (at most 6). */
export function searchWords(q: string): string[] {
  return q
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .slice(0, 6);
}
