// Documents through the integrator API (issue 15 item 2). A JSON document becomes the shared
// form's values and goes through the same pure steps as the screen (item picks, toDraft, the
// contingency and reference blocks, checkDraft) and the same issuing use-case (issueDocumentInTx:
// totals, XSD, signature, numbering, the submission job) — so the same draft gets the same answer
// and a refused field the same Spanish message, under the same path. Notes start from the stored
// document as /new-note does (client, currency and reference locked: noteReference).
import { and, desc, eq, gte, inArray, isNull, lt, or, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { clients, documents, taxTypes } from "../../../db/schema/index.ts";
import { documentOf, linesOf, referencesOf } from "../../../db/queries/documents.ts";
import { formItems } from "../../../db/queries/items.ts";
import { genericClient } from "../../../db/queries/clients.ts";
import { termOf } from "../../../db/queries/config.ts";
import { API_MESSAGES, type PaymentInput, type DocumentCreate, type DocumentLineInput, type DocumentQuery, type EmailRequest, type NoteCreate } from "../../domain/api/schemas.ts";
import { checkDraft, type DocumentDraft, type DraftReference, type FieldError } from "../../domain/document-draft.ts";
import {
  applyItemPicks,
  blankLine,
  blankPayment,
  contingencyReference,
  FORM_KINDS,
  FORM_MESSAGES,
  toDraft,
  type DocumentFormValues,
  type FormKind,
  type FormLine,
  type FormTaxType,
} from "../../domain/document-form.ts";
import { FEC_REFERENCE_CODES, FEC_REFERENCE_DOC_TYPES, formValuesFromDraft, INVOICE_REFERENCE_CODES, INVOICE_REFERENCE_DOC_TYPES, noteReference, purchaseReference, taxTypeOfLine } from "../../domain/document-source.ts";
import { costaRicaDay } from "../../domain/document-status.ts";
import { isPayableKind } from "../../domain/payments.ts";
import { amountDue } from "../../domain/receivables.ts";
import { parseAddresses } from "../../domain/email-form.ts";
import { rejectionReasons } from "../../domain/rejection-reasons.ts";
import { documentRecipients } from "../../email/document-email.ts";
import { appSchemaSet } from "../document-form.server.ts";
import { documentFile, fileResponse, type DocumentFileKind } from "../document-files.server.ts";
import { documentEmailDefaults, sendDocumentEmailNow } from "../document-email.server.ts";
import { loadDocumentView } from "../document-view.server.ts";
import { currentRate } from "../exchange-rate.server.ts";
import { ISSUE_MESSAGES, issueDocumentInTx, IssueValidationError, NOTE_SOURCES, resolveKey } from "../issue-document.server.ts";
import { SigningKeyError } from "../signing-key.server.ts";
import { claimFirst, claimInTx, releaseKey, storeAnswer, type IdempotencyKey } from "./idempotency.server.ts";
import { ApiError, cursorOf, invalid, json, notFound, pageLimit, readCursor } from "./http.server.ts";
import { createPayment, paymentsJson, removePayment } from "./payments.server.ts";
import type { ApiPrincipal } from "./tokens.server.ts";

export interface ApiCall {
  db: Db;
  principal: ApiPrincipal;
  now: Date;
  idempotency: IdempotencyKey | null;
}

const text = (v: string | number | undefined | null) => (v === undefined || v === null ? "" : String(v).trim());

async function companyTaxTypes(db: DbOrTx, companyId: number): Promise<FormTaxType[]> {
  return db.select({ id: taxTypes.id, name: taxTypes.name, rate: taxTypes.rate, taxCode: taxTypes.taxCode, vatCode: taxTypes.vatCode }).from(taxTypes).where(eq(taxTypes.companyId, companyId)).orderBy(taxTypes.id);
}

/** GET /tax-types: the company's 'Lista de IVA' (the taxTypeId of a line). */
export async function listTaxTypes(call: ApiCall) {
  const rows = await companyTaxTypes(call.db, call.principal.companyId);
  return json({ data: rows.map((t) => ({ id: t.id, name: t.name, rate: String(Number(t.rate)), taxCode: t.taxCode, vatCode: t.vatCode })) });
}

type LineInput = z.output<typeof DocumentLineInput>;

/** An API line as the form's row: an item fills it (like choosing it on the screen), the given fields prevail. */
function formLine(l: LineInput, taxes: FormTaxType[]): FormLine {
  const exo = l.exoneration;
  return {
    ...blankLine(),
    itemId: l.itemId ? String(l.itemId) : "",
    picked: "",
    code: text(l.code),
    cabys: text(l.cabys),
    description: text(l.description),
    unit: text(l.unit) || "Unid",
    quantity: text(l.quantity),
    price: text(l.unitPrice),
    discount: text(l.discountPercent) || "0",
    taxTypeId: l.taxTypeId ? String(l.taxTypeId) : l.tax ? String(taxTypeOfLine({ code: l.tax.code as never, tarifaCode: l.tax.tarifaCode as never, rate: text(l.tax.rate) || undefined }, taxes)?.id ?? "") : "",
    ...(exo
      ? {
          exType: exo.docType,
          exTypeOther: exo.docTypeOther ?? "",
          exNumber: exo.number,
          exArticle: exo.article ?? "",
          exInciso: exo.inciso ?? "",
          exInstitution: exo.institution,
          exInstitutionOther: exo.institutionOther ?? "",
          exDate: exo.issuedAt,
          exPercent: text(exo.percentage),
        }
      : {}),
  };
}

/** After an item filled a row (`filled`), what the integrator gave explicitly (`typed`, `l`) is put back. */
function withOverrides(filled: FormLine, typed: FormLine, l: LineInput): FormLine {
  const out = { ...filled };
  if (l.code !== undefined) out.code = typed.code;
  if (l.cabys !== undefined) out.cabys = typed.cabys;
  if (l.description !== undefined) out.description = typed.description;
  if (l.unit !== undefined) out.unit = typed.unit;
  if (l.unitPrice !== undefined) out.price = typed.price;
  if (l.taxTypeId !== undefined || l.tax !== undefined) out.taxTypeId = typed.taxTypeId;
  return out;
}

interface Common {
  saleCondition?: string;
  saleConditionOther?: string;
  creditDays?: number;
  payments?: Array<{ code: string; amount?: string | number; other?: string }>;
  emails?: string[];
}

function formOf(input: Common & { clientId?: string; currency?: "CRC" | "USD"; exchangeRate?: string; note?: string; lines: FormLine[] }): DocumentFormValues {
  return {
    clientId: input.clientId ?? "",
    saleCondition: input.saleCondition ?? "01",
    saleConditionOther: input.saleConditionOther ?? "",
    creditDays: input.creditDays === undefined ? "" : String(input.creditDays),
    payments: input.payments?.length ? input.payments.map((p) => ({ code: p.code, amount: text(p.amount), other: p.other ?? "" })) : [blankPayment()],
    currency: input.currency ?? "CRC",
    exchangeRate: input.exchangeRate ?? "",
    note: input.note ?? "",
    international: false,
    remindPayment: false,
    termId: "",
    contingencyNumber: "",
    contingencyDate: "",
    internationalName: "",
    internationalCedula: "",
    emails: (input.emails ?? []).join(", "),
    lines: input.lines,
  };
}

/** The company's items the lines name, then each row filled from its item with the explicit fields put back. */
async function pickItems(db: DbOrTx, companyId: number, form: DocumentFormValues, given: LineInput[] | null): Promise<{ form: DocumentFormValues; errors: FieldError[] }> {
  const ids = [...new Set(form.lines.map((l) => Number(l.itemId)).filter((n) => n > 0))];
  const items = ids.length ? await formItems(db, { companyId, ids }) : [];
  const picked = applyItemPicks(form, items);
  if (!given) return picked;
  const lines = picked.form.lines.map((row, i) => (given[i]?.itemId ? withOverrides(row, form.lines[i], given[i]) : row));
  return { form: { ...picked.form, lines }, errors: picked.errors };
}

/** Whether the client may receive this kind (the same rule as the form's client select). */
async function clientOffered(db: DbOrTx, companyId: number, kind: FormKind, clientId: number): Promise<boolean> {
  const rule = FORM_KINDS[kind].clients;
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.id, clientId),
        eq(clients.companyId, companyId),
        eq(clients.active, true),
        isNull(clients.deletedAt),
        eq(clients.provider, rule === "providers"),
        rule === "customers" ? eq(clients.generic, false) : undefined,
      ),
    );
  return !!row;
}

