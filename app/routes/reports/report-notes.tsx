// /report-notes (spec part 2 "Reports": Notes report). The report is declared in app/server/reports/notes.server.ts; the foundation
// (app/server/reports/report.server.ts, app/components/report-screen.tsx) serves it; its Excel file is
// /report-notes/excel (routes/reports/report-excel.tsx).
import type { Route } from "./+types/report-notes";
import { ReportErrorBoundary } from "../../components/report-error.tsx";
import { ReportScreen } from "../../components/report-screen.tsx";
import { loadReport } from "../../server/reports/report.server.ts";
import { notesReport } from "../../server/reports/notes.server.ts";

export const loader = ({ request, context }: Route.LoaderArgs) => loadReport(notesReport, request, context);

export const meta = ({ data }: Route.MetaArgs) => [{ title: data?.title ?? "Reportes" }];

export default function ReportNotes({ loaderData }: Route.ComponentProps) {
  return <ReportScreen view={loaderData} />;
}

export const ErrorBoundary = ReportErrorBoundary;
