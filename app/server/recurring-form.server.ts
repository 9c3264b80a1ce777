// The shared document form in recurring mode (spec part 2 §2 "Shared document form", "Recurring
// invoices"): /recurring-new (?id= client), /new-recurring/invoice/:id (preloaded from the invoice's
// stored draft) and /edit-recurring/recurring/:id. Same lists, re-renders and checks as the invoice
// form (submitDocumentForm); "Guardar" stores the template (createRecurring / updateRecurring, which
// check the draft as the invoice it will issue) instead of issuing. Sources are read with the
// company's id: another company's id is not found. docs/decisions/091-recurring-screens.md.
import type { Db } from "../../db/client.ts";
import { documentOf, documentsInYear } from "../../db/queries/documents.ts";
import { companies } from "../../db/schema/index.ts";
import { eq } from "drizzle-orm";
import { recurringOf } from "../../db/queries/recurring.ts";
import type { DocumentDraft, FieldError } from "../domain/document-draft.ts";
import { formValuesFromDraft, type SourceView } from "../domain/document-source.ts";
import { costaRicaDay } from "../domain/document-status.ts";
import { formatDate, formatDateTime } from "../domain/format.ts";
import { blankRecurrence, readRecurrenceForm, recurrenceFormOf, recurrenceOf, RECURRING_MESSAGES, type RecurrenceFormValues, type RecurringRequest } from "../domain/recurring.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { appSchemaSet, needsOfDraft, newDocumentForm, prefilledDocumentForm, submitDocumentForm, type DocumentFormLists, type DocumentFormState, type FormSave, type ListNeeds, type SubmitResult } from "./document-form.server.ts";
import { createRecurring, nextRecurringNumber, updateRecurring } from "./recurring.server.ts";

const LIST = "/recurrings";

interface Resolved {
  view: SourceView;
  /** The form's values when loading (null: the blank invoice form). */
  form: ((lists: DocumentFormLists) => ReturnType<typeof formValuesFromDraft>) | null;
  /** The client and items the form starts with (listed however large the catalogue). */
  need?: ListNeeds;
  recurrence: RecurrenceFormValues;
  clientId: string | null;
  /** The template edited. */
  editId: number | null;
}

async function resolve(db: Db, companyId: number, req: RecurringRequest, now: Date): Promise<Resolved | null> {
  const today = costaRicaDay(now);
  const newFacts = async () => {
    const facts = [
      { label: "Consecutivo", value: await nextRecurringNumber(db, companyId, now) },
      { label: "Fecha", value: formatDateTime(now) },
    ];
    // Plan 4 ("100 anuales") shows how many documents the company issued this year (part 1 §1).
    const [company] = await db.select({ permission: companies.permission }).from(companies).where(eq(companies.id, companyId));
    if (company?.permission === 4) facts.push({ label: "Documentos emitidos este año", value: String(await documentsInYear(db, companyId, today.slice(0, 4))) });
    return facts;
  };
  if (req.mode === "new") {
    return { view: { title: "Nueva factura recurrente", facts: await newFacts(), clientLocked: false, references: [], listPath: LIST }, form: null, recurrence: blankRecurrence(today), clientId: req.clientId, editId: null };
  }
  if (req.mode === "from-invoice") {
    const doc = await documentOf(db, { companyId, id: req.documentId });
    if (!doc || doc.kind !== "fe") return null;
    const draft = (doc.draft ?? null) as DocumentDraft | null;
    const stored: DocumentDraft = draft ?? { kind: "fe", clientId: doc.clientId, saleCondition: doc.saleCondition ?? "01", payments: [], currency: doc.currencyId === 1 ? "USD" : "CRC", exchangeRate: doc.exchangeRate, lines: [] };
    return {
      view: { title: `Haciendo recurrente Factura: #${doc.consecutivo ?? doc.number ?? doc.id}`, facts: await newFacts(), clientLocked: false, references: [], listPath: LIST },
      form: (lists) => formValuesFromDraft({ ...stored, kind: "fe" }, lists.taxTypes, lists.items, { keepNote: true, keepRate: false }),
      need: needsOfDraft(stored),
      recurrence: blankRecurrence(today),
      clientId: null,
      editId: null,
    };
  }
  const row = await recurringOf(db, { companyId, id: req.id });
  if (!row) return null;
  const facts = [
    { label: "Número", value: String(row.number ?? row.id) },
    { label: "Ultimo envio", value: row.lastSentDate ? formatDate(`${row.lastSentDate}T12:00:00-06:00`) : "N/E" },
    { label: "Proximo envio", value: formatDate(`${row.nextSendDate}T12:00:00-06:00`) },
  ];
  if (row.paused) facts.push({ label: "Estado", value: "Pausada" });
  if (row.lastError) facts.push({ label: "Último error al emitir", value: row.lastError });
  return {
    view: { title: "Editar factura recurrente", facts, clientLocked: false, references: [], listPath: LIST },
    form: (lists) => formValuesFromDraft(row.draft as DocumentDraft, lists.taxTypes, lists.items, { keepNote: true, keepRate: true }),
    need: needsOfDraft(row.draft as DocumentDraft),
    recurrence: recurrenceFormOf({ startDay: row.startDay, cycle: row.cycle, every: row.every, remindPayment: row.remindPayment }),
    clientId: null,
    editId: row.id,
  };
}

