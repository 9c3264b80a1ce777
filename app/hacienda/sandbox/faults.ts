/**
 * Fault switches of the Hacienda sandbox. Shares are probabilities in [0, 1] drawn per request
 * with the sandbox's injected `random`.
 */
export interface SandboxFaults {
  /** Extra latency before every recepción/IdP request is handled, in ms. */
  delayMs: number;
  /** Share of recepción requests answered 503 without being processed. */
  error5xxShare: number;
  /** Share of recepción requests answered 429 (with Retry-After) without being processed. */
  rateLimitShare: number;
  /** Retry-After sent with 429 answers, in seconds. */
  retryAfterSeconds: number;
  /** Share of recepción requests that are processed but whose connection is destroyed before the reply. */
  dropShare: number;
  /** Share of IdP token requests answered 503. */
  tokenFailureShare: number;
}

export const NO_FAULTS: Readonly<SandboxFaults> = Object.freeze({
  delayMs: 0,
  error5xxShare: 0,
  rateLimitShare: 0,
  retryAfterSeconds: 1,
  dropShare: 0,
  tokenFailureShare: 0,
});

const SHARES = ["error5xxShare", "rateLimitShare", "dropShare", "tokenFailureShare"] as const;

/** Merges a partial, untrusted fault setting (e.g. from the admin endpoint) into `base`. */
export function mergeFaults(base: SandboxFaults, patch: unknown): SandboxFaults {
  if (!patch || typeof patch !== "object" || Array.isArray(patch)) {
    throw new Error("Los fallos del simulador deben ser un objeto JSON.");
  }
  const next: SandboxFaults = { ...base };
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (!(k in NO_FAULTS)) throw new Error(`Fallo desconocido del simulador: ${k}`);
    const n = typeof v === "string" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
      throw new Error(`Valor inválido para ${k}: ${String(v)}`);
    }
    if ((SHARES as readonly string[]).includes(k) && n > 1) {
      throw new Error(`${k} es una proporción entre 0 y 1: ${String(v)}`);
    }
    (next as unknown as Record<string, number>)[k] = n;
  }
  return next;
}
