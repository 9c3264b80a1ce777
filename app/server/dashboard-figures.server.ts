// The dashboard's figures, kept in memory per company with the version of its figures they were read
// at (docs/decisions/200, 202). The database moves the version (figures_versions) whenever a row the
// sums or the pending received documents are read from changes, and the session's lookup reads it
// with the session (app/server/session.server.ts), so a view reads the sums again — and works the
// figures out of them again — only after a change; each process keeps its own, and none can serve
// figures older than the version its request read before them. Kept per database (tests open several
// in one process).
import type { DbOrTx } from "../../db/client.ts";
import { dailySums, expensesOfMonth } from "../../db/queries/dashboard.ts";
import { pendingDeadlines } from "../../db/queries/receptions.ts";
import { addDays } from "../domain/document-status.ts";
import { dashboardFigures, type DashboardFigures } from "../domain/dashboard.ts";
import { DEADLINE_WARNING_DAYS } from "../domain/reception-deadline.ts";

export interface MonthFigures {
  /** The cards, the sales by day and the six months (dashboardFigures). */
  figures: DashboardFigures;
  /** The month's expenses by category (expensesOfMonth). */
  expenses: { name: string; total: string }[];
  /** The received documents waiting for acceptance and the days left to reject them (pendingDeadlines). */
  deadlines: Awaited<ReturnType<typeof pendingDeadlines>>;
}

interface Kept extends MonthFigures {
  version: number;
  /** The Costa Rica day they are of (YYYY-MM-DD): the month of the figures, the deadlines' today. */
  day: string;
}

/** Companies kept per process; past it the one kept longest ago is dropped. */
const KEPT_COMPANIES = 500;

const byDatabase = new WeakMap<DbOrTx, Map<number, Kept>>();

/** Midnight in Costa Rica (UTC−6, no daylight saving) of the first day of a month (month may be ≤ 0). */
const crMonthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1, 6));

/**
 * The company's dashboard figures on the Costa Rica day `day` (YYYY-MM-DD), as the database had them
 * at `version` or later: seven months of sums with days for this month and the previous one, this
 * month's expenses, and the received documents waiting with their deadlines. `version` must have
 * been read before (with the session): figures kept at it are served as they are.
 */
export async function monthFigures(db: DbOrTx, { companyId, version, day }: { companyId: number; version: number; day: string }): Promise<MonthFigures> {
  const [year, month] = day.split("-").map(Number);
  let kept = byDatabase.get(db);
  if (!kept) byDatabase.set(db, (kept = new Map()));
  const found = kept.get(companyId);
  if (found && found.version === version && found.day === day) return found;
  const [sums, expenses, deadlines] = await Promise.all([
    dailySums(db, { companyId, since: crMonthStart(year, month - 6), daysFrom: crMonthStart(year, month - 1) }),
    expensesOfMonth(db, { companyId, from: crMonthStart(year, month) }),
    pendingDeadlines(db, { companyId, today: day, urgentUntil: addDays(day, DEADLINE_WARNING_DAYS) }),
  ]);
  kept.delete(companyId);
  if (kept.size >= KEPT_COMPANIES) kept.delete(kept.keys().next().value!);
  const read = { version, day, figures: dashboardFigures(sums, { year, month }), expenses, deadlines };
  kept.set(companyId, read);
  return read;
}
