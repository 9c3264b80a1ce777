// The integrator API's jobs (app/server/api/webhooks.server.ts, idempotency.server.ts): posting a
// webhook delivery (a failure throws and the runner retries with its backoff) and the hourly purge of
// expired idempotency keys and old deliveries.
import type { JobHandler } from "../runner.ts";
import { deliverWebhook, purgeDeliveries } from "../../app/server/api/webhooks.server.ts";
import { purgeIdempotencyKeys } from "../../app/server/api/idempotency.server.ts";

export const deliverWebhookTask: JobHandler = async (payload, { db, now }) => {
  await deliverWebhook(db, Number(payload.deliveryId), now());
};

export const apiPurgeTask: JobHandler = async (_payload, { db, now }) => {
  const at = now();
  const keys = await purgeIdempotencyKeys(db, at);
  const deliveries = await purgeDeliveries(db, at);
  if (keys || deliveries) console.log(`[jobs] purga de la API: ${keys} claves de idempotencia, ${deliveries} entregas de webhooks`);
};
