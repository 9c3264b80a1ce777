// Sign-in throttling per account and per IP, kept in the database so it holds across processes.
import { eq, inArray, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { authThrottle } from "../../db/schema/index.ts";

export const LIMITS = {
  windowMs: 15 * 60_000,
  blockMs: 15 * 60_000,
  perAccount: 5,
  perIp: 20,
};

export function throttleKeys(email: string, ip: string) {
  return { account: `email:${email.toLowerCase()}`, ip: `ip:${ip}` };
}

/** Minutes until the caller may try again, or 0 when not blocked. */
export async function blockedMinutes(db: DbOrTx, keys: string[], now: Date): Promise<number> {
  const rows = await db.select().from(authThrottle).where(inArray(authThrottle.key, keys));
  let until = 0;
  for (const r of rows) if (r.blockedUntil && r.blockedUntil > now) until = Math.max(until, r.blockedUntil.getTime());
  return until ? Math.ceil((until - now.getTime()) / 60_000) : 0;
}

export async function recordFailure(db: DbOrTx, key: string, limit: number, now: Date) {
  const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key));
  const fresh = !row || now.getTime() - row.windowStart.getTime() > LIMITS.windowMs;
  const failures = fresh ? 1 : row.failures + 1;
  const blockedUntil = failures >= limit ? new Date(now.getTime() + LIMITS.blockMs) : null;
  await db
    .insert(authThrottle)
    .values({ key, failures, windowStart: fresh ? now : row.windowStart, blockedUntil })
    .onConflictDoUpdate({ target: authThrottle.key, set: { failures, windowStart: fresh ? now : row!.windowStart, blockedUntil } });
}

export async function clearFailures(db: DbOrTx, key: string) {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}

export async function purgeThrottle(db: DbOrTx, now: Date) {
  await db.delete(authThrottle).where(lt(authThrottle.windowStart, new Date(now.getTime() - LIMITS.windowMs - LIMITS.blockMs)));
}
