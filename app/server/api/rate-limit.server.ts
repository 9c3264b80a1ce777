// Rate limit of the integrator API: a fixed one-minute window per key (the company once
// authenticated, else the client IP), kept in the web process's memory. Every answer carries the
// IETF RateLimit headers; over the limit the call is refused with 429 and Retry-After. With several
// web processes each counts its own share (docs/decisions/181).
import { apiEnv } from "./config.server.ts";

interface Window {
  start: number;
  count: number;
}

const WINDOW_MS = 60_000;
const windows = new Map<string, Window>();
let lastSweep = 0;

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

/** Counts one request for `key` at `now` (ms). */
export function hit(key: string, now: number, limit = apiEnv().ratePerMinute): RateState {
  if (now - lastSweep > WINDOW_MS) {
    for (const [k, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(k);
    lastSweep = now;
  }
  let w = windows.get(key);
  if (!w || now - w.start >= WINDOW_MS) {
    w = { start: now, count: 0 };
    windows.set(key, w);
  }
  w.count++;
  const reset = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
  return { limit, remaining: Math.max(0, limit - w.count), reset, allowed: w.count <= limit };
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    "RateLimit-Limit": String(s.limit),
    "RateLimit-Remaining": String(s.remaining),
    "RateLimit-Reset": String(s.reset),
    "RateLimit-Policy": `${s.limit};w=60`,
    ...(s.allowed ? {} : { "Retry-After": String(s.reset) }),
  };
}

/** Tests: forget every window. */
export function resetRateLimits() {
  windows.clear();
}
