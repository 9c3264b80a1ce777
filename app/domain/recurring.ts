/**
 * Recurring invoices (spec part 2 "Recurring invoices", §2 recurrence block, §4, §5, §9 cycles):
 * the cycles, the next send date of a period, the first period on or after a day (creating, editing
 * and resuming never produce back-dated invoices), and the recurrence block of the shared form as
 * typed. Pure. docs/decisions/072-recurring-exactly-once.md, 091-recurring-screens.md.
 */
import type { FieldError } from "./document-draft.ts";
import { RECURRING_MESSAGES } from "./recurring-texts.ts";

/** Stored cycles: the §9 common ones (biweekly = every 15 days) and the custom units (every N). */
export type Cycle = "weekly" | "biweekly" | "monthly" | "quarterly" | "yearly" | "days" | "weeks" | "months" | "years";
export const CYCLES: readonly Cycle[] = ["weekly", "biweekly", "monthly", "quarterly", "yearly", "days", "weeks", "months", "years"];

/** The form's "common cycle" select (§9): personalizado (custom, id 1), cada mes, cada 15 dias, cada 3 meses, cada año. */
export const COMMON_CYCLES = [
  { value: "custom", label: "Personalizado" },
  { value: "monthly", label: "Cada mes" },
  { value: "biweekly", label: "Cada 15 dias" },
  { value: "quarterly", label: "Cada 3 meses" },
  { value: "yearly", label: "Cada año" },
] as const;
export type CommonCycle = (typeof COMMON_CYCLES)[number]["value"];

/** Custom units (§9: dias, semanas, meses, años). */
export const CUSTOM_UNITS = [
  { value: "days", label: "Dias" },
  { value: "weeks", label: "Semanas" },
  { value: "months", label: "Meses" },
  { value: "years", label: "Años" },
] as const;
export type CustomUnit = (typeof CUSTOM_UNITS)[number]["value"];

export { RECURRING_MESSAGES };

/** Plain number of the recurring counter (document_counters doc_type 'fr', spec "Consecutives"). */
export const RECURRING_COUNTER = "fr";

