// Bearer tokens of the integrator API (issue 15 item 1, docs/decisions/180). POST /auth/token with
// the company's API user and password (or a user's e-mail and password) opens an API session: a row
// of `sessions` (kind 'api') whose id is the sha256 of the bearer token and whose refresh_hash is the
// sha256 of the refresh token — neither token is stored. The bearer token lives API_TOKEN_TTL_MINUTES;
// the refresh token gives a new pair once (rotation) and lives API_REFRESH_TTL_DAYS from its last use.
// Wrong credentials are throttled like the sign-in. Every call checks the token, the company (plan 5,
// active, not archived) and, for a user's token, that the user works in the x-Company named.
import { and, asc, eq, gt, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import { rows, type Db, type DbOrTx } from "../../../db/client.ts";
import { companies, companyUsers, sessions, users } from "../../../db/schema/index.ts";
import { API_MESSAGES } from "../../domain/api/schemas.ts";
import { API_CREDENTIAL_MESSAGES } from "../../domain/company-texts.ts";
import { tooManyAttempts } from "../auth.server.ts";
import { dummyHash, hashPassword, verifyPassword } from "../password.server.ts";
import { randomToken, sha256Hex } from "../secrets.server.ts";
import { apiEnv } from "./config.server.ts";
import { ApiError } from "./http.server.ts";
import { apiSignInSucceeded, apiSignInClaim } from "./sign-in-throttle.server.ts";

/** Who a call acts as: the company always, the user when the token is a user's. */
export interface ApiPrincipal {
  sessionId: string;
  companyId: number;
  companyName: string;
  modoConsecutiveApi: boolean;
  userId: number | null;
}

export interface TokenPair {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
  company: { id: number; name: string } | null;
}

export const API_USER_LABEL = "Usuario API";
const TOKEN_PREFIX = "col_at_";
const REFRESH_PREFIX = "col_rt_";

function newPair(now: Date) {
  const e = apiEnv();
  const access = TOKEN_PREFIX + randomToken(32);
  const refresh = REFRESH_PREFIX + randomToken(32);
  return {
    access,
    refresh,
    row: {
      id: sha256Hex(access),
      refreshHash: sha256Hex(refresh),
      accessExpiresAt: new Date(now.getTime() + e.tokenMinutes * 60_000),
      expiresAt: new Date(now.getTime() + e.refreshDays * 86_400_000),
      lastSeenAt: now,
    },
    answer: (company: TokenPair["company"]): TokenPair => ({
      access_token: access,
      token_type: "Bearer",
      expires_in: e.tokenMinutes * 60,
      refresh_token: refresh,
      refresh_expires_in: e.refreshDays * 86_400,
      company,
    }),
  };
}

/** Why a company cannot use the API, or null. */
function companyRefusal(c: { permission: number; active: boolean; deletedAt: Date | null }): ApiError | null {
  if (c.deletedAt) return new ApiError(401, "no-autorizado", API_MESSAGES.unauthorized);
  if (c.permission !== 5) return new ApiError(403, "plan", API_MESSAGES.planOnly);
  if (!c.active) return new ApiError(403, "inactiva", API_MESSAGES.inactive);
  return null;
}

/**
 * The username as the sign-in compares it: the database's lower(), the function stored usernames and
 * e-mails are compared with. The lockout key is built from this value too, so every spelling that
 * finds an account counts against one counter (JavaScript's toLowerCase differs from lower() on some
 * letters, such as 'İ').
 */
async function signInName(db: Db, username: string): Promise<string> {
  const [row] = await rows<{ name: string }>(db, sql`select lower(${username}) as name`);
  return row.name;
}

/** POST /auth/token. Throws ApiError (401 wrong credentials, 429 throttled, 403 plan/inactive). */
export async function issueToken(db: Db, input: { username: string; password: string; ip: string; userAgent: string | null; now: Date }): Promise<TokenPair> {
  const { password, ip, now } = input;
  const name = await signInName(db, input.username);
  const wait = await apiSignInClaim(db, name, ip, now);
  if (wait) throw new ApiError(429, "demasiados-intentos", tooManyAttempts(wait), undefined, { "Retry-After": String(wait) });

  // The company's API user first (one company's at most among those not archived: the unique index
  // on lower(username_api), migration 0050), else a user of Colibrí by e-mail (a token that names its company on each
  // call with x-Company). Exactly one password check whatever the case, so the time taken does not
  // tell a known username from an unknown one.
  const [company] = await db
    .select({ id: companies.id, name: companies.name, hash: companies.passwordApiHash, permission: companies.permission, active: companies.active, deletedAt: companies.deletedAt })
    .from(companies)
    .where(and(sql`lower(${companies.usernameApi}) = ${name}`, isNotNull(companies.passwordApiHash), isNull(companies.deletedAt)))
    .orderBy(asc(companies.id))
    .limit(1);
  const [user] = await db
    .select({ id: users.id, email: users.email, hash: users.passwordHash })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${name}`, isNull(users.deletedAt)))
    .limit(1);
  const account = company ? { kind: "company" as const, ...company } : user ? { kind: "user" as const, ...user } : null;
  const valid = await verifyPassword(password, account?.hash ?? (await dummyHash()));
  if (!account?.hash || !valid) throw new ApiError(401, "credenciales", API_MESSAGES.badCredentials);

  if (account.kind === "company") {
    const refusal = companyRefusal(account);
    if (refusal) throw refusal;
  }
  await apiSignInSucceeded(db, name, ip);
  const pair = newPair(now);
  const userAgent = input.userAgent?.slice(0, 300) ?? null;
  if (account.kind === "company") {
    await db.insert(sessions).values({ ...pair.row, kind: "api", userId: null, apiCompanyId: account.id, label: API_USER_LABEL, ip, userAgent, createdAt: now });
    return pair.answer({ id: account.id, name: account.name });
  }
  await db.insert(sessions).values({ ...pair.row, kind: "api", userId: account.id, apiCompanyId: null, label: account.email, ip, userAgent, createdAt: now });
  return pair.answer(null);
}

/**
 * POST /auth/refresh: the refresh token's session gets a new bearer token and a new refresh token
 * (the old ones stop working). One conditional UPDATE: two refreshes with one token give one pair.
 */
export async function refreshToken(db: Db, refresh: string, now: Date): Promise<TokenPair> {
  const pair = newPair(now);
  const [row] = await db
    .update(sessions)
    .set(pair.row)
    .where(and(eq(sessions.refreshHash, sha256Hex(refresh)), eq(sessions.kind, "api"), isNull(sessions.closedAt), gt(sessions.expiresAt, now)))
    .returning({ apiCompanyId: sessions.apiCompanyId });
  if (!row) throw new ApiError(401, "renovacion", API_MESSAGES.badRefresh);
  if (!row.apiCompanyId) return pair.answer(null);
  const [c] = await db.select({ id: companies.id, name: companies.name }).from(companies).where(eq(companies.id, row.apiCompanyId));
  return pair.answer(c ? { id: c.id, name: c.name } : null);
}

/** POST /auth/revoke: ends the caller's API session (its bearer and refresh tokens). */
export async function revokeSession(db: DbOrTx, sessionId: string, now: Date, reason = "revoked") {
  await db
    .update(sessions)
    .set({ closedAt: now, closedReason: reason, refreshHash: null })
    .where(and(eq(sessions.id, sessionId), eq(sessions.kind, "api")));
}

function bearerOf(request: Request): string | null {
  const h = request.headers.get("authorization") ?? "";
  const m = /^Bearer\s+([A-Za-z0-9_\-.~+/]{10,200}=*)\s*$/i.exec(h);
  return m ? m[1] : null;
}

const UNAUTHORIZED = { "WWW-Authenticate": 'Bearer realm="colibri"' };

/** The caller of an authenticated API call. Throws ApiError 401/403/400. Never reads cookies. */
export async function authenticate(db: Db, request: Request, now: Date): Promise<ApiPrincipal> {
  const token = bearerOf(request);
  if (!token) throw new ApiError(401, "no-autorizado", API_MESSAGES.unauthorized, undefined, UNAUTHORIZED);
  const [row] = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      apiCompanyId: sessions.apiCompanyId,
      closedAt: sessions.closedAt,
      accessExpiresAt: sessions.accessExpiresAt,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      userDeleted: users.deletedAt,
      companyName: companies.name,
      permission: companies.permission,
      active: companies.active,
      deletedAt: companies.deletedAt,
      modoConsecutiveApi: companies.modoConsecutiveApi,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(companies, eq(companies.id, sessions.apiCompanyId))
    .where(and(eq(sessions.id, sha256Hex(token)), eq(sessions.kind, "api")));
  if (!row || row.closedAt || row.userDeleted || row.expiresAt <= now) throw new ApiError(401, "no-autorizado", API_MESSAGES.unauthorized, undefined, UNAUTHORIZED);
  if (!row.accessExpiresAt || row.accessExpiresAt <= now) throw new ApiError(401, "token-vencido", API_MESSAGES.expired, undefined, UNAUTHORIZED);
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.id));

  const asked = request.headers.get("x-company");
  const askedId = asked === null ? null : /^\d{1,9}$/.test(asked.trim()) ? Number(asked.trim()) : NaN;

  if (row.apiCompanyId) {
    // A token of the company's API credentials acts for that company only.
    if (askedId !== null && askedId !== row.apiCompanyId) throw new ApiError(403, "compania", API_MESSAGES.companyUnknown);
    const refusal = companyRefusal({ permission: row.permission ?? 0, active: !!row.active, deletedAt: row.deletedAt ?? null });
    if (refusal) throw refusal;
    return { sessionId: row.id, companyId: row.apiCompanyId, companyName: row.companyName ?? "", modoConsecutiveApi: !!row.modoConsecutiveApi, userId: null };
  }

  // A user's token: the company is one the user works in (checked on every call).
  if (Number.isNaN(askedId)) throw new ApiError(403, "compania", API_MESSAGES.companyUnknown);
  const linked = await db
    .select({ id: companies.id, name: companies.name, permission: companies.permission, active: companies.active, deletedAt: companies.deletedAt, modoConsecutiveApi: companies.modoConsecutiveApi })
    .from(companyUsers)
    .innerJoin(companies, eq(companies.id, companyUsers.companyId))
    .where(and(eq(companyUsers.userId, row.userId!), isNull(companies.deletedAt), askedId !== null ? eq(companies.id, askedId) : undefined))
    .orderBy(asc(companies.id))
    .limit(2);
  if (askedId !== null && linked.length === 0) throw new ApiError(403, "compania", API_MESSAGES.companyUnknown);
  if (linked.length !== 1) throw new ApiError(400, "compania-requerida", linked.length ? API_MESSAGES.companyRequired : API_MESSAGES.companyUnknown);
  const c = linked[0];
  const refusal = companyRefusal(c);
  if (refusal) throw refusal;
  return { sessionId: row.id, companyId: c.id, companyName: c.name, modoConsecutiveApi: c.modoConsecutiveApi, userId: row.userId };
}

// ---- The configuration screen (/config-api/:company_id) -------------------------------------------------

export interface ApiSessionRow {
  id: string;
  label: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
}

/** Open API sessions of the company: its API user's and those of its users. */
export async function apiSessionsOf(db: DbOrTx, companyId: number, now: Date): Promise<ApiSessionRow[]> {
  const members = db.select({ id: companyUsers.userId }).from(companyUsers).where(eq(companyUsers.companyId, companyId));
  const rows = await db
    .select({ id: sessions.id, label: sessions.label, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, ip: sessions.ip })
    .from(sessions)
    .where(and(eq(sessions.kind, "api"), isNull(sessions.closedAt), gt(sessions.expiresAt, now), or(eq(sessions.apiCompanyId, companyId), inArray(sessions.userId, members))))
    .orderBy(asc(sessions.createdAt))
    .limit(200);
  return rows.map((r) => ({ ...r, label: r.label ?? API_USER_LABEL }));
}

/** 'Revocar' on the screen: only a session the list shows. False when it is not one of them. */
export async function revokeApiSessionOf(db: Db, companyId: number, sessionId: string, now: Date): Promise<boolean> {
  const own = (await apiSessionsOf(db, companyId, now)).some((s) => s.id === sessionId);
  if (!own) return false;
  await revokeSession(db, sessionId, now);
  return true;
}

export const API_CONFIG_MESSAGES = {
  saved: "Credenciales de la API guardadas correctamente",
  generated: "Nueva contraseña de la API generada: cópiela ahora, no se volverá a mostrar.",
  usernameTaken: API_CREDENTIAL_MESSAGES.usernameTaken,
  usernameRequired: API_CREDENTIAL_MESSAGES.usernameRequired,
  revoked: "Token revocado",
  notPlan5: "La API está disponible solo para compañías del plan 5 (API).",
} as const;

/**
 * Another company, not archived, has `username` as its API username in any case (compared with the
 * database's lower(), as the sign-in compares it). The unique index companies_username_api_unique
 * (migration 0050) holds the same rule against two saves that race; see apiUsernameConflict.
 */
export async function apiUsernameTaken(db: DbOrTx, username: string, exceptCompanyId: number | null): Promise<boolean> {
  const [taken] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(sql`lower(${companies.usernameApi}) = lower(${username})`, isNull(companies.deletedAt), exceptCompanyId === null ? undefined : ne(companies.id, exceptCompanyId)))
    .limit(1);
  return !!taken;
}

const API_USERNAME_INDEX = "companies_username_api_unique";

/** The error is the unique index on API usernames refusing a save (another company took it meanwhile). */
export function apiUsernameConflict(error: unknown): boolean {
  for (let e = error as { code?: string; constraint?: string; constraint_name?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    // postgres.js names the index in constraint_name, PGlite in constraint.
    if (e.code === "23505") return (e.constraint_name ?? e.constraint) === API_USERNAME_INDEX;
  }
  return false;
}

/**
 * Sets the company's API user and, when given, a new password (stored hashed, scrypt). A new
 * password ends the sessions opened with the old one. Refused (nothing saved) when another company
 * uses the username in any case.
 */
export async function setApiCredentials(db: Db, companyId: number, input: { username: string; password: string | null }, now: Date): Promise<{ ok: true } | { ok: false; field: "username"; message: string }> {
  const taken = { ok: false as const, field: "username" as const, message: API_CONFIG_MESSAGES.usernameTaken };
  if (await apiUsernameTaken(db, input.username, companyId)) return taken;
  const hash = input.password ? await hashPassword(input.password) : null;
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(companies)
        .set({ usernameApi: input.username, ...(hash ? { passwordApiHash: hash } : {}) })
        .where(eq(companies.id, companyId));
      if (hash) await closeCompanyApiSessions(tx, companyId, now);
    });
  } catch (error) {
    if (apiUsernameConflict(error)) return taken;
    throw error;
  }
  return { ok: true };
}

/**
 * Ends the sessions opened with the company's API credentials (their bearer and refresh tokens):
 * every change of the API password does it, on the configuration screen and in the company form.
 */
export async function closeCompanyApiSessions(db: DbOrTx, companyId: number, now: Date) {
  await db
    .update(sessions)
    .set({ closedAt: now, closedReason: "api-password", refreshHash: null })
    .where(and(eq(sessions.kind, "api"), eq(sessions.apiCompanyId, companyId), isNull(sessions.closedAt)));
}

/** A generated API password: 24 characters of base64url (fits the 6–30 rule of the company form). */
export const generatedApiPassword = () => randomToken(18);
