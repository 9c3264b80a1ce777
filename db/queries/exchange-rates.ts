// Dated exchange rates (colones per unit of currency), shared by every company.
import { and, desc, eq, lte } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { exchangeRates } from "../schema/index.ts";

export async function upsertRate(db: DbOrTx, r: { currencyCode: string; rateDate: string; buy: string; sell: string; source: string; fetchedAt: Date }) {
  await db
    .insert(exchangeRates)
    .values(r)
    .onConflictDoUpdate({ target: [exchangeRates.currencyCode, exchangeRates.rateDate], set: { buy: r.buy, sell: r.sell, source: r.source, fetchedAt: r.fetchedAt } });
}

export async function rateOn(db: DbOrTx, opts: { currencyCode: string; date: string }) {
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(and(eq(exchangeRates.currencyCode, opts.currencyCode), eq(exchangeRates.rateDate, opts.date)));
  return row;
}

/** The newest rate on or before `date`. */
export async function latestRate(db: DbOrTx, opts: { currencyCode: string; onOrBefore: string }) {
  const [row] = await db
    .select()
    .from(exchangeRates)
    .where(and(eq(exchangeRates.currencyCode, opts.currencyCode), lte(exchangeRates.rateDate, opts.onOrBefore)))
    .orderBy(desc(exchangeRates.rateDate))
    .limit(1);
  return row;
}
