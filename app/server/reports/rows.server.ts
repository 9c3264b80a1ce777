// Reading a report's rows for the Excel export without holding them: on PostgreSQL one ordered query
// through a postgres.js cursor (a batch of rows at a time on one connection); on PGlite (one
// connection, no cursors through the driver) keyset pages after the last row's sort key.
// docs/decisions/151-report-foundation.md.
import { PgDialect } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { rows, type Db } from "../../../db/client.ts";
import type { RowsCut } from "../../../db/queries/reports.ts";

/**
 * Rows per cursor batch on PostgreSQL. A batch lives until its last row is written, and writing a
 * row allocates ~20 kB (exceljs' cell models and XML): with 1,000 rows a batch outlived two of the
 * collector's young-generation cycles and was copied to the old generation, so the heap grew by
 * 60–100 MB during a 100,000-row export; with 250 by 25–45 MB. The export reads the next batch
 * while it writes one (excel.server.ts), so the four times as many round trips cost no time.
 */
export const CURSOR_ROWS = 250;

/**
 * Rows per keyset page on PGlite: each page is a query of its own, and an aggregate report (items,
 * expenses) groups its whole period again for every page — fewer, larger pages there.
 */
export const KEYSET_ROWS = 1000;

const dialect = new PgDialect();

interface PostgresJsQuery {
  cursor(rows: number): AsyncIterable<Record<string, unknown>[]>;
}
interface PostgresJsClient {
  unsafe(query: string, params: unknown[]): PostgresJsQuery;
}

/** The postgres.js client behind a drizzle database, when it is PostgreSQL (PGlite has none). */
function postgresClient(db: Db): PostgresJsClient | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client && typeof (client as { unsafe?: unknown }).unsafe === "function" && typeof (client as { begin?: unknown }).begin === "function" ? (client as PostgresJsClient) : null;
}

/**
 * The rows of `build` in its order, in batches. `build(cut)` returns the report's ordered SELECT
 * whose columns k1, k2 are its unique sort key, cut after a key and limited when asked. `keyset`
 * forces keyset pages on PostgreSQL too (tests read both ways).
 */
export async function* orderedBatches<Row extends { k1: string; k2: string }>(db: Db, build: (cut: RowsCut) => SQL, opts: { batch?: number; keyset?: boolean } = {}): AsyncGenerator<Row[]> {
  const client = opts.keyset ? null : postgresClient(db);
  if (client) {
    const query = dialect.sqlToQuery(build({}));
    for await (const chunk of client.unsafe(query.sql, query.params).cursor(opts.batch ?? CURSOR_ROWS)) yield chunk as Row[];
    return;
  }
  const batch = opts.batch ?? KEYSET_ROWS;
  let after: { k1: string; k2: string } | null = null;
  for (;;) {
    const chunk: Row[] = await rows<Row>(db, build({ after, limit: batch }));
    if (chunk.length) yield chunk;
    if (chunk.length < batch) return;
    const last: Row = chunk[chunk.length - 1];
    after = { k1: String(last.k1), k2: String(last.k2) };
  }
}
