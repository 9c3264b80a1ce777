// A development-only count of database queries and their time, per request (issue 16,
// docs/decisions/190-request-cost.md). Off unless installed: production pays nothing, not even a
// check per query. Installed, every drizzle query on either driver (they all pass through
// PgPreparedQuery.queryWithCache) adds one to the totals of the process and, when the query runs
// inside `withQueryStats`, to that request's own count — attributed through AsyncLocalStorage, so
// concurrent requests keep separate counts. The time is from the query's start to its answer,
// waiting for a connection included (PGlite's one connection: the wait behind other requests).
import { AsyncLocalStorage } from "node:async_hooks";
import { PgPreparedQuery } from "drizzle-orm/pg-core";

export interface QueryStats {
  queries: number;
  /** Milliseconds spent waiting for queries (overlapping queries of one request add up). */
  ms: number;
}

const storage = new AsyncLocalStorage<QueryStats>();
const KEY = Symbol.for("colibri.queryStats");
type Patched = { [KEY]?: QueryStats };

/** Counts every query from now on (idempotent). Returns the process-wide totals (live object). */
export function installQueryStats(): QueryStats {
  const proto = PgPreparedQuery.prototype as unknown as Patched & { queryWithCache: (...args: unknown[]) => Promise<unknown> };
  if (proto[KEY]) return proto[KEY];
  const totals: QueryStats = { queries: 0, ms: 0 };
  const original = proto.queryWithCache;
  const log = process.env.QUERY_STATS === "log";
  proto.queryWithCache = async function (this: unknown, ...args: unknown[]) {
    const own = storage.getStore();
    const t0 = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      const ms = performance.now() - t0;
      if (log) console.log(`[query] ${ms.toFixed(2)} ms ${String(args[0]).replace(/\s+/g, " ").slice(0, 160)}`);
      totals.queries++;
      totals.ms += ms;
      if (own) {
        own.queries++;
        own.ms += ms;
      }
    }
  };
  proto[KEY] = totals;
  return totals;
}

/** Whether the counter is installed in this process. */
export function queryStatsInstalled(): boolean {
  return !!(PgPreparedQuery.prototype as unknown as Patched)[KEY];
}

/** Runs `fn` with a fresh per-request count; `stats` is filled as its queries finish. */
export function withQueryStats<T>(stats: QueryStats, fn: () => T): T {
  return storage.run(stats, fn);
}

/** The count of the request running now, if any. */
export function currentQueryStats(): QueryStats | undefined {
  return storage.getStore();
}

/** `Server-Timing` value for a request's count (shown by the browser's developer tools). */
export function serverTiming(stats: QueryStats, totalMs?: number): string {
  const parts = [`db;desc="${stats.queries} consultas";dur=${stats.ms.toFixed(1)}`];
  if (totalMs !== undefined) parts.push(`app;dur=${totalMs.toFixed(1)}`);
  return parts.join(", ");
}
