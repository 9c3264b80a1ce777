import { and, eq, isNull } from "drizzle-orm";
import type { Route } from "./+types/logo";
import { companies, companyUsers } from "../../../db/schema/index.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";

/** The company logo, only for users linked to the company. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const id = Number(params.id);
  if (!Number.isInteger(id)) throw new Response("No encontrado", { status: 404 });
  const [row] = await db()
    .select({ logo: companies.logo, mime: companies.logoMime })
    .from(companies)
    .innerJoin(companyUsers, and(eq(companyUsers.companyId, companies.id), eq(companyUsers.userId, user!.id)))
    .where(and(eq(companies.id, id), isNull(companies.deletedAt)));
  if (!row?.logo || !row.mime) throw new Response("No encontrado", { status: 404 });
  return new Response(new Uint8Array(row.logo), {
    headers: { "Content-Type": row.mime, "Cache-Control": "private, max-age=300", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" },
  });
}
