// /report-invoices (spec part 2 "Reports": Invoices report). The report is declared in app/server/reports/sales.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-invoices/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-invoices";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { invoicesReport } from "../../server/reports/sales.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(invoicesReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportInvoices({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
