/**
 * Report rules (spec part 2 "Reports", §3 Report responses, §5 report net figures and currency
 * conversion, §9): the date range (default the current month, shown dd-MM-yyyy), the year and
 * month pickers, conversion to colones with each document's own exchange rate, the net figures of a
 * document and its notes, the IVA-summary tariff rows, and the texts. Pure: "today" comes in.
 * docs/decisions/151-report-foundation.md, 152-report-figures.md, 153-iva-summary.md.
 */
import { dec, round, type Decimal } from "./decimal.ts";

export const REPORT_MESSAGES = {
  preparing: "Preparando tu reporte...",
  preparingExcel: "Preparando excel...",
  exportFailed: "No se pudo generar el archivo de Excel. Inténtalo de nuevo.",
  loadFailed: "No se pudo cargar el reporte. Inténtalo de nuevo.",
  rangeInvalid: "Escriba las fechas como dd-mm-aaaa (por ejemplo 01-11-2026).",
  rangeOrder: "La fecha inicial debe ser anterior o igual a la final.",
  rangeTooLong: "El rango no puede ser mayor a 5 años.",
  yearInvalid: "Escriba un año entre 2000 y 2100.",
  monthInvalid: "Elija un mes válido.",
  defaultUsed: "Se muestra el rango predeterminado.",
  converted: "Montos en colones: los documentos en dólares se convierten con su propio tipo de cambio.",
  noRejected: "No incluye documentos rechazados por Hacienda.",
  printAll: "Para imprimir todas las filas use 'Imprimir'; se imprimen hasta 2.000 filas. Para más, use 'Exportar a Excel'.",
} as const;

/** A Costa Rica calendar range, both ends included, as yyyy-MM-dd. */
export interface DayRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** Days in a month (1–12). */
export function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The current month, from its first to its last day (spec §9: the default report range). */
export function monthRange(year: number, month: number): DayRange {
  return { from: ymd(year, month, 1), to: ymd(year, month, daysIn(year, month)) };
}

/** yyyy-MM-dd → dd-MM-yyyy (spec §9: the report range is shown dd-MM-yyyy). */
export function showDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : day;
}

/** A typed day: dd-MM-yyyy (also dd/MM/yyyy) or yyyy-MM-dd; a real calendar day or null. */
export function parseDay(raw: string): string | null {
  const s = raw.trim();
  let y: number, m: number, d: number;
  let match = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(s);
  if (match) [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s))) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return null;
  if (y < 2000 || y > 2100 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return null;
  return ymd(y, m, d);
}

export interface RangeChoice {
  range: DayRange;
  /** What the fields show: what was typed, or the range used. */
  typed: { desde: string; hasta: string };
  error: string | null;
}

/**
 * The range of a report request (`desde`, `hasta`, dd-MM-yyyy). Missing: the current month. Not a
 * day, reversed or longer than five years: the message, the current month, and the typed text kept.
 */
export function parseRange(params: URLSearchParams, today: { year: number; month: number }): RangeChoice {
  const fallback = monthRange(today.year, today.month);
  const rawFrom = (params.get("desde") ?? "").slice(0, 20);
  const rawTo = (params.get("hasta") ?? "").slice(0, 20);
  if (!rawFrom && !rawTo) return { range: fallback, typed: { desde: showDay(fallback.from), hasta: showDay(fallback.to) }, error: null };
  const from = parseDay(rawFrom || showDay(fallback.from));
  const to = parseDay(rawTo || showDay(fallback.to));
  const keep = { desde: rawFrom, hasta: rawTo };
  if (!from || !to) return { range: fallback, typed: keep, error: REPORT_MESSAGES.rangeInvalid };
  if (from > to) return { range: fallback, typed: keep, error: REPORT_MESSAGES.rangeOrder };
  if (Number(to.slice(0, 4)) - Number(from.slice(0, 4)) > 5) return { range: fallback, typed: keep, error: REPORT_MESSAGES.rangeTooLong };
  return { range: { from, to }, typed: { desde: showDay(from), hasta: showDay(to) }, error: null };
}

