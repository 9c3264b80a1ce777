// Prefilled screens of the shared document form (spec part 2 "Notes list", "Simplified documents",
// "Clone screen", "Quotations"; issue 5): /new-quotation, /edit-quotation/quotation/:id,
// /new-note/:note_type/:document_type/:document_id,
// /new-clone/:document_type/:document_id (?replace=1: the corrected replacement of a rejected
// document) and /new-simple (?id= preselects a provider). The source document is read with the
// current company's id (another company's id → not found); what the screen locks (a note's client,
// currency and reference; a replacement's reference) is rebuilt here on every submission, never taken
// from the posted fields. docs/decisions/086-notes-clones-and-replacements.md.
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { clients, documentCounters } from "../../db/schema/index.ts";
import { documentOf } from "../../db/queries/documents.ts";
import { codeLabel, docTypeLabel, editableReferenceView } from "./reference-view.server.ts";
import { draftTotals, summaryOf, type DocumentDraft, type FieldError } from "../domain/document-draft.ts";
import { dec } from "../domain/decimal.ts";
import { FORM_KINDS, type DocumentFormValues, type FormKind } from "../domain/document-form.ts";
import { quotationHeading } from "../domain/quotations.ts";
import {
  FEC_REFERENCE_CODES,
  FEC_REFERENCE_DEFAULT,
  FEC_REFERENCE_DOC_TYPES,
  formValuesFromDraft,
  KIND_LABELS,
  noteReference,
  NOTE_MESSAGES,
  NOTE_REFERENCE_CODE,
  NOTE_REFERENCE_CODES,
  FEC_REFERENCE_HINT,
  purchaseReference,
  readReferenceForm,
  REPLACEABLE_KINDS,
  REPLACEMENT_REFERENCE,
  referenceDay,
  REPLACEMENT_NOTICE,
  replacementReference,
  type ReferenceFormValues,
  type ReferenceView,
  type SourceRequest,
  type SourceView,
} from "../domain/document-source.ts";
import { costaRicaDay } from "../domain/document-status.ts";
import { formatDateTime } from "../domain/format.ts";
import { buildConsecutivo, DOC_TYPE_CODES } from "../hacienda/clave.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { blankForm, needsOfDraft, prefilledDocumentForm, submitDocumentForm, type DocumentFormLists, type DocumentFormState, type FormSource, type ListNeeds, type SubmitResult } from "./document-form.server.ts";
import { quotationNameOf, quotationOf } from "./quotations.server.ts";
import { companyHacienda } from "./signing-key.server.ts";


/**
 * The number the next document of this kind will probably get (another user may take it first:
 * the real one is allocated when issuing). 20-digit consecutive; quotations show the plain number.
 */
export async function nextConsecutive(db: DbOrTx, companyId: number, kind: FormKind, now: Date): Promise<string> {
  const hc = await companyHacienda(db, companyId, now);
  const branch = hc?.branch ?? 1;
  const terminal = hc?.terminal ?? 1;
  const docType = kind === "qt" ? "qt" : DOC_TYPE_CODES[kind];
  const [row] = await db
    .select({ next: documentCounters.nextNumber })
    .from(documentCounters)
    .where(and(eq(documentCounters.companyId, companyId), eq(documentCounters.branch, branch), eq(documentCounters.terminal, terminal), eq(documentCounters.docType, docType)));
  const sequence = Math.max(1, Number(row?.next ?? 1));
  return kind === "qt" ? String(sequence) : buildConsecutivo({ branch, terminal, docType: docType as never, sequence });
}

async function clientRow(db: DbOrTx, companyId: number, clientId: number | null) {
  if (!clientId) return null;
  const [c] = await db
    .select({ id: clients.id, name: clients.name, identification: clients.identification, generic: clients.generic })
    .from(clients)
    .where(and(eq(clients.id, clientId), eq(clients.companyId, companyId)));
  return c ?? null;
}

function lockedView(r: { docType: string; number: string; issuedAt: Date; code: string; reason: string }, mode: "locked" | "reason"): ReferenceView {
  return { mode, docType: r.docType, docTypeLabel: docTypeLabel(r.docType), number: r.number, date: formatDateTime(r.issuedAt), code: r.code, codeLabel: codeLabel(r.code), reason: r.reason };
}

function purchaseView(v: ReferenceFormValues): ReferenceView {
  return { ...editableReferenceView(v, { docTypes: FEC_REFERENCE_DOC_TYPES, codes: FEC_REFERENCE_CODES }), hint: FEC_REFERENCE_HINT };
}