function addMonths(anchor: string, from: string, months: number): string {
  const [fy, fm] = from.split("-").map(Number);
  const day = Number(anchor.slice(8, 10));
  const total = fy * 12 + (fm - 1) + months;
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${y}-${String(m).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
}

function addDays(ymd: string, days: number): string {
  const t = Date.parse(`${ymd}T00:00:00Z`);
  return new Date(t + days * 86_400_000).toISOString().slice(0, 10);
}

/** The send date after `from` (YYYY-MM-DD); month cycles keep the start day's day of month (clamped). */
export function nextSendDate(from: string, cycle: Cycle, every: number, startDay: string): string {
  const n = Math.max(1, Math.floor(every || 1));
  switch (cycle) {
    case "weekly":
      return addDays(from, 7);
    case "biweekly":
      return addDays(from, 15);
    case "days":
      return addDays(from, n);
    case "weeks":
      return addDays(from, 7 * n);
    case "monthly":
      return addMonths(startDay, from, 1);
    case "quarterly":
      return addMonths(startDay, from, 3);
    case "months":
      return addMonths(startDay, from, n);
    case "yearly":
      return addMonths(startDay, from, 12);
    case "years":
      return addMonths(startDay, from, 12 * n);
  }
}

/**
 * The first period of the series (start day, then every cycle step from `from`) that falls on or
 * after `notBefore`. Periods before it are skipped, never issued late.
 */
export function firstPeriodOnOrAfter(from: string, schedule: { cycle: Cycle; every: number; startDay: string }, notBefore: string): string {
  let day = from;
  // Day-based cycles jump close in one step (a daily series paused for years is not walked day by day).
  const stepDays = schedule.cycle === "days" ? schedule.every : schedule.cycle === "weeks" ? 7 * schedule.every : schedule.cycle === "weekly" ? 7 : schedule.cycle === "biweekly" ? 15 : 0;
  if (stepDays > 0 && day < notBefore) {
    const gap = (Date.parse(`${notBefore}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000;
    day = addDays(day, Math.max(0, Math.floor(gap / stepDays) - 1) * stepDays);
  }
  for (let guard = 0; day < notBefore && guard < 10_000; guard++) day = nextSendDate(day, schedule.cycle, schedule.every, schedule.startDay);
  return day;
}

/**
 * Resuming a paused recurring invoice: a next send date already in the past moves to the first
 * period on or after today (the missed periods are skipped: no burst of back-dated invoices); a
 * date today or later is kept.
 */
export function resumedSendDate(row: { nextSendDate: string; cycle: Cycle; every: number; startDay: string }, today: string): string {
  return firstPeriodOnOrAfter(row.nextSendDate, row, today);
}

/**
 * The next send date after saving a schedule: the first period from the start day on or after
 * today and after the last period already sent (that period has its invoice: never again).
 */
export function scheduledSendDate(schedule: { cycle: Cycle; every: number; startDay: string }, today: string, lastSentDate: string | null): string {
  const afterLast = lastSentDate ? addDays(lastSentDate, 1) : today;
  return firstPeriodOnOrAfter(schedule.startDay, schedule, afterLast > today ? afterLast : today);
}

/** The recurrence block and the payment-reminder checkbox, as typed. */
export interface RecurrenceFormValues {
  startDay: string;
  commonCycle: string;
  unit: string;
  every: string;
  remindPayment: boolean;
}

export interface Recurrence {
  startDay: string;
  cycle: Cycle;
  every: number;
  remindPayment: boolean;
}

export function blankRecurrence(today: string): RecurrenceFormValues {
  // §9: "default every 1 day" (the custom fields); the common cycle is chosen by the user.
  return { startDay: today, commonCycle: "", unit: "days", every: "1", remindPayment: false };
}

export function readRecurrenceForm(values: Record<string, string | undefined>): RecurrenceFormValues {
  return {
    startDay: (values.recurring_start_day ?? "").trim().slice(0, 10),
    commonCycle: (values.common_cycle ?? "").trim().slice(0, 20),
    unit: (values.recurring_type ?? "").trim().slice(0, 20),
    every: (values.recurring_cycle ?? "").trim().slice(0, 10),
    remindPayment: values.remember_payment === "on",
  };
}

function validDay(ymd: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(ymd)) return false;
  const d = new Date(`${ymd}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd;
}

/**
 * §5: start date and common cycle required; unit and cycle (an integer ≥ 1) only for the custom
 * cycle. Errors are keyed `recurrence.<field>`.
 */
export function recurrenceOf(v: RecurrenceFormValues): { recurrence: Recurrence | null; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!validDay(v.startDay)) errors.push({ field: "recurrence.startDay", message: RECURRING_MESSAGES.startDayRequired });
  const common = COMMON_CYCLES.find((c) => c.value === v.commonCycle);
  if (!common) errors.push({ field: "recurrence.commonCycle", message: RECURRING_MESSAGES.cycleRequired });
  let cycle: Cycle | null = null;
  let every = 1;
  if (common?.value === "custom") {
    if (!CUSTOM_UNITS.some((u) => u.value === v.unit)) errors.push({ field: "recurrence.unit", message: RECURRING_MESSAGES.unitRequired });
    else cycle = v.unit as Cycle;
    if (!/^\d{1,4}$/.test(v.every) || Number(v.every) < 1) errors.push({ field: "recurrence.every", message: RECURRING_MESSAGES.everyInteger });
    else every = Number(v.every);
  } else if (common) cycle = common.value;
  if (errors.length || !cycle) return { recurrence: null, errors };
  return { recurrence: { startDay: v.startDay, cycle, every, remindPayment: v.remindPayment }, errors };
}

/** A schedule given directly (API, job tests): the same rules as the form's block. */
export function checkSchedule(s: { startDay: string; cycle: string; every?: number }): FieldError[] {
  const errors: FieldError[] = [];
  if (!validDay(s.startDay)) errors.push({ field: "recurrence.startDay", message: RECURRING_MESSAGES.startDayRequired });
  if (!(CYCLES as readonly string[]).includes(s.cycle)) errors.push({ field: "recurrence.commonCycle", message: RECURRING_MESSAGES.cycleRequired });
  if (s.every !== undefined && !(Number.isInteger(s.every) && s.every >= 1 && s.every <= 9999)) errors.push({ field: "recurrence.every", message: RECURRING_MESSAGES.everyInteger });
  return errors;
}

/** A stored schedule back into the form (weekly, not offered by the form, is custom every 1 week). */
export function recurrenceFormOf(r: { startDay: string; cycle: string; every: number; remindPayment: boolean }): RecurrenceFormValues {
  const common = COMMON_CYCLES.find((c) => c.value === r.cycle && c.value !== "custom");
  if (common) return { startDay: r.startDay, commonCycle: common.value, unit: "days", every: "1", remindPayment: r.remindPayment };
  if (r.cycle === "weekly") return { startDay: r.startDay, commonCycle: "custom", unit: "weeks", every: "1", remindPayment: r.remindPayment };
  return { startDay: r.startDay, commonCycle: "custom", unit: r.cycle, every: String(r.every), remindPayment: r.remindPayment };
}

/** How the list shows a cycle ("Cada mes", "Cada 2 semanas"…). */
export function cycleLabel(cycle: string, every: number): string {
  const common = COMMON_CYCLES.find((c) => c.value === cycle && c.value !== "custom");
  if (common) return common.label;
  if (cycle === "weekly") return "Cada semana";
  const unit = CUSTOM_UNITS.find((u) => u.value === cycle)?.label.toLowerCase() ?? cycle;
  return `Cada ${every} ${unit}`;
}

/** Which recurring screen a URL asks for (spec part 2 §2 routes). */
export type RecurringRequest =
  | { mode: "new"; clientId: string | null }
  | { mode: "from-invoice"; documentId: number }
  | { mode: "edit"; id: number };

/**
 * /recurring-new (?id= preselects a client), /new-recurring/invoice/:id, /edit-recurring/recurring/:id;
 * null for any other URL, "invalid" for a wrong type or id ('El tipo de documento a crear es invalido').
 * Prefixes are matched: client-side navigations request `/recurring-new.data`.
 */
export function recurringRequestOf(url: URL, params: Record<string, string | undefined>): RecurringRequest | "invalid" | null {
  const path = url.pathname;
  const id = /^\d{1,10}$/.test(params.document_id ?? "") ? Number(params.document_id) : NaN;
  if (path.startsWith("/recurring-new")) {
    const clientId = url.searchParams.get("id");
    return { mode: "new", clientId: clientId && /^\d{1,10}$/.test(clientId) ? clientId : null };
  }
  if (path.startsWith("/new-recurring/")) {
    if (params.document_type !== "invoice" || !(id > 0)) return "invalid";
    return { mode: "from-invoice", documentId: id };
  }
  if (path.startsWith("/edit-recurring/")) {
    if (params.document_type !== "recurring" || !(id > 0)) return "invalid";
    return { mode: "edit", id };
  }
  return null;
}
