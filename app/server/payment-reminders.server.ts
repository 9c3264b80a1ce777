// Payment reminders (spec part 2 §4): an invoice saved with the payment-reminder checkbox is
// e-mailed once, the day after its due date, while something is still due on it (payments, credit
// and debit notes: app/domain/receivables.ts) and it is not rejected. The company's 'payment_reminder' template (or what was
// typed on the detail viewer's reminder form), the invoice's PDF attached, to the client and the
// notify list, through the company's SMTP server (else the global one). Run by the payment-reminders job; one job runs at a time (the schedule's unique key).
import { and, asc, eq, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { documents, OWING_PREDICATE } from "../../db/schema/index.ts";
import { documentMessage, documentRecipients, fillDocumentTemplate, REMINDER_FALLBACK_TEMPLATE, type EmailTemplateText } from "../email/document-email.ts";
import type { DocumentView } from "../domain/document-view.ts";
import { costaRicaDay, reminderAllowed } from "../domain/document-status.ts";
import { renderDocumentPdf } from "../pdf/invoice-pdf.server.tsx";
import { sendCompanyMail } from "./company-mail.server.ts";
import { documentTemplate } from "./document-email.server.ts";
import { loadDocumentView } from "./document-view.server.ts";

/** Invoices whose reminder is due on `today` (YYYY-MM-DD, Costa Rica), oldest due date first. */
export function dueRemindersWhere(today: string) {
  return and(
    eq(documents.kind, "fe"),
    eq(documents.remindPayment, true),
    eq(documents.remindersSent, 0),
    ne(documents.status, "rechazado"),
    isNull(documents.deletedAt),
    lt(documents.expirationDate, today),
    // Something still due: payments, credit and debit notes (app/domain/receivables.ts).
    sql.raw(OWING_PREDICATE),
  );
}

export const REMINDER_MESSAGES = {
  sent: "El recordatorio de pago se envio correctamente",
  notDue: "El recordatorio de pago solo se envía a facturas vencidas (o que vencen hoy) y sin pagar.",
  noRecipients: "Recordatorio de pago no enviado: la factura no tiene destinatarios.",
} as const;

const REMINDER_TEMPLATE = "payment_reminder";

/** The reminder's subject and body from the company's 'payment_reminder' template (the form's defaults). */
export async function paymentReminderDefaults(db: Db, companyId: number, view: DocumentView): Promise<EmailTemplateText> {
  return fillDocumentTemplate(view, await documentTemplate(db, companyId, REMINDER_TEMPLATE), REMINDER_FALLBACK_TEMPLATE);
}

/**
 * E-mails one invoice's payment reminder now (the job's automatic one, and the detail viewer's
 * reminder form with its typed addresses, subject and body): the PDF attached; counts it. Without
 * typed ones: the client and the notify list, the company's template. Only for the company's own
 * invoices that `reminderAllowed`.
 */
export async function sendPaymentReminder(
  db: Db,
  { companyId, documentId, to: typed, text }: { companyId: number; documentId: number; to?: string[]; text?: EmailTemplateText },
  now: Date,
): Promise<{ ok: true; to: string[] } | { ok: false; message: string }> {
  const own = and(eq(documents.id, documentId), eq(documents.companyId, companyId), isNull(documents.deletedAt));
  const [d] = await db.select().from(documents).where(own);
  if (!d || !reminderAllowed({ ...d, total: d.totalComprobante }, costaRicaDay(now))) return { ok: false, message: REMINDER_MESSAGES.notDue };
  const to = typed ?? documentRecipients(d.clientSnapshot, d.emails);
  if (to.length === 0) return { ok: false, message: REMINDER_MESSAGES.noRecipients };
  const view = await loadDocumentView(db, { companyId, documentId });
  if (!view) return { ok: false, message: REMINDER_MESSAGES.notDue };
  try {
    const email = documentMessage(view, text ?? (await paymentReminderDefaults(db, companyId, view)), { pdf: await renderDocumentPdf(view) });
    await sendCompanyMail(db, companyId, { to: to.join(", "), subject: email.subject, text: email.text, attachments: email.attachments });
  } catch (e) {
    return { ok: false, message: `Recordatorio de pago: ${e instanceof Error ? e.message : "no se pudo enviar el correo"}` };
  }
  await db
    .update(documents)
    .set({ remindersSent: sql`${documents.remindersSent} + 1`, lastReminderAt: now })
    .where(own);
  return { ok: true, to };
}

/**
 * Sends the reminders due now (at most `limit` per run). A failure is written on the invoice's
 * e-mail status and the invoice is tried again on the next run; one without any recipient is
 * marked so it is not tried every hour.
 */
export async function sendDuePaymentReminders(db: Db, opts: { now: Date; limit?: number }): Promise<{ sent: number[]; failed: number }> {
  const due = await db
    .select({ id: documents.id, companyId: documents.companyId })
    .from(documents)
    .where(dueRemindersWhere(costaRicaDay(opts.now)))
    .orderBy(asc(documents.expirationDate), asc(documents.id))
    .limit(opts.limit ?? 100);
  const sent: number[] = [];
  let failed = 0;
  for (const d of due) {
    const r = await sendPaymentReminder(db, { companyId: d.companyId, documentId: d.id }, opts.now);
    if (r.ok) {
      sent.push(d.id);
      continue;
    }
    if (r.message !== REMINDER_MESSAGES.noRecipients) failed++;
    // Without recipients it would fail every hour: the automatic reminder is dropped, and said so.
    const stop = r.message === REMINDER_MESSAGES.noRecipients ? { remindPayment: false } : {};
    await db.update(documents).set({ ...stop, emailError: r.message }).where(and(eq(documents.id, d.id), eq(documents.companyId, d.companyId)));
  }
  return { sent, failed };
}
