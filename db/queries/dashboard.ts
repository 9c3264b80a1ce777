import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "../client.ts";
import type { DailySum } from "../../app/domain/dashboard.ts";
import { expenseDaysSql } from "./reports.ts";

/** A Costa Rica day (date) of an instant. */
const crDate = (at: Date) => sql`(${at.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date`;

/**
 * Daily sums in colones (amount × exchange rate) for the last seven months, by Costa Rica day,
 * for the company. Rejected documents and quotations do not count; deleted expenses neither. The
 * documents come added up by day (document_days, decision 156); `since` is a Costa Rica midnight.
 * Accepted received documents with a category are expenses too (view received_expenses,
 * docs/decisions/176).
 */
export async function dailySums(db: DbOrTx, { companyId, since }: { companyId: number; since: Date }): Promise<DailySum[]> {
  return rows<DailySum>(
    db,
    // One row per kind and day already: the documents' days as stored, the expenses' categories added
    // up per day; the day is written as text last.
    sql`select kind, to_char(day, 'YYYY-MM-DD') as day, total::text as total from (
          select kind, day, total_crc as total
            from document_days
           where company_id = ${companyId} and day >= ${crDate(since)} and kind in ('fe','te','nc') and not rejected
          union all
          select 'expense', x.day, sum(x.amount)
            from (${expenseDaysSql(companyId, crDate(since), sql`'infinity'::date`)}) x
           group by x.day
        ) s`,
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
