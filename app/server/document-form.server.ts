// The shared document form for invoices and tickets (spec part 2 §2, §5; issue 5 item 1): the
// company's lists, the re-render on "intent" submits (add/remove line, recalculate — no JavaScript
// needed), live totals from draftTotals, and "Guardar" → issueDocument.
import path from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { clients, companies, documents, generalConfigurations, students, taxTypes } from "../../db/schema/index.ts";
import { insertPaymentTerm, paymentTermsOf, termOf, termsOf } from "../../db/queries/config.ts";
import { formClientChoices } from "../../db/queries/clients.ts";
import { formItemCandidates, formItems } from "../../db/queries/items.ts";
import { detailTypeOf } from "../../db/queries/document-lists.ts";
import { paymentMethods, paymentTerms as usualPaymentTerms, saleConditions } from "../../db/seed/reference-data.ts";
import { addItemLine, POS_MESSAGES, posExactItem, posSearch } from "../domain/pos.ts";
import { costaRicaDay } from "../domain/document-status.ts";
import { INVOICE_REFERENCE_CODES, INVOICE_REFERENCE_DEFAULT, INVOICE_REFERENCE_DOC_TYPES, purchaseReference, readReferenceForm, type ReferenceFormValues, type ReferenceView, type SourceView } from "../domain/document-source.ts";
import { editableReferenceView } from "./reference-view.server.ts";
import { formatDecimalInput } from "../domain/number-input.ts";
import { kindWarnings } from "../domain/totals.ts";
import { EXONERATION_INSTITUTIONS, exonerationDocTypesFor } from "../hacienda/codes.ts";
import { checkDraft, draftLineInputs, draftTotals, summaryOf, type DocumentDraft, type DraftReference, type FieldError } from "../domain/document-draft.ts";
import type { RecurrenceFormValues } from "../domain/recurring.ts";
import { applyItemPicks, billedToRepresentative, blankLine, blankPayment, chosenStudent, contingencyReference, errorMap, FORM_CLIENT_MATCHES, FORM_KINDS, FORM_LIST_LIMIT, FORM_SAVED, FORM_MESSAGES, MAX_LINES, READ_LINES, countLineRows, MAX_PAYMENTS, offeredCreditTerms, PAYMENT_TERM_MESSAGES, readCreditTerm, readDocumentForm, toDraft, withoutBlankLines, type CreditTerm, type DocumentFormValues, type FormStudent, type FormItem, type FormKind, type FormTaxType } from "../domain/document-form.ts";
import { loadSchemaSet } from "../hacienda/xsd/load.server.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { currentRate } from "./exchange-rate.server.ts";
import { emailFailedMessage, QUOTATION_MESSAGES } from "../domain/quotations.ts";
import { issueDocument } from "./issue-document.server.ts";
import { emailQuotationNow, updateQuotation } from "./quotations.server.ts";

export type { FormKind };

let schemaSetCache: CompiledSchemaSet | undefined;
/** The app's Hacienda schema set (compiled once per process). */
export function appSchemaSet(): CompiledSchemaSet {
  schemaSetCache ??= loadSchemaSet(process.env.HACIENDA_XSD_DIR ?? path.resolve("../shared/hacienda/xsd/v4.4-2026"));
  return schemaSetCache;
}

