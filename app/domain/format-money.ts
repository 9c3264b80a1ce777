// Money as spec part 1 §1 and §9 show it: dot thousands and comma decimals, 2 decimals, the
// symbol in front without a space. Apart from format.ts (dates) so that the document form's
// JavaScript carries only this (docs/decisions/096).

/** Formats a decimal string or number as "$1.234,50" / "₡1.234,50" (half-up to 2 decimals). */
export function formatMoney(amount: string | number, symbol = "₡"): string {
  const s = typeof amount === "number" ? amount.toFixed(5) : String(amount).trim();
  const m = /^(-)?(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m) return `${symbol}0,00`;
  const negative = m[1] === "-";
  let intPart = m[2] || "0";
  const frac = (m[3] ?? "").padEnd(3, "0");
  let cents = Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) cents += 1;
  if (cents === 100) {
    cents = 0;
    intPart = addOne(intPart);
  }
  intPart = intPart.replace(/^0+(?=\d)/, "");
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const zero = grouped === "0" && cents === 0;
  return `${negative && !zero ? "-" : ""}${symbol}${grouped},${String(cents).padStart(2, "0")}`;
}

function addOne(digits: string): string {
  const arr = digits.split("");
  let i = arr.length - 1;
  while (i >= 0) {
    if (arr[i] === "9") {
      arr[i] = "0";
      i--;
    } else {
      arr[i] = String(Number(arr[i]) + 1);
      return arr.join("");
    }
  }
  return "1" + arr.join("");
}
