// The send pipeline (issue 5 item 4; docs/decisions/071-send-pipeline.md). Jobs submit the stored
// signed bytes (never re-signed), poll with backoff until Hacienda answers; the callback endpoint
// only makes a poll happen sooner (its body is never trusted). The clave is the
// idempotency key: resubmitting is always safe ("ya fue recibido" counts as sent).
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { companies, documents, EMAIL_RETRY_PREDICATE, jobs } from "../../db/schema/index.ts";
import { documentRecipients } from "../email/document-email.ts";
import { enqueue } from "../../jobs/runner.ts";
import { createHaciendaClient, HaciendaClientError, readMensajeHacienda, sandboxEnvironment, type ClientOptions, type Credentials, type HaciendaClient, type StatusResult } from "../hacienda/client.ts";
import { verifyXml } from "../hacienda/verify.ts";
import type { DocumentDraft } from "../domain/document-draft.ts";
import { companyHacienda, type CompanyHacienda } from "./signing-key.server.ts";
import { idTypeOf } from "./issue-document.server.ts";
import { sandboxUrlFor } from "./hacienda-config.server.ts";
import { applyNoteToReferenced } from "./receivables.server.ts";
import { queueDocumentEvent } from "./api/webhooks.server.ts";

/** Poll delays after a submission: 5 s, 15 s, 1 min, 5 min, 15 min, then hourly. */
export const POLL_BACKOFF_MS = [5_000, 15_000, 60_000, 300_000, 900_000, 3_600_000];
export const pollDelay = (attempt: number) => POLL_BACKOFF_MS[Math.min(attempt, POLL_BACKOFF_MS.length - 1)];

export const PIPELINE_MESSAGES = {
  noCredentials: "La empresa no tiene usuario y contraseña de Hacienda: configúrelos en Configuración › Hacienda. El documento queda por enviar.",
  badSignature: "La respuesta de Hacienda no trae una firma válida; se consultará de nuevo.",
  unprocessable:
    "Hacienda no pudo procesar el comprobante (estado «error»): no tiene validez. Emita un comprobante que lo sustituya.",
} as const;

/**
 * Hacienda's 'error' means it could not process what it received: sending the same bytes again
 * cannot help (and it answers that the clave was already received). It is asked this many times,
 * along the usual backoff, in case the state was passing; then the document ends 'rechazado'.
 */
export const ERROR_ANSWERS_BEFORE_GIVING_UP = 3;

// ---------------------------------------------------------------------------------------------
// Clients: one per environment/URL (the client caches tokens per company key).

let clientOptions: Partial<ClientOptions> = {};
let callbackUrl: string | undefined = process.env.HACIENDA_CALLBACK_URL || undefined;
const clients = new Map<string, HaciendaClient>();

/** Tests and the server: client options (timeouts, retries, fetch) and the public callback URL. */
export function configurePipeline(opts: { clientOptions?: Partial<ClientOptions>; callbackUrl?: string | null }) {
  if (opts.clientOptions) clientOptions = opts.clientOptions;
  if (opts.callbackUrl !== undefined) callbackUrl = opts.callbackUrl ?? undefined;
  clients.clear();
}

export function clientFor(hc: CompanyHacienda): HaciendaClient {
  const key = hc.environment === "sandbox" ? `sandbox|${sandboxUrlFor(hc.sandboxUrl)}` : hc.environment;
  let c = clients.get(key);
  if (!c) {
    c = createHaciendaClient({
      ...(hc.environment === "sandbox" ? sandboxEnvironment(sandboxUrlFor(hc.sandboxUrl)) : { environment: hc.environment }),
      verify: (xml) => verifyXml(xml),
      ...clientOptions,
    });
    clients.set(key, c);
  }
  return c;
}

export function credentialsOf(companyId: number, hc: CompanyHacienda): Credentials {
  if (!hc.username || !hc.password) throw new HaciendaClientError("CREDENCIALES_INVALIDAS", PIPELINE_MESSAGES.noCredentials);
  return { username: hc.username, password: hc.password, companyKey: `company-${companyId}` };
}

async function loadDocument(db: DbOrTx, companyId: number, documentId: number) {
  const [d] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.companyId, companyId)));
  return d;
}

async function recordError(db: DbOrTx, documentId: number, message: string) {
  await db
    .update(documents)
    .set({ lastError: message.slice(0, 1000) })
    .where(eq(documents.id, documentId));
}

