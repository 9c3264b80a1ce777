// The MensajeReceptor through the same pipeline as issued documents (issue 12 item 3;
// docs/decisions/071, 173): the jobs submit the stored signed bytes (never re-signed) with the
// clave of the received document and our consecutivoReceptor, poll with the same backoff until
// Hacienda answers, and the callback is a hint that applies the same state change
// (applyReceptionAnswer). Before any message: a job asks Hacienda whether it accepted the
// supplier's document (checkIssuerStatus) — a message is only sent for an accepted one.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { companies, receivedDocuments } from "../../../db/schema/index.ts";
import { enqueue } from "../../../jobs/runner.ts";
import { HaciendaClientError, readMensajeHacienda } from "../../hacienda/client.ts";
import type { SigningKey } from "../../hacienda/p12.ts";
import { appSchemaSet } from "../document-form.server.ts";
import { answerColumns, clientFor, credentialsOf, pollDelay, pollOnce, POLL_BACKOFF_MS, PIPELINE_MESSAGES, type PollOutcome } from "../hacienda-pipeline.server.ts";
import { queueReceivedEvent } from "../api/webhooks.server.ts";
import { idTypeOf } from "../issue-document.server.ts";
import { companyHacienda, signingKeyFor, SigningKeyError } from "../signing-key.server.ts";
import { issuerCheckKey } from "./intake.server.ts";
import { prepareMessageInTx, ProcessError, submitReceptionKey } from "./process.server.ts";

/** Delays between questions about the supplier's document: 1 min, 5 min, 15 min, 1 h, 6 h, then daily. */
export const ISSUER_CHECK_BACKOFF_MS = [60_000, 300_000, 900_000, 3_600_000, 21_600_000, 86_400_000];
const issuerDelay = (attempt: number) => ISSUER_CHECK_BACKOFF_MS[Math.min(attempt, ISSUER_CHECK_BACKOFF_MS.length - 1)];

export const RECEPTION_PIPELINE_MESSAGES = {
  notAtHacienda: "Hacienda todavía no tiene este comprobante (el emisor quizá no lo ha enviado): se consultará de nuevo.",
  issuerRejected: "Hacienda rechazó el comprobante del emisor: no se envió el mensaje de receptor.",
} as const;

async function load(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)));
  return row;
}

async function recordError(db: Db, id: number, message: string) {
  await db
    .update(receivedDocuments)
    .set({ lastError: message.slice(0, 1000) })
    .where(eq(receivedDocuments.id, id));
}

export type IssuerCheckOutcome = "accepted" | "rejected" | "waiting" | "skipped";

/**
 * Asks Hacienda for its verdict on the supplier's document (GET /recepcion/{clave}); keeps its
 * MensajeHacienda when the signature verifies. Accepted and already decided ('esperando'): the
 * message is numbered, signed and queued. Rejected: nothing is sent ('no enviado').
 */
export async function checkIssuerStatus(db: Db, { companyId, id, attempt }: { companyId: number; id: number; attempt: number }, now: Date): Promise<IssuerCheckOutcome> {
  const row = await load(db, companyId, id);
  if (!row) return "skipped";
  let issuerStatus = row.issuerStatus;
  if (!issuerStatus) {
    const hc = await companyHacienda(db, companyId, now);
    if (!hc) throw new HaciendaClientError("CONFIGURACION", PIPELINE_MESSAGES.noCredentials);
    try {
      const st = await clientFor(hc).status(credentialsOf(companyId, hc), row.clave);
      if ((st.estado === "aceptado" || st.estado === "rechazado") && st.respuesta) {
        if (st.respuesta.verification && !st.respuesta.verification.valid) throw new HaciendaClientError("RESPUESTA_INVALIDA", PIPELINE_MESSAGES.badSignature, { retryable: true });
        issuerStatus = st.estado;
        const info = readMensajeHacienda(st.respuesta.xml);
        await db
          .update(receivedDocuments)
          .set({
            issuerStatus,
            issuerResponseXml: Buffer.from(st.respuesta.xml, "utf8"),
            issuerDetail: (info.detalleLineas.join("\n") || info.detalleMensaje || "").slice(0, 4000) || null,
            issuerCheckedAt: now,
            lastError: null,
          })
          .where(and(eq(receivedDocuments.id, id), sql`${receivedDocuments.issuerStatus} is null`));
      } else {
        await recordError(db, id, `Hacienda dice que el comprobante del emisor está «${st.indEstado}»: se consultará de nuevo.`);
      }
    } catch (error) {
      if (!(error instanceof HaciendaClientError) || error.code !== "NO_ENCONTRADO") {
        await recordError(db, id, (error as Error).message);
        throw error;
      }
      await recordError(db, id, RECEPTION_PIPELINE_MESSAGES.notAtHacienda);
    }
    if (!issuerStatus) {
      const next = attempt + 1;
      // The runner clears this job's unique key when it finishes; the next question is its own job.
      await enqueue(db, "check-reception-issuer", { companyId, id, attempt: next }, { runAt: new Date(now.getTime() + issuerDelay(attempt)), uniqueKey: `${issuerCheckKey(id)}:${next}`, maxAttempts: 1000 });
      return "waiting";
    }
  }
  if (issuerStatus === "rechazado") {
    await db.transaction(async (tx) => {
      const changed = await tx
        .update(receivedDocuments)
        .set({ status: "no enviado", lastError: RECEPTION_PIPELINE_MESSAGES.issuerRejected })
        .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.status, "esperando")))
        .returning({ id: receivedDocuments.id });
      // The integrator's webhook (docs/decisions/183, 186): written with the change.
      if (changed.length) await queueReceivedEvent(tx, id, now);
    });
    return "rejected";
  }
  await sendWhenDecided(db, companyId, id, now);
  return "accepted";
}

