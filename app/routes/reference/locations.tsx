import { asc, and, eq } from "drizzle-orm";
import type { Route } from "./+types/locations";
import { cantons, districts } from "../../../db/schema/index.ts";
import { barriosOf } from "../../../db/queries/clients.ts";
import { db } from "../../server/db.server.ts";

const positive = (raw: string | null) => (raw && /^\d{1,4}$/.test(raw) ? Number(raw) : 0);

/**
 * The location cascade with JavaScript, as JSON: the cantons of a province, the districts of a
 * canton (`canton`) and the barrios of a district (`district`, the client form). Reference data,
 * the same for every company.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const province = positive(url.searchParams.get("province"));
  const canton = positive(url.searchParams.get("canton"));
  const district = positive(url.searchParams.get("district"));
  if (!province) return Response.json({ cantons: [], districts: [], barrios: [] });
  const c = await db().select({ number: cantons.number, name: cantons.name }).from(cantons).where(eq(cantons.provinceNumber, province)).orderBy(asc(cantons.number));
  const d = canton
    ? await db()
        .select({ number: districts.number, name: districts.name })
        .from(districts)
        .where(and(eq(districts.provinceNumber, province), eq(districts.cantonNumber, canton)))
        .orderBy(asc(districts.number))
    : [];
  const b = canton && district ? await barriosOf(db(), { province, canton, district }) : [];
  return Response.json({ cantons: c, districts: d, barrios: b }, { headers: { "Cache-Control": "private, max-age=3600" } });
}
