// Queries built once per database (docs/decisions/157, 202, 203). drizzle builds a query's SQL text
// again on every run (`is`, `sql`, `buildQueryFromSourceParams`: 0.2–0.4 ms of a list page's profile).
// A query written with placeholders (`sql.placeholder`) and prepared once runs with its values each
// time. `key` names one shape of a query (a variant decided by the code, never by what a user typed),
// so each database keeps a bounded number of them.
import type { DbOrTx } from "../client.ts";

const byDatabase = new WeakMap<DbOrTx, Map<string, unknown>>();

export function builtOnce<T>(db: DbOrTx, key: string, build: () => T): T {
  let built = byDatabase.get(db);
  if (!built) byDatabase.set(db, (built = new Map()));
  let statement = built.get(key) as T | undefined;
  if (statement === undefined) built.set(key, (statement = build()));
  return statement;
}
