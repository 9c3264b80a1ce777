/**
 * Forms that start from something (spec part 2 "Notes list", "Simplified documents", "Clone screen";
 * issue 5): credit/debit notes from an invoice, ticket or purchase invoice, clones, the corrected
 * replacement of a rejected document and the purchase invoice (FEC) with its reference. Pure: which
 * URL asks for what, the references the server rebuilds, and a stored draft turned back into the
 * form's values. docs/decisions/086-notes-clones-and-replacements.md.
 */
import type { DocumentDraft, DraftReference, FieldError } from "./document-draft.ts";
import { blankLine, blankPayment, type DocumentFormValues, type FormItem, type FormKind, type FormLine, type FormTaxType } from "./document-form.ts";
import { formatDecimalInput, formatMoneyInput } from "./number-input.ts";

/** A screen's document that is not this company's, or gone (also the error page's text). */
export const NOT_FOUND = "No encontrado";

export const SOURCE_MESSAGES = {
  notFound: NOT_FOUND,
  referenceFields: "Complete todos los campos de la referencia.",
  referenceDate: "La fecha del documento de referencia no es válida o es posterior a hoy.",
  referenceType: "Seleccione un tipo de documento de referencia válido.",
  referenceCode: "Seleccione un código de referencia válido.",
} as const;

/** /detail/:type segments that a note can start from, and their kinds (part 2: invoice, ticket or simple). */
export const NOTE_SOURCE_TYPES: Record<string, string> = { invoice: "fe", ticket: "te", simple: "fec" };
/** /new-clone/:document_type → the kind cloned (part 2 "Clone screen"). */
export const CLONE_TYPES: Record<string, FormKind> = { invoice: "fe", ticket: "te", quotation: "qt", simple: "fec" };
/** The header label of each clone type. */
export const KIND_LABELS: Record<string, string> = { fe: "Factura", te: "Tiquete", qt: "Cotización", fec: "Simplificado", nc: "Nota de crédito", nd: "Nota de débito" };
/** Kinds whose rejection can be fixed with a corrected replacement from the clone screen. */
export const REPLACEABLE_KINDS = new Set(["fe", "te", "fec"]);

/** Codigo of a note's reference: the spec's "reference code 1" (01 Anula documento de referencia), the default. */
export const NOTE_REFERENCE_CODE = "01";

/**
 * The codes a note may carry (Nota 9; issue 14 point 9): 01 when it cancels the whole document, 02
 * 'Corrige monto' when it changes part of it (a partial return, a discount given afterwards), 06
 * 'Devolución de mercancía' (credit notes). The form offers them; the server refuses 01 on a credit
 * note that does not cancel the whole document.
 */
export const NOTE_REFERENCE_CODES: Record<"nc" | "nd", readonly string[]> = { nc: ["01", "02", "06"], nd: ["02", "01"] };
export const NOTE_MESSAGES = {
  partialCancel: "Esta nota de crédito no anula todo el documento: use el código 02 «Corrige monto» (o 06 «Devolución de mercancía») en la referencia.",
} as const;

/** The code a note asked for (one it may carry), else the default. */
export const noteReferenceCode = (noteKind: "nc" | "nd", typed: string | undefined) => (typed && NOTE_REFERENCE_CODES[noteKind].includes(typed) ? typed : NOTE_REFERENCE_CODE);

/** Why a purchase invoice asks for its reference block (shown above it). */
export const FEC_REFERENCE_HINT =
  "Hacienda exige que la factura electrónica de compra indique el documento que respalda la compra: el recibo o factura que le dio el vendedor, o el registro del productor de régimen especial. Si el vendedor no le dio ninguno, indique el número y la fecha de su propio registro de la compra.";

/**
 * The replacement of a document Hacienda rejected: TipoDocIR 10 'Comprobante electrónico rechazado
 * por el Ministerio de Hacienda', Codigo 16 'Sustituye comprobante electrónico rechazado' (v4.4, 2026
 * revision of the schemas; NOTES §8).
 */
export const REPLACEMENT_REFERENCE = { docType: "10", code: "16", reason: "Sustituye comprobante electrónico rechazado" } as const;

