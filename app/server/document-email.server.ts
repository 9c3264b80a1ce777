// Sends a document to its client and the notify list: template of the company for the document's
// type, the PDF rendered from the stored view, the stored signed XML and Hacienda's answer
// (quotations: PDF only), through the company's SMTP server when configured, else the global one
// (sendCompanyMail decides). Throws with a plain-Spanish message when sending fails; the caller (a
// job) records it and retries. A document is e-mailed automatically once (docs/decisions/100).
import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { documents, emailTemplates, jobs } from "../../db/schema/index.ts";
import { documentMessage, documentRecipients, fillDocumentTemplate, templateTypeOf, type DocumentEmail, type EmailTemplateText } from "../email/document-email.ts";
import type { DocumentView } from "../domain/document-view.ts";
import { renderDocumentPdf } from "../pdf/invoice-pdf.server.tsx";
import { sendCompanyMail } from "./company-mail.server.ts";
import { loadDocumentView } from "./document-view.server.ts";
import { documentEmailJobKey } from "./hacienda-pipeline.server.ts";
import type { Db } from "../../db/client.ts";

export interface SendDocumentEmailInput {
  companyId: number;
  view: DocumentView;
  signedXml?: Buffer | string | null;
  responseXml?: Buffer | string | null;
  to: string[];
  /** Typed on the detail viewer's form; else the company's template for the document. */
  text?: EmailTemplateText;
}

export const NO_RECIPIENTS = "El documento no tiene destinatarios: agregue el correo del cliente o de notificación.";
export const MISSING_SIGNED_XML = "El documento aún no tiene su XML firmado; no se puede enviar por correo.";

export async function documentTemplate(db: DbOrTx, companyId: number, type: string) {
  const [row] = await db
    .select({ subject: emailTemplates.subject, body: emailTemplates.body })
    .from(emailTemplates)
    .where(and(eq(emailTemplates.companyId, companyId), eq(emailTemplates.type, type)))
    .orderBy(asc(emailTemplates.id))
    .limit(1);
  return row ?? null;
}

/** The subject and body the company's template gives this document (the e-mail form's defaults). */
export async function documentEmailDefaults(db: DbOrTx, companyId: number, view: DocumentView): Promise<EmailTemplateText> {
  return fillDocumentTemplate(view, await documentTemplate(db, companyId, templateTypeOf(view)));
}

/** The message: the typed subject and body when given, else the company's template. */
export async function buildDocumentEmail(db: DbOrTx, input: Omit<SendDocumentEmailInput, "to">): Promise<DocumentEmail> {
  const text = input.text ?? (await documentEmailDefaults(db, input.companyId, input.view));
  const pdf = await renderDocumentPdf(input.view);
  return documentMessage(input.view, text, { pdf, signedXml: input.signedXml, responseXml: input.responseXml });
}

export async function sendDocumentEmail(db: Db, input: SendDocumentEmailInput): Promise<{ via: "company" | "global"; messageId: string; to: string[] }> {
  const to = [...new Set(input.to.map((e) => e.trim()).filter(Boolean))];
  if (to.length === 0) throw new Error(NO_RECIPIENTS);
  if (input.view.kind !== "qt" && !input.signedXml) throw new Error(MISSING_SIGNED_XML);
  const email = await buildDocumentEmail(db, input);
  const sent = await sendCompanyMail(db, input.companyId, { to: to.join(", "), subject: email.subject, text: email.text, attachments: email.attachments });
  return { ...sent, to };
}

export type AutomaticEmailOutcome = "sent" | "already-sent" | "not-accepted" | "no-recipients";

/** How long a sender's claim on a document lasts (a crashed sender's claim expires). */
export const EMAIL_LEASE_MS = 10 * 60_000;
export const EMAIL_BUSY = "El correo de este documento se está enviando en otro proceso; se intentará de nuevo.";

const ownDocument = (companyId: number, documentId: number) => and(eq(documents.id, documentId), eq(documents.companyId, companyId));

/**
 * The e-mail a document gets once Hacienda accepts it (quotations: when saved with 'Guardar y
 * Enviar por correo'), run by the send-document-email job. Sent once: a document already sent is
 * left alone, and a sender first claims the document (email_sending_at, a lease) so two job runners
 * never both send it. A failure is written on the document (shown on its detail page) and thrown, so
 * the jobs runner retries it with backoff; a document without any recipient is noted, not retried.
 */
