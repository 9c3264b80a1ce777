// /report-tickets (spec part 2 "Reports": Tickets report). The report is declared in app/server/reports/sales.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-tickets/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-tickets";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { ticketsReport } from "../../server/reports/sales.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(ticketsReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportTickets({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