/** The dollar rate when none was given (the day's, as the form fills it). */
async function rateFor(db: DbOrTx, form: DocumentFormValues, now: Date): Promise<{ form: DocumentFormValues; errors: FieldError[] }> {
  if (form.currency !== "USD" || (form.exchangeRate && form.exchangeRate !== "1")) return { form, errors: [] };
  const rate = await currentRate(db, { currency: "USD", now });
  if (!rate.ok) return { form, errors: [{ field: "exchangeRate", message: rate.message }] };
  return { form: { ...form, exchangeRate: rate.rate }, errors: [] };
}

function checkConsecutive(principal: ApiPrincipal, consecutive: number | undefined): FieldError[] {
  if (principal.modoConsecutiveApi && !consecutive) return [{ field: "consecutive", message: API_MESSAGES.consecutiveRequired }];
  if (!principal.modoConsecutiveApi && consecutive) return [{ field: "consecutive", message: API_MESSAGES.consecutiveNotUsed }];
  return [];
}

/**
 * Issues a checked draft with the idempotency key claimed in the same transaction. The answer the
 * key keeps is the document's id (a replay answers the same document, current state, same 201).
 */
async function issue(call: ApiCall, draft: DocumentDraft, extra: { controlNumber?: string; consecutive?: number; branch?: number; terminal?: number }, rename?: (f: string) => string): Promise<Response> {
  const { db, principal, now } = call;
  const companyId = principal.companyId;
  const pre = checkDraft(draft);
  if (pre.length) throw invalid(pre, rename);
  let key;
  try {
    key = await resolveKey(db, { companyId, draft, now });
  } catch (error) {
    if (error instanceof SigningKeyError) throw invalid([{ field: "form", message: error.message }]);
    throw error;
  }
  const schemaSet = appSchemaSet();
  let outcome: { replay: Response } | { documentId: number };
  try {
    outcome = await db.transaction(async (tx) => {
      if (call.idempotency) {
        const replay = await claimInTx(tx, call.idempotency, now);
        if (replay) return { replay };
      }
      // The key's answer (the document's id) is written before the counter is locked (decision 188).
      const k = call.idempotency;
      const beforeNumbering = k ? (documentId: number) => storeAnswer(tx, k, 201, { documentId }, { Location: selfOf(documentId) }) : undefined;
      const result = await issueDocumentInTx(tx, { companyId, userId: principal.userId, draft, now, schemaSet, controlNumber: extra.controlNumber ?? null, sequence: extra.consecutive ?? null, branch: extra.branch ?? null, terminal: extra.terminal ?? null }, key, { beforeNumbering });
      return { documentId: result.documentId };
    });
  } catch (error) {
    if (error instanceof IssueValidationError) throw invalid(error.errors, rename);
    throw error;
  }
  if ("replay" in outcome) return replayDocument(call, outcome.replay);
  return json(await documentBody(db, companyId, outcome.documentId), 201, { Location: selfOf(outcome.documentId) });
}

