/**
 * The item row's price rule (spec part 2 §5 and §9: "price min 0.1, max 1e12"), in one place for the
 * draft checks (document-draft.ts) and the form (document-form.ts, whose code the browser loads):
 * this module imports nothing, so the form's bundle does not take in the money arithmetic.
 */
const NUM = /^\d+(\.\d+)?$/;

/** A plain decimal typed with digits and a dot; NaN for anything else (blank, signs, exponents). */
export const parseAmount = (s: string | undefined) => (s !== undefined && NUM.test(s.trim()) ? Number(s) : NaN);

/** A line's unit price within the spec's range: minimum 0.1, maximum 1e12. */
export function linePriceOk(price: string | undefined): boolean {
  const p = parseAmount(price);
  return p >= 0.1 && p <= 1e12;
}
