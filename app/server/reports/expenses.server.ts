// The expenses report (spec part 2 "Reports": year picker, default the current year; search; one
// row per category with twelve month columns Enero to Diciembre; 'No hay Gastos'). Amounts in
// colones (a dollar expense × its own rate); a Total column and a totals row are added for the
// accountant. Plan 2 (reception only) sees this report (part 1 §2.2).
// Accepted received documents with a category count as expenses of that category (view
// received_expenses, decision 176), through expenseDaysSql (db/queries/reports.ts), the one
// place the dashboard reads too.
import { rows } from "../../../db/client.ts";
import { expensesRowsSql, expensesSummary, textArray, type ExpenseReportRow } from "../../../db/queries/reports.ts";
import { MONTH_NAMES, REPORT_MESSAGES } from "../../domain/reports.ts";
import { orderedBatches } from "./rows.server.ts";
import type { Column, ReportDefinition, ReportSummary } from "./report.server.ts";

const normal = (r: ExpenseReportRow): ExpenseReportRow => ({ ...r, months: textArray(r.months) });

const columns: Column<ExpenseReportRow>[] = [
  { header: "Categoría", kind: "text", value: (r) => r.name, width: 28 },
  ...MONTH_NAMES.map((m, i): Column<ExpenseReportRow> => ({ header: m, kind: "money", value: (r) => r.months[i] ?? "0.00", width: 14 })),
  { header: "Total", kind: "money", value: (r) => r.total, width: 16 },
];

type WithTotals = ExpenseReportRow & { t_expenses: number; t_categories: number; t_total: string; t_months: unknown };

function summaryOf(s: { expenses: number; categories: number; total: string; months: string[] }): ReportSummary {
  return {
    rows: s.categories,
    footer: ["Total", ...s.months, s.total],
    groups: [
      {
        items: [
          { label: "Gastos", kind: "count", value: s.expenses },
          { label: "Categorías", kind: "count", value: s.categories },
          { label: "Total del año", kind: "money", value: s.total },
        ],
      },
    ],
  };
}

export const expensesReport: ReportDefinition<ExpenseReportRow> = {
  key: "expenses",
  path: "/report-expenses",
  title: "Reporte de gastos",
  fileName: "reporte-informe-gastos.xlsx",
  notes: [REPORT_MESSAGES.converted.replace("los documentos en dólares", "los gastos en dólares")],
  period: "year",
  search: true,
  main: {
    key: "expenses",
    columns,
    empty: "No hay Gastos",
    page: async (db, q, cut) => (await rows<ExpenseReportRow>(db, expensesRowsSql(q, cut))).map(normal),
    async *batches(db, q) {
      for await (const batch of orderedBatches<ExpenseReportRow>(db, (cut) => expensesRowsSql(q, cut))) yield batch.map(normal);
    },
    // The screen reads the year's expenses once: its rows and, beside each, the summary's totals.
    async pageWithSummary(db, q, cut) {
      const page = await rows<WithTotals>(db, expensesRowsSql(q, cut, true));
      if (!page.length) return { rows: [], summary: summaryOf(await expensesSummary(db, q)) };
      const t = page[0];
      return { rows: page.map(normal), summary: summaryOf({ expenses: Number(t.t_expenses), categories: Number(t.t_categories), total: t.t_total, months: textArray(t.t_months) }) };
    },
  },
  summary: async (db, q) => summaryOf(await expensesSummary(db, q)),
};
