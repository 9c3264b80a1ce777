// Received documents through the integrator API (issue 15 item 3; docs/decisions/186). A plan-5
// company's interface is read-only, so the API is its way to answer its suppliers: upload a
// supplier's XML (with Hacienda's answer to the supplier when it has it) — the reception intake of
// the upload form and the mailbox (ingestReceivedFiles: judged, addressed to this company, stored
// byte for byte, or refused with the same Spanish reason) —, list and read them, and accept,
// partially accept or reject one with the 'Actualizar aceptación' form's schema and use-case
// (processReceptions: the MensajeReceptor numbered, signed and queued; same messages, same fields),
// or upload and decide in one call (the same two use-cases, the decision checked before storing).
// Neither use-case is one transaction the key could join, so the idempotency key is claimed first
// (a concurrent request with the key gets 409 'en curso'), freed on failure, completed with the answer.
import { and, desc, eq, gte, inArray, lt, or, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../../db/client.ts";
import { receivedDocuments } from "../../../db/schema/index.ts";
import { categoriesOf, receptionFile, receptionSettingsOf, type ReceptionFile } from "../../../db/queries/receptions.ts";
import { RECEIVED_STATUSES, type ReceivedDocumentDecision, type ReceivedDocumentQuery, type ReceivedDocumentUpload } from "../../domain/api/schemas.ts";
import { parseForm } from "../../domain/forms.ts";
import { ACCEPTANCE_LABEL, decisionOf, processSchema, RECEPTION_MESSAGES, type ReceptionDecision } from "../../domain/receptions.ts";
import { rejectionReasons } from "../../domain/rejection-reasons.ts";
import { MAX_XML_BYTES } from "../../hacienda/safe-xml.ts";
import { displayName, isZipBytes } from "../receptions/files.server.ts";
import { attachment } from "../receptions/http.server.ts";
import { ingestReceivedFiles, withdrawReceived } from "../receptions/intake.server.ts";
import { processReceptions } from "../receptions/process.server.ts";
import type { ApiCall } from "./documents.server.ts";
import { ApiError, cursorOf, invalid, json, notFound, pageLimit, readCursor } from "./http.server.ts";
import { claimFirst, releaseKey, storeAnswer } from "./idempotency.server.ts";

type Row = typeof receivedDocuments.$inferSelect;

export const RECEIVED_API_MESSAGES = {
  notBase64: "Envíe el archivo en base64.",
  tooLarge: `El XML pesa más de ${MAX_XML_BYTES / 1024 / 1024} MB, el máximo de un comprobante.`,
  zip: "Envíe el XML en base64, no un .zip: la API recibe un comprobante (y la respuesta de Hacienda a él) por llamada.",
  alreadyReceived: (clave: string) => `Este comprobante ya fue recibido (clave ${clave}).`,
  fileUnavailable: "Este archivo no esta disponible para su descarga",
} as const;

const selfOf = (id: number) => `/api/v1/received-documents/${id}`;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function receivedBody(r: Row) {
  const self = selfOf(r.id);
  return {
    id: r.id,
    clave: r.clave,
    kind: r.kind,
    version: r.version,
    consecutive: r.consecutive,
    issuedAt: r.issuedAt.toISOString(),
    issuer: { name: r.issuerName, identificationType: r.issuerIdType, identification: r.issuerId },
    currency: r.currency,
    exchangeRate: r.exchangeRate,
    totals: { subtotal: r.subtotal, discount: r.discount, tax: r.tax, exonerated: r.exonerated, ivaDevuelto: r.ivaDevuelto, otherCharges: r.otherCharges, total: r.total },
    issuerStatus: r.issuerStatus === "aceptado" || r.issuerStatus === "rechazado" ? r.issuerStatus : null,
    acceptance: {
      message: r.message,
      label: ACCEPTANCE_LABEL[r.message] ?? String(r.message),
      detail: r.messageDetail,
      expenseCategory: r.expenseCategoryId,
      taxCondition: r.taxCondition,
      creditableTax: r.creditableTax,
      applicableExpense: r.applicableExpense,
      rejectDeadline: r.rejectDeadline,
      processedAt: iso(r.processedAt),
    },
    status: r.status as (typeof RECEIVED_STATUSES)[number],
    message: {
      consecutive: r.messageConsecutive,
      issuedAt: iso(r.messageIssuedAt),
      haciendaMessage: r.haciendaMessage,
      reasons: r.status === "rechazado" ? rejectionReasons(r.haciendaDetail) : [],
      submittedAt: iso(r.submittedAt),
      answeredAt: iso(r.answeredAt),
      lastError: r.lastError,
    },
    links: { self, xml: `${self}/xml`, message: `${self}/message`, response: `${self}/response`, issuerResponse: `${self}/issuer-response` },
  };
}

async function rowOf(db: DbOrTx, companyId: number, id: number): Promise<Row | null> {
  const [r] = await db
    .select()
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.companyId, companyId), eq(receivedDocuments.id, id)));
  return r ?? null;
}

