// Principal economic activity of a taxpayer through Hacienda's public endpoint
// GET {HACIENDA_PUBLIC_API_URL}/fe/ae?identificacion=<id> (hacienda/NOTES.md §10), with a short timeout.
//
// Hacienda rate-limits this endpoint (HTTP 429). Answers are cached per identification in this
// process (docs/decisions/132): a fresh answer (found or "no activities") is reused for
// ACTIVITY_CACHE_FRESH_MS without asking again; when Hacienda answers 429, fails or does not answer,
// the last answer known for that identification is given instead (up to ACTIVITY_CACHE_KEEP_MS
// old), and without one the user reads that Hacienda is limiting the lookups.
import { ACTIVITY_MESSAGES, interpretActivities, lookupDigits, type ActivityLookup } from "../domain/company-schemas.ts";
import { env } from "./env.server.ts";

export interface LookupOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
  timeoutMs?: number;
  /** The clock (tests); default Date.now. */
  now?: () => number;
  /** The cache (tests); default the process-wide one. */
  cache?: ActivityCache;
}

/** A fresh answer is reused without asking Hacienda: 6 hours (activities change rarely). */
export const ACTIVITY_CACHE_FRESH_MS = 6 * 60 * 60 * 1000;
/** An older answer is still given when Hacienda limits or fails: up to 7 days. */
export const ACTIVITY_CACHE_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
/** At most this many identifications are remembered (the oldest is forgotten first). */
export const ACTIVITY_CACHE_MAX = 2000;

/** Answers of fe/ae per identification, in insertion order (oldest first). */
export class ActivityCache {
  private readonly entries = new Map<string, { at: number; answer: ActivityLookup }>();
  constructor(readonly max = ACTIVITY_CACHE_MAX) {}
  get(id: string, now: number, maxAge: number): ActivityLookup | null {
    const e = this.entries.get(id);
    if (!e || now - e.at > maxAge) return null;
    return e.answer;
  }
  set(id: string, answer: ActivityLookup, now: number): void {
    this.entries.delete(id);
    this.entries.set(id, { at: now, answer });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
  get size(): number {
    return this.entries.size;
  }
}

const processCache = new ActivityCache();

export async function lookupActivities(identification: string, opts: LookupOptions = {}): Promise<ActivityLookup> {
  const id = lookupDigits(identification);
  if (!id) return { ok: false, activities: [], message: ACTIVITY_MESSAGES.identification };
  const cache = opts.cache ?? processCache;
  const now = (opts.now ?? Date.now)();
  const fresh = cache.get(id, now, ACTIVITY_CACHE_FRESH_MS);
  if (fresh) return fresh;
  // When Hacienda cannot answer now: the last answer known, else `message`.
  const fallback = (message: string): ActivityLookup => cache.get(id, now, ACTIVITY_CACHE_KEEP_MS) ?? { ok: false, activities: [], message };

  const doFetch = opts.fetch ?? fetch;
  const baseUrl = (opts.baseUrl ?? env().haciendaPublicApi).replace(/\/$/, "");
  const timeoutMs = opts.timeoutMs ?? env().haciendaLookupTimeoutMs;
  let response: Response;
  try {
    response = await doFetch(`${baseUrl}/fe/ae?identificacion=${encodeURIComponent(id)}`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return fallback(ACTIVITY_MESSAGES.network);
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => {});
    const none: ActivityLookup = { ok: false, activities: [], message: ACTIVITY_MESSAGES.none };
    cache.set(id, none, now);
    return none;
  }
  if (response.status === 429) {
    await response.body?.cancel().catch(() => {});
    return fallback(ACTIVITY_MESSAGES.rateLimited);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return fallback(ACTIVITY_MESSAGES.network);
  }
  let answer: ActivityLookup;
  try {
    const text = await response.text();
    answer = interpretActivities(text ? JSON.parse(text) : null);
  } catch {
    // A body cut by the timeout or not JSON.
    return fallback(ACTIVITY_MESSAGES.network);
  }
  cache.set(id, answer, now);
  return answer;
}
