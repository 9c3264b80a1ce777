// The dashboard's sums, kept in memory per company with the version of its figures they were read at
// (docs/decisions/200). The database moves the version (figures_versions) whenever a row the sums are
// read from changes, so every request reads only that number (one row by primary key) and the sums
// again only after a change; each process keeps its own, and none can serve figures older than the
// version it just read. Kept per database (tests open several in one process).
import type { DbOrTx } from "../../db/client.ts";
import { dailySums, expensesOfMonth, figuresVersion } from "../../db/queries/dashboard.ts";
import type { DailySum } from "../domain/dashboard.ts";

export interface DashboardSums {
  sums: DailySum[];
  expenses: { name: string; total: string }[];
}

interface Kept extends DashboardSums {
  version: number;
  /** The ranges they were read for (they move at midnight). */
  ranges: string;
}

/** Companies kept per process; past it the one kept longest ago is dropped. */
const KEPT_COMPANIES = 500;

const byDatabase = new WeakMap<DbOrTx, Map<number, Kept>>();

/**
 * The daily sums from `since` (days from `daysFrom`, dailySums) and the expenses of the month from
 * `monthFrom` (expensesOfMonth) of the company, as the database has them now.
 */
export async function dashboardSums(db: DbOrTx, q: { companyId: number; since: Date; daysFrom: Date; monthFrom: Date }): Promise<DashboardSums> {
  const version = await figuresVersion(db, q.companyId);
  const ranges = `${q.since.toISOString()} ${q.daysFrom.toISOString()} ${q.monthFrom.toISOString()}`;
  let kept = byDatabase.get(db);
  if (!kept) byDatabase.set(db, (kept = new Map()));
  const found = kept.get(q.companyId);
  if (found && found.version === version && found.ranges === ranges) return found;
  const [sums, expenses] = await Promise.all([
    dailySums(db, { companyId: q.companyId, since: q.since, daysFrom: q.daysFrom }),
    expensesOfMonth(db, { companyId: q.companyId, from: q.monthFrom }),
  ]);
  kept.delete(q.companyId);
  if (kept.size >= KEPT_COMPANIES) kept.delete(kept.keys().next().value!);
  const read = { version, ranges, sums, expenses };
  kept.set(q.companyId, read);
  return read;
}
