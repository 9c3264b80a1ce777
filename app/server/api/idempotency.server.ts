// Idempotency keys of the integrator API (issue 15 item 4, docs/decisions/182). Every POST accepts
// an `Idempotency-Key` header. The key is claimed in the same transaction as the work
// (INSERT … ON CONFLICT: a second request with the key waits on the first's uncommitted row, then
// sees its answer) and the answer is stored with it, so the same key with the same request gets the
// first answer (status, body, Location) for API_IDEMPOTENCY_HOURS (≥ 24), another request with the
// key 409, and two concurrent requests create one document. A refused request (400) rolls back and
// leaves the key free. Calls that are not one transaction (sending an e-mail) claim first and
// record the answer after. The answer is stored encrypted (secrets.server.ts): a webhook's answer
// carries its signing secret, which must not sit in plain text in this table.
import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../../db/client.ts";
import { apiIdempotencyKeys } from "../../../db/schema/index.ts";
import { decryptSecret, encryptSecret } from "../secrets.server.ts";
import { API_MESSAGES } from "../../domain/api/schemas.ts";
import { apiEnv } from "./config.server.ts";
import { ApiError, json } from "./http.server.ts";

export interface IdempotencyKey {
  companyId: number;
  key: string;
  hash: string;
}

/** The call's key (null without the header) and the hash of what it asks for. */
export function idempotencyKeyOf(request: Request, companyId: number, path: string, body: unknown): IdempotencyKey | null {
  const raw = request.headers.get("idempotency-key");
  if (raw === null) return null;
  const key = raw.trim();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new ApiError(400, "idempotencia", API_MESSAGES.idempotencyKey, [{ pointer: "", detail: API_MESSAGES.idempotencyKey }]);
  const hash = createHash("sha256").update(`${request.method} ${path}\n${canonicalJson(body)}`).digest("hex");
  return { companyId, key, hash };
}

/** JSON with sorted keys: the same request in another key order or spacing hashes the same. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

type Row = typeof apiIdempotencyKeys.$inferSelect;

/** The stored form of an answer's body: `{sealed: <AES-GCM box of its JSON>}` in the jsonb column. */
const seal = (body: unknown) => (body === undefined ? null : { sealed: encryptSecret(JSON.stringify(body)) });
/** The body back. A row stored before the answers were sealed (2026-11-27) is plain JSON: as is. */
function unseal(stored: unknown): unknown {
  const sealed = stored && typeof stored === "object" && !Array.isArray(stored) && Object.keys(stored).length === 1 ? (stored as { sealed?: unknown }).sealed : undefined;
  return typeof sealed === "string" ? JSON.parse(decryptSecret(sealed).toString("utf8")) : stored;
}

function answerOf(row: Row, k: IdempotencyKey): Response {
  if (row.requestHash !== k.hash) throw new ApiError(409, "idempotencia", API_MESSAGES.idempotencyMismatch);
  if (row.status === null) throw new ApiError(409, "idempotencia-en-curso", API_MESSAGES.idempotencyInProgress, undefined, { "Retry-After": "2" });
  return json(unseal(row.response), row.status, { ...((row.headers as Record<string, string> | null) ?? {}), "Idempotent-Replayed": "true" });
}

const own = (k: IdempotencyKey) => and(eq(apiIdempotencyKeys.companyId, k.companyId), eq(apiIdempotencyKeys.key, k.key));

/** The stored answer of a key already used (a replay, or 409), without waiting; null when unused or expired. */
export async function storedAnswer(db: DbOrTx, k: IdempotencyKey, now: Date): Promise<Response | null> {
  const [row] = await db.select().from(apiIdempotencyKeys).where(own(k));
  if (!row || row.expiresAt <= now) return null;
  return answerOf(row, k);
}

/**
 * Claims the key inside the work's transaction. Null: claimed, go on (store the answer with
 * `storeAnswer` before commit). A Response: the key was used — the first answer, to return as is.
 * An expired key is taken over. Throws ApiError 409 for another request with the key.
 */
export async function claimInTx(tx: Tx, k: IdempotencyKey, now: Date): Promise<Response | null> {
  const expiresAt = new Date(now.getTime() + apiEnv().idempotencyHours * 3600_000);
  const values = { companyId: k.companyId, key: k.key, requestHash: k.hash, status: null, createdAt: now, expiresAt };
  const [claimed] = await tx
    .insert(apiIdempotencyKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [apiIdempotencyKeys.companyId, apiIdempotencyKeys.key],
      set: { requestHash: k.hash, status: null, response: null, headers: null, createdAt: now, expiresAt },
      setWhere: lt(apiIdempotencyKeys.expiresAt, now),
    })
    .returning({ key: apiIdempotencyKeys.key });
  if (claimed) return null;
  const [row] = await tx.select().from(apiIdempotencyKeys).where(own(k));
  if (!row) throw new ApiError(409, "idempotencia-en-curso", API_MESSAGES.idempotencyInProgress, undefined, { "Retry-After": "2" });
  return answerOf(row, k);
}

export async function storeAnswer(db: DbOrTx, k: IdempotencyKey, status: number, body: unknown, headers: Record<string, string> = {}) {
  await db
    .update(apiIdempotencyKeys)
    .set({ status, response: seal(body), headers })
    .where(own(k));
}

/**
 * Runs `work` in one transaction with the key (if any) claimed first; its answer (status, body,
 * Location) is stored with the key. A repeated key answers the first answer instead.
 */
export async function onceInTransaction(
  db: Db,
  k: IdempotencyKey | null,
  now: Date,
  work: (tx: Tx) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>,
): Promise<Response> {
  const outcome = await db.transaction(async (tx) => {
    if (k) {
      const replay = await claimInTx(tx, k, now);
      if (replay) return replay;
    }
    const answer = await work(tx);
    if (k) await storeAnswer(tx, k, answer.status, answer.body, answer.headers ?? {});
    return answer;
  });
  return outcome instanceof Response ? outcome : json(outcome.body, outcome.status, outcome.headers);
}

/**
 * For a call that is not one transaction: claims the key in its own short transaction (committed,
 * so a concurrent request with the key gets 409 'en curso'). Null: claimed; a Response: replay.
 */
export async function claimFirst(db: Db, k: IdempotencyKey, now: Date): Promise<Response | null> {
  return db.transaction((tx) => claimInTx(tx, k, now));
}

/** Frees a key claimed with claimFirst whose call failed (it may be retried). */
export async function releaseKey(db: DbOrTx, k: IdempotencyKey) {
  await db.delete(apiIdempotencyKeys).where(and(own(k), sql`${apiIdempotencyKeys.status} is null`));
}

/** Keys past their time (a daily job). */
export async function purgeIdempotencyKeys(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db.delete(apiIdempotencyKeys).where(lt(apiIdempotencyKeys.expiresAt, now)).returning({ key: apiIdempotencyKeys.key });
  return rows.length;
}
