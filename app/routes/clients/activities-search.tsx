import type { Route } from "./+types/activities-search";
import { ACTIVITY_SEARCH_DEFAULT_LIMIT, ACTIVITY_SEARCH_MAX_LIMIT, searchActivities } from "../../../db/queries/activities.ts";
import { cleanSearch } from "../../domain/pagination.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";

/** GET /activities?search=&limit=50 (spec part 1 §7): the activity catalogue search, as JSON. */
export async function loader({ request, context }: Route.LoaderArgs) {
  context.get(requestContext);
  const url = new URL(request.url);
  const raw = Number(url.searchParams.get("limit") ?? ACTIVITY_SEARCH_DEFAULT_LIMIT);
  const limit = Number.isInteger(raw) && raw > 0 ? Math.min(raw, ACTIVITY_SEARCH_MAX_LIMIT) : ACTIVITY_SEARCH_DEFAULT_LIMIT;
  const data = await searchActivities(db(), { search: cleanSearch(url.searchParams.get("search")), limit });
  return Response.json({ data }, { headers: { "Cache-Control": "private, max-age=60" } });
}
