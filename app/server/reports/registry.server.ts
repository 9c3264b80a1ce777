// Every report by its screen's URL: the Excel route (/report-…/excel) finds its report here.
// docs/decisions/151-report-foundation.md.
import { expensesReport } from "./expenses.server.ts";
import { itemsReport } from "./items.server.ts";
import { ivaReport } from "./iva.server.ts";
import { notesReport } from "./notes.server.ts";
import { purchasesReport, receptionsReport } from "./received.server.ts";
import type { ReportDefinition } from "./report.server.ts";
import { invoicesReport, ticketsReport } from "./sales.server.ts";

export const REPORTS: readonly ReportDefinition<any>[] = [invoicesReport, ticketsReport, notesReport, expensesReport, itemsReport, ivaReport, receptionsReport, purchasesReport];

/** The report of a screen or export URL ("/report-invoices" or "/report-invoices/excel"), or null. */
export function reportOfPath(pathname: string): ReportDefinition<any> | null {
  const base = pathname.replace(/\/excel\/?$/, "").replace(/\/$/, "");
  return REPORTS.find((r) => r.path === base) ?? null;
}
