import type { JobHandler, Schedule } from "./runner.ts";
import { purgeSessionsTask } from "./tasks/purge-sessions.ts";
import { exchangeRateTask } from "./tasks/exchange-rate.ts";
import { submitDocumentTask } from "./tasks/submit-document.ts";
import { haciendaSweepTask, pollDocumentTask } from "./tasks/poll-document.ts";
import { recurringTask } from "./tasks/recurring.ts";
import { sendDocumentEmailTask } from "./tasks/send-document-email.ts";
import { paymentRemindersTask } from "./tasks/payment-reminders.ts";
import { apiPurgeTask, deliverWebhookTask } from "./tasks/webhooks.ts";
import { checkReceptionIssuerTask, pollReceptionTask, receptionDeadlinesTask, receptionMailboxesTask, receptionMailboxTask, receptionSweepTask, submitReceptionTask } from "./tasks/receptions.ts";

export const handlers: Record<string, JobHandler> = {
  "purge-sessions": purgeSessionsTask,
  "exchange-rate": exchangeRateTask,
  "submit-document": submitDocumentTask,
  "poll-document": pollDocumentTask,
  "hacienda-sweep": haciendaSweepTask,
  recurring: recurringTask,
  "send-document-email": sendDocumentEmailTask,
  "payment-reminders": paymentRemindersTask,
  "deliver-webhook": deliverWebhookTask,
  "api-purge": apiPurgeTask,
  "check-reception-issuer": checkReceptionIssuerTask,
  "submit-reception": submitReceptionTask,
  "poll-reception": pollReceptionTask,
  "reception-sweep": receptionSweepTask,
  "reception-mailbox": receptionMailboxTask,
  "reception-mailboxes": receptionMailboxesTask,
  "reception-deadlines": receptionDeadlinesTask,
};

export const schedules: Schedule[] = [
  { cron: "*/15 * * * *", type: "purge-sessions" },
  // Every hour at :05 whatever the server's time zone: the task stores the dollar rate once per Costa Rica
  // date (from 00:05 CR on) and only checks afterwards, so a failed fetch is retried the next hour
  // (docs/decisions/050-exchange-rate.md).
  { cron: "5 * * * *", type: "exchange-rate" },
  // Safety net of the send pipeline: documents left 'por enviar' or long 'procesando' (decision 071).
  { cron: "*/5 * * * *", type: "hacienda-sweep" },
  // Recurring invoices: every 15 minutes; each period is issued exactly once (decision 072).
  { cron: "*/15 * * * *", type: "recurring" },
  // Payment reminders: every hour; each invoice's is sent once, the day after it is due (CR date).
  { cron: "35 * * * *", type: "payment-reminders" },
  // Integrator API: expired idempotency keys and webhook deliveries older than 30 days.
  { cron: "50 * * * *", type: "api-purge" },
  // Received documents: safety net of their MensajeReceptor (docs/decisions/173).
  { cron: "*/5 * * * *", type: "reception-sweep" },
  // Reception mailboxes: every 5 minutes, one job per company (docs/decisions/175).
  { cron: "2-59/5 * * * *", type: "reception-mailboxes" },
  // Pending received documents whose deadline to reject is near: e-mailed once (docs/decisions/172).
  // Hourly: the task works with Costa Rica dates whatever the server's time zone.
  { cron: "20 * * * *", type: "reception-deadlines" },
];
