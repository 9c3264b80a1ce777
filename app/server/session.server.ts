// Sessions live in the database; the cookie holds only a random token whose sha256 is the row id.
// One active session per user: a newer sign-in closes the older ones with reason 'replaced'. API
// tokens (kind 'api', app/server/api/tokens.server.ts) share the table but are never a cookie's
// session, and a browser sign-in does not close them.
import { and, eq, isNull, lt, or, sql, type SQLWrapper } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { builtOnce } from "../../db/queries/built-once.ts";
import { shellChanges } from "../../db/shell-changes.ts";
import { advertisements, companies, companyUsers, currencies, figuresVersions, generalConfigurations, haciendaConfigs, pendingDocuments, sessions, users } from "../../db/schema/index.ts";
import { shownAdvertisementId } from "./advertisement.server.ts";
import type { CurrentCompany, CurrentUser, RequestBanners, SwitcherCompany } from "./context.ts";
import { clearCookie, readCookie, serializeCookie } from "./cookies.server.ts";
import { env } from "./env.server.ts";
import { randomToken, sha256Hex } from "./secrets.server.ts";

export const SESSION_COOKIE = "colibri_session";
export const REPLACED_MESSAGE = "Tu sesión se cerró porque otro usuario inició sesión con la misma cuenta.";
export const EXPIRED_MESSAGE = "Tu sesión expiró. Inicia sesión de nuevo.";

export type SessionLookup =
  | { state: "none" }
  | { state: "closed"; message: string }
  | { state: "active"; sessionId: string; user: CurrentUser; company?: CurrentCompany; companies: SwitcherCompany[]; uiState: string | null; banners: RequestBanners };

/** Companies in the switcher, at most (the layout's select). */
export const SWITCHER_LIMIT = 200;

/**
 * The user's companies for the switcher, ordered by name, as one JSON value computed in the
 * session's own query (one round trip per request instead of two; docs/decisions/191-request-shell.md).
 */
const switcherCompanies = sql<SwitcherCompany[] | string | null>`(
  select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name) order by s.name, s.id), '[]'::json)
  from (
    select c.id, c.name from company_users cu join companies c on c.id = cu.company_id
    where cu.user_id = ${users.id} and c.deleted_at is null
    order by c.name, c.id limit ${sql.raw(String(SWITCHER_LIMIT))}
  ) s
)`;

/** A company's documents waiting in a state, as the database keeps them counted (pending_documents, decision 158). */
export const pendingOf = (companyId: SQLWrapper | number, status: "por enviar" | "procesando") =>
  sql<number>`coalesce((select ${pendingDocuments.documents} from ${pendingDocuments} where ${pendingDocuments.companyId} = ${companyId} and ${pendingDocuments.status} = ${status}), 0)`.mapWith(Number);

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

/**
 * The lookup's query, built once per database: every signed-in request runs it, and drizzle would
 * otherwise build its SQL text again each time (docs/decisions/157).
 */
function buildLookup(db: DbOrTx) {
  return db
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
      uiState: sessions.uiState,
      companies: switcherCompanies,
      // The banners of the dashboard and the document lists, read here rather than by a query each
      // (docs/decisions/147): documents waiting, the key's expiry, the advertisement's code.
      porEnviar: pendingOf(companies.id, "por enviar"),
      procesando: pendingOf(companies.id, "procesando"),
      keyNotAfter: sql`(select ${haciendaConfigs.keyNotAfter} from ${haciendaConfigs} where ${haciendaConfigs.companyId} = ${companies.id})`.mapWith(haciendaConfigs.keyNotAfter),
      advertisementShown: sql`(select ${advertisements.code} from ${advertisements} where ${advertisements.id} = ${shownAdvertisementId(sql.placeholder("superAdminEmail"))})`.mapWith(advertisements.code),
      // The version of the company's dashboard (docs/decisions/202): 0 before its first change.
      figuresVersion: sql<number>`coalesce((select ${figuresVersions.version} from ${figuresVersions} where ${figuresVersions.companyId} = ${companies.id}), 0)`.mapWith(Number),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(companies, eq(companies.id, sessions.companyId))
    .leftJoin(generalConfigurations, eq(generalConfigurations.companyId, companies.id))
    .leftJoin(currencies, eq(currencies.id, generalConfigurations.currencyId))
    .where(and(eq(sessions.id, sql.placeholder("sessionId")), eq(sessions.kind, "web")))
    .prepare("session_lookup");
}

const lookupStatement = (db: DbOrTx) => builtOnce(db, "session_lookup", () => buildLookup(db));

type LookupRow = Awaited<ReturnType<ReturnType<typeof buildLookup>["execute"]>>[number];

/**
 * Session rows kept per database, each with the count of the database's announced changes when it
 * was read (embedded database, docs/decisions/201) or without one (PostgreSQL, where it is only a
 * guess checked by a fresh reading, docs/decisions/204).
 */
const keptRows = new WeakMap<DbOrTx, Map<string, { changes?: number; row: LookupRow }>>();
/** Sessions kept per database; past it the one kept longest ago is dropped. */
const KEPT_SESSIONS = 1000;

