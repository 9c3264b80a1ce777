// The check every table kept by triggers shares (decisions 156, 158, 193, 194): the backfill of its
// custom migration, run again on an emptied table, writes exactly the rows the triggers wrote.
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "../../db/client.ts";
import { backfillStatement } from "./migration-backfill.ts";

/** Reads the rows (`read`), empties `table`, runs the backfill of migration `*_<migration>.sql` that fills it from `source`, and expects the same rows. */
export async function expectBackfillRewrites(db: Db, { migration, table, source, read }: { migration: string; table: string; source: string; read: () => Promise<unknown[]> }) {
  const written = await read();
  await db.execute(sql.raw(`delete from ${table}`));
  expect(await read()).toEqual([]);
  await db.execute(sql.raw(backfillStatement(migration, table, source)));
  expect(await read()).toEqual(written);
}
