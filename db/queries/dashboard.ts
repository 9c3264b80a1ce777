import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "../client.ts";
import type { DailySum } from "../../app/domain/dashboard.ts";
import { colones } from "./reports.ts";

/** An expense's amount in colones (a dollar expense × its own rate), as the reports count it. */
const expenseColones = colones(sql`e.amount`, sql`e.currency_id`, sql`e.exchange_rate`);

/**
 * Daily sums in colones (amount × exchange rate) for the last seven months, by Costa Rica day,
 * for the company. Rejected documents and quotations do not count; deleted expenses neither.
 * Accepted received documents with a category are expenses too (view received_expenses,
 * docs/decisions/176).
 */
export async function dailySums(db: DbOrTx, { companyId, since }: { companyId: number; since: Date }): Promise<DailySum[]> {
  return rows<DailySum>(
    db,
    sql`select kind, day, sum(total)::text as total from (
          select kind, to_char(issued_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD') as day,
                 total_comprobante * exchange_rate as total
            from documents
           where company_id = ${companyId} and issued_at >= ${since.toISOString()}::timestamptz and kind in ('fe','te','nc') and status <> 'rechazado'
          union all
          select 'expense', to_char(e.spent_on, 'YYYY-MM-DD'), ${expenseColones}
            from expenses e
           where e.company_id = ${companyId} and e.deleted_at is null
             and e.spent_on >= (${since.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date
          union all
          select 'expense', to_char(spent_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD'), amount_crc
            from received_expenses where company_id = ${companyId} and spent_at >= ${since.toISOString()}::timestamptz
        ) s group by kind, day`,
  );
}

/** The month's expenses in colones by category (the 'Gastos mes actual' pie), largest first, at most 10. */
export async function expensesOfMonth(db: DbOrTx, { companyId, from }: { companyId: number; from: Date }) {
  return rows<{ name: string; total: string }>(
    db,
    sql`select name, sum(total)::text as total from (
          select c.name, ${expenseColones} as total
            from expenses e join expense_categories c on c.id = e.category_id and c.company_id = e.company_id
           where e.company_id = ${companyId} and e.deleted_at is null
             and e.spent_on >= (${from.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date
             and e.spent_on < (${from.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date + interval '1 month'
          union all
          select category_name, amount_crc from received_expenses
           where company_id = ${companyId} and spent_at >= ${from.toISOString()}::timestamptz
             and spent_at < ((${from.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date + interval '1 month') at time zone 'America/Costa_Rica'
        ) s group by name order by sum(total) desc, name limit 10`,
  );
}