export interface DocumentFormLists {
  clients: Array<{ id: number; name: string; identification: string; generic: boolean }>;
  /** School plan (permission 3) invoices, tickets and quotations: the students offered, billed to their representative (null: not a school form). */
  students: FormStudent[] | null;
  items: FormItem[];
  taxTypes: FormTaxType[];
  genericClientId: number | null;
  /** The company's point-of-sale mode (general configuration mode_pos): the form shows the item search. */
  modePos: boolean;
  /** Too many clients to list: the form offers 'Buscar cliente' (what was searched, how many found); null = all are listed. */
  clientSearch: { query: string; found: number } | null;
  /** Too many items to list: `items` holds only the form's own, and the form shows the item search. */
  itemSearch: boolean;
  /** The company's terms and conditions (/terms): one may be printed on the document. */
  terms: Array<{ id: number; name: string }>;
  /** Credit terms offered when the sale is on credit: Hacienda's usual ones and the company's own ('Nuevo plazo'). */
  creditTerms: CreditTerm[];
  /** The currency a new document starts in (general configuration currency_emit_doc: 1 dollars; 0 ask and 2 colones start in colones). */
  defaultCurrency: "CRC" | "USD";
  /** The exoneration document types this kind may use (Nota 10.1: 01, 05, 06 and 07 only on notes). */
  exonerationTypes: Array<[string, string]>;
  /**
   * Hacienda's choices the form offers: sale conditions (not the REP-only ones), payment methods and
   * exoneration institutions, as [code, name]. In the page's data rather than in the form's code:
   * the names are in the page's HTML already, so the data repeats them for a few bytes
   * (the JavaScript budget, docs/decisions/155).
   */
  saleConditions: Array<[string, string]>;
  paymentMethods: Array<[string, string]>;
  exonerationInstitutions: Array<[string, string]>;
}

/** NombreInstitucion in code order (an object lists "10", "11", "12", "99" before "01"). */
const INSTITUTIONS = Object.entries(EXONERATION_INSTITUTIONS).sort(([a], [b]) => a.localeCompare(b));
const SALE_CONDITIONS = saleConditions.filter((s) => !s.repOnly).map((s): [string, string] => [s.code, s.name]);
const PAYMENT_METHODS = paymentMethods.map((p): [string, string] => [p.code, p.name]);

/** The point-of-sale search box: what was searched, the items found, or why none. */
export interface PosState {
  query: string;
  results: FormItem[];
  message: string | null;
}

/** Kinds whose form offers the point-of-sale search when mode_pos is on. */
const POS_KINDS: readonly FormKind[] = ["fe", "te", "qt"];

/** Kinds whose form offers students on the school plan. */
const STUDENT_KINDS: readonly FormKind[] = ["fe", "te", "qt"];

/** The company's active students whose representative is an active client, by name. */
async function studentsOffered(db: Db, companyId: number): Promise<FormStudent[]> {
  const rows = await db
    .select({ id: students.id, name: students.name, surname: students.surname, clientId: students.clientId, representative: clients.name })
    .from(students)
    .innerJoin(clients, and(eq(clients.id, students.clientId), eq(clients.companyId, companyId)))
    .where(and(eq(students.companyId, companyId), eq(students.active, true), isNull(students.deletedAt), eq(clients.active, true), isNull(clients.deletedAt), eq(clients.provider, false)))
    .orderBy(asc(students.name), asc(students.surname))
    .limit(2000);
  return rows.map((r) => ({ id: r.id, name: `${r.name} ${r.surname}`, clientId: r.clientId, representative: r.representative }));
}

/** What a form must list whatever the size of the catalogue: its client and items, and a client search. */
export interface ListNeeds {
  clientIds?: ReadonlyArray<string | number | null | undefined>;
  itemIds?: ReadonlyArray<string | number | null | undefined>;
  /** 'Buscar cliente' as typed. */
  clientSearch?: string;
}

const idsOf = (xs: ListNeeds["clientIds"]) => [...new Set((xs ?? []).map((x) => Number(x)).filter((n) => Number.isInteger(n) && n > 0 && n < 2 ** 31))];

/** The ids a stored draft needs listed (its client and items). */
export const needsOfDraft = (draft: DocumentDraft): ListNeeds => ({ clientIds: [draft.clientId], itemIds: draft.lines.map((l) => l.itemId) });

/**
 * The company's lists for a form. Up to FORM_LIST_LIMIT active clients and items are all listed;
 * beyond, only what `need` names (and the generic client, and the clients a search finds), and the
 * form offers the searches instead (docs/decisions/101).
 */
