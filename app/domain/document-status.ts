/**
 * Payment status and due state of a document, worded exactly as spec part 2 §4. Pure: "today" is
 * the Costa Rica calendar day, passed in as YYYY-MM-DD.
 */
import { dec } from "./decimal.ts";

export type PaymentStatus = "No pagado" | "Pago Parcial" | "Pagado" | "Con nota de credito";

export interface StatusInput {
  total: string;
  paymentAmount: string;
  /** Sum of the credit notes that reference the document. */
  creditNoteTotal?: string;
  haciendaStatus?: string | null;
  /** YYYY-MM-DD or null (cash documents). */
  expirationDate?: string | null;
}

/** 'Con nota de credito' first (credit notes cover the total), then paid ≥ total, 0 < paid, nothing paid. Null when rejected. */
export function paymentStatus(d: StatusInput): PaymentStatus | null {
  if (d.haciendaStatus === "rechazado") return null;
  const total = dec(d.total);
  const paid = dec(d.paymentAmount || "0");
  const nc = dec(d.creditNoteTotal || "0");
  if (nc.gt(0) && total.lte(nc)) return "Con nota de credito";
  if (paid.gte(total)) return "Pagado";
  if (paid.gt(0)) return "Pago Parcial";
  return "No pagado";
}

function dayNumber(ymd: string): number {
  const [y, m, d] = ymd.slice(0, 10).split("-").map(Number);
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** 'Vencida hace N dias' / 'Vencida hace 1 dia' / 'Vence hoy', only when unpaid and credit notes do not cover the total. */
export function dueState(d: StatusInput, todayYmd: string): string | null {
  if (!d.expirationDate) return null;
  const ps = paymentStatus(d);
  if (ps === null || ps === "Pagado" || ps === "Con nota de credito") return null;
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
 * Whether an invoice may get a payment reminder on `today` (part 2 §4): due today or earlier, unpaid
 * (payments and credit notes both below the total) and not rejected. The job sends it by itself the
 * day after the due date when the invoice asked for one.
 */
export function reminderAllowed(d: { kind: string; status: string; expirationDate: string | null; paymentAmount: string; creditNoteTotal: string; total: string }, today: string): boolean {
  const total = Number(d.total);
  return d.kind === "fe" && d.status !== "rechazado" && !!d.expirationDate && d.expirationDate <= today && Number(d.paymentAmount) < total && Number(d.creditNoteTotal) < total;
}
