// Principal economic activity of a taxpayer through Hacienda's public endpoint
// GET {HACIENDA_PUBLIC_API_URL}/fe/ae?identificacion=<digits> (hacienda/NOTES.md §10), with a short timeout.
import { ACTIVITY_MESSAGES, interpretActivities, lookupDigits, type ActivityLookup } from "../domain/company-schemas.ts";
import { env } from "./env.server.ts";

export interface LookupOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
  timeoutMs?: number;
}

export async function lookupActivities(identification: string, opts: LookupOptions = {}): Promise<ActivityLookup> {
  const digits = lookupDigits(identification);
  if (!digits) return { ok: false, activities: [], message: ACTIVITY_MESSAGES.identification };
  const doFetch = opts.fetch ?? fetch;
  const baseUrl = (opts.baseUrl ?? env().haciendaPublicApi).replace(/\/$/, "");
  const timeoutMs = opts.timeoutMs ?? env().haciendaLookupTimeoutMs;
  let response: Response;
  try {
    response = await doFetch(`${baseUrl}/fe/ae?identificacion=${encodeURIComponent(digits)}`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { ok: false, activities: [], message: ACTIVITY_MESSAGES.network };
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, activities: [], message: ACTIVITY_MESSAGES.none };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, activities: [], message: ACTIVITY_MESSAGES.network };
  }
  try {
    const text = await response.text();
    return interpretActivities(text ? JSON.parse(text) : null);
  } catch {
    // A body cut by the timeout or not JSON.
    return { ok: false, activities: [], message: ACTIVITY_MESSAGES.network };
  }
}