/** A replayed issue: the same document (as it is now) with the first answer's status. */
export async function replayDocument(call: ApiCall, replay: Response): Promise<Response> {
  const stored = (await replay.json()) as { documentId?: number };
  if (!stored?.documentId) return replay;
  return json(await documentBody(call.db, call.principal.companyId, stored.documentId), replay.status, { Location: selfOf(stored.documentId), "Idempotent-Replayed": "true" });
}

/** POST /documents. */
export async function createDocument(call: ApiCall, input: z.output<typeof DocumentCreate>): Promise<Response> {
  const { db, principal, now } = call;
  const companyId = principal.companyId;
  const kind = input.kind;
  const errors: FieldError[] = [...checkConsecutive(principal, input.consecutive)];
  const taxes = await companyTaxTypes(db, companyId);
  let clientId = input.clientId ? String(input.clientId) : "";
  // A ticket without a client goes to the generic client, as the form preselects it.
  if (!clientId && kind === "te") clientId = String((await genericClient(db, companyId))?.id ?? "");
  if (input.clientId && !(await clientOffered(db, companyId, kind, input.clientId))) errors.push({ field: "clientId", message: FORM_MESSAGES.clientNotAllowed });
  let form = formOf({ ...input, clientId, exchangeRate: text(input.exchangeRate), lines: input.lines.map((l) => formLine(l, taxes)) });
  form = {
    ...form,
    international: !!input.internationalClient,
    internationalName: input.internationalClient?.name ?? "",
    internationalCedula: input.internationalClient?.cedula ?? "",
    remindPayment: !!input.remindPayment,
    contingencyNumber: input.contingency?.number ?? "",
    contingencyDate: input.contingency?.date ?? "",
  };
  const picked = await pickItems(db, companyId, form, input.lines);
  errors.push(...picked.errors);
  const rated = await rateFor(db, picked.form, now);
  errors.push(...rated.errors);
  const { draft: typed, errors: formErrors } = toDraft(kind, rated.form, taxes);
  errors.push(...formErrors);
  const term = input.termId ? await termOf(db, companyId, input.termId) : undefined;
  if (input.termId && !term) errors.push({ field: "termId", message: FORM_MESSAGES.termNotFound });
  const today = costaRicaDay(now);
  // References: the contingency block (fe, te), and the reference block (fe, te) or the one a purchase invoice requires.
  const references: DraftReference[] = [];
  let situacion: 2 | undefined;
  if (kind === "fe" || kind === "te") {
    const contingency = contingencyReference(rated.form, today);
    errors.push(...contingency.errors);
    if (contingency.reference) {
      references.push(contingency.reference);
      situacion = 2;
    }
  }
  const typedRef = input.references?.[0];
  if (typedRef || kind === "fec") {
    const allowed = kind === "fec" ? { docTypes: FEC_REFERENCE_DOC_TYPES, codes: FEC_REFERENCE_CODES } : { docTypes: INVOICE_REFERENCE_DOC_TYPES, codes: INVOICE_REFERENCE_CODES };
    const checked = purchaseReference({ docType: typedRef?.docType ?? "", number: typedRef?.number ?? "", date: typedRef?.date ?? "", code: typedRef?.code ?? "", reason: typedRef?.reason ?? "" }, today, allowed);
    errors.push(...checked.errors);
    if (checked.reference) references.push(checked.reference);
  }
  const draft: DocumentDraft = { ...typed, ...(term ? { terms: term.body } : {}), ...(references.length ? { references } : {}), ...(situacion ? { situacion } : {}) };
  errors.push(...checkDraft(draft));
  if (errors.length) throw invalid(errors);
  return issue(call, draft, { controlNumber: input.controlNumber, consecutive: input.consecutive, branch: input.branch, terminal: input.terminal });
}