/** The year of the expenses report (`anio`; spec §9: default the current year). */
export function parseYear(params: URLSearchParams, today: { year: number }): { year: number; typed: string; error: string | null } {
  const raw = (params.get("anio") ?? "").trim().slice(0, 10);
  if (!raw) return { year: today.year, typed: String(today.year), error: null };
  const y = /^\d{4}$/.test(raw) ? Number(raw) : NaN;
  if (!(y >= 2000 && y <= 2100)) return { year: today.year, typed: raw, error: REPORT_MESSAGES.yearInvalid };
  return { year: y, typed: raw, error: null };
}

/** The month of the IVA summary (`mes`, yyyy-MM): default the month before `today` (the one being declared). */
export function parseMonth(params: URLSearchParams, today: { year: number; month: number }): { year: number; month: number; typed: string; error: string | null } {
  const previous = today.month === 1 ? { year: today.year - 1, month: 12 } : { year: today.year, month: today.month - 1 };
  const raw = (params.get("mes") ?? "").trim().slice(0, 10);
  const fallback = { ...previous, typed: `${previous.year}-${pad(previous.month)}` };
  if (!raw) return { ...fallback, error: null };
  const m = /^(\d{4})-(\d{2})$/.exec(raw);
  const year = m ? Number(m[1]) : NaN;
  const month = m ? Number(m[2]) : NaN;
  if (!(year >= 2000 && year <= 2100 && month >= 1 && month <= 12)) return { ...fallback, typed: raw, error: REPORT_MESSAGES.monthInvalid };
  return { year, month, typed: raw, error: null };
}

/**
 * The instants a Costa Rica day range covers: from midnight of its first day to midnight after its
 * last, in Costa Rica (UTC−6 all year: no daylight saving), as ISO strings for the query.
 */
export function rangeInstants(range: DayRange): { from: string; until: string } {
  const at = (day: string, plusDays = 0) => {
    const [y, m, d] = day.split("-").map(Number);
    return new Date(Date.UTC(y, m - 1, d + plusDays, 6)).toISOString();
  };
  return { from: at(range.from), until: at(range.to, 1) };
}

export const MONTH_NAMES = ["Enero", "Febrero", "Marzo", "Abril", "Mayo", "Junio", "Julio", "Agosto", "Septiembre", "Octubre", "Noviembre", "Diciembre"] as const;

/**
 * An amount in colones (spec §5 currency conversion): a dollar amount (currency 1) times its own
 * exchange rate — colones per dollar, as the document's XML states it (TipoCambio) — and a colón
 * amount as it is; rounded half-up to céntimos. db/queries/reports.ts `colones()` is the same rule in
 * SQL, so a row, the summary and the Excel file add up to the same céntimo.
 */
export function toColones(amount: string, currencyId: number, exchangeRate: string): Decimal {
  const a = dec(amount);
  return round(currencyId === 1 ? a.times(dec(exchangeRate)) : a, 2);
}

/** The amounts a sales document and its notes carry (each already in colones). */
export interface DocumentAmounts {
  subtotal: string;
  discount: string;
  tax: string;
  ivaDevuelto: string;
  total: string;
}

export const ZERO_AMOUNTS: DocumentAmounts = { subtotal: "0", discount: "0", tax: "0", ivaDevuelto: "0", total: "0" };

/**
 * Net figures (spec §5): subtotal, discount, tax and IVA devuelto each equal the document's value
 * plus its debit notes minus its credit notes. The net total is the total net of IVA devuelto plus
 * the same of the notes. A stored total (TotalComprobante) is already net of IVA devuelto (Hacienda
 * subtracts TotalIVADevuelto in it), so it is taken as it is: subtracting again would count it twice.
 */