/** The received document as it is now (404 when it is not one of the company's). */
export async function receivedDocumentBody(db: DbOrTx, companyId: number, id: number) {
  const r = await rowOf(db, companyId, id);
  if (!r) throw notFound();
  return receivedBody(r);
}

/** Strict base64 (whitespace allowed) → the XML's bytes, or a field error: empty, too large, or a zip (the intake would expand one). */
function bytesOf(field: string, value: string, max: number): Uint8Array {
  const clean = value.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw invalid([{ field, message: RECEIVED_API_MESSAGES.notBase64 }]);
  const bytes = Buffer.from(clean, "base64");
  if (bytes.byteLength === 0) throw invalid([{ field, message: RECEPTION_MESSAGES.fileRequired }]);
  if (bytes.byteLength > max) throw invalid([{ field, message: RECEIVED_API_MESSAGES.tooLarge }]);
  if (isZipBytes(bytes)) throw invalid([{ field, message: RECEIVED_API_MESSAGES.zip }]);
  return new Uint8Array(bytes);
}

/** A replayed call of this module: the received document as it is now, with the first answer's status. */
export async function replayReceived(call: ApiCall, replay: Response): Promise<Response> {
  const stored = (await replay.json()) as { receivedDocumentId?: number };
  if (!stored?.receivedDocumentId) return replay;
  return json(await receivedDocumentBody(call.db, call.principal.companyId, stored.receivedDocumentId), replay.status, { Location: selfOf(stored.receivedDocumentId), "Idempotent-Replayed": "true" });
}

/** Runs `work` with the key claimed first; the answer's document id is kept with the key; a failure frees it. */
async function withKey(call: ApiCall, work: () => Promise<{ status: number; id: number }>): Promise<Response> {
  const k = call.idempotency;
  if (k) {
    const replay = await claimFirst(call.db, k, call.now);
    if (replay) return replayReceived(call, replay);
  }
  let done: { status: number; id: number };
  try {
    done = await work();
  } catch (error) {
    if (k) await releaseKey(call.db, k);
    throw error;
  }
  if (k) await storeAnswer(call.db, k, done.status, { receivedDocumentId: done.id }, { Location: selfOf(done.id) });
  return json(await receivedDocumentBody(call.db, call.principal.companyId, done.id), done.status, { Location: selfOf(done.id) });
}

/** The decision fields of a call, as the 'Actualizar aceptación' form reads them (processSchema: same messages at the same fields). */
interface DecisionInput {
  message: number;
  message_detail?: string;
  expense_category?: number | null;
  tax_condition?: string | null;
  tax_credit?: string | number;
  applicable_expense?: string | number;
}

function parseDecision(input: DecisionInput, id: number | null): ReceptionDecision {
  const values = {
    message: String(input.message),
    message_detail: input.message_detail ?? "",
    expense_category: input.expense_category == null ? "" : String(input.expense_category),
    tax_condition: input.tax_condition ?? "",
    tax_credit: input.tax_credit === undefined ? "" : String(input.tax_credit),
    applicable_expense: input.applicable_expense === undefined ? "" : String(input.applicable_expense),
    type_update_doc: "single",
    id: id === null ? "" : String(id),
    accept_multiples: [],
  };
  const parsed = parseForm(processSchema, values);
  if (!parsed.ok) throw invalid(Object.entries(parsed.errors).map(([field, message]) => ({ field, message })));
  const decision = decisionOf(parsed.data);
  if (!decision) throw invalid([{ field: "message", message: RECEPTION_MESSAGES.messageRequired }]);
  return decision;
}