/** The FEC block: as typed (submissions), else the cloned FEC's reference, else the defaults. */
function purchaseValues(values: Record<string, string | undefined> | null, draft: DocumentDraft | null, today: string): ReferenceFormValues {
  if (values) return readReferenceForm(values);
  const r = draft?.references?.find((x) => x.code !== REPLACEMENT_REFERENCE.code && (FEC_REFERENCE_DOC_TYPES as readonly string[]).includes(x.docType));
  if (r) return { docType: r.docType, number: r.number, date: referenceDay(r.issuedAt), code: (FEC_REFERENCE_CODES as readonly string[]).includes(r.code) ? r.code : FEC_REFERENCE_DEFAULT.code, reason: r.reason };
  return { ...FEC_REFERENCE_DEFAULT, number: "", date: today, reason: "" };
}

interface Resolved {
  kind: FormKind;
  source: FormSource;
  form: (lists: DocumentFormLists) => DocumentFormValues;
  /** The client and items the form starts with (listed however large the catalogue). */
  need?: ListNeeds;
}

/**
 * The screen a request asks for, built from the stored source document. `values` are the posted
 * fields (null when loading the empty form). Null when the document is not this company's or not of
 * the requested type (or, for a replacement, not rejected).
 */
async function resolve(db: Db, companyId: number, req: SourceRequest, values: Record<string, string | undefined> | null, now: Date): Promise<Resolved | null> {
  const today = costaRicaDay(now);
  if (req.mode === "simple") {
    const ref = purchaseValues(values, null, today);
    const checked = purchaseReference(ref, today);
    const view: SourceView = {
      title: FORM_KINDS.fec.title,
      facts: [
        { label: "Consecutivo", value: await nextConsecutive(db, companyId, "fec", now) },
        { label: "Fecha", value: formatDateTime(now) },
      ],
      clientLabel: "Proveedor",
      clientLocked: false,
      references: [purchaseView(ref)],
    };
    return {
      kind: "fec",
      source: { view, references: checked.reference ? [checked.reference] : [], errors: values ? checked.errors : [] },
      form: (lists) => blankForm(lists, req.providerId ?? ""),
      need: { clientIds: [req.providerId] },
    };
  }

  // Quotations (decision 090): the heading is 'Información' + the company's name for them + the number.
  if (req.mode === "quotation") {
    const title = quotationHeading(await quotationNameOf(db, companyId), await nextConsecutive(db, companyId, "qt", now));
    return { kind: "qt", source: { view: { title, facts: [], clientLocked: false, references: [] } }, form: (lists) => blankForm(lists) };
  }
  if (req.mode === "edit-quotation") {
    const quotation = await quotationOf(db, { companyId, id: req.documentId });
    if (!quotation) return null;
    const title = quotationHeading(await quotationNameOf(db, companyId), quotation.number ?? quotation.id);
    const draft = (quotation.draft ?? { kind: "qt", clientId: quotation.clientId, saleCondition: "01", payments: [], currency: "CRC", exchangeRate: "1", lines: [] }) as DocumentDraft;
    return {
      kind: "qt",
      source: { view: { title, facts: [], clientLocked: false, references: [] }, updates: quotation.id },
      form: (lists) => formValuesFromDraft(draft, lists.taxTypes, lists.items, { keepNote: true, keepRate: true }),
      need: needsOfDraft(draft),
    };
  }

  const doc = await documentOf(db, { companyId, id: req.documentId });
  if (!doc || doc.deletedAt) return null;
  const draft = (doc.draft ?? null) as DocumentDraft | null;
  const blankDraft: DocumentDraft = { kind: req.kind, clientId: doc.clientId, saleCondition: doc.saleCondition ?? "01", payments: [], currency: doc.currencyId === 1 ? "USD" : "CRC", exchangeRate: doc.exchangeRate, lines: [] };
  const stored = draft ?? blankDraft;

  if (req.mode === "note") {
    if (doc.kind !== req.sourceKind || !doc.clave) return null;
    const client = await clientRow(db, companyId, doc.clientId);
    const reason = values ? (values.reference_reason ?? "") : "";
    const reference = noteReference(req.kind, doc, reason, values?.reference_code);
    const view: SourceView = {
      title: KIND_LABELS[req.kind],
      facts: [
        { label: "Consecutivo", value: await nextConsecutive(db, companyId, req.kind, now) },
        { label: "Fecha", value: formatDateTime(now) },
        { label: "Documento de referencia", value: doc.clave },
      ],
      clientLocked: true,
      references: [{ ...lockedView({ ...reference, issuedAt: doc.issuedAt, reason: reason.slice(0, 180) }, "reason"), codeOptions: NOTE_REFERENCE_CODES[req.kind].map((c) => ({ value: c, label: `${c} — ${codeLabel(c)}` })) }],
    };
    // A credit note that says it cancels the document ('01') must cancel all of it (decision 168).
    const docTotal = doc.totalComprobante;
    const checkNote = (draft: DocumentDraft): FieldError[] => {
      if (req.kind !== "nc" || reference.code !== NOTE_REFERENCE_CODE) return [];
      try {
        return dec(summaryOf(draftTotals(draft)).total).lt(dec(docTotal)) ? [{ field: "references.0.code", message: NOTE_MESSAGES.partialCancel }] : [];
      } catch {
        return [];
      }
    };
    return {
      kind: req.kind,
      source: { view, client, currency: { code: doc.currencyId === 1 ? "USD" : "CRC", rate: doc.exchangeRate }, references: [reference], checkDraft: checkNote },
      form: (lists) => formValuesFromDraft(stored, lists.taxTypes, lists.items, { keepNote: false, keepRate: true }),
      need: needsOfDraft(stored),
    };
  }

  // Clone, or the corrected replacement of a rejected document.
  if (doc.kind !== req.kind) return null;
  if (req.replace && (doc.status !== "rechazado" || !doc.clave || !REPLACEABLE_KINDS.has(doc.kind))) return null;
  const references: ReferenceView[] = [];
  const source: FormSource = { view: { title: KIND_LABELS[req.kind], facts: [], clientLocked: false, references }, references: [] };
  if (req.kind === "fec") {
    const ref = purchaseValues(values, draft, today);
    const checked = purchaseReference(ref, today);
    references.push(purchaseView(ref));
    if (checked.reference) source.references!.push(checked.reference);
    if (values) source.errors = checked.errors;
    source.view.clientLabel = "Proveedor";
  }
  source.view.facts.push({ label: "Consecutivo", value: await nextConsecutive(db, companyId, req.kind, now) });
  const cloned = doc.consecutivo ?? String(doc.number ?? doc.id);
  if (req.replace) {
    const replacement = replacementReference(doc);
    source.references!.push(replacement);
    references.push(lockedView({ ...replacement, issuedAt: doc.issuedAt }, "locked"));
    source.replacesDocumentId = doc.id;
    source.view.facts.push({ label: "Sustituye a", value: cloned });
    source.view.notice = REPLACEMENT_NOTICE;
  } else {
    source.view.facts.push({ label: "Clonado de", value: cloned });
  }
  if (!source.references!.length) delete source.references;
  return {
    kind: req.kind,
    source,
    form: (lists) => {
      const form = formValuesFromDraft(stored, lists.taxTypes, lists.items, { keepNote: true, keepRate: req.replace });
      // Tickets default to the generic client when the cloned one is not offered any more.
      const offered = lists.clients.some((c) => String(c.id) === form.clientId);
      if (!offered && req.kind === "te" && lists.genericClientId) return { ...form, clientId: String(lists.genericClientId) };
      return form;
    },
    need: needsOfDraft(stored),
  };
}

