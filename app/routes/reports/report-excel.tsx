// /report-…/excel — 'Exportar a Excel' of every report (docs/decisions/151-report-foundation.md): a
// resource route that streams the .xlsx of the report whose screen is the path without /excel, for
// the same period, search and filter as the screen. The access rules of that screen apply (plan 2:
// only the expenses report).
import { data } from "react-router";
import type { Route } from "./+types/report-excel";
import { excelResponse } from "../../server/reports/excel.server.ts";
import { reportOfPath } from "../../server/reports/registry.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const report = reportOfPath(new URL(request.url).pathname);
  if (!report) throw data("No encontrado", { status: 404 });
  return excelResponse(report, request, context);
}
