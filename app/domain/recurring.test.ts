import { describe, expect, it } from "vitest";
import { checkSchedule, cycleLabel, firstPeriodOnOrAfter, readRecurrenceForm, recurrenceFormOf, recurrenceOf, recurringRequestOf, resumedSendDate, scheduledSendDate } from "./recurring.ts";

describe("periods", () => {
  it("first period on or after a day: the day itself when it is one, else the next one of the series", () => {
    const monthly = { cycle: "monthly" as const, every: 1, startDay: "2026-01-31" };
    expect(firstPeriodOnOrAfter("2026-01-31", monthly, "2026-01-31")).toBe("2026-01-31");
    expect(firstPeriodOnOrAfter("2026-01-31", monthly, "2026-03-01")).toBe("2026-03-31");
    expect(firstPeriodOnOrAfter("2026-01-31", monthly, "2026-04-30")).toBe("2026-04-30");
    expect(firstPeriodOnOrAfter("2026-01-31", monthly, "2026-05-01")).toBe("2026-05-31");
  });

  it("day-based cycles jump (a daily series paused for years) and land on the series", () => {
    expect(firstPeriodOnOrAfter("2020-01-01", { cycle: "days", every: 1, startDay: "2020-01-01" }, "2026-11-23")).toBe("2026-11-23");
    expect(firstPeriodOnOrAfter("2020-01-01", { cycle: "days", every: 10, startDay: "2020-01-01" }, "2020-01-25")).toBe("2020-01-31");
    // 2026-01-05 is a Monday: every 2 weeks.
    expect(firstPeriodOnOrAfter("2026-01-05", { cycle: "weeks", every: 2, startDay: "2026-01-05" }, "2026-11-23")).toBe("2026-11-23");
    expect(firstPeriodOnOrAfter("2026-01-05", { cycle: "weeks", every: 2, startDay: "2026-01-05" }, "2026-11-24")).toBe("2026-12-07");
    expect(firstPeriodOnOrAfter("2026-01-01", { cycle: "biweekly", every: 1, startDay: "2026-01-01" }, "2026-01-17")).toBe("2026-01-31");
  });

  it("resuming: a past date moves forward to the first period on or after today; today or later is kept", () => {
    const row = { cycle: "monthly" as const, every: 1, startDay: "2026-01-15" };
    expect(resumedSendDate({ ...row, nextSendDate: "2026-03-15" }, "2026-11-23")).toBe("2026-12-15");
    expect(resumedSendDate({ ...row, nextSendDate: "2026-03-15" }, "2026-11-15")).toBe("2026-11-15");
    expect(resumedSendDate({ ...row, nextSendDate: "2027-01-15" }, "2026-11-23")).toBe("2027-01-15");
  });

  it("a saved schedule starts on or after today and after the last period sent", () => {
    const s = { cycle: "days" as const, every: 10, startDay: "2026-11-01" };
    expect(scheduledSendDate(s, "2026-11-21", null)).toBe("2026-11-21");
    expect(scheduledSendDate(s, "2026-11-21", "2026-11-21")).toBe("2026-12-01");
    expect(scheduledSendDate({ ...s, startDay: "2027-02-01" }, "2026-11-21", null)).toBe("2027-02-01");
  });
});

describe("the recurrence block", () => {
  const typed = (over: Record<string, string> = {}) => readRecurrenceForm({ recurring_start_day: "2026-11-23", common_cycle: "monthly", ...over });

  it("common cycles need no unit; custom needs a unit and an integer ≥ 1", () => {
    expect(recurrenceOf(typed())).toEqual({ recurrence: { startDay: "2026-11-23", cycle: "monthly", every: 1, remindPayment: false }, errors: [] });
    expect(recurrenceOf(typed({ common_cycle: "biweekly", recurring_cycle: "x" })).recurrence?.cycle).toBe("biweekly");
    expect(recurrenceOf(typed({ common_cycle: "custom", recurring_type: "years", recurring_cycle: "2", remember_payment: "on" })).recurrence).toEqual({ startDay: "2026-11-23", cycle: "years", every: 2, remindPayment: true });
    expect(recurrenceOf(typed({ common_cycle: "custom", recurring_type: "weekly", recurring_cycle: "1.5" })).errors.map((e) => e.field)).toEqual(["recurrence.unit", "recurrence.every"]);
    expect(recurrenceOf(typed({ common_cycle: "custom", recurring_type: "days", recurring_cycle: "0" })).errors).toEqual([{ field: "recurrence.every", message: "El ciclo debe ser un número entero mayor o igual a 1." }]);
  });

  it("start day and cycle required; impossible dates refused", () => {
    expect(recurrenceOf(typed({ recurring_start_day: "", common_cycle: "" })).errors).toEqual([
      { field: "recurrence.startDay", message: "Indique la fecha de inicio." },
      { field: "recurrence.commonCycle", message: "Indique el ciclo." },
    ]);
    expect(recurrenceOf(typed({ recurring_start_day: "2026-02-29" })).errors[0]?.field).toBe("recurrence.startDay");
    expect(recurrenceOf(typed({ common_cycle: "weekly" })).errors[0]?.field).toBe("recurrence.commonCycle");
  });

  it("stored schedules back into the block, and their labels", () => {
    expect(recurrenceFormOf({ startDay: "2026-11-23", cycle: "quarterly", every: 1, remindPayment: true })).toEqual({ startDay: "2026-11-23", commonCycle: "quarterly", unit: "days", every: "1", remindPayment: true });
    expect(recurrenceFormOf({ startDay: "2026-11-23", cycle: "months", every: 2, remindPayment: false })).toMatchObject({ commonCycle: "custom", unit: "months", every: "2" });
    expect(recurrenceFormOf({ startDay: "2026-11-23", cycle: "weekly", every: 1, remindPayment: false })).toMatchObject({ commonCycle: "custom", unit: "weeks", every: "1" });
    expect(cycleLabel("biweekly", 1)).toBe("Cada 15 dias");
    expect(cycleLabel("weeks", 3)).toBe("Cada 3 semanas");
  });

  it("schedules given directly follow the same rules", () => {
    expect(checkSchedule({ startDay: "2026-11-23", cycle: "monthly" })).toEqual([]);
    expect(checkSchedule({ startDay: "x", cycle: "hourly", every: 0 }).map((e) => e.field)).toEqual(["recurrence.startDay", "recurrence.commonCycle", "recurrence.every"]);
  });
});

describe("recurringRequestOf", () => {
  const u = (p: string) => new URL(`http://x${p}`);
  it("the three screens, their ids and types", () => {
    expect(recurringRequestOf(u("/recurring-new?id=7"), {})).toEqual({ mode: "new", clientId: "7" });
    expect(recurringRequestOf(u("/recurring-new.data?id=abc"), {})).toEqual({ mode: "new", clientId: null });
    expect(recurringRequestOf(u("/new-recurring/invoice/5"), { document_type: "invoice", document_id: "5" })).toEqual({ mode: "from-invoice", documentId: 5 });
    expect(recurringRequestOf(u("/new-recurring/ticket/5"), { document_type: "ticket", document_id: "5" })).toBe("invalid");
    expect(recurringRequestOf(u("/edit-recurring/recurring/9"), { document_type: "recurring", document_id: "9" })).toEqual({ mode: "edit", id: 9 });
    expect(recurringRequestOf(u("/edit-recurring/recurring/x"), { document_type: "recurring", document_id: "x" })).toBe("invalid");
    expect(recurringRequestOf(u("/new-invoice"), {})).toBeNull();
  });
});