export async function sendDocumentEmailOnce(db: Db, { companyId, documentId }: { companyId: number; documentId: number }, now: Date): Promise<AutomaticEmailOutcome> {
  const own = ownDocument(companyId, documentId);
  const [doc] = await db
    .select({ kind: documents.kind, status: documents.status, emailSentAt: documents.emailSentAt, signedXml: documents.signedXml, responseXml: documents.responseXml, clientSnapshot: documents.clientSnapshot, emails: documents.emails })
    .from(documents)
    .where(own);
  if (!doc || doc.emailSentAt) return "already-sent";
  if (doc.kind !== "qt" && doc.status !== "aceptado") return "not-accepted";
  const mark = (set: Partial<typeof documents.$inferInsert>) => db.update(documents).set(set).where(own);
  const to = documentRecipients(doc.clientSnapshot, doc.emails);
  if (to.length === 0) {
    await mark({ emailError: NO_RECIPIENTS });
    return "no-recipients";
  }
  const view = await loadDocumentView(db, { companyId, documentId });
  if (!view) return "already-sent";
  const claimed = await db
    .update(documents)
    .set({ emailSendingAt: now })
    .where(and(own, isNull(documents.emailSentAt), or(isNull(documents.emailSendingAt), lt(documents.emailSendingAt, new Date(now.getTime() - EMAIL_LEASE_MS)))))
    .returning({ id: documents.id });
  if (claimed.length === 0) {
    const [again] = await db.select({ emailSentAt: documents.emailSentAt }).from(documents).where(own);
    if (!again || again.emailSentAt) return "already-sent";
    throw new Error(EMAIL_BUSY); // another sender holds it: the runner tries again later
  }
  try {
    const sent = await sendDocumentEmail(db, { companyId, view, signedXml: doc.signedXml, responseXml: doc.responseXml, to });
    await mark({ emailSentAt: now, emailSentTo: sent.to.join(", "), emailError: null, emailSendingAt: null });
    return "sent";
  } catch (e) {
    await mark({ emailError: e instanceof Error ? e.message : "No se pudo enviar el correo", emailSendingAt: null });
    throw e;
  }
}

/**
 * 'Enviar por correo' on the detail viewer: the typed addresses, subject and body, now. A success on
 * an accepted document (or a quotation) is recorded like the automatic e-mail's (sent at, to whom, no
 * error), so the job does not send it again — before Hacienda accepts, the automatic one still goes; while it sends, the document is claimed so a job starting meanwhile waits.
 * A failure is returned for the form (the document's automatic status is left as it was).
 * Null: not a document of the company.
 */
export async function sendDocumentEmailNow(
  db: Db,
  input: { companyId: number; documentId: number; to: string[]; subject: string; body: string },
  now: Date,
): Promise<{ ok: true; to: string[] } | { ok: false; message: string } | null> {
  const own = ownDocument(input.companyId, input.documentId);
  const [doc] = await db.select({ kind: documents.kind, status: documents.status, signedXml: documents.signedXml, responseXml: documents.responseXml }).from(documents).where(and(own, isNull(documents.deletedAt)));
  const view = doc ? await loadDocumentView(db, { companyId: input.companyId, documentId: input.documentId }) : null;
  if (!doc || !view) return null;
  await db.update(documents).set({ emailSendingAt: now }).where(own);
  try {
    const sent = await sendDocumentEmail(db, { companyId: input.companyId, view, signedXml: doc.signedXml, responseXml: doc.responseXml, to: input.to, text: { subject: input.subject, body: input.body } });
    // Before Hacienda accepts it, the automatic e-mail (with Hacienda's answer) is still to come.
    const final = doc.kind === "qt" || doc.status === "aceptado";
    await db.update(documents).set(final ? { emailSentAt: now, emailSentTo: sent.to.join(", "), emailError: null, emailSendingAt: null } : { emailSendingAt: null }).where(own);
    return { ok: true, to: sent.to };
  } catch (e) {
    await db.update(documents).set({ emailSendingAt: null }).where(and(own, eq(documents.emailSendingAt, now)));
    return { ok: false, message: e instanceof Error ? e.message : "No se pudo enviar el correo" };
  }
}

/** When the automatic e-mail of a document is tried next (its pending job), if one is queued. */
export async function nextEmailAttempt(db: DbOrTx, documentId: number): Promise<Date | null> {
  const [job] = await db
    .select({ runAt: jobs.runAt })
    .from(jobs)
    .where(and(eq(jobs.uniqueKey, documentEmailJobKey(documentId)), eq(jobs.status, "pending")));
  return job?.runAt ?? null;
}