/** What the corrected replacement screen tells the user (issue 11 point 8). */
export const REPLACEMENT_NOTICE =
  "Este comprobante sustituye al que Hacienda rechazó con el código de referencia 16, «Sustituye comprobante electrónico rechazado», de la revisión 2026 de los comprobantes: el rechazado no se anula con una nota de crédito.";

/**
 * The reference block of a purchase invoice (FEC, whose schema requires 1..10 InformacionReferencia):
 * the document the seller gave, if any. Types and codes offered (Nota 10 / Nota 9): a special-regime
 * seller's receipt, a non-domiciled provider's document, a dispatch note, a contract or a procedure;
 * 'Referencia a otro documento' or 'Proveedor no domiciliado'. 99 (otros) is not offered: it needs
 * the *OTRO text fields the draft does not carry.
 */
export const FEC_REFERENCE_DOC_TYPES = ["14", "16", "05", "06", "07"] as const;
export const FEC_REFERENCE_CODES = ["04", "11"] as const;
export const FEC_REFERENCE_DEFAULT = { docType: "14", code: "04" } as const;

/**
 * The optional reference block of a new invoice or ticket (part 2 "document reference block"): another
 * document it refers to. Types (Nota 10): FE, TE, a dispatch note, a contract, a procedure, a
 * contingency document, billing for a past month; codes (Nota 9): 'Referencia a otro documento',
 * 'Sustituye comprobante provisional por contingencia', 'Sustituye comprobante electrónico', 'Factura
 * endosada'. Codes for notes only and 99 (which needs the *OTRO texts) are not offered.
 */
export const INVOICE_REFERENCE_DOC_TYPES = ["01", "04", "05", "06", "07", "08", "13"] as const;
export const INVOICE_REFERENCE_CODES = ["04", "05", "07", "08"] as const;
export const INVOICE_REFERENCE_DEFAULT = { docType: "01", code: "04" } as const;

export type SourceRequest =
  | { mode: "note"; kind: "nc" | "nd"; sourceKind: string; documentId: number }
  | { mode: "clone"; kind: FormKind; documentId: number; replace: boolean }
  | { mode: "simple"; providerId: string | null }
  | { mode: "quotation" }
  | { mode: "edit-quotation"; documentId: number };

/**
 * Which prefilled screen a URL asks for: null when it is none of them (/new-invoice, /new-ticket…),
 * "invalid" for a wrong note or document type or id (spec: 'El tipo de documento a crear es invalido').
 */
export function sourceRequestOf(url: URL, params: Record<string, string | undefined>): SourceRequest | "invalid" | null {
  const path = url.pathname;
  const id = /^\d{1,10}$/.test(params.document_id ?? "") ? Number(params.document_id) : NaN;
  if (path.startsWith("/new-note/")) {
    const kind = params.note_type;
    const sourceKind = NOTE_SOURCE_TYPES[params.document_type ?? ""];
    if ((kind !== "nc" && kind !== "nd") || !sourceKind || !(id > 0)) return "invalid";
    return { mode: "note", kind, sourceKind, documentId: id };
  }
  if (path.startsWith("/new-clone/")) {
    const kind = CLONE_TYPES[params.document_type ?? ""];
    if (!kind || !(id > 0)) return "invalid";
    return { mode: "clone", kind, documentId: id, replace: url.searchParams.get("replace") === "1" };
  }
  if (path.startsWith("/edit-quotation/")) {
    if (params.document_type !== "quotation" || !(id > 0)) return "invalid";
    return { mode: "edit-quotation", documentId: id };
  }
  if (path.startsWith("/new-quotation")) return { mode: "quotation" };
  // Client-side navigations fetch "/new-simple.data": match the prefix, like the other screens.
  if (path.startsWith("/new-simple")) {
    const providerId = url.searchParams.get("id");
    return { mode: "simple", providerId: providerId && /^\d{1,10}$/.test(providerId) ? providerId : null };
  }
  return null;
}

/** TipoDocIR of a note's reference (Nota 10): 01 invoice, 04 ticket; 17/18 for a note on a purchase invoice. */
export function noteReferenceDocType(noteKind: "nc" | "nd", sourceKind: string): string | null {
  if (sourceKind === "fe") return "01";
  if (sourceKind === "te") return "04";
  if (sourceKind === "fec") return noteKind === "nc" ? "17" : "18";
  return null;
}