/** POST /documents/{id}/credit-note and /debit-note: from an invoice, ticket or purchase invoice of the company. */
export async function createNote(call: ApiCall, kind: "nc" | "nd", sourceId: number, input: z.output<typeof NoteCreate>): Promise<Response> {
  const { db, principal } = call;
  const companyId = principal.companyId;
  const src = await documentOf(db, { companyId, id: sourceId });
  if (!src || src.deletedAt || src.kind === "qt") throw notFound();
  if (!NOTE_SOURCES.has(src.kind) || !src.clave) throw invalid([{ field: "form", message: ISSUE_MESSAGES.referenceKind }]);
  const errors: FieldError[] = [...checkConsecutive(principal, input.consecutive)];
  const taxes = await companyTaxTypes(db, companyId);
  const stored = (src.draft ?? null) as DocumentDraft | null;
  let lines: FormLine[];
  if (input.lines) lines = input.lines.map((l) => formLine(l, taxes));
  else {
    const storedLines = stored?.lines ?? [];
    const ids = [...new Set(storedLines.map((l) => l.itemId).filter((n): n is number => !!n))];
    const items = ids.length ? await formItems(db, { companyId, ids }) : [];
    lines = stored ? formValuesFromDraft(stored, taxes, items, { keepNote: false, keepRate: true }).lines : [];
  }
  const currency = src.currencyId === 1 ? "USD" : "CRC";
  const form = formOf({
    clientId: src.clientId ? String(src.clientId) : "",
    saleCondition: input.saleCondition ?? stored?.saleCondition ?? "01",
    saleConditionOther: input.saleConditionOther ?? stored?.saleConditionOther,
    creditDays: input.creditDays ?? stored?.creditDays ?? undefined,
    payments: input.payments ?? stored?.payments,
    emails: input.emails,
    currency,
    exchangeRate: currency === "USD" ? src.exchangeRate : "",
    note: input.note ?? input.reason,
    lines,
  });
  const picked = await pickItems(db, companyId, form, input.lines ?? null);
  errors.push(...picked.errors);
  const { draft: typed, errors: formErrors } = toDraft(kind, picked.form, taxes);
  errors.push(...formErrors);
  const draft: DocumentDraft = { ...typed, references: [noteReference(kind, src, input.reason)] };
  errors.push(...checkDraft(draft));
  // The note's reference is rebuilt from the stored document: only its reason is the integrator's.
  const rename = (f: string) => (f.startsWith("references") ? "reason" : f);
  if (errors.length) throw invalid(errors, rename);
  return issue(call, draft, { controlNumber: input.controlNumber, consecutive: input.consecutive, branch: input.branch, terminal: input.terminal }, rename);
}