/** The form of a recurring screen; null = not found (another company's, deleted, not an invoice). */
export async function recurringFormState(db: Db, opts: { companyId: number; request: RecurringRequest; now: Date }): Promise<DocumentFormState | null> {
  const r = await resolve(db, opts.companyId, opts.request, opts.now);
  if (!r) return null;
  const state = r.form
    ? await prefilledDocumentForm(db, { companyId: opts.companyId, kind: "fe", now: opts.now, source: { view: r.view }, form: r.form, need: r.need })
    : { ...(await newDocumentForm(db, { companyId: opts.companyId, kind: "fe", clientId: r.clientId })), source: r.view };
  return { ...state, recurrence: r.recurrence };
}

/**
 * A submission of a recurring screen: re-renders keep everything typed (recurrence block included);
 * "Guardar" checks the recurrence block and the draft together and stores the template. Null = not found.
 */
export async function submitRecurringForm(
  db: Db,
  opts: { companyId: number; userId: number; request: RecurringRequest; values: Record<string, string | undefined>; intent: string; now: Date; schemaSet?: CompiledSchemaSet },
): Promise<SubmitResult | null> {
  const r = await resolve(db, opts.companyId, opts.request, opts.now);
  if (!r) return null;
  const typed = readRecurrenceForm(opts.values);
  const { recurrence, errors } = recurrenceOf(typed);
  const rerender = opts.intent === "recalc" || opts.intent.startsWith("add-") || opts.intent.startsWith("remove-");
  const schemaSet = opts.schemaSet ?? appSchemaSet();
  const save: FormSave = async (draft) => {
    if (!recurrence) return { ok: false, errors };
    const input = { companyId: opts.companyId, userId: opts.userId, draft, ...recurrence, now: opts.now, schemaSet };
    const saved = r.editId === null ? await createRecurring(db, input) : await updateRecurring(db, { ...input, id: r.editId });
    if (!saved) return { ok: false, errors: [{ field: "form", message: RECURRING_MESSAGES.notFound } satisfies FieldError] };
    if (!saved.ok) return saved;
    return { ok: true, id: saved.id, message: r.editId === null ? RECURRING_MESSAGES.created : RECURRING_MESSAGES.edited, redirectTo: LIST };
  };
  const result = await submitDocumentForm(db, {
    companyId: opts.companyId,
    userId: opts.userId,
    kind: "fe",
    values: opts.values,
    intent: opts.intent,
    now: opts.now,
    schemaSet,
    source: { view: r.view, errors: rerender ? [] : errors },
    save,
  });
  if (!result || result.ok) return result;
  return { ...result, state: { ...result.state, recurrence: typed } };
}

