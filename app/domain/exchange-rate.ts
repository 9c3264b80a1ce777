// The dollar exchange rate (Hacienda's public indicadores/tc, hacienda/NOTES.md §10): parsing the reply
// leniently and the wording of the fallback. Pure: the clock comes in as a parameter.
import { crCalendar } from "./format.ts";

export interface DollarRate {
  /** Costa Rica calendar date of the rate, YYYY-MM-DD. */
  date: string;
  /** Colones per dollar, decimal strings. */
  buy: string;
  sell: string;
}

export const EXCHANGE_MESSAGES = {
  none: "No hay tipo de cambio registrado y no se pudo obtener el de hoy de Hacienda. Inténtalo más tarde.",
  unreachable: "No se pudo obtener el tipo de cambio de Hacienda",
  invalidReply: "Hacienda respondió con un tipo de cambio inválido",
  stale: (date: string) => `No se pudo obtener el tipo de cambio de hoy; se usa el del ${displayDate(date)}.`,
} as const;

/** YYYY-MM-DD of an instant in Costa Rica. */
export function crDate(now: Date): string {
  const c = crCalendar(now);
  return `${c.year}-${String(c.month).padStart(2, "0")}-${String(c.day).padStart(2, "0")}`;
}

/** YYYY-MM-DD → DD/MM/YYYY. */
export function displayDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : date;
}

/** A rate value: a positive number or numeric string ("512.34", "512,34"). */
function rateValue(v: unknown): string | null {
  if (v && typeof v === "object" && "valor" in v) return rateValue((v as { valor: unknown }).valor);
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.trim().replace(/\s/g, "").replace(",", ".")) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 1_000_000) return null;
  return String(Math.round(n * 100000) / 100000);
}

/** A date as YYYY-MM-DD from "2026-11-02", "2026-11-02 00:00:00", "02/11/2026" or an ISO timestamp. */
export function parseRateDate(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const s = v.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(s);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  return null;
}

/**
 * Interprets the reply of GET indicadores/tc/dolar: `{compra:{fecha,valor}, venta:{fecha,valor}}`,
 * also the whole `indicadores/tc` reply (`{dolar:{…}}`), flat `{compra, venta, fecha}` and a one-item
 * historic list `[{fecha, compra, venta}]`. The date is the reply's (venta first), else today's.
 */
export function parseDollarReply(body: unknown, today: string): DollarRate | null {
  let b = body;
  if (Array.isArray(b)) b = b[b.length - 1];
  if (!b || typeof b !== "object") return null;
  const o = b as Record<string, unknown>;
  if (o.dolar && typeof o.dolar === "object") return parseDollarReply(o.dolar, today);
  const sell = rateValue(o.venta);
  const buy = rateValue(o.compra) ?? sell;
  if (!sell || !buy) return null;
  const fecha = (x: unknown) => (x && typeof x === "object" ? parseRateDate((x as { fecha?: unknown }).fecha) : null);
  const date = fecha(o.venta) ?? fecha(o.compra) ?? parseRateDate(o.fecha) ?? today;
  return { date, buy, sell };
}
