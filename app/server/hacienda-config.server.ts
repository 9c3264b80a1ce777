// Hacienda access and numbering of a company (spec part 1 §3 Consecutive/access configuration, §5
// Consecutives, §7 configurations / test-cryptography-key / test-access-hacienda, §8 Keys/access
// test). Secrets (the .p12 bytes, its PIN, the Hacienda password) are stored as AES-256-GCM boxes
// and never leave the server; the key is checked by opening it with the PIN before anything is saved.
import { formatDate } from "../domain/format.ts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { countersOf, haciendaConfigOf } from "../../db/queries/config.ts";
import { companies, documentCounters, haciendaConfigs } from "../../db/schema/index.ts";
import { createHaciendaClient, HaciendaClientError, sandboxEnvironment, type ClientOptions } from "../hacienda/client.ts";
import { isHaciendaError } from "../hacienda/errors.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import { loadKeyOffThread } from "./engine/pool.server.ts";
import {
  CONFIG_MESSAGES,
  CONSECUTIVE_TYPES,
  checkKeyFile,
  type HaciendaConfigInput,
} from "../domain/config-schemas.ts";
import type { FieldErrors } from "../domain/forms.ts";
import { decryptSecret, encryptSecret } from "./secrets.server.ts";

export interface KeyUpload {
  bytes: Buffer;
  name: string;
}

/** The uploaded .p12 (one file; null when the input was left empty), checked by name and size. */
export async function readKeyUpload(form: FormData): Promise<{ ok: true; key: KeyUpload | null } | { ok: false; message: string }> {
  const files = form.getAll("file_key").filter((f): f is File => typeof f !== "string" && f.size > 0);
  if (files.length === 0) return { ok: true, key: null };
  if (files.length > 1) return { ok: false, message: CONFIG_MESSAGES.keyOneFile };
  const problem = checkKeyFile({ name: files[0]!.name, size: files[0]!.size });
  if (problem) return { ok: false, message: problem };
  return { ok: true, key: { bytes: Buffer.from(await files[0]!.arrayBuffer()), name: files[0]!.name.slice(0, 120) } };
}

/** What the Hacienda screen shows: no secret, only whether each one is stored. */
export async function haciendaFormState(db: Db, companyId: number) {
  const hc = await haciendaConfigOf(db, companyId);
  const branch = hc?.branch ?? 1;
  const terminal = hc?.terminal ?? 1;
  const counters = await countersOf(db, { companyId, branch, terminal, docTypes: CONSECUTIVE_TYPES.map((t) => t.docType) });
  const values: Record<string, string> = {
    branch: String(branch),
    terminal: String(terminal),
    username: hc?.username ?? "",
    email_rejection: hc?.emailRejection ?? "",
    environment: hc?.environment ?? "staging",
  };
  for (const t of CONSECUTIVE_TYPES) values[t.field] = String(counters.find((c) => c.docType === t.docType)?.nextNumber ?? 1);
  return {
    values,
    hasPassword: !!hc?.passwordEnc,
    hasPin: !!hc?.pinEnc,
    key: hc?.keyEnc
      ? {
          filename: hc.keyFilename ?? "llave.p12",
          subject: hc.keySubject ?? "",
          cedula: hc.keyCedula ?? "",
          notBefore: hc.keyNotBefore ? formatDate(hc.keyNotBefore) : "",
          notAfter: hc.keyNotAfter ? formatDate(hc.keyNotAfter) : "",
        }
      : null,
  };
}

type SaveResult = { ok: true } | { ok: false; errors: FieldErrors; keyOwnerMismatch?: boolean };

const digitsOf = (id: string) => id.replace(/\D/g, "").replace(/^0+/, "");

/** The message when a key's certificate names another identification than the company's (docs/decisions/115). */
export function keyOwnerMismatchText(keyCedula: string, companyIdentification: string): string {
  return `La llave pertenece a la cédula ${keyCedula} y la compañía tiene la cédula ${companyIdentification}. Revise que sea la llave de esta compañía; si es la correcta (por ejemplo, la firma digital de su representante), adjúntela de nuevo y marque «Usar esta llave de otra cédula».`;
}

/**
 * Saves numbering, access and key. A new key must open with the PIN (typed, or the stored one), be
 * valid today and belong to the company's identification — unless `otherOwnerConfirmed` (the
 * administrator ticked 'Usar esta llave de otra cédula'); a new PIN alone must open the stored
 * key. On any error nothing is saved.
 */
