/**
 * The fast BigInt money arithmetic (decision 012) against decimal.js (precision 60, half-up), the
 * implementation it replaced in totals.ts: thousands of seeded random cases, including half-up
 * ties at the 5th decimal, negative values and amounts with 13 integer digits.
 */
import { describe, expect, it } from "vitest";
import { add5, Decimal, fx, fxAdd, fxCmp, fxDiv, fxFixed, fxMul, fxNeg, fxOf5, money, money5, round5, type Fx } from "./decimal.ts";

/** mulberry32: deterministic so that a failure can be reproduced. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(20261122);
const int = (n: number) => Math.floor(random() * n);
const digitString = (n: number) => Array.from({ length: n }, () => String(int(10))).join("");

/** A decimal string with up to `intDigits` integer digits and up to `fracDigits` decimals; sometimes negative, sometimes odd spellings. */
function randomDecimal(intDigits = 13, fracDigits = 5, negative = false): string {
  const i = digitString(1 + int(intDigits)).replace(/^0+(?=\d)/, "");
  const fLen = int(fracDigits + 1);
  let s = fLen ? `${i}.${digitString(fLen)}` : i;
  if (fLen && random() < 0.5) s = s.replace(/5?$/, "5"); // a 5 in the last place: ties when rounding
  if (negative && random() < 0.3) s = `-${s}`;
  return s;
}

const D = (s: string) => new Decimal(s);
const fxString = (x: Fx) => new Decimal(x.m.toString()).div(new Decimal(10).pow(x.e)).toFixed();
const money5Of = (d: InstanceType<typeof Decimal>) => money(d.toDecimalPlaces(5, Decimal.ROUND_HALF_UP));

describe("fast money arithmetic equals decimal.js", () => {
  it("parses exactly and rounds half-up to 5 decimals (ties away from zero), up to 13 integer digits and 9 decimals", () => {
    for (let k = 0; k < 5000; k++) {
      const s = randomDecimal(13, 9, true);
      expect(fxString(fx(s))).toBe(D(s).toFixed());
      expect(money5(round5(fx(s)))).toBe(money5Of(D(s)));
    }
    // Explicit ties at the 6th decimal.
    for (const [s, want] of [["0.000005", "0.00001"], ["1.000015", "1.00002"], ["-2.000005", "-2.00001"], ["9999999999999.999995", "10000000000000.00000"]])
      expect(money5(round5(fx(s)))).toBe(want);
  });

  it("products rounded to 5 decimals (Cantidad × PrecioUnitario, amount × rate / 100), including exact ties", () => {
    let ties = 0;
    for (let k = 0; k < 5000; k++) {
      const a = randomDecimal(13, 5);
      const b = k % 4 === 0 ? "0.5" : randomDecimal(4, 3);
      const exact = D(a).times(b);
      if (exact.decimalPlaces() > 5 && exact.times(1e5).mod(1).eq(0.5)) ties++;
      expect(money5(round5(fxMul(fx(a), fx(b))))).toBe(money5Of(exact));
      const a5 = round5(fx(a));
      const viaDecimal = D(money5(a5)).times(b).times("0.01");
      expect(money5(round5(fxMul(fxMul(fxOf5(a5), fx(b)), { m: 1n, e: 2 })))).toBe(money5Of(viaDecimal));
    }
    expect(ties).toBeGreaterThan(100); // the generator does exercise half-up ties
  });

  it("quotients to 60 significant digits (TarifaExonerada / Tarifa) and their products", () => {
    const rates = ["13", "4", "2", "1", "8", "0.5", "7", "3", "9.75"];
    for (let k = 0; k < 3000; k++) {
      const te = randomDecimal(2, 2);
      const rate = rates[k % rates.length];
      const q = fxDiv(fx(te), fx(rate));
      const dq = D(te).div(rate);
      expect(fxString(q)).toBe(dq.toFixed());
      const amount = money5(round5(fx(randomDecimal(13, 5))));
      expect(money5(round5(fxMul(fx(amount), q)))).toBe(money5Of(D(amount).times(dq)));
    }
    // Signs and magnitudes.
    for (let k = 0; k < 2000; k++) {
      const a = randomDecimal(20, 10, true);
      const b = randomDecimal(8, 8, true);
      if (D(b).isZero()) continue;
      expect(fxString(fxDiv(fx(a), fx(b)))).toBe(D(a).div(b).toFixed());
    }
  });

  it("sums and differences of 5-decimal amounts, and comparisons", () => {
    for (let k = 0; k < 5000; k++) {
      const a = money5(round5(fx(randomDecimal(13, 5, true))));
      const b = money5(round5(fx(randomDecimal(13, 5, true))));
      expect(money5(add5(round5(fx(a)), round5(fx(b))))).toBe(money(D(a).plus(b)));
      expect(money5(add5(round5(fx(a)), -round5(fx(b))))).toBe(money(D(a).minus(b)));
      expect(fxCmp(fx(a), fx(b))).toBe(D(a).cmp(b));
    }
  });

  it("products and sums beyond 60 significant digits round like decimal.js", () => {
    for (let k = 0; k < 1000; k++) {
      const a = randomDecimal(40, 20, true);
      const b = randomDecimal(40, 20, true);
      expect(fxString(fxMul(fx(a), fx(b)))).toBe(D(a).times(b).toFixed());
      expect(fxString(fxAdd(fx(a), fx(b)))).toBe(D(a).plus(b).toFixed());
      expect(fxString(fxAdd(fx(a), fxNeg(fx(b))))).toBe(D(a).minus(b).toFixed());
      const a5 = round5(fx(randomDecimal(60, 5, true)));
      const b5 = round5(fx(randomDecimal(60, 5, true)));
      expect(money5(add5(a5, b5))).toBe(money5Of(D(money5(a5)).plus(money5(b5))));
    }
  });

  it("fixed(), money() on strings: any places, negatives that round to zero keep their sign like decimal.js", () => {
    for (let k = 0; k < 5000; k++) {
      const s = randomDecimal(13, 8, true);
      const places = k % 6;
      expect(fxFixed(fx(s), places)).toBe(D(s).toFixed(places, Decimal.ROUND_HALF_UP));
      expect(money(s)).toBe(D(s).isZero() ? "0.00000" : D(s).toFixed(5, Decimal.ROUND_HALF_UP));
    }
    for (const s of ["-0.000001", "-0", "0", ".5", "5.", "+3.2", " 7 "]) {
      expect(money(s)).toBe(D(s.trim()).isZero() ? "0.00000" : D(s.trim()).toFixed(5, Decimal.ROUND_HALF_UP));
      expect(fxFixed(fx(s), 2)).toBe(D(s.trim()).toFixed(2, Decimal.ROUND_HALF_UP));
    }
  });

  it("refuses what dec() refuses, with the same message", () => {
    for (const bad of ["", "abc", "1e5", "1,5", "--1", "0x10", "NaN", "Infinity"]) expect(() => fx(bad, "Campo")).toThrow(/El campo Campo debe ser un número/);
    expect(() => fx(5 as unknown as string, "Campo")).toThrow(/recibido: 5/);
  });
});