// ---- Reading -------------------------------------------------------------------------------------------

/** Kinds an integrator reads: the documents it issues and the REP a payment issues (decision 187). */
const API_KINDS = ["fe", "te", "nc", "nd", "fec", "rep"];
/** The list without a kind filter: as the interface's lists, REPs are shown with their payment. */
const LISTED_KINDS = ["fe", "te", "nc", "nd", "fec"];
const selfOf = (id: number) => `/api/v1/documents/${id}`;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The columns an answer shows (never the stored XML, draft or totals blobs). */
const SUMMARY_COLUMNS = {
  id: documents.id,
  kind: documents.kind,
  status: documents.status,
  clave: documents.clave,
  consecutivo: documents.consecutivo,
  number: documents.number,
  controlNumber: documents.controlNumber,
  issuedAt: documents.issuedAt,
  currencyId: documents.currencyId,
  exchangeRate: documents.exchangeRate,
  clientId: documents.clientId,
  clientSnapshot: documents.clientSnapshot,
  subtotal: documents.subtotal,
  discount: documents.discount,
  tax: documents.tax,
  exonerated: documents.exonerated,
  ivaDevuelto: documents.ivaDevuelto,
  otherCharges: documents.otherCharges,
  totalComprobante: documents.totalComprobante,
  paymentAmount: documents.paymentAmount,
  creditNoteTotal: documents.creditNoteTotal,
  debitNoteTotal: documents.debitNoteTotal,
  haciendaMessage: documents.haciendaMessage,
  haciendaDetail: documents.haciendaDetail,
  submittedAt: documents.submittedAt,
  answeredAt: documents.answeredAt,
  lastError: documents.lastError,
  emailSentAt: documents.emailSentAt,
  emailSentTo: documents.emailSentTo,
  emailError: documents.emailError,
};

type SummaryRow = Pick<typeof documents.$inferSelect, keyof typeof SUMMARY_COLUMNS>;

/** One API document of the company (not a quotation, not deleted), or null. */
async function apiDocumentRow(db: DbOrTx, companyId: number, id: number): Promise<SummaryRow | null> {
  const [d] = await db
    .select(SUMMARY_COLUMNS)
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.id, id), isNull(documents.deletedAt), inArray(documents.kind, API_KINDS)));
  return d ?? null;
}