export async function documentFormLists(db: Db, companyId: number, kind: FormKind, need: ListNeeds = {}): Promise<DocumentFormLists> {
  const rule = FORM_KINDS[kind].clients;
  let clientRows = await db
    .select({ id: clients.id, name: clients.name, identification: clients.identification, generic: clients.generic })
    .from(clients)
    .where(and(eq(clients.companyId, companyId), eq(clients.provider, rule === "providers"), eq(clients.active, true), isNull(clients.deletedAt)))
    .orderBy(asc(clients.name))
    .limit(FORM_LIST_LIMIT + 1);
  const clientSearch = clientRows.length > FORM_LIST_LIMIT;
  let found = 0;
  if (clientSearch) {
    const choices = await formClientChoices(db, { companyId, provider: rule === "providers", ids: idsOf(need.clientIds), search: need.clientSearch ?? "", limit: FORM_CLIENT_MATCHES });
    const kept = new Set(choices.kept.map((c) => c.id));
    clientRows = [...choices.kept, ...choices.found.filter((c) => !kept.has(c.id))];
    found = choices.found.length;
  }
  const offered = rule === "customers-and-generic" ? clientRows : clientRows.filter((c) => !c.generic);
  let itemRows = await formItems(db, { companyId, limit: FORM_LIST_LIMIT + 1 });
  const itemSearch = itemRows.length > FORM_LIST_LIMIT;
  if (itemSearch) itemRows = await formItems(db, { companyId, ids: idsOf(need.itemIds) });
  const taxRows = await db.select({ id: taxTypes.id, name: taxTypes.name, rate: taxTypes.rate, taxCode: taxTypes.taxCode, vatCode: taxTypes.vatCode }).from(taxTypes).where(eq(taxTypes.companyId, companyId)).orderBy(asc(taxTypes.id));
  const [config] = await db
    .select({ modePos: generalConfigurations.modePos, currencyEmitDoc: generalConfigurations.currencyEmitDoc })
    .from(generalConfigurations)
    .where(eq(generalConfigurations.companyId, companyId));
  const [company] = await db.select({ permission: companies.permission }).from(companies).where(eq(companies.id, companyId));
  return {
    students: company?.permission === 3 && STUDENT_KINDS.includes(kind) ? await studentsOffered(db, companyId) : null,
    terms: (await termsOf(db, companyId)).map((t) => ({ id: t.id, name: t.name })),
    creditTerms: offeredCreditTerms(usualPaymentTerms, await paymentTermsOf(db, companyId)),
    defaultCurrency: config?.currencyEmitDoc === 1 ? "USD" : "CRC",
    modePos: !!config?.modePos && POS_KINDS.includes(kind),
    clients: offered,
    clientSearch: clientSearch ? { query: (need.clientSearch ?? "").slice(0, 100), found } : null,
    items: itemRows,
    itemSearch,
    taxTypes: taxRows,
    genericClientId: clientRows.find((c) => c.generic)?.id ?? null,
    exonerationTypes: exonerationDocTypesFor(kind === "qt" ? "fe" : kind),
    saleConditions: SALE_CONDITIONS,
    paymentMethods: PAYMENT_METHODS,
    exonerationInstitutions: INSTITUTIONS,
  };
}

export interface DocumentFormState {
  kind: FormKind;
  form: DocumentFormValues;
  lists: DocumentFormLists;
  errors: Record<string, string>;
  /** Errors whose field has no input of its own (shown above the form). */
  general: string[];
  /**
   * The totals of what is typed; `warnings`: what the user should know about them (a line without a
   * CABYS code counted as goods or services by its unit, kindWarnings) — shown, never blocking.
   */
  totals: { subtotal: string; discount: string; tax: string; exonerated: string; total: string; warnings: string[] } | null;
  message: string | null;
  /** Prefilled screens (notes, clones, replacements, purchase invoices): header, locked client, references. */
  source?: SourceView | null;
  /** The point-of-sale search (null when mode_pos is off or the kind has none). */
  pos?: PosState | null;
  /** New invoices and tickets: the optional reference to another document, as typed. */
  reference?: ReferenceView | null;
  /** 'Guardar e imprimir' (tickets): the ticket just saved, printed while the form starts over. */
  printed?: { id: number; consecutivo: string } | null;
  /** Recurring mode (recurring-form.server.ts): the recurrence block and the payment-reminder checkbox. */
  recurrence?: RecurrenceFormValues | null;
  /** 'Nuevo plazo' as typed, kept when it was refused. */
  newTerm?: { name: string; days: string } | null;
}

