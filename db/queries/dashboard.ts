import { sql } from "drizzle-orm";
import { rows, type DbOrTx } from "../client.ts";
import type { DailySum } from "../../app/domain/dashboard.ts";

/**
 * Daily sums in colones (amount × exchange rate) for the last seven months, by Costa Rica day,
 * for the company. Rejected documents and quotations do not count.
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
          select 'expense', to_char(spent_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD'), total * exchange_rate
            from expenses where company_id = ${companyId} and spent_at >= ${since.toISOString()}::timestamptz
          union all
          -- Accepted received documents with an expense category are expenses too (docs/decisions/176).
          select 'expense', to_char(spent_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD'), amount_crc
            from received_expenses where company_id = ${companyId} and spent_at >= ${since.toISOString()}::timestamptz
        ) s group by kind, day`,
  );
}

export async function expensesOfMonth(db: DbOrTx, { companyId, from }: { companyId: number; from: Date }) {
  return rows<{ name: string; total: string }>(
    db,
    sql`select name, sum(total)::text as total from (
          select name, total * exchange_rate as total from expenses
           where company_id = ${companyId} and spent_at >= ${from.toISOString()}::timestamptz
          union all
          -- Accepted received documents with an expense category, by category (docs/decisions/176).
          select category_name, amount_crc from received_expenses
           where company_id = ${companyId} and spent_at >= ${from.toISOString()}::timestamptz
        ) s group by name order by sum(total) desc limit 10`,
  );
}
