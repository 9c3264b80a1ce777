/**
 * Money arithmetic: decimal.js with half-up rounding, values in and out as strings (never JS
 * floats). Hacienda amounts carry 5 decimals (DecimalDineroType: 18 digits, 5 fraction).
 */
import DecimalBase from "decimal.js";

export const Decimal = /* @__PURE__ */ DecimalBase.clone({ precision: 60, rounding: DecimalBase.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
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
  if (typeof d === "string") {
    const x = fx(d);
    return x.m === 0n ? "0.00000" : fxFixed(x, 5);
  }
  return d.isZero() ? "0.00000" : d.toFixed(5, Decimal.ROUND_HALF_UP);
}

/** Fixed string with `places` decimals, half-up. */
export function fixed(d: Decimal | string, places: number): string {
  if (typeof d === "string") return fxFixed(fx(d), places);
  return dec(d).toFixed(places, Decimal.ROUND_HALF_UP);
}

export function sum(values: Iterable<Decimal>): Decimal {
  let s = new Decimal(0);
  for (const v of values) s = s.plus(v);
  return s;
}

export const ZERO = new Decimal(0);
export const HUNDRED = new Decimal(100);

/*
 * ——— Fast fixed-point money arithmetic (decision 012) ———
 *
 * The invoice math (totals.ts) runs on BigInt instead of decimal.js objects. A value is `Fx`
 * (m × 10^−e, exact); amounts rounded to 5 decimals are plain bigints scaled by 10^5 (`Money5`).
 * The results are identical to decimal.js with precision 60 and ROUND_HALF_UP (the `Decimal`
 * above): additions and products are exact and, like decimal.js, rounded half-up to 60
 * significant digits when they would exceed them; quotients are correctly rounded to 60
 * significant digits; rounding to places is half-up (ties away from zero). decimal.test.ts checks
 * the equality on many thousands of random inputs.
 */

/** An exact decimal m × 10^−e (e ≥ 0). */
export interface Fx {
  m: bigint;
  e: number;
}

/** An amount with exactly 5 decimals, as an integer count of 10^−5. */
export type Money5 = bigint;

const POW10: bigint[] = [1n];
for (let i = 1; i <= 200; i++) POW10.push(POW10[i - 1] * 10n);
function pow10(n: number): bigint {
  return n < POW10.length ? POW10[n] : 10n ** BigInt(n);
}

const PRECISION = 60;
const LIMIT = POW10[PRECISION];

/** Number of decimal digits of |m| (m ≠ 0). */
function digits(m: bigint): number {
  const a = m < 0n ? -m : m;
  return a.toString().length;
}

/** Integer division of m by 10^k rounded half-up (ties away from zero). */
function divPow10HalfUp(m: bigint, k: number): bigint {
  if (k <= 0) return m * pow10(-k);
  const d = pow10(k);
  const q = m / d;
  const r = m - q * d;
  if (r === 0n) return q;
  const twice = r < 0n ? -r * 2n : r * 2n;
  return twice >= d ? (m < 0n ? q - 1n : q + 1n) : q;
}

/** Rounds to 60 significant digits (what every decimal.js operation does with precision 60). */
function sig(x: Fx): Fx {
  if (x.m < LIMIT && x.m > -LIMIT) return x;
  const drop = digits(x.m) - PRECISION;
  return { m: divPow10HalfUp(x.m, drop), e: x.e - drop };
}

const DIGITS_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Parses a decimal string exactly (same inputs and errors as `dec`). */
export function fx(value: string, field = "monto"): Fx {
  if (typeof value !== "string") throw new DecimalInputError(field, value);
  const s = value.trim();
  if (!NUMBER_RE.test(s)) throw new DecimalInputError(field, value);
  const g = DIGITS_RE.exec(s)!;
  const frac = g[3] ?? "";
  let m = BigInt((g[2] || "0") + frac);
  if (g[1] === "-") m = -m;
  return { m, e: frac.length }; // like new Decimal(s): not rounded to the precision
}

/** The Fx of a Money5. */
export function fxOf5(v: Money5): Fx {
  return { m: v, e: 5 };
}

/** Exact-then-60-digit product, as decimal.js `times`. */
export function fxMul(a: Fx, b: Fx): Fx {
  return sig({ m: a.m * b.m, e: a.e + b.e });
}

/** Quotient correctly rounded (half-up) to 60 significant digits, as decimal.js `div`. b ≠ 0. */
export function fxDiv(a: Fx, b: Fx): Fx {
  if (a.m === 0n) return { m: 0n, e: 0 };
  const neg = a.m < 0n !== b.m < 0n;
  const A = a.m < 0n ? -a.m : a.m;
  const B = b.m < 0n ? -b.m : b.m;
  // value = (A / B) × 10^(b.e − a.e); take q = floor(A × 10^s / B) with exactly 60 digits.
  let s = PRECISION - (digits(A) - digits(B));
  let num = s >= 0 ? A * pow10(s) : A;
  let den = s >= 0 ? B : B * pow10(-s);
  let q = num / den;
  if (q >= LIMIT) {
    s -= 1;
    if (s >= 0) num = A * pow10(s);
    else den = B * pow10(-s);
    q = num / den;
  } else if (q < POW10[PRECISION - 1]) {
    s += 1;
    if (s >= 0) {
      num = A * pow10(s);
      den = B;
    } else den = B * pow10(-s);
    q = num / den;
  }
  const r = num - q * den;
  if (r * 2n >= den) q += 1n;
  let e = s + a.e - b.e;
  let m = neg ? -q : q;
  if (e < 0) {
    m *= pow10(-e);
    e = 0;
  }
  return { m, e };
}

/** Rounds half-up to 5 decimals: the Money5 of x (decimal.js `toDecimalPlaces(5)`). */
export function round5(x: Fx): Money5 {
  return divPow10HalfUp(x.m, x.e - 5);
}

/** Exact sum of Money5 values, rounded like decimal.js when beyond 60 significant digits. */
export function add5(a: Money5, b: Money5): Money5 {
  const s = a + b;
  return s < LIMIT && s > -LIMIT ? s : round5(sig({ m: s, e: 5 }));
}

/** Fixed string with `places` decimals, half-up (decimal.js `toFixed(places, ROUND_HALF_UP)`, including "-0.00" for a negative that rounds to zero). */
export function fxFixed(x: Fx, places: number): string {
  const r = divPow10HalfUp(x.m, x.e - places);
  return formatScaled(r, places, x.m < 0n);
}

function formatScaled(r: bigint, places: number, negative: boolean): string {
  let s = (r < 0n ? -r : r).toString();
  if (places > 0) {
    if (s.length <= places) s = s.padStart(places + 1, "0");
    s = `${s.slice(0, s.length - places)}.${s.slice(s.length - places)}`;
  }
  return negative ? `-${s}` : s;
}

/** A Money5 written with 5 decimals ("1130.00000"); zero is "0.00000". */
export function money5(v: Money5): string {
  return formatScaled(v, 5, v < 0n);
}

/** Sign of x compared with 0: −1, 0 or 1. */
export function fxSign(x: Fx): number {
  return x.m < 0n ? -1 : x.m > 0n ? 1 : 0;
}

/** Sum, exact then rounded to 60 significant digits, as decimal.js `plus`. */
export function fxAdd(a: Fx, b: Fx): Fx {
  const e = a.e > b.e ? a.e : b.e;
  const am = a.e === e ? a.m : a.m * pow10(e - a.e);
  const bm = b.e === e ? b.m : b.m * pow10(e - b.e);
  return sig({ m: am + bm, e });
}

/** −x. */
export function fxNeg(x: Fx): Fx {
  return { m: -x.m, e: x.e };
}

/** Compares a and b exactly: −1, 0 or 1. */
export function fxCmp(a: Fx, b: Fx): number {
  const e = a.e > b.e ? a.e : b.e;
  const am = a.e === e ? a.m : a.m * pow10(e - a.e);
  const bm = b.e === e ? b.m : b.m * pow10(e - b.e);
  return am < bm ? -1 : am > bm ? 1 : 0;
}