/** The company's own ticket just saved with 'Guardar e imprimir' (null for anything else). */
export async function printedTicket(db: Db, companyId: number, id: string | null): Promise<DocumentFormState["printed"]> {
  if (!id || !/^\d{1,9}$/.test(id)) return null;
  const [row] = await db
    .select({ id: documents.id, consecutivo: documents.consecutivo })
    .from(documents)
    .where(and(eq(documents.id, Number(id)), eq(documents.companyId, companyId), eq(documents.kind, "te")));
  return row ? { id: row.id, consecutivo: row.consecutivo ?? "" } : null;
}

/**
 * What a prefilled screen fixes on the server (document-source.server.ts): the posted client,
 * currency and reference fields are ignored and replaced by these.
 */
export interface FormSource {
  view: SourceView;
  /** The client fixed by the source document (notes); null = none. */
  client?: DocumentFormLists["clients"][number] | null;
  /** Currency and exchange rate fixed by the source document (notes). */
  currency?: { code: "CRC" | "USD"; rate: string };
  /** References rebuilt on the server from stored documents (and the typed FEC block, checked). */
  references?: DraftReference[];
  /** Errors of the reference fields read on the server. */
  errors?: FieldError[];
  /** The rejected document a corrected replacement stands for. */
  replacesDocumentId?: number | null;
  /** The quotation being edited: Guardar updates it instead of issuing a new document. */
  updates?: number;
  /** A rule of the source on the draft as it will be issued (run when everything else is valid). */
  checkDraft?: (draft: DocumentDraft) => FieldError[];
}

/** A source's locked client is the only one offered. */
function withSourceClient(lists: DocumentFormLists, source: FormSource | undefined): DocumentFormLists {
  if (!source || source.client === undefined) return lists;
  return { ...lists, clients: source.client ? [source.client] : [] };
}

/** A source's locked values replace whatever was posted. */
function lockedBySource(form: DocumentFormValues, source: FormSource | undefined): DocumentFormValues {
  if (!source) return form;
  let out = form;
  if (source.client !== undefined) out = { ...out, clientId: source.client ? String(source.client.id) : "" };
  if (source.currency) out = { ...out, currency: source.currency.code, exchangeRate: source.currency.code === "USD" ? formatDecimalInput(source.currency.rate) : "" };
  return out;
}

/** Fields the form shows next to an input; anything else goes to the general list. */
function shownField(field: string, lineCount: number): boolean {
  if (["clientId", "emails", "termId", "contingency", "internationalClient", "saleCondition", "saleConditionOther", "creditDays", "newTermName", "newTermDays", "payments", "exchangeRate", "note", "lines"].includes(field)) return true;
  if (/^references(\.\d+(\.(docType|code|date))?)?$/.test(field)) return true;
  if (/^payments\.\d\.other$/.test(field)) return true;
  if (/^recurrence\.(startDay|commonCycle|unit|every)$/.test(field)) return true;
  const m = /^lines\.(\d+)\.(itemId|code|cabys|description|unit|quantity|unitPrice|discountPercent|tax)$/.exec(field);
  return !!m && Number(m[1]) < lineCount;
}

function totalsOf(kind: FormKind, form: DocumentFormValues, lists: DocumentFormLists): DocumentFormState["totals"] {
  const { draft } = toDraft(kind, form, lists.taxTypes);
  if (draft.lines.length === 0 || checkDraft(draft).some((e) => e.field.startsWith("lines"))) return null;
  if (draft.lines.some((l) => !l.tax.code)) return null;
  try {
    // The payment amounts are checked on Guardar; here only "all by card" matters (IVA devuelto).
    const allCard = draft.payments.length > 0 && draft.payments.every((p) => p.code === "02");
    const s = summaryOf(draftTotals({ ...draft, payments: [{ code: allCard ? "02" : "01" }] }));
    const warnings = kindWarnings(draftLineInputs(draft)).map((w) => w.message);
    return { subtotal: s.subtotal, discount: s.discount, tax: s.tax, exonerated: s.exonerated, total: s.total, warnings };
  } catch {
    return null;
  }
}

