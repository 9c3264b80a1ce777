// The dollar exchange rate: fetched from Hacienda's public GET {HACIENDA_PUBLIC_API_URL}/indicadores/tc/dolar
// (hacienda/NOTES.md §10) by a daily job, kept dated in exchange_rates. `currentRate` never invents a
// rate: today's, else the last known one with a visible warning, else an error
// (docs/decisions/050-exchange-rate.md).
import type { DbOrTx } from "../../db/client.ts";
import { latestRate, rateOn, upsertRate } from "../../db/queries/exchange-rates.ts";
import { crDate, EXCHANGE_MESSAGES, parseDollarReply, type DollarRate } from "../domain/exchange-rate.ts";
import { env } from "./env.server.ts";

export interface RateFetchOptions {
  fetch?: typeof fetch;
  now?: Date;
  baseUrl?: string;
  timeoutMs?: number;
}

export type FetchedRate = ({ ok: true } & DollarRate) | { ok: false; message: string };

export async function fetchDollarRate(opts: RateFetchOptions = {}): Promise<FetchedRate> {
  const doFetch = opts.fetch ?? fetch;
  const baseUrl = (opts.baseUrl ?? env().haciendaPublicApi).replace(/\/$/, "");
  const timeoutMs = opts.timeoutMs ?? Math.max(env().haciendaLookupTimeoutMs, 10_000);
  const today = crDate(opts.now ?? new Date());
  let text: string;
  try {
    const response = await doFetch(`${baseUrl}/indicadores/tc/dolar`, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, message: `${EXCHANGE_MESSAGES.unreachable} (HTTP ${response.status})` };
    }
    text = await response.text();
  } catch {
    return { ok: false, message: EXCHANGE_MESSAGES.unreachable };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, message: EXCHANGE_MESSAGES.invalidReply };
  }
  const rate = parseDollarReply(body, today);
  return rate ? { ok: true, ...rate } : { ok: false, message: EXCHANGE_MESSAGES.invalidReply };
}

/**
 * Fetches and stores today's dollar rate unless it is already stored (idempotent per Costa Rica date).
 * Returns what happened; `force` refetches even when today's rate exists.
 */
export async function refreshExchangeRate(db: DbOrTx, opts: RateFetchOptions & { force?: boolean } = {}): Promise<{ status: "kept" | "stored"; date: string } | { status: "failed"; message: string }> {
  const now = opts.now ?? new Date();
  const today = crDate(now);
  if (!opts.force && (await rateOn(db, { currencyCode: "USD", date: today }))) return { status: "kept", date: today };
  const fetched = await fetchDollarRate({ ...opts, now });
  if (!fetched.ok) return { status: "failed", message: fetched.message };
  await upsertRate(db, { currencyCode: "USD", rateDate: fetched.date, buy: fetched.buy, sell: fetched.sell, source: "hacienda", fetchedAt: now });
  return { status: "stored", date: fetched.date };
}

export type CurrentRate =
  | { ok: true; rate: string; buy: string; sell: string; date: string; stale: boolean; warning?: string }
  | { ok: false; message: string };

/**
 * The rate to use now (colones per dollar, Hacienda's sell rate): today's, else the newest earlier one
 * with `stale` and a Spanish warning, else an error. Never a silent 1.
 */
export async function currentRate(db: DbOrTx, opts: { currency?: "USD"; now: Date }): Promise<CurrentRate> {
  const currencyCode = opts.currency ?? "USD";
  const today = crDate(opts.now);
  const row = await latestRate(db, { currencyCode, onOrBefore: today });
  if (!row) return { ok: false, message: EXCHANGE_MESSAGES.none };
  const stale = row.rateDate !== today;
  const rate = String(Number(row.sell));
  return {
    ok: true,
    rate,
    buy: String(Number(row.buy)),
    sell: rate,
    date: row.rateDate,
    stale,
    ...(stale ? { warning: EXCHANGE_MESSAGES.stale(row.rateDate) } : {}),
  };
}
