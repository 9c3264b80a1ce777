/**
 * Money arithmetic: decimal.js with half-up rounding, values in and out as strings (never JS
 * floats). Hacienda amounts carry 5 decimals (DecimalDineroType: 18 digits, 5 fraction).
 */
import DecimalBase from "decimal.js";

export const Decimal = DecimalBase.clone({ precision: 60, rounding: DecimalBase.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export class DecimalInputError extends Error {
  constructor(
    public field: string,
    public value: unknown,
  ) {
    super(`El campo ${field} debe ser un número escrito con dígitos y punto decimal (recibido: ${JSON.stringify(value)}).`);
  }
}

/** Parses a decimal string (or an existing Decimal). Rejects JS numbers on purpose. */
export function dec(value: string | Decimal, field = "monto"): Decimal {
  if (value instanceof Decimal) return value;
  if (typeof value !== "string" || !NUMBER_RE.test(value.trim())) throw new DecimalInputError(field, value);
  return new Decimal(value.trim());
}

/** Rounds half-up to `places` decimals. */
export function round(d: Decimal, places = 5): Decimal {
  return d.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
}

/** Fixed 5-decimal string, half-up, as Hacienda amounts are written ("1130.00000"). */
export function money(d: Decimal | string): string {
  const x = typeof d === "string" ? dec(d) : d;
  return x.isZero() ? "0.00000" : x.toFixed(5, Decimal.ROUND_HALF_UP);
}

/** Fixed string with `places` decimals, half-up. */
export function fixed(d: Decimal | string, places: number): string {
  return dec(d).toFixed(places, Decimal.ROUND_HALF_UP);
}

export function sum(values: Iterable<Decimal>): Decimal {
  let s = new Decimal(0);
  for (const v of values) s = s.plus(v);
  return s;
}

export const ZERO = new Decimal(0);
export const HUNDRED = new Decimal(100);
