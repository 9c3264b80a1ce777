// E-mails the payment reminders that are due (app/server/payment-reminders.server.ts).
import type { JobHandler } from "../runner.ts";
import { sendDuePaymentReminders } from "../../app/server/payment-reminders.server.ts";

export const paymentRemindersTask: JobHandler = async (_payload, { db, now }) => {
  const r = await sendDuePaymentReminders(db, { now: now() });
  if (r.sent.length || r.failed) console.log(`[jobs] recordatorios de pago: ${r.sent.length} enviado(s), ${r.failed} con error`);
};