/** A decided document whose supplier's document Hacienda accepted: number, sign and queue its message. */
async function sendWhenDecided(db: Db, companyId: number, id: number, now: Date) {
  if ((await load(db, companyId, id))?.status !== "esperando") return;
  let key: SigningKey;
  try {
    key = await signingKeyFor(db, companyId, now);
  } catch (error) {
    if (error instanceof SigningKeyError) {
      await recordError(db, id, error.message);
      throw error;
    }
    throw error;
  }
  const schemaSet = appSchemaSet();
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(receivedDocuments)
        .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)))
        .for("update");
      if (!row || row.status !== "esperando" || row.issuerStatus !== "aceptado") return;
      await prepareMessageInTx(tx, row, key, { now, schemaSet });
    });
  } catch (error) {
    if (error instanceof ProcessError) {
      await recordError(db, id, error.message);
      return;
    }
    throw error;
  }
}

export type SubmitOutcome = "sent" | "duplicate" | "skipped" | "refused";

/** Posts the stored signed MensajeReceptor. Retryable failures throw (the runner retries); the row stays 'por enviar'. */
export async function submitReceptionMessage(db: Db, { companyId, id }: { companyId: number; id: number }, now: Date): Promise<SubmitOutcome> {
  const row = await load(db, companyId, id);
  if (!row || row.status !== "por enviar" || !row.sendXml || !row.messageConsecutive) return "skipped";
  const hc = await companyHacienda(db, companyId, now);
  if (!hc) throw new HaciendaClientError("CONFIGURACION", PIPELINE_MESSAGES.noCredentials);
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  await db
    .update(receivedDocuments)
    .set({ submitAttempts: sql`${receivedDocuments.submitAttempts} + 1` })
    .where(eq(receivedDocuments.id, id));
  try {
    const result = await clientFor(hc).submit(credentialsOf(companyId, hc), {
      clave: row.clave,
      fecha: row.messageIssuedAt ?? now,
      // NOTES §3: emisor = the original issuer, receptor = us, consecutivoReceptor = our message's number.
      emisor: { tipoIdentificacion: row.issuerIdType ?? "02", numeroIdentificacion: row.issuerId },
      receptor: { tipoIdentificacion: idTypeOf(company.identificationTypeId), numeroIdentificacion: company.identification },
      consecutivoReceptor: row.messageConsecutive,
      ...(process.env.HACIENDA_CALLBACK_URL ? { callbackUrl: process.env.HACIENDA_CALLBACK_URL } : {}),
      comprobanteXml: new Uint8Array(row.sendXml),
    });
    await db.transaction(async (tx) => {
      await tx
        .update(receivedDocuments)
        .set({ status: "procesando", submittedAt: now, lastError: null })
        .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.status, "por enviar")));
      await enqueue(tx, "poll-reception", { companyId, id, attempt: 0 }, { runAt: new Date(now.getTime() + pollDelay(0)), uniqueKey: `reception-poll:${id}:0`, maxAttempts: 1000 });
    });
    return result.duplicate ? "duplicate" : "sent";
  } catch (error) {
    if (error instanceof HaciendaClientError && error.code === "ENVIO_RECHAZADO") {
      await db.transaction(async (tx) => {
        const changed = await tx
          .update(receivedDocuments)
          .set({ status: "rechazado", haciendaDetail: error.errorCause ?? error.message, answeredAt: now, lastError: error.message })
          .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.status, "por enviar")))
          .returning({ id: receivedDocuments.id });
        if (changed.length) await queueReceivedEvent(tx, id, now);
      });
      return "refused";
    }
    await recordError(db, id, (error as Error).message);
    throw error;
  }
}

/**
 * Hacienda's final answer to our message (aceptado/rechazado) applied once: only a row still
 * 'por enviar'/'procesando' with that clave and consecutive changes. Returns the row id when it changed.
 */
