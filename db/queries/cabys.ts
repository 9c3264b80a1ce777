// The CABYS catalogue (shared by every company): search, lookup and batched upsert.
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { cabysCodes } from "../schema/index.ts";

export interface CabysValues {
  code: string;
  description: string;
  taxRate: string;
  categories: string | null;
}

const columns = { code: cabysCodes.code, description: cabysCodes.description, taxRate: cabysCodes.taxRate, categories: cabysCodes.categories };

/** Accent-folded words of the description: the expression of the GIN index cabys_description_words_idx. */
const words = sql`to_tsvector('simple'::regconfig, translate(lower(${cabysCodes.description}), 'áéíóúüñàèìòù', 'aeiouunaeiou'))`;

/**
 * Top `limit` codes: by code prefix when the query is digits, else codes whose description has a word
 * starting with each query word (accent-insensitive; words already folded to [a-z0-9] by `searchWords`),
 * descriptions starting with the first word first, then shorter ones.
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
  const terms = (opts.words ?? []).filter((w) => /^[a-z0-9]+$/.test(w));
  if (terms.length === 0) return [];
  const query = terms.map((w) => `${w}:*`).join(" & ");
  return db
    .select(columns)
    .from(cabysCodes)
    .where(sql`${words} @@ to_tsquery('simple'::regconfig, ${query})`)
    .orderBy(sql`(lower(${cabysCodes.description}) like ${terms[0] + "%"}) desc`, sql`length(${cabysCodes.description})`, asc(cabysCodes.code))
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
