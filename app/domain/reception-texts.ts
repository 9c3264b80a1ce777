// The texts, labels and pure helpers of received documents (spec part 2 §2–§5), without zod: the
// screens import these and ship no schema code (the JavaScript budget, decision 166); the form
// schemas are in receptions.ts, which re-exports all of this.
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
  // One upload or e-mail message in all, the files inside its .zip archives included (docs/decisions/171).
  intakeTooManyFiles: (max: number) => `Lo enviado tiene más de ${max} archivos, contando los que vienen dentro de los .zip: no se procesó ninguno. Envíelos en partes.`,
  intakeTooLarge: (mb: number) => `Lo enviado suma más de ${mb} MB de XML, contando lo que se expande de los .zip: no parece un paquete de comprobantes y no se procesó ninguno. Envíelo en partes.`,
  messageRequired: "Seleccione la condición de aceptación",
  detailRequired: "El detalle es obligatorio cuando el documento no se acepta totalmente",
  detailTooLong: "El detalle admite máximo 160 caracteres",
  categoryRequired: "Seleccione la categoría de gasto",
  categoryInvalid: "La categoría seleccionada no existe",
  taxConditionRequired: "Seleccione la condición de impuesto",
  amountRequired: "El monto es obligatorio",
  amountFormat: "Debe ser un número con máximo 5 decimales (por ejemplo 1.500,50)",
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
  /** A MensajeHacienda uploaded alone for a document received before: the app asks Hacienda itself. */
  answerNotNeeded: "El estado de este comprobante se consulta directamente a Hacienda: su respuesta no hace falta.",
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
export const TAX_CONDITION_VALUES = TAX_CONDITIONS.map((t) => t.value) as [TaxCondition, ...TaxCondition[]];

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
