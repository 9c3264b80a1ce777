import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { companies, companyUsers } from "../schema/index.ts";

/** The company if the user is linked to it (tenant check used by every company-scoped screen). */
export async function companyOfUser(db: DbOrTx, { userId, companyId }: { userId: number; companyId: number }) {
  const [row] = await db
    .select({ id: companies.id, name: companies.name, active: companies.active })
    .from(companies)
    .innerJoin(companyUsers, and(eq(companyUsers.companyId, companies.id), eq(companyUsers.userId, userId)))
    .where(and(eq(companies.id, companyId), isNull(companies.deletedAt)));
  return row;
}
