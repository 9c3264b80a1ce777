// Sessions live in the database; the cookie holds only a random token whose sha256 is the row id.
// One active session per user: a newer sign-in closes the older ones with reason 'replaced'. API
// tokens (kind 'api', app/server/api/tokens.server.ts) share the table but are never a cookie's
// session, and a browser sign-in does not close them.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { companies, currencies, generalConfigurations, sessions, users } from "../../db/schema/index.ts";
import type { CurrentCompany, CurrentUser } from "./context.ts";
import { clearCookie, readCookie, serializeCookie } from "./cookies.server.ts";
import { env } from "./env.server.ts";
import { randomToken, sha256Hex } from "./secrets.server.ts";

export const SESSION_COOKIE = "colibri_session";
export const REPLACED_MESSAGE = "Tu sesión se cerró porque otro usuario inició sesión con la misma cuenta.";
export const EXPIRED_MESSAGE = "Tu sesión expiró. Inicia sesión de nuevo.";

export type SessionLookup =
  | { state: "none" }
  | { state: "closed"; message: string }
  | { state: "active"; sessionId: string; user: CurrentUser; company?: CurrentCompany };

export async function createSession(db: DbOrTx, userId: number, companyId: number | null, meta: { ip: string; userAgent: string | null; now: Date }) {
  const token = randomToken();
  const id = sha256Hex(token);
  const expiresAt = new Date(meta.now.getTime() + env().sessionHours * 3600_000);
  await db.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ closedAt: meta.now, closedReason: "replaced" })
      .where(and(eq(sessions.userId, userId), eq(sessions.kind, "web"), isNull(sessions.closedAt)));
    await tx.insert(sessions).values({ id, userId, companyId, expiresAt, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300) ?? null, createdAt: meta.now, lastSeenAt: meta.now });
  });
  return { cookie: serializeCookie(SESSION_COOKIE, token, { maxAgeSeconds: env().sessionHours * 3600 }), sessionId: id };
}

export function sessionIdFrom(request: Request): string | undefined {
  const token = readCookie(request, SESSION_COOKIE);
  return token ? sha256Hex(token) : undefined;
}

export async function lookupSession(db: DbOrTx, sessionId: string | undefined, now: Date): Promise<SessionLookup> {
  if (!sessionId) return { state: "none" };
  const [row] = await db
    .select({
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      closedReason: sessions.closedReason,
      closedAt: sessions.closedAt,
      userId: users.id,
      userName: users.name,
      email: users.email,
      role: users.role,
      advertisementCode: users.advertisementCode,
      userDeleted: users.deletedAt,
      companyId: companies.id,
      companyName: companies.name,
      companyActive: companies.active,
      permission: companies.permission,
      companyDeleted: companies.deletedAt,
      currencySymbol: currencies.symbol,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(companies, eq(companies.id, sessions.companyId))
    .leftJoin(generalConfigurations, eq(generalConfigurations.companyId, companies.id))
    .leftJoin(currencies, eq(currencies.id, generalConfigurations.currencyId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.kind, "web")));
  if (!row) return { state: "none" };
  if (row.closedAt) {
    return row.closedReason === "replaced" ? { state: "closed", message: REPLACED_MESSAGE } : { state: "none" };
  }
  if (row.userDeleted) return { state: "none" };
  if (row.expiresAt <= now) return { state: "closed", message: EXPIRED_MESSAGE };
  // Sliding expiry, written at most once a minute.
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + env().sessionHours * 3600_000) })
      .where(eq(sessions.id, row.id));
  }
  const user: CurrentUser = {
    id: row.userId,
    name: row.userName,
    email: row.email,
    isAdmin: row.role === "admin",
    isSuperAdmin: !!env().superAdminEmail && row.email.toLowerCase() === env().superAdminEmail,
    advertisementCode: row.advertisementCode,
  };
  const company: CurrentCompany | undefined =
    row.companyId && !row.companyDeleted
      ? { id: row.companyId, name: row.companyName!, active: row.companyActive!, permission: row.permission!, currencySymbol: row.currencySymbol ?? "₡" }
      : undefined;
  return { state: "active", sessionId: row.id, user, company };
}

export async function setSessionCompany(db: DbOrTx, sessionId: string, companyId: number) {
  await db.update(sessions).set({ companyId }).where(eq(sessions.id, sessionId));
}

export async function closeSession(db: DbOrTx, sessionId: string, now: Date, reason = "logout") {
  await db.update(sessions).set({ closedAt: now, closedReason: reason }).where(eq(sessions.id, sessionId));
}

export const clearSessionCookie = () => clearCookie(SESSION_COOKIE);

/** Deletes sessions that expired or closed more than a day ago. */
export async function purgeSessions(db: DbOrTx, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  const deleted = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.closedAt, dayAgo)))
    .returning({ id: sessions.id });
  return deleted.length;
}
