// Throttling of sign-in and password-reset requests, kept in the database so it holds across processes
// (docs/decisions/122-sign-in-throttling.md). Each attempt is *claimed* before the password is checked,
// with one INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING statement: the row lock orders
// concurrent attempts on the same key, and the WHERE refuses (returns no row) once the key is
// waiting. No read-then-write, so a burst of concurrent attempts gets no more than the allowed number.
import { eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { authThrottle } from "../../db/schema/index.ts";

/** A growing delay: `free` attempts, then each further one waits base·2^(n−free) seconds, capped. */
export interface DelayPolicy {
  kind: "delay";
  free: number;
  baseSeconds: number;
  capSeconds: number;
  /** The count is forgotten this long after its last wait ended. */
  forgetMs: number;
}

/** At most `limit` attempts per window; past it, wait until the window ends. */
export interface WindowPolicy {
  kind: "window";
  limit: number;
  windowMs: number;
}

export type Policy = DelayPolicy | WindowPolicy;

export const LIMITS = {
  /** Per account (the e-mail typed): 5 free attempts, then 2 s, 4 s, 8 s … up to 15 minutes. */
  account: { kind: "delay", free: 5, baseSeconds: 2, capSeconds: 15 * 60, forgetMs: 24 * 3600_000 },
  /** Per client address: high, so an office behind one router is not locked out by one person. */
  ip: { kind: "window", limit: 100, windowMs: 15 * 60_000 },
  /** Password-reset e-mails per target address. */
  resetEmail: { kind: "window", limit: 3, windowMs: 60 * 60_000 },
  /** Password-reset requests per client address. */
  resetIp: { kind: "window", limit: 20, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Policy>;

export const throttleKeys = {
  account: (email: string) => `email:${email.trim().toLowerCase()}`,
  ip: (ip: string) => `ip:${ip}`,
  resetEmail: (email: string) => `reset-email:${email.trim().toLowerCase()}`,
  resetIp: (ip: string) => `reset-ip:${ip}`,
  /** Posts of the reset-link form (/password/reset/:token) per client address, with the `ip` policy. */
  resetTokenIp: (ip: string) => `reset-token-ip:${ip}`,
};

/** Seconds the account waits after its `failures`-th counted attempt. */
export function accountDelaySeconds(failures: number, p: DelayPolicy = LIMITS.account): number {
  if (failures < p.free) return 0;
  return Math.min(p.baseSeconds * 2 ** Math.min(failures - p.free, 30), p.capSeconds);
}

/** "4 segundos", "1 minuto", "15 minutos": the wait, rounded up. */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} ${s === 1 ? "segundo" : "segundos"}`;
  const m = Math.ceil(s / 60);
  return `${m} ${m === 1 ? "minuto" : "minutos"}`;
}

export type Claim = { ok: true } | { ok: false; waitSeconds: number };

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const seconds = (n: SQL | number) => sql`(${n}) * interval '1 second'`;
/** The end of the key's last wait, or the start of its count when it never waited (for forgetting). */
const readyAt = sql`coalesce(${authThrottle.blockedUntil}, ${authThrottle.windowStart})`;
/**
 * The key is not waiting. A key that does not wait has no blocked_until (null, not "now"): another
 * process whose clock is a few milliseconds behind must not read "wait" where there is none.
 */
const waitOver = (now: Date) => sql`(${authThrottle.blockedUntil} is null or ${authThrottle.blockedUntil} <= ${ts(now)})`;

/** The delay (seconds, SQL) after `f` counted attempts: the same numbers as accountDelaySeconds. */
function delaySql(f: SQL, p: DelayPolicy): SQL {
  return sql`case when ${f} < ${p.free} then 0 else least(${p.baseSeconds} * power(2, least(${f} - ${p.free}, 30)), ${p.capSeconds}) end`;
}

/**
 * Counts one attempt on `key` unless the key must wait. One statement: insert the first attempt, or
 * update the row (restarting a forgotten count or an ended window) only when it is not waiting.
 */
export async function claimAttempt(db: DbOrTx, key: string, policy: Policy, now: Date): Promise<Claim> {
  const t = authThrottle;
  let set: Record<string, SQL>;
  let firstBlockedUntil: Date | null;
  if (policy.kind === "delay") {
    const forgotten = sql`${readyAt} + ${seconds(policy.forgetMs / 1000)} <= ${ts(now)}`;
    const failures = sql`(case when ${forgotten} then 1 else ${t.failures} + 1 end)`;
    set = {
      failures,
      windowStart: sql`case when ${forgotten} then ${ts(now)} else ${t.windowStart} end`,
      blockedUntil: sql`case when ${delaySql(failures, policy)} = 0 then null else ${ts(now)} + ${seconds(delaySql(failures, policy))} end`,
    };
    firstBlockedUntil = accountDelaySeconds(1, policy) ? new Date(now.getTime() + accountDelaySeconds(1, policy) * 1000) : null;
  } else {
    const ended = sql`${t.windowStart} + ${seconds(policy.windowMs / 1000)} <= ${ts(now)}`;
    const failures = sql`(case when ${ended} then 1 else ${t.failures} + 1 end)`;
    const windowStart = sql`(case when ${ended} then ${ts(now)} else ${t.windowStart} end)`;
    set = {
      failures,
      windowStart,
      blockedUntil: sql`case when ${failures} >= ${policy.limit} then ${windowStart} + ${seconds(policy.windowMs / 1000)} else null end`,
    };
    firstBlockedUntil = policy.limit <= 1 ? new Date(now.getTime() + policy.windowMs) : null;
  }
  const claimed = await db
    .insert(t)
    .values({ key, failures: 1, windowStart: now, blockedUntil: firstBlockedUntil })
    .onConflictDoUpdate({ target: t.key, set, setWhere: waitOver(now) })
    .returning({ failures: t.failures });
  if (claimed.length) return { ok: true };
  // Refused: read when the key may try again, for the message only.
  const [row] = await db.select({ blockedUntil: t.blockedUntil }).from(t).where(eq(t.key, key));
  const until = row?.blockedUntil ? new Date(row.blockedUntil).getTime() : now.getTime();
  return { ok: false, waitSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
}

/** Gives back one claimed attempt (it turned out not to be a failure: a correct sign-in). */
export async function releaseAttempt(db: DbOrTx, key: string, policy: WindowPolicy) {
  const t = authThrottle;
  await db
    .update(t)
    .set({
      failures: sql`greatest(${t.failures} - 1, 0)`,
      blockedUntil: sql`case when ${t.failures} - 1 < ${policy.limit} then null else ${t.blockedUntil} end`,
    })
    .where(eq(t.key, key));
}

/** Forgets the key (a correct sign-in, a password reset). */
export async function clearAttempts(db: DbOrTx, key: string) {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}

/** Deletes counters nobody needs any more: a day after their last wait ended. */
export async function purgeThrottle(db: DbOrTx, now: Date) {
  await db.delete(authThrottle).where(sql`${readyAt} < ${ts(new Date(now.getTime() - LIMITS.account.forgetMs))}`);
}
