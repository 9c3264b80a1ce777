// The deadline to reject a received document (issue 12 item 4; docs/decisions/172).
//
// Decreto Ejecutivo 44739-H (Reglamento de comprobantes electrónicos para efectos tributarios,
// La Gaceta 210, 8 November 2024), art. 20: a receiver who does not confirm a comprobante within the
// term set by general resolution is presumed to have accepted it in full; a total or partial
// rejection must be sent to Hacienda within that term. The term in force (art. 10 of resolution
// DGT-R-48-2016 as amended by DGT-R-004-2019, kept by the resolutions that followed): the first 8
// business days of the month after the one in which the transaction took place. Business days:
// Monday to Friday except the national holidays of art. 148 of the Código de Trabajo.
//
// Pure: dates are Costa Rica calendar days as YYYY-MM-DD strings (no clock, no time zone here).

/** Business days of the following month within which a rejection must be sent. */
export const REJECTION_BUSINESS_DAYS = 8;

const DAY_MS = 86_400_000;
const dayNumber = (ymd: string) => Math.floor(Date.parse(`${ymd}T00:00:00Z`) / DAY_MS);
const ymdOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** Easter Sunday of a year (anonymous Gregorian algorithm), as YYYY-MM-DD. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Costa Rica's national holidays of a year (Código de Trabajo art. 148), as YYYY-MM-DD. */
export function costaRicaHolidays(year: number): Set<string> {
  const easter = dayNumber(easterSunday(year));
  const fixed = ["01-01", "04-11", "05-01", "07-25", "08-02", "08-15", "08-31", "09-15", "12-01", "12-25"].map((md) => `${year}-${md}`);
  return new Set([...fixed, ymdOf(easter - 3), ymdOf(easter - 2)]);
}

export function isBusinessDay(ymd: string): boolean {
  const weekday = new Date(`${ymd}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !costaRicaHolidays(Number(ymd.slice(0, 4))).has(ymd);
}

/**
 * The last day to send a rejection of a document issued on `issuedDay` (its FechaEmision as a Costa
 * Rica day): the 8th business day of the following month.
 */
export function rejectionDeadline(issuedDay: string): string {
  let year = Number(issuedDay.slice(0, 4));
  let month = Number(issuedDay.slice(5, 7)) + 1;
  if (month === 13) {
    month = 1;
    year += 1;
  }
  let n = dayNumber(`${year}-${String(month).padStart(2, "0")}-01`);
  let counted = 0;
  for (;;) {
    if (isBusinessDay(ymdOf(n))) counted++;
    if (counted === REJECTION_BUSINESS_DAYS) return ymdOf(n);
    n++;
  }
}

/** Calendar days from `today` to `deadline` (0: today is the last day; negative: it has passed). */
export function daysUntil(deadline: string, today: string): number {
  return dayNumber(deadline) - dayNumber(today);
}

/** Days left before the deadline at which the company is warned (list, dashboard and an e-mail). */
export const DEADLINE_WARNING_DAYS = 3;

/**
 * What a pending row and the dashboard say about the deadline: the days left to reject, the last day,
 * or that it passed (the document then counts as accepted: tacit acceptance).
 */
export function deadlineText(deadline: string, today: string): { text: string; urgent: boolean; passed: boolean } {
  const days = daysUntil(deadline, today);
  const shown = `${deadline.slice(8, 10)}/${deadline.slice(5, 7)}/${deadline.slice(0, 4)}`;
  if (days < 0) return { text: `Plazo vencido el ${shown}: aceptado tácitamente`, urgent: false, passed: true };
  if (days === 0) return { text: `Hoy es el último día para rechazar (${shown})`, urgent: true, passed: false };
  return { text: `${days} ${days === 1 ? "día" : "días"} para rechazar (hasta el ${shown})`, urgent: days <= DEADLINE_WARNING_DAYS, passed: false };
}

/**
 * The line over the list and on the dashboard about pending documents (null when none are pending):
 * how many, how many must be answered within DEADLINE_WARNING_DAYS and the nearest deadline.
 */
export function deadlineBanner(d: { pending: number; urgent: number; passed: number; nearest: string | null }, today: string): { text: string; urgent: boolean } | null {
  if (d.pending === 0) return null;
  const parts = [d.pending === 1 ? "1 documento recibido está pendiente de aceptar o rechazar." : `${d.pending} documentos recibidos están pendientes de aceptar o rechazar.`];
  if (d.nearest) {
    const days = daysUntil(d.nearest, today);
    const shown = `${d.nearest.slice(8, 10)}/${d.nearest.slice(5, 7)}/${d.nearest.slice(0, 4)}`;
    parts.push(days === 0 ? `Hoy (${shown}) vence el plazo para rechazar alguno.` : `El plazo más cercano para rechazar vence el ${shown} (${days} ${days === 1 ? "día" : "días"}).`);
  }
  if (d.urgent > 1) parts.push(`${d.urgent} vencen en ${DEADLINE_WARNING_DAYS} días o menos.`);
  if (d.passed) parts.push(d.passed === 1 ? "1 ya pasó su plazo y se tiene por aceptado (aceptación tácita)." : `${d.passed} ya pasaron su plazo y se tienen por aceptados (aceptación tácita).`);
  return { text: parts.join(" "), urgent: d.urgent > 0 };
}
