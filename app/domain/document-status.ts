/**
 * Payment status and due state of a document, worded exactly as spec part 2 §4, both from what is
 * due on it (app/domain/receivables.ts: payments, credit and debit notes). Pure: "today" is the
 * Costa Rica calendar day, passed in as YYYY-MM-DD.
 */
import { dec } from "./decimal.ts";
import { creditedInFull, owes, type Receivable } from "./receivables.ts";

export type PaymentStatus = "No pagado" | "Pago Parcial" | "Pagado" | "Con nota de credito";

export interface StatusInput extends Receivable {
  haciendaStatus?: string | null;
  /** YYYY-MM-DD or null (cash documents). */
  expirationDate?: string | null;
}

/**
 * 'Con nota de credito' when credit notes alone cancel it, 'Pagado' when nothing is due (payments,
 * or payments and credit notes together), 'Pago Parcial' when something was paid and something is
 * due, else 'No pagado'. Null when rejected.
 */
export function paymentStatus(d: StatusInput): PaymentStatus | null {
  if (d.haciendaStatus === "rechazado") return null;
  if (creditedInFull(d)) return "Con nota de credito";
  if (!owes(d)) return "Pagado";
  if (dec(d.paymentAmount || "0").gt(0)) return "Pago Parcial";
  return "No pagado";
}

function dayNumber(ymd: string): number {
  const [y, m, d] = ymd.slice(0, 10).split("-").map(Number);
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** 'Vencida hace N dias' / 'Vencida hace 1 dia' / 'Vence hoy', only while something is due and it is not rejected. */
export function dueState(d: StatusInput, todayYmd: string): string | null {
  if (!d.expirationDate) return null;
  if (d.haciendaStatus === "rechazado" || !owes(d)) return null;
  const days = dayNumber(todayYmd) - dayNumber(d.expirationDate);
  if (days > 0) return `Vencida hace ${days} ${days === 1 ? "dia" : "dias"}`;
  if (days === 0) return "Vence hoy";
  return null;
}

/** The Costa Rica calendar day of an instant (YYYY-MM-DD). */
export function costaRicaDay(at: Date): string {
  return new Date(at.getTime() - 6 * 3600_000).toISOString().slice(0, 10);
}

/** Adds days to a YYYY-MM-DD date. */
export function addDays(ymd: string, days: number): string {
  return new Date((dayNumber(ymd) + days) * 86_400_000).toISOString().slice(0, 10);
}

/** Hacienda status as shown: none for quotations, recurring documents and no_hacienda companies. */
export function haciendaStatusLabel(status: string | null | undefined): string | null {
  if (!status || status === "no aplica") return null;
  return status;
}

/**
 * The line that tells the user how many documents wait for Hacienda (sent by the jobs, nothing to
 * do); null when none wait.
 */
export function pendingText(p: { porEnviar: number; procesando: number }): string | null {
  const total = p.porEnviar + p.procesando;
  if (total === 0) return null;
  const what = total === 1 ? "1 documento espera" : `${total} documentos esperan`;
  const parts = [p.porEnviar ? `${p.porEnviar} por enviar` : "", p.procesando ? `${p.procesando} procesando` : ""].filter(Boolean).join(", ");
  return `${what} respuesta de Hacienda (${parts}). Se envían solos cuando Hacienda responde; no hace falta emitirlos de nuevo.`;
}

/**
 * Whether an invoice may get a payment reminder on `today` (part 2 §4): due today or earlier,
 * something still due on it (receivables.ts) and not rejected. The job sends it by itself the day
 * after the due date when the invoice asked for one.
 */
export function reminderAllowed(d: Receivable & { kind: string; status: string; expirationDate: string | null }, today: string): boolean {
  return d.kind === "fe" && d.status !== "rechazado" && !!d.expirationDate && d.expirationDate <= today && owes(d);
}