/** Applies a decision to one stored document (processReceptions); its refusal as the API's 400 (or 404). */
async function processOne(call: ApiCall, id: number, decision: ReceptionDecision): Promise<void> {
  const r = await processReceptions(call.db, { companyId: call.principal.companyId, userId: call.principal.userId, ids: [id], decision, now: call.now });
  if (!r.ok) {
    if (r.notFound) throw notFound();
    throw invalid(Object.entries(r.errors).map(([field, message]) => ({ field, message })));
  }
  const outcome = r.outcomes[0];
  if (!outcome?.ok) throw invalid([{ field: outcome?.field ?? "form", message: outcome?.message ?? RECEPTION_MESSAGES.problem }]);
}

/** Decision fields that mean nothing without `message`. */
const DECISION_ONLY = ["message_detail", "tax_credit", "applicable_expense"] as const;

/**
 * POST /received-documents: one supplier's comprobante (and Hacienda's answer to it), through the
 * reception intake. Without `message` it is stored pending; refused with the intake's reason at /xml
 * (or /response); a comprobante received before is 409 with its Location. With `message` the
 * decision is checked before anything is stored — its fields (the acceptance form's schema) and
 * category here, and against the document itself inside the intake (Hacienda's verdict, deadline,
 * amounts) — and then applied by processReceptions. Should that still fail (no signing key, our
 * message refused by its schema), the document just stored is taken back: a refused call stores
 * nothing, and its Idempotency-Key is free for the retry (decision 186).
 */
export async function uploadReceived(call: ApiCall, input: z.output<typeof ReceivedDocumentUpload>): Promise<Response> {
  const { db, principal, now } = call;
  const companyId = principal.companyId;
  const xml = bytesOf("xml", input.xml, MAX_XML_BYTES);
  const response = input.response ? bytesOf("response", input.response, MAX_XML_BYTES) : null;
  const settings = await receptionSettingsOf(db, companyId);
  const expenseCategoryId = input.expense_category ?? settings?.expenseCategoryId ?? null;
  const taxCondition = input.tax_condition ?? settings?.taxCondition ?? null;
  let decision: ReceptionDecision | null = null;
  if (input.message !== undefined) decision = parseDecision({ ...input, message: input.message, expense_category: expenseCategoryId, tax_condition: taxCondition }, null);
  else {
    const stray = DECISION_ONLY.filter((f) => input[f] !== undefined);
    if (stray.length) throw invalid([{ field: "message", message: RECEPTION_MESSAGES.messageRequired }]);
    // Kept with the pending document: the form's rule for the field.
    const condition = input.tax_condition === undefined ? null : processSchema.shape.tax_condition.safeParse(input.tax_condition);
    if (condition && !condition.success) throw invalid([{ field: "tax_condition", message: condition.error.issues[0]?.message ?? RECEPTION_MESSAGES.taxConditionRequired }]);
  }
  const category = decision?.expenseCategoryId ?? input.expense_category;
  if (category && !(await categoriesOf(db, companyId)).some((c) => c.id === category)) throw invalid([{ field: "expense_category", message: RECEPTION_MESSAGES.categoryInvalid }]);
  const name = displayName(input.filename ?? "comprobante.xml").replace(/\.zip$/i, ".xml");
  return withKey(call, async () => {
    const report = await ingestReceivedFiles(db, {
      companyId,
      userId: principal.userId,
      source: "upload",
      // Never expanded as an archive: the API takes one XML (and its answer) per call; a zip was refused above (bytesOf).
      files: [{ name: /\.xml$/i.test(name) ? name : `${name}.xml`, bytes: xml }, ...(response ? [{ name: "respuesta-hacienda.xml", bytes: response }] : [])],
      now,
      expenseCategoryId,
      taxCondition,
      decision,
    });
    const stored = report.stored[0];
    if (stored) {
      if (decision) {
        try {
          await processOne(call, stored.id, decision);
        } catch (error) {
          await withdrawReceived(db, { companyId, id: stored.id });
          throw error;
        }
      }
      return { status: 201, id: stored.id };
    }
    const [first, second] = report.outcomes;
    const refused = report.outcomes.find((o) => !o.ok) ?? first;
    if (refused?.clave) {
      // Received before: point at it.
      const [existing] = await db
        .select({ id: receivedDocuments.id })
        .from(receivedDocuments)
        .where(and(eq(receivedDocuments.companyId, companyId), eq(receivedDocuments.clave, refused.clave)));
      if (existing && refused.message === RECEIVED_API_MESSAGES.alreadyReceived(refused.clave)) throw new ApiError(409, "ya-recibido", refused.message, undefined, { Location: selfOf(existing.id) });
    }
    // A decision that does not fit the document: at the decision's field.
    if (refused?.field) throw invalid([{ field: refused.field, message: refused.message }]);
    // The outcome of each file in upload order: the comprobante first, Hacienda's answer second.
    const field = refused === second && response ? "response" : "xml";
    throw invalid([{ field, message: refused?.message ?? RECEPTION_MESSAGES.nothingStored }]);
  });
}

