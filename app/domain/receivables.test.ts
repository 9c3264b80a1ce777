import { describe, expect, it } from "vitest";
import { Decimal } from "./decimal.ts";
import { amountDue, creditedInFull, noteAmountIn, owes } from "./receivables.ts";

const doc = (total: string, paid: string, nc = "0", nd = "0") => ({ total, paymentAmount: paid, creditNoteTotal: nc, debitNoteTotal: nd });

describe("amountDue: total − payments − credit notes + debit notes", () => {
  it("payments alone, exactly in decimals", () => {
    expect(amountDue(doc("1226150.00000", "226150.12345"))).toBe("999999.87655");
    expect(amountDue(doc("100", "150"))).toBe("0.00000");
    expect(owes(doc("0.30000", "0.29999"))).toBe(true);
    expect(owes(doc("0.3", "0.30000"))).toBe(false);
  });
  it("a credit note cancelling the invoice leaves nothing due; a partial one lowers the due", () => {
    expect(amountDue(doc("1000", "0", "1000"))).toBe("0.00000");
    expect(owes(doc("1000", "0", "1000"))).toBe(false);
    expect(amountDue(doc("1000", "0", "300"))).toBe("700.00000");
    expect(amountDue(doc("1000", "200", "300"))).toBe("500.00000");
    expect(amountDue(doc("1000", "800", "300"))).toBe("0.00000");
  });
  it("a debit note raises it", () => {
    expect(amountDue(doc("1000", "1000", "0", "150.5"))).toBe("150.50000");
    expect(amountDue(doc("1000", "0", "1000", "20"))).toBe("20.00000");
  });
  it("credited in full: the credit notes alone cover the total and the debit notes", () => {
    expect(creditedInFull(doc("1000", "0", "1000"))).toBe(true);
    expect(creditedInFull(doc("1000", "0", "999.99999"))).toBe(false);
    expect(creditedInFull(doc("1000", "0", "1000", "1"))).toBe(false);
    expect(creditedInFull(doc("0", "0"))).toBe(false);
  });
});

describe("the same answers as the rule written with decimal.js", () => {
  it("on thousands of seeded amounts: 0 to 5 decimals, ties, overpayments, notes larger than the total", () => {
    let seed = 20261127;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const amount = () => {
      const whole = String(Math.floor(next() * 10 ** (1 + Math.floor(next() * 9))));
      const places = Math.floor(next() * 6);
      return places ? `${whole}.${String(Math.floor(next() * 10 ** places)).padStart(places, "0")}` : whole;
    };
    const D = (v: string) => new Decimal(v || "0");
    for (let k = 0; k < 5000; k++) {
      const total = amount();
      // Often exactly paid or credited, so that zero and the boundaries are hit.
      const paid = next() < 0.3 ? total : next() < 0.2 ? "0" : amount();
      const d = doc(total, paid, next() < 0.2 ? total : next() < 0.5 ? "0" : amount(), next() < 0.7 ? "0" : amount());
      const due = D(d.total).minus(D(d.paymentAmount)).minus(D(d.creditNoteTotal)).plus(D(d.debitNoteTotal));
      const expected = (due.isNegative() ? new Decimal(0) : due).toFixed(5, Decimal.ROUND_HALF_UP);
      expect(amountDue(d), JSON.stringify(d)).toBe(expected);
      expect(owes(d), JSON.stringify(d)).toBe(new Decimal(expected).gt(0));
      const credited = D(d.creditNoteTotal);
      expect(creditedInFull(d), JSON.stringify(d)).toBe(credited.gt(0) && credited.gte(D(d.total).plus(D(d.debitNoteTotal))));
    }
  });
});

describe("noteAmountIn: a note's total in its document's currency", () => {
  it("same currency as is; otherwise through colones at each stored rate", () => {
    expect(noteAmountIn({ currencyId: 2, exchangeRate: "1" }, { currencyId: 2, exchangeRate: "1", total: "500" })).toBe("500.00000");
    expect(noteAmountIn({ currencyId: 2, exchangeRate: "1" }, { currencyId: 1, exchangeRate: "500", total: "10" })).toBe("5000.00000");
    expect(noteAmountIn({ currencyId: 1, exchangeRate: "500" }, { currencyId: 2, exchangeRate: "1", total: "5000" })).toBe("10.00000");
  });
});