export function netFigures(doc: DocumentAmounts, nd: DocumentAmounts = ZERO_AMOUNTS, nc: DocumentAmounts = ZERO_AMOUNTS): DocumentAmounts {
  // Céntimos as integers (BigInt): exact, and light enough for every row of a 100,000-row export.
  const net = (k: keyof DocumentAmounts) => showCents(cents(doc[k]) + cents(nd[k]) - cents(nc[k]));
  return { subtotal: net("subtotal"), discount: net("discount"), tax: net("tax"), ivaDevuelto: net("ivaDevuelto"), total: net("total") };
}

/** An amount with at most two decimals ("1234.5", "-0.05", "1000") as céntimos. */
export function cents(amount: string): bigint {
  const s = amount.trim();
  const negative = s.startsWith("-");
  const body = negative ? s.slice(1) : s;
  const dot = body.indexOf(".");
  const whole = dot === -1 ? body : body.slice(0, dot);
  const fraction = dot === -1 ? "" : body.slice(dot + 1);
  if (!whole || fraction.length > 2 || !DIGITS.test(whole) || (fraction && !DIGITS.test(fraction))) throw new Error(`Monto con más de dos decimales o mal escrito: ${JSON.stringify(amount)}`);
  // One BigInt from the digits (faster than a pattern and a product, for every row of an export).
  const v = BigInt(whole + fraction.padEnd(2, "0"));
  return negative ? -v : v;
}
const DIGITS = /^\d+$/;

/** Céntimos as a decimal string with two decimals ("-1234.05"). */
export function showCents(v: bigint): string {
  const a = v < 0n ? -v : v;
  return `${v < 0n ? "-" : ""}${a / 100n}.${String(a % 100n).padStart(2, "0")}`;
}

/** 'Pertenece a' of the notes report: FE-, TE-, FEC- (or ND-, NC-) and the document's number. */
export function belongsTo(kindOrDocType: string, number: string): string {
  const prefix: Record<string, string> = { fe: "FE", te: "TE", fec: "FEC", nd: "ND", nc: "NC", "01": "FE", "02": "ND", "03": "NC", "04": "TE", "08": "FE", "15": "FEC", "17": "FEC", "18": "FEC" };
  // A clave carries the consecutive at characters 22–41; a 20-digit consecutive ends in its ten-digit counter.
  const digits = /^\d{50}$/.test(number) ? number.slice(21, 41) : number;
  const shown = /^\d{20}$/.test(digits) ? digits.slice(10) : digits;
  return `${prefix[kindOrDocType] ?? "DOC"}-${shown}`;
}

/** Times an item was invoiced (spec: 'N veces'). */
export const timesInvoiced = (n: number) => (n === 1 ? "1 vez" : `${n} veces`);

/**
 * IVA tariffs (CodigoTarifaIVA, Anexos y Estructuras v4.4 Nota 8.1) in the order of the IVA summary:
 * the general and reduced rates, the zero rates, exento and no sujeto, then the transitional codes
 * of notes. docs/decisions/153-iva-summary.md.
 */
export const IVA_TARIFFS: ReadonlyArray<{ code: string; label: string }> = [
  { code: "08", label: "13 % (tarifa general)" },
  { code: "04", label: "4 % (tarifa reducida)" },
  { code: "03", label: "2 % (tarifa reducida)" },
  { code: "02", label: "1 % (tarifa reducida)" },
  { code: "09", label: "0,5 % (tarifa reducida)" },
  { code: "01", label: "0 % (con derecho a crédito)" },
  { code: "10", label: "Exento" },
  { code: "11", label: "No sujeto (0 % sin derecho a crédito)" },
  { code: "05", label: "Transitorio 0 %" },
  { code: "06", label: "Transitorio 4 %" },
  { code: "07", label: "Transitorio 8 %" },
];

export const tariffLabel = (code: string | null) => (code ? (IVA_TARIFFS.find((t) => t.code === code)?.label ?? `Código ${code}`) : "Sin tarifa de IVA");

/** Sorts tariff codes in the summary's order (unknown codes and lines without one last). */
export function tariffOrder(code: string | null): number {
  const i = IVA_TARIFFS.findIndex((t) => t.code === code);
  return i === -1 ? IVA_TARIFFS.length + (code ? 0 : 1) : i;
}