function summaryJson(d: SummaryRow) {
  const c = d.clientSnapshot as { name?: string; idType?: string; idNumber?: string; email?: string | null; generic?: boolean } | null;
  const self = selfOf(d.id);
  return {
    id: d.id,
    kind: d.kind,
    status: d.status,
    clave: d.clave,
    consecutive: d.consecutivo,
    number: d.number,
    controlNumber: d.controlNumber,
    issuedAt: d.issuedAt.toISOString(),
    currency: d.currencyId === 1 ? ("USD" as const) : ("CRC" as const),
    exchangeRate: d.exchangeRate,
    client: c ? { id: d.clientId, name: c.name ?? "", identificationType: c.idType ?? null, identification: c.idNumber ?? null, email: c.email ?? null } : null,
    totals: { subtotal: d.subtotal, discount: d.discount, tax: d.tax, exonerated: d.exonerated, ivaDevuelto: d.ivaDevuelto, otherCharges: d.otherCharges, total: d.totalComprobante },
    paidAmount: d.paymentAmount,
    // What is still due (receivables.ts: the interface's one rule); a REP takes no payments.
    due: isPayableKind(d.kind) ? amountDue({ total: d.totalComprobante, paymentAmount: d.paymentAmount, creditNoteTotal: d.creditNoteTotal, debitNoteTotal: d.debitNoteTotal }) : null,
    hacienda: {
      message: d.haciendaMessage,
      reasons: d.status === "rechazado" ? rejectionReasons(d.haciendaDetail) : [],
      submittedAt: iso(d.submittedAt),
      answeredAt: iso(d.answeredAt),
      lastError: d.lastError,
    },
    email: { sentAt: iso(d.emailSentAt), sentTo: d.emailSentTo, error: d.emailError },
    links: { self, xml: `${self}/xml`, response: `${self}/response`, pdf: `${self}/pdf` },
  };
}

/** The whole document (GET /documents/{id}); null when it is not one of the company's API documents. */
export async function documentBody(db: DbOrTx, companyId: number, id: number) {
  const d = await apiDocumentRow(db, companyId, id);
  if (!d) throw notFound();
  const [lines, refs, paid] = await Promise.all([linesOf(db, { companyId, documentId: id }), referencesOf(db, { companyId, documentId: id }), paymentsJson(db, companyId, id)]);
  return {
    ...summaryJson(d),
    lines: lines.map((l) => ({
      position: l.position,
      itemId: l.itemId,
      code: l.code,
      cabys: l.cabys,
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPrice,
      discountPercent: l.discountPercent,
      taxCode: l.taxCode,
      tarifaCode: l.tarifaCode,
      taxRate: l.taxRate,
      subtotal: l.subtotal,
      discount: l.discount,
      tax: l.tax,
      exonerated: l.exonerated,
      total: l.total,
    })),
    references: refs.map((r) => ({ documentId: r.referencedDocumentId, docType: r.docType, number: r.number, issuedAt: r.issuedAt.toISOString(), code: r.code, reason: r.reason })),
    payments: paid,
  };
}

/** POST /documents/{id}/payments (payments.server.ts): a payment on one of the company's documents. */
export async function paymentOnDocument(call: ApiCall, id: number, input: z.output<typeof PaymentInput>): Promise<Response> {
  const d = await apiDocumentRow(call.db, call.principal.companyId, id);
  if (!d) throw notFound();
  return createPayment(call, { id: d.id, currencyId: d.currencyId, consecutivo: d.consecutivo, number: d.number }, input);
}

/**
 * DELETE /documents/{id}/payments/{paymentId}: the interface's 'Eliminar' of a payment (deletePayment,
 * its rules: a payment whose REP was issued stays). Answers the document as it is now.
 */
export async function paymentOffDocument(call: ApiCall, id: number, paymentId: number): Promise<Response> {
  if (!(await apiDocumentRow(call.db, call.principal.companyId, id))) throw notFound();
  await removePayment(call, id, paymentId);
  return json(await documentBody(call.db, call.principal.companyId, id));
}

export async function getDocument(call: ApiCall, id: number): Promise<Response> {
  return json(await documentBody(call.db, call.principal.companyId, id));
}

