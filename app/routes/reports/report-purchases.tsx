// /report-purchases (spec part 2 "Reports": Purchases report). The report is declared in app/server/reports/received.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-purchases/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-purchases";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { purchasesReport } from "../../server/reports/received.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(purchasesReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportPurchases({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
