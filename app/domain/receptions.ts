/**
 * Received documents (spec part 2 §2 "Received documents (reception)", §3 Received document and
 * Reception form, §4 reception acceptance, §5 reception upload rules): texts, labels, the form schemas
 * with their Spanish messages, and the amounts a MensajeReceptor declares. Pure: money as decimal
 * strings. docs/decisions/170–176.
 */
import { z } from "zod";
import { dec, money } from "./decimal.ts";

/** Largest upload request read: a 10 MB .zip plus the form's fields and multipart framing (decision 171). */
export const MAX_UPLOAD_REQUEST_BYTES = 11 * 1024 * 1024;

export const RECEPTION_MESSAGES = {
  empty: "No se han subido documentos.",
  uploaded: "Documento subido correctamente",
  uploadedMany: (n: number) => `${n} documentos subidos correctamente`,
  processed: "Actualizada correctamente",
  nothingStored: "No se guardó ningún documento.",
  readOnly: "Su plan es de solo lectura: no puede subir ni procesar documentos.",
  notFound: "No encontrado",
  problem: "Ocurrio un problema",
  fileRequired: "Elija el archivo XML del comprobante (o un .zip con los XML).",
  tooManyFiles: (max: number) => `Puede subir como máximo ${max} archivos a la vez.`,
  requestTooLarge: (mb: number) => `Lo que envió pesa más de ${mb} MB, el máximo para una subida. Suba los XML de uno en uno o en un .zip más pequeño.`,
  messageRequired: "Seleccione la condición de aceptación",
  detailRequired: "El detalle es obligatorio cuando el documento no se acepta totalmente",
  detailTooLong: "El detalle admite máximo 160 caracteres",
  categoryRequired: "Seleccione la categoría de gasto",
  categoryInvalid: "La categoría seleccionada no existe",
  taxConditionRequired: "Seleccione la condición de impuesto",
  amountRequired: "El monto es obligatorio",
  amountFormat: "Debe ser un número con máximo 5 decimales",
  creditableTooHigh: (max: string) => `El impuesto acreditable no puede ser mayor que el impuesto del comprobante (${max})`,
  expenseTooHigh: (max: string) => `El gasto aplicable no puede ser mayor que el total del comprobante (${max})`,
  amountsForOne: "Con varios documentos los montos se calculan de cada comprobante: deje el impuesto acreditable y el gasto aplicable vacíos.",
  partialNeedsAmounts: "El crédito parcial del IVA necesita los montos de cada comprobante: procese esos documentos de uno en uno.",
  selectRows: "Marque al menos un documento pendiente.",
  categoryNameRequired: "El nombre de la categoría es obligatorio",
  categoryNameTooLong: "El nombre admite máximo 100 caracteres",
  categoryDuplicate: "Ya existe una categoría con ese nombre",
  categoryCreated: "Categoría creada",
  notPending: "Este documento ya fue procesado.",
  deadlinePassed: (day: string) => `El plazo para rechazar venció el ${day}: el comprobante se tiene por aceptado (aceptación tácita) y ya no se puede rechazar.`,
  issuerRejected: "Hacienda rechazó este comprobante: no se envía mensaje de aceptación. Pida al emisor un comprobante nuevo.",
  waitingIssuer: "Todavía no se sabe si Hacienda aceptó el comprobante del emisor: el mensaje se enviará solo cuando Hacienda lo confirme.",
  noKey: "La empresa no tiene una llave criptográfica configurada: súbala en Configuración › Hacienda.",
} as const;

/** Acceptance condition (spec §3): 1 Aceptado, 2 Aceptado Parcialmente, 3 Rechazado; 4 pending. */
export const ACCEPTANCE_LABEL: Record<number, string> = { 1: "Aceptado", 2: "Aceptado Parcialmente", 3: "Rechazado", 4: "Pendiente" };
export const ACCEPTANCE_OPTIONS = [
  { value: "1", label: "Aceptado" },
  { value: "2", label: "Aceptado Parcialmente" },
  { value: "3", label: "Rechazado" },
] as const;
/** The upload form also offers to keep the document pending and decide later. */
export const UPLOAD_ACCEPTANCE_OPTIONS = [...ACCEPTANCE_OPTIONS, { value: "4", label: "Pendiente (procesar después)" }] as const;

