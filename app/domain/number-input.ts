// Numbers typed the Costa Rican way (issue 14 point 5, docs/decisions/164): the one parser of every
// money and quantity input, and the one formatter that writes values back into inputs and messages.
// Pure and small (no decimal library): the document form's page loads none of it, forms with
// browser checks may.
//
// The rules, in order (spaces and a leading ₡ ¢ or $ are ignored):
// 1. Only digits and at most two kinds of separator, '.' and ','.
// 2. Both present: the one written last is the decimal mark and appears once; the other separates
//    thousands ('1.500,50' and '1,500.50' are 1500.5).
// 3. Only commas: one comma is the decimal mark ('1500,50', '1,5'); several separate thousands
//    ('1,500,000').
// 4. Only dots: several separate thousands ('1.500.000'). One dot separates thousands when exactly
//    three digits follow it and one to three digits, not starting with 0, precede it ('1.500' is one
//    thousand five hundred, '12.345' is 12345); any other single dot is the decimal mark ('1500.50',
//    '1.5', '0.500', '1.2345').
// 5. Thousands groups are exact: one to three digits first, then groups of three ('1.50.000' is
//    refused), all before the decimal mark.
// The result is a plain decimal string with a dot ('1500.50'), or null when the text is not a number.

const GROUPED = /^\d{1,3}(?:\d{3})*$/;

function groupsOk(intPart: string, sep: string): boolean {
  const groups = intPart.split(sep);
  return /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

function canonical(intPart: string, frac: string): string {
  const i = intPart.replace(/^0+(?=\d)/, "") || "0";
  return frac ? `${i}.${frac}` : i;
}

/** A number typed the Costa Rican way → '1500.50' (no sign), or null. */
export function parseDecimalInput(raw: string | null | undefined): string | null {
  const s = String(raw ?? "")
    .replace(/[\s\u00a0\u202f]/g, "")
    .replace(/^[₡¢$]/, "");
  if (!s || !/^[\d.,]+$/.test(s) || !/\d/.test(s)) return null;
  const dots = (s.match(/\./g) ?? []).length;
  const commas = (s.match(/,/g) ?? []).length;
  if (dots && commas) {
    const decimal = s.lastIndexOf(".") > s.lastIndexOf(",") ? "." : ",";
    const thousands = decimal === "." ? "," : ".";
    if ((decimal === "." ? dots : commas) !== 1) return null;
    const [intPart, frac] = s.split(decimal);
    if (!/^\d+$/.test(frac) || !groupsOk(intPart, thousands)) return null;
    return canonical(intPart.split(thousands).join(""), frac);
  }
  const sep = dots ? "." : commas ? "," : "";
  if (!sep) return canonical(s, "");
  const count = dots || commas;
  if (count > 1) return groupsOk(s, sep) ? canonical(s.split(sep).join(""), "") : null;
  const [intPart, frac] = s.split(sep);
  if (sep === "." && /^[1-9]\d{0,2}$/.test(intPart) && /^\d{3}$/.test(frac)) return canonical(intPart + frac, "");
  if (!/^\d*$/.test(intPart) || !/^\d+$/.test(frac)) return null;
  return canonical(intPart || "0", frac);
}

/** Digits after the decimal mark of a canonical decimal ('1500.50' → 2). */
export function decimalPlaces(canonicalValue: string): number {
  const i = canonicalValue.indexOf(".");
  return i < 0 ? 0 : canonicalValue.length - i - 1;
}

/**
 * A decimal ('1500.5', '450000.00000', 2) as an input or a message shows it: dot thousands, comma
 * decimals, trailing zeros dropped but at least `minDecimals` ('1.500,50' with 2; '1,5' and '1.500'
 * with 0). Text that is not a plain decimal is returned as it is (what the user typed).
 */
export function formatDecimalInput(value: string | number | null | undefined, minDecimals = 0): string {
  const s = typeof value === "number" ? String(value) : String(value ?? "").trim();
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return s;
  const intPart = m[2].replace(/^0+(?=\d)/, "");
  let frac = (m[3] ?? "").replace(/0+$/, "");
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, "0");
  const grouped = GROUPED.test(intPart) ? intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ".") : intPart;
  return `${m[1]}${grouped}${frac ? `,${frac}` : ""}`;
}

/** A canonical decimal ('1500.5', what parseDecimalInput returns) is above zero. */
export const isPositiveDecimal = (canonicalValue: string) => /[1-9]/.test(canonicalValue);

/**
 * A canonical decimal with at most 5 decimals written with exactly 5, as money is stored
 * ('1500.5' → '1500.50000'; the same string as decimal.ts `money`, without loading decimal.js in
 * the browser's form checks).
 */
export function fixed5(canonicalValue: string): string {
  const [intPart, frac = ""] = canonicalValue.split(".");
  return `${intPart}.${frac.padEnd(5, "0")}`;
}

/** Money in an input: at least two decimals ('1.500,50', '372.956,50'). */
export const formatMoneyInput = (value: string | number | null | undefined) => formatDecimalInput(value, 2);