type Cursor = { t: string; i: number };
const isCursor = (v: unknown): v is Cursor => !!v && typeof v === "object" && typeof (v as Cursor).t === "string" && !Number.isNaN(Date.parse((v as Cursor).t)) && Number.isInteger((v as Cursor).i);

/** GET /documents: newest first, filtered, a page at a time (keyset on issued_at and id). */
export async function listDocuments(call: ApiCall, q: z.output<typeof DocumentQuery>): Promise<Response> {
  const companyId = call.principal.companyId;
  const limit = pageLimit(q.limit);
  const cursor = readCursor(q.cursor, isCursor);
  const where: SQL[] = [eq(documents.companyId, companyId), isNull(documents.deletedAt)];
  where.push(q.kind ? eq(documents.kind, q.kind) : inArray(documents.kind, LISTED_KINDS));
  if (q.status) where.push(eq(documents.status, q.status));
  if (q.from) where.push(gte(documents.issuedAt, new Date(`${q.from}T00:00:00-06:00`)));
  if (q.to) where.push(lt(documents.issuedAt, new Date(new Date(`${q.to}T00:00:00-06:00`).getTime() + 86_400_000)));
  if (q.clientId) where.push(eq(documents.clientId, Number(q.clientId)));
  if (q.controlNumber) where.push(eq(documents.controlNumber, q.controlNumber));
  if (cursor) {
    const t = new Date(cursor.t);
    where.push(or(lt(documents.issuedAt, t), and(eq(documents.issuedAt, t), lt(documents.id, cursor.i)))!);
  }
  const rows = await call.db
    .select(SUMMARY_COLUMNS)
    .from(documents)
    .where(and(...where))
    .orderBy(desc(documents.issuedAt), desc(documents.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return json({ data: page.map(summaryJson), nextCursor: rows.length > limit && last ? cursorOf({ t: last.issuedAt.toISOString(), i: last.id }) : null });
}

/** GET /documents/{id}/xml | response | pdf. */
export async function downloadDocument(call: ApiCall, id: number, file: DocumentFileKind): Promise<Response> {
  if (!(await apiDocumentRow(call.db, call.principal.companyId, id))) throw notFound();
  const found = await documentFile(call.db, { companyId: call.principal.companyId, documentId: id, file });
  if (!found) throw new ApiError(404, "archivo", API_MESSAGES.fileUnavailable);
  return fileResponse(found);
}

/**
 * POST /documents/{id}/email: the document's e-mail again, now (the detail viewer's 'Enviar por
 * correo' use-case): to the given addresses or the client and notify list, with the company's
 * template unless a subject and body are given. Not one transaction: the key is claimed first.
 */
export async function emailDocument(call: ApiCall, id: number, input: z.output<typeof EmailRequest>): Promise<Response> {
  const { db, now } = call;
  const companyId = call.principal.companyId;
  const d = await documentOf(db, { companyId, id });
  if (!d || d.deletedAt || !LISTED_KINDS.includes(d.kind)) throw notFound();
  let to: string[];
  if (input.emails) {
    const parsed = parseAddresses(input.emails.join(", "));
    if (!parsed.ok) throw invalid([{ field: "emails", message: parsed.error }]);
    to = parsed.to;
  } else to = documentRecipients(d.clientSnapshot, d.emails);
  const view = await loadDocumentView(db, { companyId, documentId: id });
  if (!view) throw notFound();
  const defaults = await documentEmailDefaults(db, companyId, view);
  if (call.idempotency) {
    const replay = await claimFirst(db, call.idempotency, now);
    if (replay) return replay;
  }
  const sent = await sendDocumentEmailNow(db, { companyId, documentId: id, to, subject: input.subject?.trim() || defaults.subject, body: input.body?.trim() || defaults.body }, now);
  if (!sent || !sent.ok) {
    if (call.idempotency) await releaseKey(db, call.idempotency);
    if (!sent) throw notFound();
    throw new ApiError(502, "correo", API_MESSAGES.emailFailed(sent.message));
  }
  const body = { sentTo: sent.to };
  if (call.idempotency) await storeAnswer(db, call.idempotency, 200, body);
  return json(body);
}
