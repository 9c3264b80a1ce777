import { describe, expect, it } from "vitest";
import { amountSchema, canPay, formatDay, isCalendarDay, paymentReturn } from "./payments.ts";

describe("payments domain", () => {
  it("amount: required, positive, at most 5 decimals, comma accepted, kept as a 5-decimal string", () => {
    expect(amountSchema.parse("1000")).toBe("1000.00000");
    expect(amountSchema.parse(" 12,34567 ")).toBe("12.34567");
    expect(amountSchema.safeParse("12.345678").success).toBe(false);
    expect(amountSchema.safeParse("0").success).toBe(false);
    expect(amountSchema.safeParse("-5").success).toBe(false);
    expect(amountSchema.safeParse("1e3").success).toBe(false);
    expect(amountSchema.safeParse("").error?.issues[0].message).toBe("El monto es obligatorio");
  });

  it("the pay button: payable kinds, not rejected, something due, not plan 5", () => {
    const d = { kind: "fe", total: "100", paymentAmount: "0", creditNoteTotal: "0", debitNoteTotal: "0", status: "aceptado" };
    expect(canPay(d, 1)).toBe(true);
    expect(canPay(d, 5)).toBe(false);
    expect(canPay({ ...d, status: "rechazado" }, 1)).toBe(false);
    expect(canPay({ ...d, paymentAmount: "100" }, 1)).toBe(false);
    expect(canPay({ ...d, creditNoteTotal: "100" }, 1)).toBe(false);
    expect(canPay({ ...d, creditNoteTotal: "60", paymentAmount: "40" }, 1)).toBe(false);
    expect(canPay({ ...d, creditNoteTotal: "60", paymentAmount: "40", debitNoteTotal: "5" }, 1)).toBe(true);
    expect(canPay({ ...d, kind: "qt" }, 1)).toBe(false);
    for (const kind of ["te", "nc", "nd", "fec"]) expect(canPay({ ...d, kind }, 1)).toBe(true);
  });

  it("return paths: a whitelist of this site's screens, else the payments list", () => {
    expect(paymentReturn("/invoices")).toBe("/invoices");
    expect(paymentReturn("/invoices?page=3&x=1")).toBe("/invoices?page=3");
    expect(paymentReturn("/invoices?search=José Pérez&filter=no-pagado")).toBe("/invoices?filter=no-pagado&search=Jos%C3%A9+P%C3%A9rez");
    expect(paymentReturn("/detail/invoice/12")).toBe("/detail/invoice/12");
    expect(paymentReturn("/client-detail/4?tab=invoices")).toBe("/client-detail/4?tab=invoices");
    for (const bad of ["//evil.example", "https://evil.example/", "/detail/invoice/1/../../x", "/users", "", null, 5]) expect(paymentReturn(bad)).toBe("/payments");
  });

  it("calendar days", () => {
    expect(isCalendarDay("2026-02-28")).toBe(true);
    expect(isCalendarDay("2026-02-30")).toBe(false);
    expect(isCalendarDay("21/11/2026")).toBe(false);
    expect(formatDay("2026-11-21")).toBe("21/11/2026");
  });
});