/** The prefilled form of a note, clone, replacement or purchase invoice; null = not found. */
export async function sourcedDocumentForm(db: Db, opts: { companyId: number; request: SourceRequest; now: Date }): Promise<DocumentFormState | null> {
  const r = await resolve(db, opts.companyId, opts.request, null, opts.now);
  if (!r) return null;
  return prefilledDocumentForm(db, { companyId: opts.companyId, kind: r.kind, now: opts.now, source: r.source, form: r.form, need: r.need });
}

/** A submission of a prefilled form (intent re-renders or Guardar); null = not found. */
export async function submitSourcedForm(
  db: Db,
  opts: { companyId: number; userId: number; request: SourceRequest; values: Record<string, string | undefined>; intent: string; now: Date; schemaSet?: CompiledSchemaSet },
): Promise<SubmitResult | null> {
  const r = await resolve(db, opts.companyId, opts.request, opts.values, opts.now);
  if (!r) return null;
  // Re-renders (add/remove a line or payment, recalculate) show the typed reference without its
  // errors; Guardar checks it.
  const rerender = opts.intent === "recalc" || opts.intent.startsWith("add-") || opts.intent.startsWith("remove-");
  const source = rerender ? { ...r.source, errors: [] } : r.source;
  return submitDocumentForm(db, { companyId: opts.companyId, userId: opts.userId, kind: r.kind, values: opts.values, intent: opts.intent, now: opts.now, schemaSet: opts.schemaSet, source });
}
