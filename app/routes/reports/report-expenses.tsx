// /report-expenses (spec part 2 "Reports": Expenses report; plan 2 sees it). The report is declared in app/server/reports/expenses.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-expenses/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-expenses";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { expensesReport } from "../../server/reports/expenses.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(expensesReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportExpenses({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
