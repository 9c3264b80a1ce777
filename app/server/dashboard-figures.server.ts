// The dashboard's figures, kept in memory per company with the version of its figures they were read
// at (docs/decisions/200). The database moves the version (figures_versions) whenever a row the sums
// are read from changes, so every request reads only that number (one row by primary key), and the
// sums again — and works the figures out of them again — only after a change; each process keeps its
// own, and none can serve figures older than the version it just read. Kept per database (tests open
// several in one process).
import type { DbOrTx } from "../../db/client.ts";
import { dailySums, expensesOfMonth, figuresVersion } from "../../db/queries/dashboard.ts";
import { dashboardFigures, type DashboardFigures } from "../domain/dashboard.ts";

export interface MonthFigures {
  /** The cards, the sales by day and the six months (dashboardFigures). */
  figures: DashboardFigures;
  /** The month's expenses by category (expensesOfMonth). */
  expenses: { name: string; total: string }[];
}

interface Kept extends MonthFigures {
  version: number;
  /** The Costa Rica month they are of (YYYY-M). */
  month: string;
}

/** Companies kept per process; past it the one kept longest ago is dropped. */
const KEPT_COMPANIES = 500;

const byDatabase = new WeakMap<DbOrTx, Map<number, Kept>>();

/** Midnight in Costa Rica (UTC−6, no daylight saving) of the first day of a month (month may be ≤ 0). */
const crMonthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1, 6));

/**
 * The company's dashboard figures of the Costa Rica month `today`, as the database has them now:
 * seven months of sums with days for this month and the previous one, and this month's expenses.
 */
export async function monthFigures(db: DbOrTx, { companyId, today }: { companyId: number; today: { year: number; month: number } }): Promise<MonthFigures> {
  const version = await figuresVersion(db, companyId);
  const month = `${today.year}-${today.month}`;
  let kept = byDatabase.get(db);
  if (!kept) byDatabase.set(db, (kept = new Map()));
  const found = kept.get(companyId);
  if (found && found.version === version && found.month === month) return found;
  const [sums, expenses] = await Promise.all([
    dailySums(db, { companyId, since: crMonthStart(today.year, today.month - 6), daysFrom: crMonthStart(today.year, today.month - 1) }),
    expensesOfMonth(db, { companyId, from: crMonthStart(today.year, today.month) }),
  ]);
  kept.delete(companyId);
  if (kept.size >= KEPT_COMPANIES) kept.delete(kept.keys().next().value!);
  const read = { version, month, figures: dashboardFigures(sums, today), expenses };
  kept.set(companyId, read);
  return read;
}
