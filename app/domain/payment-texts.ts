// Payments' texts and rules without zod (spec part 2 "Payments, banks, reminders"): which documents
// take payments, the default description, dates as written, where the payment form returns to. The
// lists and the payment form's page import these and ship no schema code (the JavaScript budget,
// decisions 166 and 155); payments.ts re-exports them. Pure: no I/O, "today" passed in.
import { owes, type Receivable } from "./receivables.ts";

export const PAYMENT_MESSAGES = {
  recorded: "Pago registrado correctamente",
  deleted: "Pago eliminado",
  bankAdded: "Banco agregado correctamente.",
  bankUpdated: "Banco actualizado correctamente.",
  empty: "No se han registrado pagos.",
  noBanks: "No se han registrado bancos.",
  noBank: "S/B",
  confirmDelete: "¿ Deseas eliminar el pago ?",
  cancelled: "Acción cancelada",
  problem: "Ocurrio un problema",
  notFound: "No encontrado",
  invalid: "invalido",
  readOnly: "Su plan es de solo lectura: no puede registrar pagos.",
  amountRequired: "El monto es obligatorio",
  amountFormat: "El monto debe ser un número con máximo 5 decimales (por ejemplo 1.500,50)",
  amountPositive: "El monto debe ser mayor que cero",
  formRequired: "La forma de pago es obligatoria",
  currencyRequired: "La moneda es obligatoria",
  currencyMismatch: "El pago se registra en la moneda del documento",
  dateRequired: "La fecha es obligatoria",
  dateInvalid: "La fecha no es válida",
  descriptionRequired: "La descripción es obligatoria",
  bankInvalid: "El banco seleccionado no existe",
  bankNameRequired: "El nombre del banco es obligatorio",
  bankDuplicate: "Ya existe un banco con ese nombre",
  rejected: "No se puede registrar un pago a un documento rechazado por Hacienda.",
  notPayable: "Este documento no admite pagos.",
  paidInFull: "Este documento ya está pagado.",
  creditedInFull: "Este documento no tiene saldo pendiente: sus notas de crédito lo anulan.",
} as const;

/** 'El monto no puede ser mayor al saldo pendiente (₡1.000,00)'. */
export const overDueMessage = (due: string) => `El monto no puede ser mayor al saldo pendiente (${due})`;

/** Kinds that take payments: invoices, tickets, notes (spec §4) and purchase invoices (§4, "simplified"). */
export const PAYABLE_KINDS = ["fe", "te", "nc", "nd", "fec"] as const;
export const isPayableKind = (kind: string) => (PAYABLE_KINDS as readonly string[]).includes(kind);

/**
 * The pay button (spec §4): something is due (receivables.ts: payments, credit and debit notes
 * counted), permission is not 5, a payable kind, and (§4 payment status) not rejected by Hacienda.
 */
export function canPay(d: Receivable & { kind: string; status: string }, permission: number): boolean {
  return permission !== 5 && isPayableKind(d.kind) && d.status !== "rechazado" && owes(d);
}

/** The default description: 'Pago factura Nº ' plus the document's reference. */
export const defaultDescription = (reference: string) => `Pago factura Nº ${reference}`;

/** YYYY-MM-DD → DD/MM/YYYY, as written (a calendar day has no time zone). */
export function formatDay(ymd: string): string {
  const [y, m, d] = ymd.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}

/**
 * Where the payment form goes back to after saving or cancelling: the lists and screens that offer
 * 'Pagar' (invoices, purchase invoices, the detail viewer, the client detail, the payments list), an
 * the list's page, tab, filter and search; anything else falls back to /payments (never another site).
 */
const RETURNS = [/^\/payments$/, /^\/invoices$/, /^\/simples$/, /^\/tickets$/, /^\/notes$/, /^\/detail\/(?:invoice|ticket|note|simple)\/\d{1,9}$/, /^\/client-detail\/\d{1,9}$/];
export function paymentReturn(raw: unknown): string {
  const s = typeof raw === "string" ? raw : "";
  const [path, query = ""] = s.split("?", 2);
  if (!RETURNS.some((re) => re.test(path))) return "/payments";
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const key of ["page", "tab", "filter"]) {
    const v = params.get(key);
    if (v && /^[a-z0-9-]{1,20}$/i.test(v)) kept.set(key, v);
  }
  const search = params.get("search");
  if (search && search.length <= 100) kept.set("search", search);
  const q = kept.toString();
  return q ? `${path}?${q}` : path;
}

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