/** CondicionImpuesto of the MensajeReceptor (Anexo v4.4 Nota 18; MensajeReceptor_V4.4.xsd). */
export const TAX_CONDITIONS = [
  { value: "01", label: "General crédito IVA" },
  { value: "02", label: "General crédito parcial del IVA" },
  { value: "03", label: "Bienes de capital" },
  { value: "04", label: "Gasto corriente no genera crédito" },
  { value: "05", label: "Proporcionalidad" },
] as const;
export type TaxCondition = (typeof TAX_CONDITIONS)[number]["value"];
const TAX_CONDITION_VALUES = TAX_CONDITIONS.map((t) => t.value) as [TaxCondition, ...TaxCondition[]];

export const RECEIVED_KIND_LABEL: Record<string, string> = { FE: "Factura electrónica", NC: "Nota de crédito", ND: "Nota de débito" };

/** The list's filter options (spec §2): acceptance condition. */
export const RECEPTION_FILTERS = [
  { value: "aceptado", label: "Aceptado" },
  { value: "rechazado", label: "Rechazado" },
  { value: "pendiente", label: "Pendiente" },
] as const;
export type ReceptionFilter = (typeof RECEPTION_FILTERS)[number]["value"];

/** Our MensajeReceptor's state as the list shows it; pending rows say 'Pendiente' (spec §4). */
export function receptionStatusLabel(message: number, status: string): string {
  if (message === 4) return "Pendiente";
  switch (status) {
    case "esperando":
      return "Esperando a Hacienda";
    case "no enviado":
      return "No enviado";
    case "pendiente":
      return "Pendiente";
    default:
      return status;
  }
}

/** Document number in the list: ten characters of the clave from position 31 (spec §2, §3). */
export const receptionNumber = (clave: string) => clave.slice(30, 40);

const SYMBOLS: Record<string, string> = { CRC: "₡", USD: "$", EUR: "€" };
export const currencySymbol = (code: string) => SYMBOLS[code] ?? `${code} `;

/** Amounts shown only when the document is not rejected and the tax condition is not proportionality (spec §5). */
export const amountsShown = (message: string | number, taxCondition: string) => String(message) !== "3" && String(message) !== "4" && taxCondition !== "05";
/** Detail required when the condition is not 'Aceptado' (spec §5); pending documents need none. */
export const detailRequired = (message: string | number) => String(message) === "2" || String(message) === "3";

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const AMOUNT = /^\d{1,13}(\.\d{1,5})?$/;
const optionalAmount = z.preprocess(text, z.string().refine((v) => v === "" || AMOUNT.test(v), RECEPTION_MESSAGES.amountFormat));

function decisionFields(messages: readonly string[]) {
  return {
    message: z.preprocess(text, z.string().refine((v) => messages.includes(v), RECEPTION_MESSAGES.messageRequired)),
    message_detail: z.preprocess(text, z.string().max(160, RECEPTION_MESSAGES.detailTooLong)),
    expense_category: z.preprocess(text, z.string().regex(/^\d{1,9}$/, RECEPTION_MESSAGES.categoryRequired).transform(Number)),
    tax_condition: z.preprocess(text, z.enum(TAX_CONDITION_VALUES, { error: RECEPTION_MESSAGES.taxConditionRequired })),
    tax_credit: optionalAmount,
    applicable_expense: optionalAmount,
  };
}

type DecisionShape = { message: string; message_detail: string; tax_condition: string };
function decisionRules<T extends DecisionShape>(d: T, ctx: z.RefinementCtx) {
  if (detailRequired(d.message) && !d.message_detail) ctx.addIssue({ code: "custom", path: ["message_detail"], message: RECEPTION_MESSAGES.detailRequired });
}

/** The upload form (dialog and standalone page): condition 1–3 or 4 (keep pending). */
export const uploadSchema = z.object(decisionFields(["1", "2", "3", "4"])).superRefine(decisionRules);
export type UploadForm = z.output<typeof uploadSchema>;

/** The 'update acceptance' form: one document (id) or the ticked ones (accept_multiples). */
export const processSchema = z
  .object({
    ...decisionFields(["1", "2", "3"]),
    type_update_doc: z.preprocess(text, z.enum(["single", "multiple"]).catch("single")),
    id: z.preprocess(text, z.string()),
    accept_multiples: z.preprocess((v) => (Array.isArray(v) ? v : typeof v === "string" && v ? [v] : []), z.array(z.string())),
  })
  .superRefine(decisionRules);
export type ProcessForm = z.output<typeof processSchema>;

export const categorySchema = z.object({
  new_category_name: z.preprocess(text, z.string().min(1, RECEPTION_MESSAGES.categoryNameRequired).max(100, RECEPTION_MESSAGES.categoryNameTooLong)),
});