export async function applyReceptionAnswer(db: Db, answer: { clave: string; consecutivo: string; estado: string; respuestaXml?: string; detail?: string }, now: Date): Promise<number | null> {
  if (answer.estado !== "aceptado" && answer.estado !== "rechazado") return null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(receivedDocuments)
      .set(answerColumns(answer, now))
      .where(and(eq(receivedDocuments.clave, answer.clave), eq(receivedDocuments.messageConsecutive, answer.consecutivo), inArray(receivedDocuments.status, ["por enviar", "procesando"])))
      .returning({ id: receivedDocuments.id });
    if (!row) return null;
    // The integrator's webhook (received_document.processed), written with the change like the
    // issued documents' events (docs/decisions/183, 186).
    await queueReceivedEvent(tx, row.id, now);
    return row.id;
  });
}

/** A poll queued by a callback (`hint`) looks once and leaves the backoff chain as it was. */
export async function pollReceptionMessage(
  db: Db,
  { companyId, id, attempt, errors = 0, hint = false }: { companyId: number; id: number; attempt: number; errors?: number; hint?: boolean },
  now: Date,
): Promise<PollOutcome> {
  const row = await load(db, companyId, id);
  if (!row || row.status !== "procesando" || !row.messageConsecutive) return "skipped";
  const hc = await companyHacienda(db, companyId, now);
  if (!hc) return "skipped";
  const { clave, messageConsecutive: consecutivo } = row;
  return pollOnce(
    { attempt, errors, hint },
    {
      status: () => clientFor(hc).status(credentialsOf(companyId, hc), clave, consecutivo),
      apply: (answer) => applyReceptionAnswer(db, { clave, consecutivo, ...answer }, now),
      next: (job) =>
        enqueue(db, "poll-reception", { companyId, id, ...job }, { runAt: new Date(now.getTime() + pollDelay(job.attempt)), uniqueKey: `reception-poll:${id}:${job.attempt}`, maxAttempts: 1000 }),
      resubmit: () => resubmit(db, companyId, id, now),
      recordError: (message) => recordError(db, id, message),
    },
  );
}

/** Hacienda does not have our message: back to 'por enviar' and submitted again (same bytes, same number). */
async function resubmit(db: Db, companyId: number, id: number, now: Date): Promise<PollOutcome> {
  await db.transaction(async (tx) => {
    await tx
      .update(receivedDocuments)
      .set({ status: "por enviar" })
      .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.status, "procesando")));
    await enqueue(tx, "submit-reception", { companyId, id }, { runAt: now, uniqueKey: submitReceptionKey(id), maxAttempts: 1000 });
  });
  return "resubmit";
}

/**
 * Safety net (scheduled with the issued documents' sweep): messages left 'por enviar' get a
 * submission, 'procesando' for more than `staleMs` a poll, 'esperando' a question to Hacienda.
 * Unique keys make it idempotent.
 */
export async function sweepReceptions(db: Db, now: Date, staleMs = 10 * 60_000): Promise<number> {
  const rows = await db
    .select({ id: receivedDocuments.id, companyId: receivedDocuments.companyId, status: receivedDocuments.status, submittedAt: receivedDocuments.submittedAt })
    .from(receivedDocuments)
    .where(inArray(receivedDocuments.status, ["esperando", "por enviar", "procesando"]))
    .limit(1000);
  let n = 0;
  for (const r of rows) {
    if (r.status === "por enviar") await enqueue(db, "submit-reception", { companyId: r.companyId, id: r.id }, { runAt: now, uniqueKey: submitReceptionKey(r.id), maxAttempts: 1000 });
    else if (r.status === "procesando" && r.submittedAt && r.submittedAt.getTime() <= now.getTime() - staleMs)
      await enqueue(db, "poll-reception", { companyId: r.companyId, id: r.id, attempt: POLL_BACKOFF_MS.length }, { runAt: now, uniqueKey: `reception-poll:${r.id}:sweep`, maxAttempts: 1000 });
    else if (r.status === "esperando") await enqueue(db, "check-reception-issuer", { companyId: r.companyId, id: r.id, attempt: ISSUER_CHECK_BACKOFF_MS.length }, { runAt: now, uniqueKey: `${issuerCheckKey(r.id)}:sweep`, maxAttempts: 1000 });
    else continue;
    n++;
  }
  return n;
}

/**
 * Hacienda's callback about one of our MensajeReceptor (its key `clave-consecutivoReceptor`), taken
 * only as a hint like the issued documents' (docs/decisions/110): when that message waits for
 * Hacienda's answer, one poll is queued at once, which asks Hacienda's API with the company's own
 * credentials. Nothing the request says about the state or carries as XML is used.
 */
export async function receptionCallbackHint(db: Db, clave: string, consecutivo: string, now: Date): Promise<{ queued: boolean }> {
  const [row] = await db
    .select({ id: receivedDocuments.id, companyId: receivedDocuments.companyId })
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.clave, clave), eq(receivedDocuments.messageConsecutive, consecutivo), inArray(receivedDocuments.status, ["por enviar", "procesando"])))
    .limit(1);
  if (!row) return { queued: false };
  await enqueue(db, "poll-reception", { companyId: row.companyId, id: row.id, attempt: 0, hint: true }, { runAt: now, uniqueKey: `reception-poll:${row.id}:hint`, maxAttempts: 1 });
  return { queued: true };
}
