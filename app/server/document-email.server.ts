// Sends a document to its client and the notify list: template of the company for the document's
// type, the PDF rendered from the stored view, the stored signed XML and Hacienda's answer
// (quotations: PDF only), through the company's SMTP server when configured, else the global one
// (sendCompanyMail decides). Throws with a plain-Spanish message when sending fails; the caller (a
// job) records it and retries.
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { documents, emailTemplates } from "../../db/schema/index.ts";
import { composeDocumentEmail, documentRecipients, templateTypeOf, type DocumentEmail } from "../email/document-email.ts";
import type { DocumentView } from "../domain/document-view.ts";
import { renderDocumentPdf } from "../pdf/invoice-pdf.server.tsx";
import { sendCompanyMail } from "./company-mail.server.ts";
import { loadDocumentView } from "./document-view.server.ts";
import type { Db } from "../../db/client.ts";

export interface SendDocumentEmailInput {
  companyId: number;
  view: DocumentView;
  signedXml?: Buffer | string | null;
  responseXml?: Buffer | string | null;
  to: string[];
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

export async function buildDocumentEmail(db: DbOrTx, input: Omit<SendDocumentEmailInput, "to">): Promise<DocumentEmail> {
  const template = await documentTemplate(db, input.companyId, templateTypeOf(input.view));
  const pdf = await renderDocumentPdf(input.view);
  return composeDocumentEmail(input.view, template, { pdf, signedXml: input.signedXml, responseXml: input.responseXml });
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

/**
 * The e-mail a document gets once Hacienda accepts it (quotations: when saved with 'Guardar y
 * Enviar por correo'), run by the send-document-email job. Sent once: a document already sent is
 * left alone. A failure is written on the document (shown on its detail page) and thrown, so the
 * jobs runner retries it with backoff; a document without any recipient is noted, not retried.
 */
export async function sendDocumentEmailOnce(db: Db, { companyId, documentId }: { companyId: number; documentId: number }, now: Date): Promise<AutomaticEmailOutcome> {
  const [doc] = await db
    .select({ kind: documents.kind, status: documents.status, emailSentAt: documents.emailSentAt, signedXml: documents.signedXml, responseXml: documents.responseXml, clientSnapshot: documents.clientSnapshot, emails: documents.emails })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.companyId, companyId)));
  if (!doc || doc.emailSentAt) return "already-sent";
  if (doc.kind !== "qt" && doc.status !== "aceptado") return "not-accepted";
  const mark = (set: Partial<typeof documents.$inferInsert>) => db.update(documents).set(set).where(and(eq(documents.id, documentId), eq(documents.companyId, companyId)));
  const to = documentRecipients(doc.clientSnapshot, doc.emails);
  if (to.length === 0) {
    await mark({ emailError: NO_RECIPIENTS });
    return "no-recipients";
  }
  const view = await loadDocumentView(db, { companyId, documentId });
  if (!view) return "already-sent";
  try {
    const sent = await sendDocumentEmail(db, { companyId, view, signedXml: doc.signedXml, responseXml: doc.responseXml, to });
    await mark({ emailSentAt: now, emailSentTo: sent.to.join(", "), emailError: null });
    return "sent";
  } catch (e) {
    await mark({ emailError: e instanceof Error ? e.message : "No se pudo enviar el correo" });
    throw e;
  }
}