/** The decision a user takes on a pending document (or several). */
export interface ReceptionDecision {
  message: 1 | 2 | 3;
  detail: string | null;
  expenseCategoryId: number;
  taxCondition: TaxCondition;
  /** Typed amounts (one document); null: derived from each document. */
  creditableTax: string | null;
  applicableExpense: string | null;
}

export function decisionOf(form: Pick<UploadForm, "message" | "message_detail" | "expense_category" | "tax_condition" | "tax_credit" | "applicable_expense">): ReceptionDecision | null {
  const m = Number(form.message);
  if (m !== 1 && m !== 2 && m !== 3) return null;
  const shown = amountsShown(m, form.tax_condition);
  return {
    message: m,
    detail: form.message_detail || null,
    expenseCategoryId: form.expense_category,
    taxCondition: form.tax_condition as TaxCondition,
    creditableTax: shown && form.tax_credit ? form.tax_credit : null,
    applicableExpense: shown && form.applicable_expense ? form.applicable_expense : null,
  };
}

/**
 * The amounts a MensajeReceptor declares for a document (MontoTotalImpuestoAcreditar,
 * MontoTotalDeGastoAplicable), from the typed ones or derived from the tax condition:
 * 01 and 03 credit the whole tax (the rest is the expense), 04 credits none (the whole total is the
 * expense); 02 needs typed amounts; 05 and rejections declare none. Errors keyed by form field.
 */
export function messageAmounts(
  decision: ReceptionDecision,
  doc: { tax: string; total: string },
): { ok: true; creditableTax: string | null; applicableExpense: string | null } | { ok: false; errors: Record<string, string> } {
  if (!amountsShown(decision.message, decision.taxCondition)) return { ok: true, creditableTax: null, applicableExpense: null };
  const tax = dec(doc.tax);
  const total = dec(doc.total);
  let creditable = decision.creditableTax;
  let expense = decision.applicableExpense;
  if (creditable === null || expense === null) {
    if (decision.taxCondition === "02") return { ok: false, errors: { _form: RECEPTION_MESSAGES.partialNeedsAmounts } };
    const credit = decision.taxCondition === "04" ? dec("0") : tax;
    creditable ??= money(credit);
    expense ??= money(total.minus(credit));
  }
  const errors: Record<string, string> = {};
  if (dec(creditable).gt(tax)) errors.tax_credit = RECEPTION_MESSAGES.creditableTooHigh(money(tax));
  if (dec(expense).gt(total)) errors.applicable_expense = RECEPTION_MESSAGES.expenseTooHigh(money(total));
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, creditableTax: money(dec(creditable)), applicableExpense: money(dec(expense)) };
}

/** Costa Rica dates of the list's range (default: the current month), checked and ordered. */
export function receptionRange(params: { from?: string | null; to?: string | null }, today: string): { from: string; to: string } {
  const valid = (v: string | null | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? v : null);
  const monthStart = `${today.slice(0, 8)}01`;
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const monthEnd = `${today.slice(0, 8)}${String(last).padStart(2, "0")}`;
  let from = valid(params.from) ?? monthStart;
  let to = valid(params.to) ?? monthEnd;
  if (from > to) [from, to] = [to, from];
  return { from, to };
}

/** A received document's IVA by tariff, as stored in its `data.IvaPorTarifa` (decision 153). */
export interface TariffIva {
  /** CodigoTarifaIVA (Nota 8.1); null for lines without IVA. */
  tarifa: string | null;
  /** Sum of the lines' SubTotal (amount less discount), in the document's currency. */
  base: string;
  /** Sum of the lines' ImpuestoNeto. */
  impuesto: string;
}

/**
 * The lines of a supplier's document grouped by IVA tariff (the document tells it line by line),
 * for the IVA summary's purchases. Lines with unreadable amounts count as zero.
 */
export function ivaByTariff(lines: ReadonlyArray<{ subtotal: string | null; tax: string | null; ivaTariff: string | null }>): TariffIva[] {
  const num = (v: string | null) => (v && /^-?\d+(\.\d+)?$/.test(v) ? dec(v) : dec("0"));
  const by = new Map<string | null, { base: ReturnType<typeof dec>; tax: ReturnType<typeof dec> }>();
  for (const l of lines) {
    const key = l.ivaTariff && /^\d{2}$/.test(l.ivaTariff) ? l.ivaTariff : null;
    const s = by.get(key) ?? { base: dec("0"), tax: dec("0") };
    s.base = s.base.plus(num(l.subtotal));
    s.tax = s.tax.plus(num(l.tax));
    by.set(key, s);
  }
  return [...by.entries()].map(([tarifa, s]) => ({ tarifa, base: money(s.base), impuesto: money(s.tax) }));
}
