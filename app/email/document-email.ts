// The e-mail of a document: subject and body from the company's template of the document's type
// (table email_templates; placeholders {cliente}, {referencia}, {compania}, {monto}, {vencimiento}
// as the defaults of config-setup.server.ts use them) and the attachments: the PDF, the signed XML
// `<clave>.xml` and Hacienda's answer `<clave>_respuesta.xml` (quotations: the PDF only). Pure.
import { DOCUMENT_KIND_TEMPLATE, GENERIC_CLIENT_LABEL, documentFileBase, money, type DocumentView } from "../domain/document-view.ts";
import { formatDate } from "../domain/format.ts";

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

/** Replaces {name} with its value; unknown placeholders are left as typed. */
export function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\{([a-zA-Z_]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}

export interface DocumentFiles {
  pdf: Buffer;
  /** The stored signed XML (required for every kind but quotations). */
  signedXml?: Buffer | string | null;
  /** Hacienda's MensajeHacienda, when there is one. */
  responseXml?: Buffer | string | null;
}

const asBuffer = (x: Buffer | string) => (typeof x === "string" ? Buffer.from(x, "utf8") : x);

export function composeDocumentEmail(view: DocumentView, template: EmailTemplateText | null, files: DocumentFiles): DocumentEmail {
  const t = template ?? FALLBACK_TEMPLATE;
  const values = placeholderValues(view);
  const base = documentFileBase(view);
  const attachments: EmailAttachment[] = [{ filename: `${base}.pdf`, content: files.pdf, contentType: "application/pdf" }];
  if (view.kind !== "qt") {
    if (files.signedXml) attachments.push({ filename: `${view.clave}.xml`, content: asBuffer(files.signedXml), contentType: "application/xml" });
    if (files.responseXml) attachments.push({ filename: `${view.clave}_respuesta.xml`, content: asBuffer(files.responseXml), contentType: "application/xml" });
  }
  const text = `${fillTemplate(t.body, values)}\n\nConsulte el documento en línea: ${view.publicUrl}\n`;
  return { subject: fillTemplate(t.subject, values).replace(/[\r\n]+/g, " ").trim(), text, attachments };
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
