import type { Route } from "./+types/cabys-search";
import { searchCabysCatalogue } from "../../server/cabys.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { itemFormLists, matchingTaxType } from "../../server/items.server.ts";

/**
 * JSON for the item form's script: GET /cabys-search?q= → the top 20 CABYS codes, each with the id of
 * the current company's tax type matching its rate (Exento when exempt).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const found = await searchCabysCatalogue(db(), q);
  const lists = company ? await itemFormLists(db(), company.id) : null;
  const data = found.results.map((r) => ({ ...r, taxTypeId: lists ? (matchingTaxType(lists, r.taxRate)?.id ?? null) : null }));
  return Response.json({ data, message: found.message ?? null, source: found.source }, { headers: { "Cache-Control": "no-store" } });
}
