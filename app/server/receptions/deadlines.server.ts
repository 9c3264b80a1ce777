// Pending received documents never pass their deadline unseen (issue 12 item 4; docs/decisions/172):
// besides the list and the dashboard, a daily job e-mails the company (its e-mail and the Hacienda
// configuration's 'email_rejection' address) once about each pending document whose last day to
// reject is within DEADLINE_WARNING_DAYS. A document is marked warned in the same step, only when
// the message went out; a failing mail server is retried by the job's next run.
import { and, asc, eq, gte, inArray, isNull, lte } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { haciendaConfigOf } from "../../../db/queries/config.ts";
import { companies, receivedDocuments } from "../../../db/schema/index.ts";
import { addDays, costaRicaDay } from "../../domain/document-status.ts";
import { formatMoney } from "../../domain/format.ts";
import { DEADLINE_WARNING_DAYS, deadlineText } from "../../domain/reception-deadline.ts";
import { currencySymbol, receptionNumber } from "../../domain/receptions.ts";
import { env } from "../env.server.ts";
import { sendCompanyMail } from "../company-mail.server.ts";

export interface DeadlineWarningRun {
  companies: number;
  documents: number;
  failures: string[];
}

/** E-mails each company about its pending documents close to their deadline, once per document. */
export async function warnDeadlines(db: Db, now: Date): Promise<DeadlineWarningRun> {
  const today = costaRicaDay(now);
  const until = addDays(today, DEADLINE_WARNING_DAYS);
  const due = await db
    .select({
      id: receivedDocuments.id,
      companyId: receivedDocuments.companyId,
      clave: receivedDocuments.clave,
      issuerName: receivedDocuments.issuerName,
      total: receivedDocuments.total,
      currency: receivedDocuments.currency,
      rejectDeadline: receivedDocuments.rejectDeadline,
    })
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.message, 4), isNull(receivedDocuments.deadlineWarnedAt), gte(receivedDocuments.rejectDeadline, today), lte(receivedDocuments.rejectDeadline, until)))
    .orderBy(asc(receivedDocuments.companyId), asc(receivedDocuments.rejectDeadline))
    .limit(5000);
  const byCompany = new Map<number, typeof due>();
  for (const d of due) byCompany.set(d.companyId, [...(byCompany.get(d.companyId) ?? []), d]);
  const run: DeadlineWarningRun = { companies: 0, documents: 0, failures: [] };
  for (const [companyId, docs] of byCompany) {
    const [company] = await db.select({ name: companies.name, email: companies.email }).from(companies).where(eq(companies.id, companyId));
    if (!company) continue;
    const hc = await haciendaConfigOf(db, companyId);
    const to = [...new Set([company.email, hc?.emailRejection].filter((e): e is string => !!e))].join(", ");
    const lines = docs.map((d) => `- ${receptionNumber(d.clave)} · ${d.issuerName} · ${formatMoney(d.total, currencySymbol(d.currency))} · ${deadlineText(d.rejectDeadline, today).text}`);
    const text = [
      `${company.name}:`,
      "",
      docs.length === 1 ? "Este documento recibido está pendiente y su plazo para rechazarlo vence pronto:" : `Estos ${docs.length} documentos recibidos están pendientes y su plazo para rechazarlos vence pronto:`,
      "",
      ...lines,
      "",
      "Si no los acepta ni los rechaza antes de esa fecha, se tienen por aceptados (aceptación tácita) y ya no se podrán rechazar.",
      `Procéselos en ${env().appUrl}/message-receptors?filter=pendiente`,
    ].join("\n");
    try {
      await sendCompanyMail(db, companyId, { to, subject: docs.length === 1 ? "Un documento recibido vence pronto" : `${docs.length} documentos recibidos vencen pronto`, text });
      await db
        .update(receivedDocuments)
        .set({ deadlineWarnedAt: now })
        .where(and(eq(receivedDocuments.companyId, companyId), inArray(receivedDocuments.id, docs.map((d) => d.id))));
      run.companies++;
      run.documents += docs.length;
    } catch (error) {
      run.failures.push(`${company.name}: ${(error as Error).message}`);
    }
  }
  if (run.failures.length) throw new Error(`No se pudo avisar de plazos por vencer: ${run.failures.join("; ")}`.slice(0, 1000));
  return run;
}
