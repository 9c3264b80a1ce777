import type { JobHandler } from "../runner.ts";
import { refreshExchangeRate } from "../../app/server/exchange-rate.server.ts";

/**
 * Stores today's dollar rate from Hacienda (idempotent per Costa Rica date: once stored, later runs
 * only check). A failure throws so the runner retries with backoff; the screens meanwhile use the last
 * known rate with a warning.
 */
export const exchangeRateTask: JobHandler = async (payload, { db, now }) => {
  const result = await refreshExchangeRate(db, { now: now(), force: payload.force === true });
  if (result.status === "failed") throw new Error(result.message);
  if (result.status === "stored") console.log(`[jobs] tipo de cambio del ${result.date} guardado`);
};
