import { describe, expect, it } from "vitest";
import { costaRicaHolidays, daysUntil, deadlineBanner, deadlineText, easterSunday, isBusinessDay, rejectionDeadline } from "./reception-deadline.ts";

describe("the deadline to reject a received document (8 business days of the next month)", () => {
  it("Easter, and the holy days it moves", () => {
    expect(easterSunday(2025)).toBe("2025-04-20");
    expect(easterSunday(2026)).toBe("2026-04-05");
    expect(easterSunday(2027)).toBe("2027-03-28");
    const h = costaRicaHolidays(2026);
    expect(h.has("2026-04-02")).toBe(true); // Jueves Santo
    expect(h.has("2026-04-03")).toBe(true); // Viernes Santo
    expect(h.has("2026-12-01")).toBe(true); // Abolición del Ejército
    expect(isBusinessDay("2026-12-02")).toBe(true);
    expect(isBusinessDay("2026-12-05")).toBe(false); // Saturday
  });

  it("counts business days from the first of the next month, skipping weekends and holidays", () => {
    // December 2026: the 1st is a holiday (Tuesday); the 8th business day is Friday the 11th.
    expect(rejectionDeadline("2026-11-15")).toBe("2026-12-11");
    expect(rejectionDeadline("2026-11-01")).toBe("2026-12-11");
    expect(rejectionDeadline("2026-11-30")).toBe("2026-12-11");
    // April 2026: Holy Thursday and Good Friday are the 2nd and 3rd.
    expect(rejectionDeadline("2026-03-10")).toBe("2026-04-14");
    // Across the year: 1 January 2027 is a Friday holiday.
    expect(rejectionDeadline("2026-12-20")).toBe("2027-01-13");
  });

  it("says how many days are left, the last day, or that it passed (tacit acceptance)", () => {
    expect(daysUntil("2026-12-11", "2026-12-08")).toBe(3);
    expect(deadlineText("2026-12-11", "2026-11-25")).toEqual({ text: "16 días para rechazar (hasta el 11/12/2026)", urgent: false, passed: false });
    expect(deadlineText("2026-12-11", "2026-12-10")).toEqual({ text: "1 día para rechazar (hasta el 11/12/2026)", urgent: true, passed: false });
    expect(deadlineText("2026-12-11", "2026-12-11")).toEqual({ text: "Hoy es el último día para rechazar (11/12/2026)", urgent: true, passed: false });
    expect(deadlineText("2026-12-11", "2026-12-12")).toEqual({ text: "Plazo vencido el 11/12/2026: aceptado tácitamente", urgent: false, passed: true });
  });

  it("the banner of the list and the dashboard", () => {
    expect(deadlineBanner({ pending: 0, urgent: 0, passed: 0, nearest: null }, "2026-12-01")).toBeNull();
    expect(deadlineBanner({ pending: 3, urgent: 2, passed: 1, nearest: "2026-12-11" }, "2026-12-09")).toEqual({
      text: "3 documentos recibidos están pendientes de aceptar o rechazar. El plazo más cercano para rechazar vence el 11/12/2026 (2 días). 2 vencen en 3 días o menos. 1 ya pasó su plazo y se tiene por aceptado (aceptación tácita).",
      urgent: true,
    });
  });
});