// ---------------------------------------------------------------------------------------------
// Submit

export type SubmitOutcome = "sent" | "duplicate" | "skipped" | "refused";

/** Posts the stored signed bytes. Retryable failures throw (the job runner retries); the document stays 'por enviar'. */
export async function submitDocument(db: Db, { companyId, documentId }: { companyId: number; documentId: number }, now: Date): Promise<SubmitOutcome> {
  const doc = await loadDocument(db, companyId, documentId);
  if (!doc || doc.status !== "por enviar" || !doc.signedXml || !doc.clave) return "skipped";
  const hc = await companyHacienda(db, companyId, now);
  if (!hc) throw new HaciendaClientError("CONFIGURACION", PIPELINE_MESSAGES.noCredentials);
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  const snap = doc.clientSnapshot as { idType: string; idNumber: string; generic?: boolean } | null;
  const companyId_ = { tipoIdentificacion: idTypeOf(company.identificationTypeId), numeroIdentificacion: company.identification };
  const clientId_ = snap && !snap.generic ? { tipoIdentificacion: snap.idType, numeroIdentificacion: snap.idNumber } : undefined;
  const emisor = doc.kind === "fec" && clientId_ ? clientId_ : companyId_;
  const receptor = doc.kind === "fec" ? companyId_ : clientId_;
  await db
    .update(documents)
    .set({ submitAttempts: sql`${documents.submitAttempts} + 1` })
    .where(eq(documents.id, documentId));
  try {
    const result = await clientFor(hc).submit(credentialsOf(companyId, hc), {
      clave: doc.clave,
      fecha: doc.issuedAt,
      emisor,
      ...(receptor ? { receptor } : {}),
      ...(callbackUrl ? { callbackUrl } : {}),
      comprobanteXml: new Uint8Array(doc.signedXml),
    });
    await db.transaction(async (tx) => {
      await tx
        .update(documents)
        .set({ status: "procesando", submittedAt: now, lastError: null })
        .where(and(eq(documents.id, documentId), eq(documents.status, "por enviar")));
      await enqueue(tx, "poll-document", { companyId, documentId, attempt: 0 }, { runAt: new Date(now.getTime() + pollDelay(0)), uniqueKey: `poll:${documentId}:0`, maxAttempts: 1000 });
    });
    return result.duplicate ? "duplicate" : "sent";
  } catch (error) {
    if (error instanceof HaciendaClientError && error.code === "ENVIO_RECHAZADO") {
      // Refused at reception (not a network problem): final, with Hacienda's reason, and the
      // integrator's webhook event in the same transaction.
      await db.transaction(async (tx) => {
        const changed = await tx
          .update(documents)
          .set({ status: "rechazado", haciendaDetail: error.errorCause ?? error.message, answeredAt: now, lastError: error.message })
          .where(and(eq(documents.id, documentId), eq(documents.status, "por enviar")))
          .returning({ id: documents.id });
        if (changed.length) await queueDocumentEvent(tx, documentId, now);
      });
      return "refused";
    }
    await recordError(db, documentId, (error as Error).message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Poll and the shared state change

export interface HaciendaAnswer {
  clave: string;
  estado: string;
  /** The MensajeHacienda XML. */
  respuestaXml?: string;
  /** Our own explanation when there is no MensajeHacienda (an unprocessable document). */
  detail?: string;
}

/**
 * The columns a final answer sets, the same on an issued document and on our MensajeReceptor of a
 * received one: the state, Hacienda's XML and its explanation (the detail lines, else its message,
 * else our own `detail`), the time; any earlier error is cleared.
 */
export function answerColumns(answer: HaciendaAnswer, now: Date) {
  const info = answer.respuestaXml ? readMensajeHacienda(answer.respuestaXml) : { detalleMensaje: undefined, estadoMensaje: undefined, detalleLineas: [] as string[] };
  return {
    status: answer.estado,
    responseXml: answer.respuestaXml ? Buffer.from(answer.respuestaXml, "utf8") : null,
    haciendaDetail: info.detalleLineas.join("\n") || info.detalleMensaje || answer.detail || null,
    haciendaMessage: info.estadoMensaje ?? null,
    answeredAt: now,
    lastError: null,
  };
}

/**
 * Applies a final answer (aceptado/rechazado) to the document with that clave — once: only a
 * document still 'por enviar'/'procesando' changes. An accepted credit (debit) note adds its total to
 * the credit_note_total (debit_note_total) of the documents it references. Returns the document id
 * when it changed.
 */
export async function applyHaciendaAnswer(db: Db, answer: HaciendaAnswer, now: Date): Promise<number | null> {
  if (answer.estado !== "aceptado" && answer.estado !== "rechazado") return null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(documents)
      .set(answerColumns(answer, now))
      .where(and(eq(documents.clave, answer.clave), inArray(documents.status, ["por enviar", "procesando"])))
      .returning({ id: documents.id, kind: documents.kind, total: documents.totalComprobante, companyId: documents.companyId });
    if (!row) return null;
    // The integrator's webhooks (API): the event is written with the change (docs/decisions/183).
    await queueDocumentEvent(tx, row.id, now);
    // Accepted: the e-mail to the client and the notify list goes out by a job (retried on failure).
    // (A Recibo Electrónico de Pago is shown on its payment and invoice, not e-mailed: decision 135.)
    if (answer.estado === "aceptado" && row.kind !== "rep") await enqueueDocumentEmail(tx, { companyId: row.companyId, documentId: row.id }, now);
    // An accepted note lowers (nc) or raises (nd) what is due on the documents it references.
    if ((row.kind === "nc" || row.kind === "nd") && answer.estado === "aceptado") await applyNoteToReferenced(tx, { companyId: row.companyId, noteId: row.id });
    return row.id;
  });
}

const DOCUMENT_EMAIL_JOB = "document-email:";
export const documentEmailJobKey = (documentId: number) => `${DOCUMENT_EMAIL_JOB}${documentId}`;

/**
 * Queues the e-mail of an accepted document (one job per document at a time: the unique key). A
 * failed send is retried by the runner with its backoff (30 s, 2 min, 8 min, 32 min, then hourly)
 * for as long as it keeps failing; the sweep queues it again should the job ever be gone.
 */
export async function enqueueDocumentEmail(db: DbOrTx, { companyId, documentId }: { companyId: number; documentId: number }, now: Date) {
  await enqueue(db, "send-document-email", { companyId, documentId }, { runAt: now, uniqueKey: documentEmailJobKey(documentId), maxAttempts: 1000 });
}

/**
 * Accepted documents whose e-mail failed, still unsent, with recipients and without a queued job
 * (e.g. their job ran out of attempts): queued again. Reads the partial index documents_email_retry_idx.
 */
async function requeueFailedEmails(db: Db, now: Date): Promise<number> {
  const rows = await db
    .select({ id: documents.id, companyId: documents.companyId, clientSnapshot: documents.clientSnapshot, emails: documents.emails })
    .from(documents)
    .where(and(sql.raw(EMAIL_RETRY_PREDICATE), sql`not exists (select 1 from ${jobs} where ${jobs.uniqueKey} = ${DOCUMENT_EMAIL_JOB} || ${documents.id})`))
    .orderBy(documents.id)
    .limit(500);
  const due = rows.filter((d) => documentRecipients(d.clientSnapshot, d.emails).length > 0);
  for (const d of due) await enqueueDocumentEmail(db, { companyId: d.companyId, documentId: d.id }, now);
  return due.length;
}

export type PollOutcome = "final" | "waiting" | "resubmit" | "skipped";

/**
 * Asks Hacienda's API for the document's state with the company's own credentials and applies a
 * final answer (the only way a document gets one). Not final yet: the next poll is queued with
 * backoff — unless this poll came from a callback (`hint`), which only looks once and leaves the
 * backoff chain as it was (docs/decisions/110-hacienda-callback-as-a-hint.md).
 */
export async function pollDocument(
  db: Db,
  { companyId, documentId, attempt, errors = 0, hint = false }: { companyId: number; documentId: number; attempt: number; errors?: number; hint?: boolean },
  now: Date,
): Promise<PollOutcome> {
  const doc = await loadDocument(db, companyId, documentId);
  if (!doc || doc.status !== "procesando" || !doc.clave) return "skipped";
  const hc = await companyHacienda(db, companyId, now);
  if (!hc) return "skipped";
  const clave = doc.clave;
  return pollOnce(
    { attempt, errors, hint },
    {
      status: () => clientFor(hc).status(credentialsOf(companyId, hc), clave),
      apply: (answer) => applyHaciendaAnswer(db, { clave, ...answer }, now),
      next: (job) =>
        enqueue(db, "poll-document", { companyId, documentId, ...job }, { runAt: new Date(now.getTime() + pollDelay(job.attempt)), uniqueKey: `poll:${documentId}:${job.attempt}`, maxAttempts: 1000 }),
      resubmit: () => resubmit(db, companyId, documentId, now),
      recordError: (message) => recordError(db, documentId, message),
    },
  );
}

/**
 * One question to Hacienda about something we sent (an issued document or our MensajeReceptor),
 * the same rules for both: a signed final answer is applied; a poll from a callback (`hint`) looks
 * once; a third 'error' answer ends it 'rechazado' (ERROR_ANSWERS_BEFORE_GIVING_UP); otherwise the
 * next poll is queued with backoff. Hacienda not having it at all (NO_ENCONTRADO) sends it again.
 */
export async function pollOnce(
  { attempt, errors, hint }: { attempt: number; errors: number; hint: boolean },
  io: {
    status: () => Promise<StatusResult>;
    apply: (answer: { estado: string; respuestaXml?: string; detail?: string }) => Promise<unknown>;
    next: (job: { attempt: number; errors: number }) => Promise<unknown>;
    resubmit: () => Promise<PollOutcome>;
    recordError: (message: string) => Promise<unknown>;
  },
): Promise<PollOutcome> {
  try {
    const st = await io.status();
    if ((st.estado === "aceptado" || st.estado === "rechazado") && st.respuesta) {
      if (st.respuesta.verification && !st.respuesta.verification.valid) throw new HaciendaClientError("RESPUESTA_INVALIDA", PIPELINE_MESSAGES.badSignature, { retryable: true });
      await io.apply({ estado: st.estado, respuestaXml: st.respuesta.xml });
      return "final";
    }
    if (hint) return "waiting";
    const errorAnswers = errors + (st.estado === "error" ? 1 : 0);
    if (errorAnswers >= ERROR_ANSWERS_BEFORE_GIVING_UP) {
      await io.apply({ estado: "rechazado", detail: PIPELINE_MESSAGES.unprocessable });
      return "final";
    }
    await io.next({ attempt: attempt + 1, errors: errorAnswers });
    return "waiting";
  } catch (error) {
    if (hint) throw error;
    if (error instanceof HaciendaClientError && error.code === "NO_ENCONTRADO") return io.resubmit();
    await io.recordError((error as Error).message);
    throw error;
  }
}

/** Hacienda does not have it: back to 'por enviar' and submit again (same bytes, same clave). */
async function resubmit(db: Db, companyId: number, documentId: number, now: Date): Promise<PollOutcome> {
  await db.transaction(async (tx) => {
    await tx
      .update(documents)
      .set({ status: "por enviar" })
      .where(and(eq(documents.id, documentId), eq(documents.status, "procesando")));
    await enqueue(tx, "submit-document", { companyId, documentId }, { runAt: now, uniqueKey: `submit:${documentId}`, maxAttempts: 1000 });
  });
  return "resubmit";
}

/**
 * Safety net (scheduled): documents left 'por enviar' get a submission job, documents 'procesando'
 * for more than `staleMs` get a poll, accepted documents whose e-mail failed and has no job get one.
 * Unique keys make this idempotent.
 */
export async function sweepPending(db: Db, now: Date, staleMs = 10 * 60_000): Promise<number> {
  const waiting = await db.select({ id: documents.id, companyId: documents.companyId }).from(documents).where(eq(documents.status, "por enviar")).limit(500);
  for (const d of waiting) await enqueue(db, "submit-document", { companyId: d.companyId, documentId: d.id }, { runAt: now, uniqueKey: `submit:${d.id}`, maxAttempts: 1000 });
  const stale = await db
    .select({ id: documents.id, companyId: documents.companyId })
    .from(documents)
    .where(and(eq(documents.status, "procesando"), lte(documents.submittedAt, new Date(now.getTime() - staleMs))))
    .limit(500);
  for (const d of stale) await enqueue(db, "poll-document", { companyId: d.companyId, documentId: d.id, attempt: POLL_BACKOFF_MS.length }, { runAt: now, uniqueKey: `poll:${d.id}:sweep`, maxAttempts: 1000 });
  return waiting.length + stale.length + (await requeueFailedEmails(db, now));
}

// ---------------------------------------------------------------------------------------------
// Callback

/**
 * A Hacienda clave: 50 characters, digits or (2026 revision) letters (NOTES §4); for one of our
 * MensajeReceptor, the key Hacienda knows it by: the received clave, '-', our 20-digit consecutive.
 */
const CLAVE_RE = /^[A-Za-z0-9]{50}(-\d{20})?$/;

/**
 * The clave a callback names, or null. The body is JSON with `clave` (any key case, `-`/`_`
 * ignored, as parseCallback reads it); nothing else in it is looked at — not the state, not the XML.
 */
export function callbackClave(body: string): string | null {
  let obj: unknown;
  try {
    obj = JSON.parse(body);
  } catch {
    return null;
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return null;
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    if (k.toLowerCase().replace(/[-_\s]/g, "") === "clave") return typeof v === "string" && CLAVE_RE.test(v) ? v : null;
  }
  return null;
}

export const callbackHintJobKey = (documentId: number) => `poll:${documentId}:hint`;

/**
 * Hacienda's POST to our callbackUrl, taken only as a hint (docs/decisions/110): when `clave` is
 * one of our documents waiting for Hacienda's answer ('procesando', or 'por enviar' while its
 * submission completes), a poll job is queued at once;
 * that poll asks Hacienda's API with the company's own credentials and stores what the API
 * answers. Whatever the request says about the state or carries as XML is never used, so a forged
 * notification changes nothing. Hints for a document collapse into one queued job (unique key).
 * Returns whether a poll was queued; the endpoint answers the same either way.
 */
export async function handleHaciendaCallback(db: Db, clave: string, now: Date): Promise<{ queued: boolean }> {
  const message = /^([A-Za-z0-9]{50})-(\d{20})$/.exec(clave);
  if (message) {
    const { receptionCallbackHint } = await import("./receptions/pipeline.server.ts");
    return receptionCallbackHint(db, message[1]!, message[2]!, now);
  }
  const [doc] = await db
    .select({ id: documents.id, companyId: documents.companyId })
    .from(documents)
    // 'por enviar' too: Hacienda may call back before our submission's own transaction has marked it
    // 'procesando' (the queued poll then finds it so; a poll of a document not yet sent does nothing).
    .where(and(eq(documents.clave, clave), inArray(documents.status, ["por enviar", "procesando"])))
    .limit(1);
  if (!doc) return { queued: false };
  await enqueue(db, "poll-document", { companyId: doc.companyId, documentId: doc.id, attempt: 0, hint: true }, { runAt: now, uniqueKey: callbackHintJobKey(doc.id), maxAttempts: 1 });
  return { queued: true };
}

// ---------------------------------------------------------------------------------------------
// For the screens

async function storedDraft(db: DbOrTx, companyId: number, documentId: number) {
  const doc = await loadDocument(db, companyId, documentId);
  if (!doc || !doc.draft) return null;
  return { doc, draft: structuredClone(doc.draft) as DocumentDraft };
}

/**
 * A corrected replacement of a rejected document: same content, InformacionReferencia code 16
 * ('Sustituye comprobante electrónico rechazado', 2026 revision) with TipoDocIR 10 ('comprobante
 * rechazado por Hacienda', NOTES §8) and the rejected clave. The screen lets the user fix it and
 * submits it with replacesDocumentId = documentId.
 */
export async function replacementDraft(db: DbOrTx, companyId: number, documentId: number): Promise<DocumentDraft | null> {
  const s = await storedDraft(db, companyId, documentId);
  if (!s || s.doc.status !== "rechazado" || !s.doc.clave) return null;
  const refs = (s.draft.references ?? []).filter((r) => r.code !== "16");
  return {
    ...s.draft,
    references: [...refs, { docType: "10", number: s.doc.clave, issuedAt: s.doc.issuedAt.toISOString(), code: "16", reason: "Sustituye comprobante electrónico rechazado" }],
  };
}

/** A credit note that cancels a document (fe, te, fec): its lines, code 01 'Anula documento de referencia'. */
export async function creditNoteDraft(db: DbOrTx, companyId: number, documentId: number, reason = "Anula documento de referencia"): Promise<DocumentDraft | null> {
  const s = await storedDraft(db, companyId, documentId);
  if (!s || !["fe", "te", "fec"].includes(s.doc.kind)) return null;
  return {
    ...s.draft,
    kind: "nc",
    situacion: 1,
    note: reason,
    references: [{ documentId, docType: "", number: "", issuedAt: "", code: "01", reason }],
  };
}