function state(kind: FormKind, form: DocumentFormValues, lists: DocumentFormLists, errors: FieldError[], message: string | null = null, source: SourceView | null = null, reference: ReferenceFormValues | null = null): DocumentFormState {
  return {
    source,
    kind,
    form,
    lists,
    errors: errorMap(errors),
    general: [...new Set(errors.filter((e) => !shownField(e.field, form.lines.length)).map((e) => e.message))],
    totals: totalsOf(kind, form, lists),
    message,
    pos: lists.modePos || lists.itemSearch ? { query: "", results: [], message: null } : null,
    reference: !source && (kind === "fe" || kind === "te") ? editableReferenceView(reference ?? { ...INVOICE_REFERENCE_DEFAULT, number: "", date: "", reason: "" }, INVOICE_REFERENCE_OPTIONS) : null,
  };
}

const INVOICE_REFERENCE_OPTIONS = { docTypes: INVOICE_REFERENCE_DOC_TYPES, codes: INVOICE_REFERENCE_CODES };

/** The optional reference block of a new invoice or ticket: used when a number or a reason is typed. */
function typedReference(values: Record<string, string | undefined>, today: string): { typed: ReferenceFormValues; reference: DraftReference | null; errors: FieldError[] } {
  const typed = readReferenceForm(values);
  if (!typed.number && !typed.reason) return { typed, reference: null, errors: [] };
  return { typed, ...purchaseReference(typed, today, INVOICE_REFERENCE_OPTIONS) };
}

/** Fills the exchange rate when dollars are chosen and none was typed; a message when there is none. */
async function withRate(db: Db, form: DocumentFormValues, now: Date): Promise<{ form: DocumentFormValues; message: string | null }> {
  if (form.currency !== "USD") return { form: { ...form, exchangeRate: "" }, message: null };
  if (form.exchangeRate && form.exchangeRate !== "1") return { form, message: null };
  const rate = await currentRate(db, { currency: "USD", now });
  if (!rate.ok) return { form: { ...form, exchangeRate: "" }, message: rate.message };
  return { form: { ...form, exchangeRate: formatDecimalInput(rate.rate) }, message: rate.warning ?? null };
}

/** Whether the form may show `id` as its client: one of the clients (or students) it offers — never another company's. */
function offersClient(lists: DocumentFormLists, id: string): boolean {
  return lists.clients.some((c) => String(c.id) === id) || !!chosenStudent(id, lists.students);
}

/** The form with no client chosen when the one it names is not offered (a URL's or a post's id). */
function withOfferedClient(form: DocumentFormValues, lists: DocumentFormLists): DocumentFormValues {
  return form.clientId && !offersClient(lists, form.clientId) ? { ...form, clientId: "" } : form;
}

/** A new, empty form (tickets preselect the generic client unless `clientId` names one of the offered clients). */
export async function newDocumentForm(db: Db, opts: { companyId: number; kind: FormKind; clientId?: string | null; now?: Date }): Promise<DocumentFormState> {
  const lists = await documentFormLists(db, opts.companyId, opts.kind, { clientIds: [opts.clientId] });
  const preselected = opts.clientId && offersClient(lists, opts.clientId) ? opts.clientId : null;
  const clientId = preselected ?? (opts.kind === "te" && lists.genericClientId ? String(lists.genericClientId) : "");
  // A company issuing in dollars starts with the day's rate (or says there is none).
  const rated = await withRate(db, blankForm(lists, clientId), opts.now ?? new Date());
  return state(opts.kind, rated.form, lists, [], rated.message);
}

