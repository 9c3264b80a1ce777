import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "../client.ts";
import type { DailySum } from "../../app/domain/dashboard.ts";
import { expenseDaysSql } from "./reports.ts";

/** A Costa Rica day (date) of an instant. */
const crDate = (at: Date) => sql`(${at.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date`;

/**
 * Sums in colones (amount × exchange rate) by kind and Costa Rica day from `since`, for the company:
 * one row per kind and day from `daysFrom` on, and one per kind and month before it (its day is the
 * month's first, YYYY-MM-01; a month that starts before `since` adds up only its days from `since`).
 * Both are Costa Rica midnights; the dashboard asks for seven months with days for the current and
 * the previous month (dashboardFigures, app/domain/dashboard.ts, reads days only for those). Rejected
 * documents and quotations do not count; deleted expenses neither. Documents and expenses come added
 * up by day (document_days, decision 156; expenseDaysSql: expense_days and received_expense_days,
 * decision 159). Accepted received documents with a category are expenses too (view
 * received_expenses, docs/decisions/176).
 */
export async function dailySums(db: DbOrTx, { companyId, since, daysFrom }: { companyId: number; since: Date; daysFrom: Date }): Promise<DailySum[]> {
  return rows<DailySum>(
    db,
    // The documents' days as stored and the expenses' categories added up per day, then each kind's
    // days before `daysFrom` added up per month (decision 159): one row per kind and day of two months
    // and per kind and month before, instead of one per kind and day of seven. Grouped by dates; the
    // day is written as text last.
    sql`select kind, to_char(day, 'YYYY-MM-DD') as day, total::text as total from (
          select kind, case when day >= ${crDate(daysFrom)} then day else date_trunc('month', day::timestamp)::date end as day, sum(total) as total from (
            select kind, day, total_crc as total
              from document_days
             where company_id = ${companyId} and day >= ${crDate(since)} and kind in ('fe','te','nc') and not rejected
            union all
            select 'expense', x.day, sum(x.amount)
              from (${expenseDaysSql(companyId, crDate(since), sql`'infinity'::date`)}) x
             group by x.day
          ) s
          group by 1, 2
        ) m`,
  );
}

/** The month's expenses in colones by category (the 'Gastos mes actual' pie), largest first, at most 10. */
export async function expensesOfMonth(db: DbOrTx, { companyId, from }: { companyId: number; from: Date }) {
  return rows<{ name: string; total: string }>(
    db,
    sql`select c.name, sum(x.amount)::text as total
          from (${expenseDaysSql(companyId, crDate(from), sql`(${crDate(from)} + interval '1 month')::date`)}) x
          join expense_categories c on c.id = x.category_id and c.company_id = ${companyId}
         group by c.name order by sum(x.amount) desc, c.name limit 10`,
  );
}
