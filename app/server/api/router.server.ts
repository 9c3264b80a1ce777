// The integrator API's dispatcher (/api/v1/*): finds the call in the operations table, counts it
// against the rate limit (headers on every answer), authenticates the bearer token (never a cookie),
// reads the body up to the call's limit, validates query and body with the call's zod schemas,
// answers a repeated Idempotency-Key, runs the use-case, and turns any failure into
// application/problem+json with a Spanish `detail`.
import type { Db } from "../../../db/client.ts";
import { API_MESSAGES } from "../../domain/api/schemas.ts";
import { db as appDb } from "../db.server.ts";
import { BODY_LIMITS } from "./config.server.ts";
import { ApiError, json, problem, readJson, validate } from "./http.server.ts";
import { idempotencyKeyOf, storedAnswer } from "./idempotency.server.ts";
import { openApiDocument } from "./openapi.server.ts";
import { matchOperation, type CallContext } from "./operations.server.ts";
import { hit, rateHeaders, type RateState } from "./rate-limit.server.ts";
import { authenticate, type ApiPrincipal } from "./tokens.server.ts";

export interface ApiOptions {
  db?: Db;
  now?: () => Date;
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

/** Answers a request to /api/v1/<path>. */
export async function handleApi(request: Request, path: string, opts: ApiOptions = {}): Promise<Response> {
  const now = (opts.now ?? (() => new Date()))();
  const ip = request.headers.get("x-colibri-client-ip") ?? "unknown";
  let rate: RateState | null = null;
  try {
    const method = request.method.toUpperCase();
    const clean = "/" + path.replace(/^\/+|\/+$/g, "");
    if (clean === "/openapi.json" && (method === "GET" || method === "HEAD")) {
      rate = hit(`ip:${ip}`, now.getTime());
      if (!rate.allowed) throw new ApiError(429, "demasiadas-solicitudes", API_MESSAGES.rateLimited(rate.reset));
      return withHeaders(json(openApiDocument(), 200, { "Cache-Control": "public, max-age=300" }), rateHeaders(rate));
    }
    const found = matchOperation(method, clean);
    if (!found) {
      rate = hit(`ip:${ip}`, now.getTime());
      throw new ApiError(404, "ruta", API_MESSAGES.routeNotFound);
    }
    if ("allowed" in found) {
      rate = hit(`ip:${ip}`, now.getTime());
      throw new ApiError(405, "metodo", API_MESSAGES.methodNotAllowed, undefined, { Allow: found.allowed.join(", ") });
    }
    const { op, params } = found;
    const db = opts.db ?? appDb();
    let principal: ApiPrincipal | null = null;
    if (op.auth) {
      try {
        principal = await authenticate(db, request, now);
      } catch (error) {
        rate = hit(`ip:${ip}`, now.getTime());
        throw error;
      }
      rate = hit(`company:${principal.companyId}`, now.getTime());
    } else rate = hit(`ip:${ip}`, now.getTime());
    if (!rate.allowed) throw new ApiError(429, "demasiadas-solicitudes", API_MESSAGES.rateLimited(rate.reset));

    const url = new URL(request.url);
    const rawQuery = Object.fromEntries(url.searchParams);
    const query = op.query ? validate(op.query, rawQuery) : {};
    const body = op.body ? validate(op.body, await readJson(request, op.bodyLimit ?? BODY_LIMITS.default)) : undefined;
    const call: CallContext = {
      db,
      now,
      request,
      params,
      query: query as Record<string, string | undefined>,
      body,
      ip,
      principal: principal ?? { sessionId: "", companyId: 0, companyName: "", modoConsecutiveApi: false, userId: null },
      idempotency: null,
    };
    if (op.idempotent && principal) {
      call.idempotency = idempotencyKeyOf(request, principal.companyId, clean, body);
      // A key already answered: the first answer (or 409), before any work.
      if (call.idempotency) {
        const stored = await storedAnswer(db, call.idempotency, now);
        if (stored) return withHeaders(op.replay ? await op.replay(call, stored) : stored, rateHeaders(rate));
      }
    }
    return withHeaders(await op.handle(call), rateHeaders(rate));
  } catch (error) {
    const e =
      error instanceof ApiError
        ? error
        : (console.error("[api]", request.method, new URL(request.url).pathname, error instanceof Error ? (error.stack ?? error.message) : error), new ApiError(500, "error-interno", API_MESSAGES.internal));
    const response = problem(e);
    return rate ? withHeaders(response, rateHeaders(rate)) : response;
  }
}
