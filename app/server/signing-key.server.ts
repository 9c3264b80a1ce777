// A company's signing key and Hacienda credentials, loaded once and cached in memory per company;
// the cache entry is dropped when hacienda_configs.updated_at changes (a new key, PIN or password).
// The .p12 is never re-read per document (decision 022: certificate facts computed at load).
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { haciendaConfigs } from "../../db/schema/index.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import { loadKeyOffThread } from "./engine/pool.server.ts";
import { decryptSecret } from "./secrets.server.ts";

export interface CompanyHacienda {
  environment: "sandbox" | "staging" | "production";
  sandboxUrl: string | null;
  branch: number;
  terminal: number;
  username: string | null;
  password: string | null;
  key: SigningKey | null;
  updatedAt: Date;
}

const cache = new Map<number, CompanyHacienda>();

export class SigningKeyError extends Error {}

/** The company's Hacienda access (credentials decrypted, key opened), cached until the config changes. */
export async function companyHacienda(db: DbOrTx, companyId: number, now: Date): Promise<CompanyHacienda | null> {
  const [stamp] = await db.select({ updatedAt: haciendaConfigs.updatedAt }).from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId));
  if (!stamp) return null;
  const hit = cache.get(companyId);
  if (hit && hit.updatedAt.getTime() === stamp.updatedAt.getTime()) return hit;
  const [hc] = await db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId));
  if (!hc) return null;
  let key: SigningKey | null = null;
  if (hc.keyEnc && hc.pinEnc) key = await loadKeyOffThread(decryptSecret(hc.keyEnc), decryptSecret(hc.pinEnc).toString("utf8"), now);
  const value: CompanyHacienda = {
    environment: hc.environment === "production" ? "production" : hc.environment === "sandbox" ? "sandbox" : "staging",
    sandboxUrl: hc.sandboxUrl,
    branch: hc.branch,
    terminal: hc.terminal,
    username: hc.username,
    password: hc.passwordEnc ? decryptSecret(hc.passwordEnc).toString("utf8") : null,
    key,
    updatedAt: hc.updatedAt,
  };
  cache.set(companyId, value);
  return value;
}

/** The signing key of a company (throws a Spanish error when none is stored). */
export async function signingKeyFor(db: DbOrTx, companyId: number, now: Date): Promise<SigningKey> {
  const hc = await companyHacienda(db, companyId, now);
  if (!hc?.key) throw new SigningKeyError("La empresa no tiene una llave criptográfica configurada: súbala en Configuración › Hacienda.");
  return hc.key;
}

/** Tests: forget cached keys. */
export function clearSigningKeyCache(companyId?: number) {
  if (companyId === undefined) cache.clear();
  else cache.delete(companyId);
}
