// /api/v1/* — the integrator API (resource routes: JSON in and out). Every call is dispatched by the
// operations table (app/server/api/router.server.ts); no cookie session, no HTML.
import type { Route } from "./+types/v1";
import { handleApi } from "../../server/api/router.server.ts";

export function loader({ request, params }: Route.LoaderArgs) {
  return handleApi(request, params["*"] ?? "");
}

export function action({ request, params }: Route.ActionArgs) {
  return handleApi(request, params["*"] ?? "");
}