/** The stored document a reference is rebuilt from (never from what the browser posts). */
export interface SourceDocument {
  id: number;
  kind: string;
  clave: string | null;
  issuedAt: Date;
}

/** A note's reference: the source's clave and date, the chosen code (01 by default for credit notes), the typed reason. */
export function noteReference(noteKind: "nc" | "nd", source: SourceDocument, reason: string, code?: string): DraftReference {
  return {
    documentId: source.id,
    docType: noteReferenceDocType(noteKind, source.kind) ?? "",
    number: source.clave ?? "",
    issuedAt: source.issuedAt.toISOString(),
    code: noteReferenceCode(noteKind, code),
    reason: reason.trim().slice(0, 180),
  };
}

/** The reference of the corrected replacement of a rejected document. */
export function replacementReference(source: SourceDocument): DraftReference {
  return { documentId: source.id, docType: REPLACEMENT_REFERENCE.docType, number: source.clave ?? "", issuedAt: source.issuedAt.toISOString(), code: REPLACEMENT_REFERENCE.code, reason: REPLACEMENT_REFERENCE.reason };
}

/** The editable reference block as typed (FEC). */
export interface ReferenceFormValues {
  docType: string;
  number: string;
  /** YYYY-MM-DD. */
  date: string;
  code: string;
  reason: string;
}

export function readReferenceForm(values: Record<string, string | undefined>): ReferenceFormValues {
  return {
    docType: (values.reference_doc_type ?? "").trim(),
    number: (values.reference_number ?? "").trim().slice(0, 50),
    date: (values.reference_date ?? "").trim(),
    code: (values.reference_code ?? "").trim(),
    reason: (values.reference_reason ?? "").trim().slice(0, 180),
  };
}