export async function saveHaciendaConfig(
  db: Db,
  companyId: number,
  input: HaciendaConfigInput,
  upload: KeyUpload | null,
  now: Date,
  opts: { otherOwnerConfirmed?: boolean } = {},
): Promise<SaveResult> {
  const current = await haciendaConfigOf(db, companyId);
  const pin = input.pin ?? (current?.pinEnc ? decryptSecret(current.pinEnc).toString("utf8") : null);
  const keyBytes = upload?.bytes ?? (current?.keyEnc ? decryptSecret(current.keyEnc) : null);
  if (!keyBytes) return { ok: false, errors: { file_key: CONFIG_MESSAGES.keyRequired } };
  if (!pin) return { ok: false, errors: { pin: "El PIN de la llave es obligatorio" } };
  let key: SigningKey;
  try {
    key = await loadKeyOffThread(keyBytes, pin, now);
  } catch (error) {
    if (!isHaciendaError(error)) throw error;
    const field = error.code === "P12_WRONG_PIN" ? "pin" : "file_key";
    return { ok: false, errors: { [field]: error.message } };
  }
  if (upload && !opts.otherOwnerConfirmed) {
    const [company] = await db.select({ identification: companies.identification }).from(companies).where(eq(companies.id, companyId));
    if (company && digitsOf(key.cedula) !== digitsOf(company.identification)) {
      return { ok: false, errors: { file_key: keyOwnerMismatchText(key.cedula, company.identification) }, keyOwnerMismatch: true };
    }
  }
  const secrets = {
    ...(input.password ? { passwordEnc: encryptSecret(input.password) } : {}),
    ...(input.pin ? { pinEnc: encryptSecret(input.pin) } : {}),
    ...(upload ? { keyEnc: encryptSecret(upload.bytes), keyFilename: upload.name } : {}),
  };
  const values = {
    environment: input.environment,
    branch: input.branch,
    terminal: input.terminal,
    username: input.username,
    emailRejection: input.email_rejection,
    keySubject: key.subject,
    keyCedula: key.cedula,
    keyNotBefore: key.notBefore,
    keyNotAfter: key.notAfter,
    updatedAt: now,
    ...secrets,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(haciendaConfigs)
      .values({ companyId, ...values })
      .onConflictDoUpdate({ target: haciendaConfigs.companyId, set: values });
    for (const t of CONSECUTIVE_TYPES) {
      const nextNumber = input[t.field];
      await tx
        .insert(documentCounters)
        .values({ companyId, branch: input.branch, terminal: input.terminal, docType: t.docType, nextNumber })
        .onConflictDoUpdate({ target: [documentCounters.companyId, documentCounters.branch, documentCounters.terminal, documentCounters.docType], set: { nextNumber } });
    }
  });
  return { ok: true };
}

export type KeyTestResult =
  | { ok: true; subject: string; cedula: string; notBefore: string; notAfter: string; daysLeft: number }
  | { ok: false; message: string; detail?: string };

/** 'probar llave': opens the stored key with the stored PIN. */
export async function testStoredKey(db: Db, companyId: number, now: Date): Promise<KeyTestResult> {
  const hc = await haciendaConfigOf(db, companyId);
  if (!hc?.keyEnc || !hc.pinEnc) return { ok: false, message: CONFIG_MESSAGES.keyTestFailed, detail: CONFIG_MESSAGES.noKeyStored };
  try {
    const key = await loadKeyOffThread(decryptSecret(hc.keyEnc), decryptSecret(hc.pinEnc).toString("utf8"), now);
    return { ok: true, subject: key.subject, cedula: key.cedula, notBefore: formatDate(key.notBefore), notAfter: formatDate(key.notAfter), daysLeft: key.daysLeft };
  } catch (error) {
    return { ok: false, message: CONFIG_MESSAGES.keyTestFailed, detail: isHaciendaError(error) ? error.message : undefined };
  }
}

/** The local simulator's URL: the row's own, else the one server/start.ts started, else the default port. */
export function sandboxUrlFor(rowUrl: string | null | undefined): string {
  return rowUrl || process.env.HACIENDA_SANDBOX_URL || `http://127.0.0.1:${Number(process.env.HACIENDA_SANDBOX_PORT || 8089)}`;
}

export type AccessTestResult = { ok: boolean; message: string; detail?: string };

/** 'probar acceso': asks the configured IdP for a token with the stored user and password. */
export async function testHaciendaAccess(db: Db, companyId: number, opts: Pick<ClientOptions, "fetch" | "timeoutMs"> = {}): Promise<AccessTestResult> {
  const hc = await haciendaConfigOf(db, companyId);
  if (!hc?.username || !hc.passwordEnc) return { ok: false, message: CONFIG_MESSAGES.accessFailed, detail: CONFIG_MESSAGES.noAccessStored };
  const environment = hc.environment === "production" ? "production" : hc.environment === "sandbox" ? "sandbox" : "staging";
  const client = createHaciendaClient({
    ...(environment === "sandbox" ? sandboxEnvironment(sandboxUrlFor(hc.sandboxUrl)) : { environment }),
    maxRetries: 0,
    timeoutMs: opts.timeoutMs ?? 10_000,
    rateLimitPerSecond: 0,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  try {
    const token = await client.getToken({ username: hc.username, password: decryptSecret(hc.passwordEnc).toString("utf8"), companyKey: `test-${companyId}` });
    return token ? { ok: true, message: CONFIG_MESSAGES.accessOk } : { ok: false, message: CONFIG_MESSAGES.accessFailed };
  } catch (error) {
    if (error instanceof HaciendaClientError && (error.code === "CREDENCIALES_INVALIDAS" || error.httpStatus === 401)) {
      return { ok: false, message: CONFIG_MESSAGES.accessDenied, detail: error.message };
    }
    return { ok: false, message: CONFIG_MESSAGES.accessFailed, detail: error instanceof HaciendaClientError ? error.message : undefined };
  }
}

/** Any company uses the local simulator (server/start.ts starts it then). */
export async function anyCompanyUsesSandbox(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: haciendaConfigs.companyId }).from(haciendaConfigs).where(eq(haciendaConfigs.environment, "sandbox")).limit(1);
  return !!row;
}
