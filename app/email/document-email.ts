// The e-mail of a document: subject and body from the company's template of the document's type
// (table email_templates; placeholders {cliente}, {referencia}, {compania}, {monto}, {vencimiento}
// as the defaults of config-setup.server.ts use them) and the attachments: the PDF, the signed XML
// `<clave>.xml` and Hacienda's answer `<clave>_respuesta.xml` (quotations: the PDF only). Pure.
import { DOCUMENT_KIND_TEMPLATE, GENERIC_CLIENT_LABEL, documentFileBase, money, type DocumentView } from "../domain/document-view.ts";
import { fillTemplate } from "../domain/email-template.ts";
import { formatDate, formatDateTime } from "../domain/format.ts";

export interface EmailTemplateText {
  subject: string;
  body: string;
}

export interface EmailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface DocumentEmail {
  subject: string;
  text: string;
  attachments: EmailAttachment[];
}

/** Used when the company has no template of the type (the setup creates one for each). */
export const FALLBACK_TEMPLATE: EmailTemplateText = {
  subject: "{documento} {referencia} de {compania}",
  body: "Estimado(a) {cliente}:\n\nAdjuntamos {documento} {referencia} por un monto de {monto}.\n\nSaludos,\n{compania}",
};

export function templateTypeOf(view: Pick<DocumentView, "kind">): string {
  return DOCUMENT_KIND_TEMPLATE[view.kind];
}

export function placeholderValues(view: DocumentView): Record<string, string> {
  return {
    cliente: view.client.generic ? GENERIC_CLIENT_LABEL : view.client.name,
    referencia: view.consecutive,
    compania: view.company.fantasyName || view.company.name,
    monto: money(view, view.totals.total),
    vencimiento: view.dueDate ? formatDate(view.dueDate) : "",
    fecha: formatDate(view.issueDate),
    clave: view.clave,
    documento: view.kindLabel.toLowerCase(),
    enlace: view.publicUrl,
  };
}

export { fillTemplate };

export interface DocumentFiles {
  pdf: Buffer;
  /** The stored signed XML (required for every kind but quotations). */
  signedXml?: Buffer | string | null;
  /** Hacienda's MensajeHacienda, when there is one. */
  responseXml?: Buffer | string | null;
}

const asBuffer = (x: Buffer | string) => (typeof x === "string" ? Buffer.from(x, "utf8") : x);

/**
 * The payment reminder's text when the company has no 'payment_reminder' template (spec part 2 §3
 * "Reminder e-mail": subject 'Recordatorio de pago', the client's name, the reference and the due date).
 */
export const REMINDER_FALLBACK_TEMPLATE: EmailTemplateText = {
  subject: "Recordatorio de pago",
  body: "Estimado(a) {cliente}:\n\nLe recordamos que la factura {referencia} por {monto} venció el {vencimiento}. Si ya realizó el pago, por favor ignore este mensaje.\n\nSaludos,\n{compania}",
};

const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").trim();

/** The template's subject and body with the document's values: what is sent, and what the forms offer to edit. */
export function fillDocumentTemplate(view: DocumentView, template: EmailTemplateText | null, fallback: EmailTemplateText = FALLBACK_TEMPLATE): EmailTemplateText {
  const t = template ?? fallback;
  const values = placeholderValues(view);
  return { subject: oneLine(fillTemplate(t.subject, values)), body: fillTemplate(t.body, values) };
}

/** The message from a ready subject and body (filled or typed): the public link added, the files attached. */
export function documentMessage(view: DocumentView, text: EmailTemplateText, files: DocumentFiles): DocumentEmail {
  const base = documentFileBase(view);
  const attachments: EmailAttachment[] = [{ filename: `${base}.pdf`, content: files.pdf, contentType: "application/pdf" }];
  if (view.kind !== "qt") {
    if (files.signedXml) attachments.push({ filename: `${view.clave}.xml`, content: asBuffer(files.signedXml), contentType: "application/xml" });
    if (files.responseXml) attachments.push({ filename: `${view.clave}_respuesta.xml`, content: asBuffer(files.responseXml), contentType: "application/xml" });
  }
  return { subject: oneLine(text.subject), text: `${text.body}\n\nConsulte el documento en línea: ${view.publicUrl}\n`, attachments };
}

/**
 * The detail viewer's line about the document's e-mail: sent (to whom, when), or the last failure
 * and when it is tried again — the pending job's time, or 'en unos minutos' when the sweep will
 * queue it (`retried`: an accepted document with recipients) — or nothing automatic.
 */
export function emailStatusText(s: { sentAt: Date | null; sentTo: string | null; error: string | null; nextAttempt: Date | null; retried: boolean }): string | null {
  if (s.sentAt) return `Enviado por correo a ${s.sentTo ?? ""} el ${formatDateTime(s.sentAt)}.`;
  if (!s.error) return null;
  const retry = s.nextAttempt
    ? ` Próximo intento automático: ${formatDateTime(s.nextAttempt)}; también puede enviarlo desde aquí.`
    : s.retried
      ? " Se reintentará automáticamente en unos minutos; también puede enviarlo desde aquí."
      : " Puede enviarlo desde aquí.";
  return `No se pudo enviar por correo: ${s.error}${retry}`;
}

/**
 * Who receives a document: the client's e-mail as it was at issue, then the notify list, each once.
 * Used for the automatic e-mail after acceptance and as the default of the detail viewer's form.
 */
export function documentRecipients(clientSnapshot: unknown, emails: unknown): string[] {
  const client = (clientSnapshot ?? {}) as { email?: unknown };
  const notify = Array.isArray(emails) ? emails.filter((e): e is string => typeof e === "string") : [];
  const all = [typeof client.email === "string" ? client.email : "", ...notify].map((e) => e.trim()).filter(Boolean);
  return [...new Set(all)];
}
