// /report-items (spec part 2 "Reports": Items report). The report is declared in app/server/reports/items.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-items/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-items";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { itemsReport } from "../../server/reports/items.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(itemsReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportItems({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