/** The empty form: one blank line with the company's first tax type, colones, cash. */
export function blankForm(lists: DocumentFormLists, clientId = ""): DocumentFormValues {
  return {
    clientId,
    saleCondition: "01",
    saleConditionOther: "",
    creditDays: "",
    payments: [blankPayment()],
    currency: lists.defaultCurrency,
    exchangeRate: "",
    note: "",
    international: false,
    remindPayment: false,
    termId: "",
    contingencyNumber: "",
    contingencyDate: "",
    internationalName: "",
    internationalCedula: "",
    emails: "",
    lines: [blankLine(lists.taxTypes[0] ? String(lists.taxTypes[0].id) : "")],
  };
}

/** A form prefilled by a source (document-source.server.ts); a preselected client not offered is cleared. */
export async function prefilledDocumentForm(
  db: Db,
  opts: { companyId: number; kind: FormKind; now: Date; source: FormSource; form: (lists: DocumentFormLists) => DocumentFormValues; need?: ListNeeds },
): Promise<DocumentFormState> {
  const lists = withSourceClient(await documentFormLists(db, opts.companyId, opts.kind, opts.need), opts.source);
  const form = withOfferedClient(lockedBySource(opts.form(lists), opts.source), lists);
  const rated = await withRate(db, form, opts.now);
  return state(opts.kind, rated.form, lists, [], rated.message, opts.source.view);
}

export type SubmitResult =
  | { ok: true; documentId: number; kind: FormKind; message: string; redirectTo: string; warning?: boolean }
  | { ok: false; status: number; state: DocumentFormState };

/**
 * What "Guardar" does instead of issuing (recurring templates store the checked draft). Errors are
 * shown with everything typed kept.
 */
export type FormSave = (draft: DocumentDraft) => Promise<{ ok: true; id: number; message: string; redirectTo: string } | { ok: false; errors: FieldError[] }>;

/**
 * A submission of the form. intent "add-line" / "remove-line:N" / "recalc" re-render with everything
 * typed (status 200); "save" (or none) issues the document — or updates the quotation being edited
 * (null: it is gone), or stores the recurring template (`save`) — or answers 400 with the errors and
 * the values, nothing saved. "save-email" (quotations) saves and e-mails it at once; "save-print"
 * (tickets) saves and returns to a fresh form that prints it.
 */