function validDay(ymd: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(ymd)) return false;
  const d = new Date(`${ymd}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd;
}

/**
 * The purchase invoice's reference from the typed block: every field required (part 2 §5: "Reference
 * fields all required when referencing"), a listed type and code, a date not after today (Costa Rica
 * calendar day `today`). The instant is noon of that day in Costa Rica.
 */
export function purchaseReference(
  v: ReferenceFormValues,
  today: string,
  allowed: { docTypes: readonly string[]; codes: readonly string[] } = { docTypes: FEC_REFERENCE_DOC_TYPES, codes: FEC_REFERENCE_CODES },
): { reference: DraftReference | null; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!v.docType || !v.number || !v.date || !v.code || !v.reason) errors.push({ field: "references.0", message: SOURCE_MESSAGES.referenceFields });
  if (v.docType && !allowed.docTypes.includes(v.docType)) errors.push({ field: "references.0.docType", message: SOURCE_MESSAGES.referenceType });
  if (v.code && !allowed.codes.includes(v.code)) errors.push({ field: "references.0.code", message: SOURCE_MESSAGES.referenceCode });
  if (v.date && (!validDay(v.date) || v.date > today)) errors.push({ field: "references.0.date", message: SOURCE_MESSAGES.referenceDate });
  if (errors.length) return { reference: null, errors };
  return { reference: { docType: v.docType, number: v.number, issuedAt: new Date(`${v.date}T12:00:00-06:00`).toISOString(), code: v.code, reason: v.reason }, errors };
}

/** The YYYY-MM-DD (Costa Rica) of a stored reference instant, for the date input. */
export function referenceDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Date(d.getTime() - 6 * 3600_000).toISOString().slice(0, 10);
}

/** The company tax type a stored line's tax matches (IVA by tarifa code, others by code and rate). */
export function taxTypeOfLine(tax: DocumentDraft["lines"][number]["tax"], taxTypes: FormTaxType[]): FormTaxType | undefined {
  const code = tax.code ?? "01";
  if (code === "01" || code === "07") return taxTypes.find((t) => t.taxCode === code && t.vatCode === (tax.tarifaCode ?? "08"));
  return taxTypes.find((t) => t.taxCode === code && Number(t.rate) === Number(tax.rate ?? "0"));
}

/**
 * A stored draft back into the form (clone, note, replacement): the lines with their item when it
 * still exists (else a free line with the same code, CABYS and text), the tax type by code, the
 * payments, currency, sale condition and note. Lines whose tax no longer exists in the company keep
 * an empty tax (the form then asks for it).
 */
export function formValuesFromDraft(draft: DocumentDraft, taxTypes: FormTaxType[], items: FormItem[], opts: { keepNote: boolean; keepRate: boolean }): DocumentFormValues {
  const lines: FormLine[] = draft.lines.map((l) => {
    const itemId = l.itemId && items.some((it) => it.id === l.itemId) ? String(l.itemId) : "";
    return {
      ...blankLine(),
      itemId,
      picked: itemId,
      code: l.code ?? "",
      cabys: l.cabys ?? "",
      description: l.description,
      unit: l.unit,
      // Shown as typed in Costa Rica (decision 164): '1,5', '450.000,00'.
      quantity: formatDecimalInput(l.quantity),
      price: formatMoneyInput(l.unitPrice),
      discount: formatDecimalInput(l.discountPercent || "0"),
      taxTypeId: String(taxTypeOfLine(l.tax, taxTypes)?.id ?? ""),
      ...(l.exoneration
        ? {
            exType: l.exoneration.docType,
            exTypeOther: l.exoneration.docTypeOther ?? "",
            exNumber: l.exoneration.number,
            exArticle: l.exoneration.article ?? "",
            exInciso: l.exoneration.inciso ?? "",
            exInstitution: l.exoneration.institution,
            exInstitutionOther: l.exoneration.institutionOther ?? "",
            exDate: l.exoneration.issuedAt.slice(0, 10),
            exPercent: formatDecimalInput(l.exoneration.percentage),
          }
        : {}),
    };
  });
  return {
    clientId: draft.clientId ? String(draft.clientId) : "",
    saleCondition: draft.saleCondition || "01",
    saleConditionOther: draft.saleConditionOther ?? "",
    creditDays: draft.saleCondition === "02" && draft.creditDays ? String(draft.creditDays) : "",
    payments: draft.payments.length ? draft.payments.slice(0, 4).map((p) => ({ code: p.code, amount: p.amount ? formatMoneyInput(p.amount) : "", other: p.other ?? "" })) : [blankPayment()],
    currency: draft.currency === "USD" ? "USD" : "CRC",
    exchangeRate: draft.currency === "USD" && opts.keepRate ? formatDecimalInput(draft.exchangeRate) : "",
    note: opts.keepNote ? (draft.note ?? "") : "",
    international: !!draft.internationalClient,
    remindPayment: !!draft.remindPayment,
    termId: "",
    contingencyNumber: "",
    contingencyDate: "",
    internationalName: draft.internationalClient?.name ?? "",
    internationalCedula: draft.internationalClient?.cedula ?? "",
    emails: (draft.emails ?? []).join(", "),
    lines: lines.length ? lines : [blankLine(taxTypes[0] ? String(taxTypes[0].id) : "")],
  };
}

/** One reference as the form shows it. */
export interface ReferenceView {
  /** locked: shown, nothing typed; reason: only the reason is typed (notes); editable: every field (FEC). */
  mode: "locked" | "reason" | "editable";
  docType: string;
  docTypeLabel: string;
  number: string;
  /** Locked: the date and time as shown; editable: YYYY-MM-DD for the date input. */
  date: string;
  code: string;
  codeLabel: string;
  reason: string;
  docTypeOptions?: Array<{ value: string; label: string }>;
  codeOptions?: Array<{ value: string; label: string }>;
  /** Why the block is asked for (purchase invoices). */
  hint?: string;
}

/** What a prefilled screen adds to the shared form: its header, the locked client, the references. */
export interface SourceView {
  title: string;
  facts: Array<{ label: string; value: string }>;
  clientLabel?: string;
  clientLocked: boolean;
  references: ReferenceView[];
  /** Where "Volver" goes when not the kind's list (recurring templates: /recurrings). */
  listPath?: string;
  /** A sentence that explains what the screen issues (the corrected replacement: its reference code). */
  notice?: string;
}
