import { describe, expect, it } from "vitest";
import { parseForm } from "./forms.ts";
import { amountsShown, decisionOf, messageAmounts, processSchema, receptionNumber, receptionRange, receptionStatusLabel, RECEPTION_MESSAGES, uploadSchema, type ReceptionDecision } from "./receptions.ts";

const decision = (over: Partial<ReceptionDecision> = {}): ReceptionDecision => ({ message: 1, detail: null, expenseCategoryId: 1, taxCondition: "01", creditableTax: null, applicableExpense: null, ...over });

describe("reception form rules (spec part 2 §5)", () => {
  const base = { message: "1", message_detail: "", expense_category: "7", tax_condition: "01", tax_credit: "", applicable_expense: "" };

  it("condition, tax condition and category are required; detail when not accepted", () => {
    const r = parseForm(uploadSchema, { ...base, message: "", expense_category: "", tax_condition: "" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toMatchObject({ message: RECEPTION_MESSAGES.messageRequired, expense_category: RECEPTION_MESSAGES.categoryRequired, tax_condition: RECEPTION_MESSAGES.taxConditionRequired });
    for (const m of ["2", "3"]) {
      const p = parseForm(uploadSchema, { ...base, message: m });
      expect(p.ok ? null : p.errors.message_detail).toBe(RECEPTION_MESSAGES.detailRequired);
    }
    expect(parseForm(uploadSchema, { ...base, message: "4" }).ok).toBe(true);
    expect(parseForm(processSchema, { ...base, message: "4" }).ok).toBe(false);
  });

  it("amounts must be decimals (5 places) and are shown only when not rejected and not proportionality", () => {
    const r = parseForm(uploadSchema, { ...base, tax_credit: "12,5,0", applicable_expense: "1.123456" });
    expect(r.ok ? null : r.errors).toEqual({ tax_credit: RECEPTION_MESSAGES.amountFormat, applicable_expense: RECEPTION_MESSAGES.amountFormat });
    expect(amountsShown("1", "01")).toBe(true);
    expect(amountsShown("2", "04")).toBe(true);
    expect(amountsShown("3", "01")).toBe(false);
    expect(amountsShown("1", "05")).toBe(false);
    expect(amountsShown("4", "01")).toBe(false);
    const parsed = parseForm(uploadSchema, { ...base, message: "3", message_detail: "No pedido", tax_credit: "5", applicable_expense: "6" });
    expect(parsed.ok && decisionOf(parsed.data)).toMatchObject({ message: 3, creditableTax: null, applicableExpense: null });
  });

  it("the message's amounts: typed, or derived from the tax condition; never more than the document's", () => {
    const doc = { tax: "127000.00000", total: "1277000.00000" };
    expect(messageAmounts(decision(), doc)).toEqual({ ok: true, creditableTax: "127000.00000", applicableExpense: "1150000.00000" });
    expect(messageAmounts(decision({ taxCondition: "03" }), doc)).toEqual({ ok: true, creditableTax: "127000.00000", applicableExpense: "1150000.00000" });
    expect(messageAmounts(decision({ taxCondition: "04" }), doc)).toEqual({ ok: true, creditableTax: "0.00000", applicableExpense: "1277000.00000" });
    expect(messageAmounts(decision({ taxCondition: "05" }), doc)).toEqual({ ok: true, creditableTax: null, applicableExpense: null });
    expect(messageAmounts(decision({ message: 3 }), doc)).toEqual({ ok: true, creditableTax: null, applicableExpense: null });
    expect(messageAmounts(decision({ taxCondition: "02" }), doc)).toEqual({ ok: false, errors: { _form: RECEPTION_MESSAGES.partialNeedsAmounts } });
    expect(messageAmounts(decision({ taxCondition: "02", creditableTax: "60000", applicableExpense: "1217000" }), doc)).toEqual({ ok: true, creditableTax: "60000.00000", applicableExpense: "1217000.00000" });
    expect(messageAmounts(decision({ creditableTax: "130000", applicableExpense: "1300000" }), doc)).toEqual({
      ok: false,
      errors: { tax_credit: RECEPTION_MESSAGES.creditableTooHigh("127.000,00"), applicable_expense: RECEPTION_MESSAGES.expenseTooHigh("1.277.000,00") },
    });
  });

  it("list texts: number from position 31 of the clave, status 'Pendiente' for pending rows, the month as default range", () => {
    expect(receptionNumber("50625112600310277788800100001010000054821112345678")).toBe("1000005482");
    expect(receptionStatusLabel(4, "aceptado")).toBe("Pendiente");
    expect(receptionStatusLabel(1, "esperando")).toBe("Esperando a Hacienda");
    expect(receptionStatusLabel(1, "aceptado")).toBe("aceptado");
    expect(receptionRange({}, "2026-02-10")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(receptionRange({ from: "2026-03-31", to: "2026-03-01" }, "2026-02-10")).toEqual({ from: "2026-03-01", to: "2026-03-31" });
    expect(receptionRange({ from: "nope", to: "2026-13-45" }, "2024-02-10")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
  });
});
