// Counts the database queries a piece of a request runs (db/query-stats.ts; call installQueryStats() first).
import { withQueryStats, type QueryStats } from "../../db/query-stats.ts";

export async function counted<T>(fn: () => Promise<T>) {
  const stats: QueryStats = { queries: 0, ms: 0 };
  const result = await withQueryStats(stats, fn);
  return { result, queries: stats.queries };
}