function keep(db: DbOrTx, sessionId: string, kept: { changes?: number; row: LookupRow }) {
  let rows = keptRows.get(db);
  if (!rows) keptRows.set(db, (rows = new Map()));
  rows.delete(sessionId);
  if (rows.size >= KEPT_SESSIONS) rows.delete(rows.keys().next().value!);
  rows.set(sessionId, kept);
}

/** Forgets the session's kept row: this process has just changed it. */
export function forgetSessionRow(db: DbOrTx, sessionId: string) {
  keptRows.get(db)?.delete(sessionId);
}

/**
 * The lookup's row. On the embedded database a row is kept until any table the lookup reads changes
 * (shellChanges counts the database's announcements; docs/decisions/201); elsewhere it is read on
 * every request, and kept only as the next request's guess (guessedSession).
 */
async function lookupRow(db: DbOrTx, sessionId: string): Promise<LookupRow | undefined> {
  // Counted before the read: a change announced while it runs leaves the row older than the count.
  const changes = shellChanges(db);
  const found = keptRows.get(db)?.get(sessionId);
  if (changes !== undefined && found?.changes === changes) return found.row;
  const [row] = await lookupStatement(db).execute({ sessionId, superAdminEmail: env().superAdminEmail });
  if (row) keep(db, sessionId, { changes, row });
  else forgetSessionRow(db, sessionId);
  return row;
}

/** What a session's row says at `now` (no query, no write). */
function lookupOf(row: LookupRow | undefined, now: Date): SessionLookup {
  if (!row) return { state: "none" };
  if (row.closedAt) {
    return row.closedReason === "replaced" ? { state: "closed", message: REPLACED_MESSAGE } : { state: "none" };
  }
  if (row.userDeleted) return { state: "none" };
  if (row.expiresAt <= now) return { state: "closed", message: EXPIRED_MESSAGE };
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
  const switcher = (typeof row.companies === "string" ? JSON.parse(row.companies) : (row.companies ?? [])) as SwitcherCompany[];
  const banners: RequestBanners = {
    pending: { porEnviar: row.porEnviar, procesando: row.procesando },
    keyNotAfter: row.keyNotAfter,
    advertisementCode: row.advertisementShown,
    figuresVersion: row.figuresVersion,
  };
  return { state: "active", sessionId: row.id, user, company, companies: switcher, uiState: row.uiState, banners };
}

/**
 * Everything a signed-in request needs about its session, in one query: the session, its user, the
 * active company with its currency symbol, the companies of the switcher, the remembered list
 * pages, what the banners need (documents waiting, the key's expiry, the advertisement's code;
 * docs/decisions/147) and the version of the dashboard's figures (docs/decisions/202). Always
 * current: a company renamed or a user's companies changed show on the next page, in every process
 * (docs/decisions/191-request-shell.md); the embedded database reads it again only after such a
 * change (docs/decisions/201).
 */
export async function lookupSession(db: DbOrTx, sessionId: string | undefined, now: Date): Promise<SessionLookup> {
  if (!sessionId) return { state: "none" };
  const row = await lookupRow(db, sessionId);
  const lookup = lookupOf(row, now);
  // Sliding expiry, written at most once a minute.
  if (lookup.state === "active" && now.getTime() - row!.lastSeenAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + env().sessionHours * 3600_000) })
      .where(eq(sessions.id, row!.id));
  }
  return lookup;
}

/**
 * PostgreSQL: the session as this process last read it, when it was active then; undefined
 * otherwise, and always on the embedded database (which keeps its rows exactly). A guess only: an
 * answer made from it is sent only if a reading of the session started with it says the same
 * (app/server/session-ahead.ts, docs/decisions/204).
 */
export function guessedSession(db: DbOrTx, sessionId: string | undefined, now: Date): SessionLookup | undefined {
  if (!sessionId || shellChanges(db) !== undefined) return undefined;
  const found = keptRows.get(db)?.get(sessionId);
  const lookup = found && lookupOf(found.row, now);
  return lookup?.state === "active" ? lookup : undefined;
}

/** Whether two lookups say the same (everything an answer may depend on). */
export const sameLookup = (a: SessionLookup, b: SessionLookup) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Moves the session to a company of its user, in one statement that writes only while the user is
 * linked to it (and it is not deleted); the company, or undefined when nothing changed. The link's
 * row is locked (FOR KEY SHARE) while the statement runs, so an unlink of that company waits for it
 * and then moves the session away (unlinkCompany), or commits first and the switch finds no link.
 */
export async function switchSessionCompany(db: DbOrTx, input: { sessionId: string; userId: number; companyId: number }) {
  const linked = sql`exists (select 1 from ${companyUsers} where ${companyUsers.userId} = ${sessions.userId} and ${companyUsers.companyId} = ${companies.id} for key share)`;
  const [company] = await db
    .update(sessions)
    .set({ companyId: input.companyId })
    .from(companies)
    .where(and(eq(sessions.id, input.sessionId), eq(sessions.userId, input.userId), eq(companies.id, input.companyId), isNull(companies.deletedAt), linked))
    .returning({ id: companies.id, name: companies.name, active: companies.active });
  forgetSessionRow(db, input.sessionId);
  return company;
}

export async function closeSession(db: DbOrTx, sessionId: string, now: Date, reason = "logout") {
  await db.update(sessions).set({ closedAt: now, closedReason: reason }).where(eq(sessions.id, sessionId));
  forgetSessionRow(db, sessionId);
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