export async function submitDocumentForm(
  db: Db,
  opts: { companyId: number; userId: number; kind: FormKind; values: Record<string, string | undefined>; intent: string; now: Date; schemaSet?: CompiledSchemaSet; source?: FormSource; save?: FormSave },
): Promise<SubmitResult | null> {
  const { kind, intent } = opts;
  const typed = lockedBySource(readDocumentForm(opts.values), opts.source);
  const clientSearch = (opts.values.client_search ?? "").trim().slice(0, 100);
  let lists = withSourceClient(await documentFormLists(db, opts.companyId, kind, { clientIds: [typed.clientId], itemIds: typed.lines.map((l) => l.itemId), clientSearch }), opts.source);
  const view = opts.source?.view ?? null;
  // New invoices and tickets may refer to another document (the optional reference block).
  const ref = !opts.source && (kind === "fe" || kind === "te") ? typedReference(opts.values, costaRicaDay(opts.now)) : null;
  const picked = applyItemPicks(typed, lists.items);
  const rated = await withRate(db, picked.form, opts.now);
  let form = rated.form;
  const defaultTax = lists.taxTypes[0] ? String(lists.taxTypes[0].id) : "";

  // 'Buscar cliente' (too many clients to list): the re-rendered select offers the matches.
  if (intent === "client-search") return { ok: false, status: 200, state: state(kind, form, lists, [], rated.message, view, ref?.typed ?? null) };

  // Item search (point of sale, or too many items to list): a click on a found item, a search, or
  // Enter in the box (a scanned code).
  const posQuery = (opts.values.pos_search ?? "").trim().slice(0, 100);
  if ((lists.modePos || lists.itemSearch) && (intent.startsWith("pos-add:") || intent === "pos-search" || (intent === "recalc" && posQuery))) {
    const addId = intent.startsWith("pos-add:") ? intent.slice("pos-add:".length) : null;
    const candidates = !lists.itemSearch
      ? lists.items
      : addId
        ? await formItems(db, { companyId: opts.companyId, ids: idsOf([addId]) })
        : await formItemCandidates(db, { companyId: opts.companyId, search: posQuery, limit: 50 });
    const chosen = addId ? candidates.find((it) => String(it.id) === addId) : posExactItem(candidates, posQuery);
    if (chosen) form = addItemLine(form, chosen);
    if (chosen && !lists.items.some((it) => it.id === chosen.id)) lists = { ...lists, items: [...lists.items, chosen] };
    const results = chosen ? [] : posSearch(candidates, posQuery);
    const pos = { query: chosen ? "" : posQuery, results, message: !chosen && posQuery && results.length === 0 ? POS_MESSAGES.noMatch : null };
    return { ok: false, status: 200, state: { ...state(kind, form, lists, [], rated.message, view, ref?.typed ?? null), pos } };
  }

  // 'Nuevo plazo': the company's new credit term, chosen on the re-rendered form (or its errors).
  if (intent === "add-term") {
    const read = readCreditTerm(opts.values);
    const errors = [...read.errors];
    if (read.term) {
      const taken = lists.creditTerms.some((t) => t.days === read.term!.days) || !(await insertPaymentTerm(db, opts.companyId, read.term));
      if (!taken) {
        const fresh = { ...lists, creditTerms: offeredCreditTerms(lists.creditTerms, [read.term]) };
        const chosen = { ...form, saleCondition: "02", creditDays: String(read.term.days) };
        return { ok: false, status: 200, state: state(kind, chosen, fresh, [], PAYMENT_TERM_MESSAGES.added(read.term.name), view, ref?.typed ?? null) };
      }
      errors.push({ field: "newTermDays", message: PAYMENT_TERM_MESSAGES.duplicate(read.term.days) });
    }
    return { ok: false, status: 400, state: { ...state(kind, form, lists, errors, rated.message, view, ref?.typed ?? null), newTerm: read.typed } };
  }

  const paymentIntent = intent === "add-payment" || intent.startsWith("remove-payment:");
  if (intent === "add-line" || intent.startsWith("remove-line:") || intent === "recalc" || paymentIntent) {
    if (intent === "add-payment" && form.payments.length < MAX_PAYMENTS) form = { ...form, payments: [...form.payments, blankPayment()] };
    if (intent.startsWith("remove-payment:") && form.payments.length > 1) {
      const index = Number(intent.slice("remove-payment:".length));
      form = { ...form, payments: form.payments.filter((_, i) => i !== index) };
    }
    const atLimit = intent === "add-line" && form.lines.length >= MAX_LINES;
    if (intent === "add-line" && !atLimit) form = { ...form, lines: [...form.lines, blankLine(defaultTax)] };
    if (intent.startsWith("remove-line:")) {
      const index = Number(intent.slice("remove-line:".length));
      form = { ...form, lines: form.lines.filter((_, i) => i !== index) };
    }
    // Item-pick errors refer to row positions: recompute them after adding/removing rows. The
    // re-rendered form (also the return from a quick-add, ?id=) keeps only a client it offers.
    const again = applyItemPicks(withOfferedClient(form, lists), lists.items);
    const limit = atLimit ? [{ field: "lines", message: FORM_MESSAGES.lineLimit }] : [];
    return { ok: false, status: 200, state: state(kind, again.form, lists, [...again.errors, ...limit], rated.message, view, ref?.typed ?? null) };
  }

  // Blank rows are left out when another row is complete (withoutBlankLines, as toDraft does); the
  // form comes back without them, and item-pick errors are recomputed for the rows kept.
  const kept = applyItemPicks(withoutBlankLines(form), lists.items);
  form = kept.form;
  const errors: FieldError[] = [...kept.errors, ...(opts.source?.errors ?? [])];
  // More lines than a document may have: refused, never cut (every line read comes back on the form).
  // (Past READ_LINES only the first ones are read: the message counts every row sent.)
  const rows = countLineRows(opts.values);
  const lineCount = rows > READ_LINES ? rows : form.lines.length;
  if (lineCount > MAX_LINES) errors.push({ field: "lines", message: FORM_MESSAGES.tooManyLines(lineCount) });
  // A student (school plan) is billed to its representative; the form keeps showing the student.
  const student = chosenStudent(form.clientId, lists.students);
  const billed = student ? billedToRepresentative(form, student) : form;
  if (billed.clientId && !lists.clients.some((c) => String(c.id) === billed.clientId)) errors.push({ field: "clientId", message: FORM_MESSAGES.clientNotAllowed });
  const { draft: typedDraft, errors: formErrors } = toDraft(kind, billed, lists.taxTypes);
  // The chosen terms are copied onto the document (a later edit of /terms does not change it).
  const term = form.termId ? await termOf(db, opts.companyId, Number(form.termId)) : undefined;
  if (form.termId && !term) errors.push({ field: "termId", message: FORM_MESSAGES.termNotFound });
  const formDraft = term ? { ...typedDraft, terms: term.body } : typedDraft;
  // A new invoice or ticket may replace a provisional contingency document (situation 2, reference 05).
  const contingency = !opts.source && (kind === "fe" || kind === "te") ? contingencyReference(form, costaRicaDay(opts.now)) : { reference: null, errors: [] };
  errors.push(...contingency.errors);
  if (ref) errors.push(...ref.errors);
  const references = [...(contingency.reference ? [contingency.reference] : []), ...(ref?.reference ? [ref.reference] : [])];
  const draft = opts.source?.references
    ? { ...formDraft, references: opts.source.references }
    : { ...formDraft, ...(contingency.reference ? { situacion: 2 as const } : {}), ...(references.length ? { references } : {}) };
  errors.push(...formErrors, ...checkDraft(draft));
  // The source's own rule on the whole draft (a credit note marked 'Anula' must cancel it all).
  if (!errors.length && opts.source?.checkDraft) errors.push(...opts.source.checkDraft(draft));
  if (errors.length > 0) return { ok: false, status: 400, state: state(kind, form, lists, errors, rated.message, view, ref?.typed ?? null) };

  if (opts.save) {
    const stored = await opts.save(draft);
    if (!stored.ok) return { ok: false, status: 400, state: state(kind, form, lists, stored.errors, rated.message, view, ref?.typed ?? null) };
    return { ok: true, documentId: stored.id, kind, message: stored.message, redirectTo: stored.redirectTo };
  }

  // Editing a quotation updates it and goes back to the list (spec part 2 §4); anything else is issued.
  const updates = opts.source?.updates;
  const saved = updates
    ? await updateQuotation(db, { companyId: opts.companyId, documentId: updates, draft, now: opts.now })
    : await issueDocument(db, {
        companyId: opts.companyId,
        userId: opts.userId,
        draft,
        now: opts.now,
        schemaSet: opts.schemaSet ?? appSchemaSet(),
        replacesDocumentId: opts.source?.replacesDocumentId ?? null,
      });
  if (!saved) return null;
  if (!saved.ok) return { ok: false, status: 400, state: state(kind, form, lists, saved.errors, rated.message, view, ref?.typed ?? null) };
  const printed = kind === "te" && intent === "save-print" && !opts.source;
  const redirectTo = updates ? FORM_KINDS.qt.listPath : printed ? `/new-ticket?printed=${saved.documentId}` : `/detail/${detailTypeOf(kind)}/${saved.documentId}`;
  const message = updates ? QUOTATION_MESSAGES.updated : FORM_SAVED[kind];
  // 'Guardar y Enviar por correo' (quotations): e-mailed at once; a failure keeps the saved quotation.
  if (kind === "qt" && intent === "save-email") {
    const sent = await emailQuotationNow(db, { companyId: opts.companyId, documentId: saved.documentId, now: opts.now });
    if (!sent.ok) return { ok: true, documentId: saved.documentId, kind, message: emailFailedMessage(sent.message), redirectTo, warning: true };
    return { ok: true, documentId: saved.documentId, kind, message: QUOTATION_MESSAGES.emailed, redirectTo };
  }
  return { ok: true, documentId: saved.documentId, kind, message, redirectTo };
}
