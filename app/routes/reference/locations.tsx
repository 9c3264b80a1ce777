import { asc, and, eq } from "drizzle-orm";
import type { Route } from "./+types/locations";
import { cantons, districts } from "../../../db/schema/index.ts";
import { db } from "../../server/db.server.ts";

/** Cantons of a province or districts of a canton, as JSON, for the location cascade with JavaScript. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const province = Number(url.searchParams.get("province"));
  const canton = Number(url.searchParams.get("canton"));
  if (!Number.isInteger(province) || province < 1) return Response.json({ cantons: [], districts: [] });
  const c = await db().select({ number: cantons.number, name: cantons.name }).from(cantons).where(eq(cantons.provinceNumber, province)).orderBy(asc(cantons.number));
  const d =
    Number.isInteger(canton) && canton > 0
      ? await db()
          .select({ number: districts.number, name: districts.name })
          .from(districts)
          .where(and(eq(districts.provinceNumber, province), eq(districts.cantonNumber, canton)))
          .orderBy(asc(districts.number))
      : [];
  return Response.json({ cantons: c, districts: d }, { headers: { "Cache-Control": "private, max-age=3600" } });
}
