/**
 * Quotations (spec part 2 "Quotations", §4 "Quotation", §8): the texts, the screen heading built
 * from the company's custom quotation name, and the invoice a quotation converts into. Pure.
 * docs/decisions/090-quotations.md.
 */
import type { DocumentDraft, FieldError } from "./document-draft.ts";

export const QUOTATION_MESSAGES = {
  empty: "No hay Cotizaciones",
  confirmConvert: "¿ Deseas convertir a factura ?",
  confirmDelete: "¿ Deseas eliminar la cotización ?",
  converted: "Cotización convertida correctamente",
  updated: "Actualizada correctamente",
  deleted: "Cotización eliminada",
  cancelled: "Acción cancelada",
  problem: "Ocurrio un problema",
  notFound: "No encontrado",
  alreadyConverted: "Esta cotización ya fue convertida a factura.",
  emailed: "Cotización guardada con exito y enviada por correo",
} as const;

/** The default name; each company may call its quotations otherwise (custom_quotation_name). */
export const DEFAULT_QUOTATION_NAME = "Cotización";

export function quotationName(custom: string | null | undefined): string {
  return custom?.trim() || DEFAULT_QUOTATION_NAME;
}

/** The form's heading: 'Información' plus the custom name plus the (next) quotation number. */
export function quotationHeading(name: string, number: string | number): string {
  return `Información ${quotationName(name)} ${number}`;
}

/** The saved quotation could not be e-mailed: it stays saved, and the user is told why. */
export function emailFailedMessage(reason: string): string {
  return `Cotización guardada con exito, pero no se pudo enviar por correo: ${reason}`;
}

/** Why the invoice could not be issued, with what to do next. */
export function convertFailedMessage(errors: FieldError[]): string {
  const reasons = [...new Set(errors.map((e) => e.message))].join(" ");
  return `No se pudo convertir a factura: ${reasons} Edite la cotización y vuelva a intentarlo.`;
}

/**
 * The invoice a quotation becomes: the same client, lines, payments, terms, note and notify list;
 * kind fe; a dollar quotation takes today's exchange rate (`rate`, when known) — an invoice is a
 * sale of today. No references: a quotation has no clave.
 */
export function invoiceDraftOf(quotation: DocumentDraft, rate: string | null): DocumentDraft {
  const { references: _references, internationalClient: _international, ...rest } = quotation;
  return { ...rest, kind: "fe", exchangeRate: quotation.currency === "USD" ? (rate ?? quotation.exchangeRate) : "1" };
}

/** Where a confirm form sends the user back: a path of this site only (never another origin). */
export function backPath(raw: unknown, fallback: string): string {
  const s = typeof raw === "string" ? raw : "";
  return /^\/(?![/\\])[^\s]*$/.test(s) && s.length <= 300 ? s : fallback;
}