/**
 * POST /received-documents/{id}/acceptance: the decision with the update-acceptance form's schema
 * (same messages at the same fields) and its use-case.
 */
export async function decideReceived(call: ApiCall, id: number, input: z.output<typeof ReceivedDocumentDecision>): Promise<Response> {
  if (!(await rowOf(call.db, call.principal.companyId, id))) throw notFound();
  const decision = parseDecision(input, id);
  return withKey(call, async () => {
    await processOne(call, id, decision);
    return { status: 200, id };
  });
}

export async function getReceived(call: ApiCall, id: number): Promise<Response> {
  return json(await receivedDocumentBody(call.db, call.principal.companyId, id));
}

type Cursor = { t: string; i: number };
const isCursor = (v: unknown): v is Cursor => !!v && typeof v === "object" && typeof (v as Cursor).t === "string" && !Number.isNaN(Date.parse((v as Cursor).t)) && Number.isInteger((v as Cursor).i);

/** GET /received-documents: newest emission first, filtered, a page at a time (keyset on issued_at and id). */
export async function listReceived(call: ApiCall, q: z.output<typeof ReceivedDocumentQuery>): Promise<Response> {
  const companyId = call.principal.companyId;
  const limit = pageLimit(q.limit);
  const cursor = readCursor(q.cursor, isCursor);
  const where: SQL[] = [eq(receivedDocuments.companyId, companyId)];
  if (q.acceptance === "pendiente") where.push(eq(receivedDocuments.message, 4));
  if (q.acceptance === "aceptado") where.push(inArray(receivedDocuments.message, [1, 2]));
  if (q.acceptance === "rechazado") where.push(eq(receivedDocuments.message, 3));
  if (q.status) where.push(eq(receivedDocuments.status, q.status));
  if (q.clave) where.push(eq(receivedDocuments.clave, q.clave));
  if (q.from) where.push(gte(receivedDocuments.issuedAt, new Date(`${q.from}T00:00:00-06:00`)));
  if (q.to) where.push(lt(receivedDocuments.issuedAt, new Date(new Date(`${q.to}T00:00:00-06:00`).getTime() + 86_400_000)));
  if (cursor) {
    const t = new Date(cursor.t);
    where.push(or(lt(receivedDocuments.issuedAt, t), and(eq(receivedDocuments.issuedAt, t), lt(receivedDocuments.id, cursor.i)))!);
  }
  const rows = await call.db
    .select()
    .from(receivedDocuments)
    .where(and(...where))
    .orderBy(desc(receivedDocuments.issuedAt), desc(receivedDocuments.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return json({ data: page.map(receivedBody), nextCursor: rows.length > limit && last ? cursorOf({ t: last.issuedAt.toISOString(), i: last.id }) : null });
}

/** GET /received-documents/{id}/xml | message | response | issuer-response: the stored bytes. */
export async function downloadReceived(call: ApiCall, id: number, file: ReceptionFile): Promise<Response> {
  const companyId = call.principal.companyId;
  if (!(await rowOf(call.db, companyId, id))) throw notFound();
  const found = await receptionFile(call.db, { companyId, id, file });
  if (!found) throw new ApiError(404, "archivo", RECEIVED_API_MESSAGES.fileUnavailable);
  return attachment(found.bytes, "application/xml; charset=utf-8", found.name);
}

/** GET /expense-categories: the categories a decision names. */
export async function listExpenseCategories(call: ApiCall): Promise<Response> {
  return json({ data: await categoriesOf(call.db, call.principal.companyId) });
}
