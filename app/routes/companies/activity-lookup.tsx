import type { Route } from "./+types/activity-lookup";
import { requestContext } from "../../server/context.ts";
import { lookupActivities } from "../../server/activity-lookup.server.ts";

/** JSON for the company form's script: the taxpayer's active activities, principal preselected. */
export async function loader({ request, context }: Route.LoaderArgs) {
  context.get(requestContext);
  const identification = new URL(request.url).searchParams.get("identificacion") ?? "";
  const result = await lookupActivities(identification);
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
}
