// The integrator API's settings (README "Configuration") and its request-body limits, in one place.
function int(name: string, fallback: number) {
  const v = process.env[name];
  const n = v === undefined || v === "" ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function apiEnv() {
  return {
    /** Lifetime of a bearer token. */
    tokenMinutes: int("API_TOKEN_TTL_MINUTES", 15),
    /** Lifetime of a refresh token (each refresh gives a new one). */
    refreshDays: int("API_REFRESH_TTL_DAYS", 30),
    /** Requests per minute per company (per IP before authentication), per web process. */
    ratePerMinute: int("API_RATE_LIMIT_PER_MINUTE", 30_000),
    /** Webhooks may post to loopback and private addresses (tests, a local integrator). */
    webhookAllowPrivate: process.env.WEBHOOK_ALLOW_PRIVATE === "true",
    /** How long an idempotency key's answer is kept. */
    idempotencyHours: int("API_IDEMPOTENCY_HOURS", 48),
  };
}

/**
 * Largest request body per operation (bytes actually read, app/server/api/http.server.ts): JSON calls
 * are small; a document of 200 lines is about 100 kB.
 */
export const BODY_LIMITS = {
  default: 64 * 1024,
  document: 512 * 1024,
  receivedDocument: 5 * 1024 * 1024,
} as const;
