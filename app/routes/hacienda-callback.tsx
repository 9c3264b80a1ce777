// POST /hacienda/callback — Hacienda's notification of a document's state (NOTES §3 callbackUrl),
// taken only as a hint (docs/decisions/110-hacienda-callback-as-a-hint.md): the clave is read from
// the body (at most the route's body limit) and, when it is a document of ours waiting for
// Hacienda, a poll asks Hacienda's API with the company's own credentials; the state and XML in the
// body are never used. The answer is the same whether the clave exists or not. Public (Hacienda has
// no session), exempt from CSRF (app/domain/access.ts) and rate limited per client address.
import type { Route } from "./+types/hacienda-callback";
import { bodyLimitFor, bodyTooLargeText } from "../domain/request-limits.ts";
import { requestContext } from "../server/context.ts";
import { db } from "../server/db.server.ts";
import { callbackClave, handleHaciendaCallback } from "../server/hacienda-pipeline.server.ts";
import { createRateLimiter } from "../server/rate-limit.server.ts";
import { readTextLimited } from "../server/request-body.server.ts";

export const CALLBACK_TEXTS = {
  received: "Notificación recibida.",
  invalid: "La notificación no trae una clave de comprobante válida.",
  tooMany: "Demasiadas notificaciones desde esta dirección. Espere un momento y vuelva a intentarlo.",
} as const;

/**
 * Per client address and process: bursts of 60, then 10 per second. Hacienda notifies once per
 * document (with a few retries), so a busy day stays far below this; polling covers any refused one.
 */
const perAddress = createRateLimiter({ capacity: 60, refillPerSecond: 10 });

const text = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return text("Método no permitido", 405, { Allow: "POST" });
  if (!perAddress.take(context.get(requestContext).ip)) return text(CALLBACK_TEXTS.tooMany, 429, { "Retry-After": "1" });
  const limit = bodyLimitFor("/hacienda/callback");
  const body = await readTextLimited(request, limit);
  if (body === null) return text(bodyTooLargeText(limit), 413);
  const clave = callbackClave(body);
  if (!clave) return text(CALLBACK_TEXTS.invalid, 400);
  await handleHaciendaCallback(db(), clave, new Date());
  return text(CALLBACK_TEXTS.received, 200);
}

export function loader() {
  return text("Método no permitido", 405, { Allow: "POST" });
}
