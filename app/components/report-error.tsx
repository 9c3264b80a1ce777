import { isRouteErrorResponse, useRouteError } from "react-router";
import { REPORT_MESSAGES } from "../domain/reports.ts";

/** A report that could not load: the message inside the layout (spec §8: report load failure). */
export function ReportErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : REPORT_MESSAGES.loadFailed;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
