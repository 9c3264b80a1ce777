// The CABYS catalogue (shared by every company): search, lookup and batched upsert.
import { asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { cabysCodes } from "../schema/index.ts";

export interface CabysValues {
  code: string;
  description: string;
  taxRate: string;
  categories: string | null;
}

const columns = { code: cabysCodes.code, description: cabysCodes.description, taxRate: cabysCodes.taxRate, categories: cabysCodes.categories };

/** Accent-free lower-case description, the same folding `searchWords` applies to the query. */
const folded = sql`translate(lower(${cabysCodes.description}), 'áéíóúüñàèìòù', 'aeiouunaeiou')`;

/**
 * Top `limit` codes: by code prefix when the query is digits, else codes whose description holds
 * every word (accent-insensitive), descriptions starting with the first word first, then shorter ones.
 */
export async function searchCabys(db: DbOrTx, opts: { digits?: string; words?: string[]; limit?: number }) {
  const limit = opts.limit ?? 20;
  if (opts.digits) {
    return db
      .select(columns)
      .from(cabysCodes)
      .where(sql`${cabysCodes.code} like ${opts.digits + "%"}`)
      .orderBy(asc(cabysCodes.code))
      .limit(limit);
  }
  const words = opts.words ?? [];
  if (words.length === 0) return [];
  const conditions: SQL[] = words.map((w) => sql`${folded} like ${"%" + w.replace(/[\\%_]/g, (c) => "\\" + c) + "%"}`);
  return db
    .select(columns)
    .from(cabysCodes)
    .where(sql.join(conditions, sql` and `))
    .orderBy(sql`(${folded} like ${words[0] + "%"}) desc`, sql`length(${cabysCodes.description})`, asc(cabysCodes.code))
    .limit(limit);
}

export async function cabysByCode(db: DbOrTx, code: string) {
  const [row] = await db.select(columns).from(cabysCodes).where(eq(cabysCodes.code, code));
  return row;
}

export async function cabysByCodes(db: DbOrTx, codes: string[]) {
  if (codes.length === 0) return [];
  return db.select(columns).from(cabysCodes).where(inArray(cabysCodes.code, codes));
}

/** Inserts or updates a batch (codes unique within the batch). */
export async function upsertCabys(db: DbOrTx, rows: CabysValues[], now: Date) {
  if (rows.length === 0) return;
  await db
    .insert(cabysCodes)
    .values(rows.map((r) => ({ ...r, updatedAt: now })))
    .onConflictDoUpdate({
      target: cabysCodes.code,
      set: {
        description: sql`excluded.description`,
        taxRate: sql`excluded.tax_rate`,
        categories: sql`excluded.categories`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

export async function countCabys(db: DbOrTx) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(cabysCodes);
  return Number(row.n);
}
