// /report-iva: the IVA summary for the monthly return (issue 13 point 4; docs/decisions/153). The report is declared in app/server/reports/iva.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-iva/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-iva";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { ivaReport } from "../../server/reports/iva.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(ivaReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportIva({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
