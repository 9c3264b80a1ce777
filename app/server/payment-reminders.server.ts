// Payment reminders (spec part 2 §4): an invoice saved with the payment-reminder checkbox is
// e-mailed once, the day after its due date, while it is still unpaid (nothing paid covers it and no
// credit note covers it) and not rejected. The company's 'payment_reminder' template, the invoice's
// PDF attached, to the client and the notify list, through the company's SMTP server (else the
// global one). Run by the payment-reminders job; one job runs at a time (the schedule's unique key).
import { and, asc, eq, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { documents } from "../../db/schema/index.ts";
import { composeDocumentEmail, documentRecipients } from "../email/document-email.ts";
import { costaRicaDay } from "../domain/document-status.ts";
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
    sql`${documents.paymentAmount} < ${documents.totalComprobante}`,
    sql`${documents.creditNoteTotal} < ${documents.totalComprobante}`,
  );
}

/**
 * Sends the reminders due now (at most `limit` per run). A failure is written on the invoice's
 * e-mail status and the invoice is tried again on the next run; one without any recipient is
 * marked so it is not tried every hour.
 */
export async function sendDuePaymentReminders(db: Db, opts: { now: Date; limit?: number }): Promise<{ sent: number[]; failed: number }> {
  const due = await db
    .select({ id: documents.id, companyId: documents.companyId, clientSnapshot: documents.clientSnapshot, emails: documents.emails })
    .from(documents)
    .where(dueRemindersWhere(costaRicaDay(opts.now)))
    .orderBy(asc(documents.expirationDate), asc(documents.id))
    .limit(opts.limit ?? 100);
  const sent: number[] = [];
  let failed = 0;
  for (const d of due) {
    const mark = (set: Partial<typeof documents.$inferInsert>) => db.update(documents).set(set).where(and(eq(documents.id, d.id), eq(documents.companyId, d.companyId)));
    const to = documentRecipients(d.clientSnapshot, d.emails);
    if (to.length === 0) {
      await mark({ remindPayment: false, emailError: "Recordatorio de pago no enviado: la factura no tiene destinatarios." });
      continue;
    }
    try {
      const view = await loadDocumentView(db, { companyId: d.companyId, documentId: d.id });
      if (!view) continue;
      const template = await documentTemplate(db, d.companyId, "payment_reminder");
      const email = composeDocumentEmail(view, template, { pdf: await renderDocumentPdf(view) });
      await sendCompanyMail(db, d.companyId, { to: to.join(", "), subject: email.subject, text: email.text, attachments: email.attachments });
      await db
        .update(documents)
        .set({ remindersSent: sql`${documents.remindersSent} + 1`, lastReminderAt: opts.now })
        .where(and(eq(documents.id, d.id), eq(documents.companyId, d.companyId)));
      sent.push(d.id);
    } catch (e) {
      failed++;
      await mark({ emailError: `Recordatorio de pago: ${e instanceof Error ? e.message : "no se pudo enviar el correo"}` });
    }
  }
  return { sent, failed };
}
