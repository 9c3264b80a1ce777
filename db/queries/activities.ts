// The economic activity catalogue (shared by every company): search and all-or-nothing import.
import { and, asc, ilike, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { economicActivities } from "../schema/index.ts";

export const ACTIVITY_SEARCH_DEFAULT_LIMIT = 50;
export const ACTIVITY_SEARCH_MAX_LIMIT = 200;

/**
 * Activities whose code starts with, or whose description contains, the search (spec part 1 §7:
 * limit default 50). Only CIIU 4 codes (0000.0) are offered: rows of the catalogue before TRIBU-CR
 * left by an earlier import can no longer be issued with (docs/decisions/132).
 */
export async function searchActivities(db: DbOrTx, opts: { search: string; limit: number }) {
  const search = opts.search.trim().slice(0, 100);
  const escaped = search.replace(/[\\%_]/g, (c) => "\\" + c);
  const ciiu4 = sql`${economicActivities.code} ~ '^[0-9]{4}[.][0-9]$'`;
  return db
    .select({ code: economicActivities.code, description: economicActivities.description })
    .from(economicActivities)
    .where(search ? and(ciiu4, or(ilike(economicActivities.code, `${escaped}%`), ilike(economicActivities.description, `%${escaped}%`))) : ciiu4)
    .orderBy(asc(economicActivities.code))
    .limit(opts.limit);
}

/** Inserts or updates a batch of activities (the caller holds the transaction). */
export async function upsertActivities(db: DbOrTx, rows: { code: string; description: string }[]) {
  if (rows.length === 0) return;
  await db
    .insert(economicActivities)
    .values(rows)
    .onConflictDoUpdate({ target: economicActivities.code, set: { description: sql`excluded.description` } });
}

export async function countActivities(db: DbOrTx): Promise<number> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(economicActivities);
  return Number(n);
}
