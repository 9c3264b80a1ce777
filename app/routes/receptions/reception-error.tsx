// Not this company's document (404) or a read-only plan (403): the plain message inside the layout.
import { isRouteErrorResponse, useRouteError } from "react-router";
import { RECEPTION_MESSAGES } from "../../domain/receptions.ts";

export function ReceptionError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : RECEPTION_MESSAGES.problem;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
