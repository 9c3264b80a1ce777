import { describe, expect, it } from "vitest";
import { addDays, costaRicaDay, dueState, haciendaStatusLabel, paymentStatus, pendingText, reminderAllowed } from "./document-status.ts";

const notes = { creditNoteTotal: "0", debitNoteTotal: "0" };

describe("paymentStatus (part 2 §4)", () => {
  it("No pagado, Pago Parcial, Pagado", () => {
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "0" })).toBe("No pagado");
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "0.00001" })).toBe("Pago Parcial");
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "999.99999" })).toBe("Pago Parcial");
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "1000" })).toBe("Pagado");
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "1500" })).toBe("Pagado");
  });
  it("Con nota de credito when credit notes cover the total", () => {
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "0", creditNoteTotal: "1000" })).toBe("Con nota de credito");
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "0", creditNoteTotal: "999" })).toBe("No pagado");
    expect(paymentStatus({ ...notes, total: "0", paymentAmount: "0" })).toBe("Pagado");
  });
  it("counts credit and debit notes: a partial credit note and the rest paid is Pagado; a debit note reopens it", () => {
    expect(paymentStatus({ total: "1000", paymentAmount: "700", creditNoteTotal: "300", debitNoteTotal: "0" })).toBe("Pagado");
    expect(paymentStatus({ total: "1000", paymentAmount: "0", creditNoteTotal: "300", debitNoteTotal: "0" })).toBe("No pagado");
    expect(paymentStatus({ total: "1000", paymentAmount: "100", creditNoteTotal: "300", debitNoteTotal: "0" })).toBe("Pago Parcial");
    expect(paymentStatus({ total: "1000", paymentAmount: "1000", creditNoteTotal: "0", debitNoteTotal: "50" })).toBe("Pago Parcial");
    expect(paymentStatus({ total: "1000", paymentAmount: "0", creditNoteTotal: "1000", debitNoteTotal: "50" })).toBe("No pagado");
    expect(paymentStatus({ total: "1000", paymentAmount: "0", creditNoteTotal: "1050", debitNoteTotal: "50" })).toBe("Con nota de credito");
  });
  it("not shown when rejected", () => {
    expect(paymentStatus({ ...notes, total: "1000", paymentAmount: "0", haciendaStatus: "rechazado" })).toBeNull();
  });
});

describe("dueState (part 2 §4)", () => {
  const base = { ...notes, total: "1000", paymentAmount: "0", expirationDate: "2026-11-20" };
  it("overdue by N days, one day, due today, not yet due", () => {
    expect(dueState(base, "2026-11-25")).toBe("Vencida hace 5 dias");
    expect(dueState(base, "2026-11-21")).toBe("Vencida hace 1 dia");
    expect(dueState(base, "2026-11-20")).toBe("Vence hoy");
    expect(dueState(base, "2026-11-19")).toBeNull();
  });
  it("only when unpaid and not covered by credit notes", () => {
    expect(dueState({ ...base, paymentAmount: "500" }, "2026-11-25")).toBe("Vencida hace 5 dias");
    expect(dueState({ ...base, paymentAmount: "1000" }, "2026-11-25")).toBeNull();
    expect(dueState({ ...base, creditNoteTotal: "1000" }, "2026-11-25")).toBeNull();
    expect(dueState({ ...base, expirationDate: null }, "2026-11-25")).toBeNull();
  });
  it("a partial credit note with the rest paid is not overdue; a debit note left unpaid is", () => {
    expect(dueState({ ...base, paymentAmount: "600", creditNoteTotal: "400" }, "2026-11-25")).toBeNull();
    expect(dueState({ ...base, paymentAmount: "1000", debitNoteTotal: "10" }, "2026-11-25")).toBe("Vencida hace 5 dias");
  });
  it("crosses month and year ends", () => {
    expect(dueState({ ...base, expirationDate: "2026-12-31" }, "2027-01-02")).toBe("Vencida hace 2 dias");
  });
});

describe("reminderAllowed", () => {
  const inv = { ...notes, kind: "fe", status: "aceptado", total: "1000", paymentAmount: "0", expirationDate: "2026-11-20" };
  it("due today or earlier and something due; never once credit notes or payments cover it", () => {
    expect(reminderAllowed(inv, "2026-11-20")).toBe(true);
    expect(reminderAllowed(inv, "2026-11-19")).toBe(false);
    expect(reminderAllowed({ ...inv, creditNoteTotal: "1000" }, "2026-11-25")).toBe(false);
    expect(reminderAllowed({ ...inv, creditNoteTotal: "400", paymentAmount: "600" }, "2026-11-25")).toBe(false);
    expect(reminderAllowed({ ...inv, creditNoteTotal: "400", paymentAmount: "500" }, "2026-11-25")).toBe(true);
    expect(reminderAllowed({ ...inv, status: "rechazado" }, "2026-11-25")).toBe(false);
    expect(reminderAllowed({ ...inv, kind: "te" }, "2026-11-25")).toBe(false);
  });
});

describe("helpers", () => {
  it("Costa Rica day and addDays", () => {
    expect(costaRicaDay(new Date("2026-11-22T05:59:00Z"))).toBe("2026-11-21");
    expect(costaRicaDay(new Date("2026-11-22T06:00:00Z"))).toBe("2026-11-22");
    expect(addDays("2026-11-22", 30)).toBe("2026-12-22");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });
  it("status label", () => {
    expect(haciendaStatusLabel("no aplica")).toBeNull();
    expect(haciendaStatusLabel("aceptado")).toBe("aceptado");
  });
});

describe("pendingText", () => {
  it("is null when nothing waits, and counts each state otherwise", () => {
    expect(pendingText({ porEnviar: 0, procesando: 0 })).toBeNull();
    expect(pendingText({ porEnviar: 1, procesando: 0 })).toMatch(/^1 documento espera respuesta de Hacienda \(1 por enviar\)\./);
    expect(pendingText({ porEnviar: 2, procesando: 3 })).toMatch(/^5 documentos esperan respuesta de Hacienda \(2 por enviar, 3 procesando\)\./);
  });
});
