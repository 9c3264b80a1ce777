/**
 * Local simulator of Hacienda's IdP and recepción API (NOTES §2–3): same paths, JSON shapes,
 * status codes and headers. Schema validation, signature verification and MensajeHacienda
 * signing are injected, so tests and the CLI run it with the real library.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ClaveError, costaRicaParts, parseClave } from "../clave.ts";
import { NO_FAULTS, mergeFaults, type SandboxFaults } from "./faults.ts";
import { buildMensajeHacienda, RECEIVABLE_ROOTS, readComprobante, type ComprobanteFacts } from "./mensaje.ts";
import { SandboxState, type ReceivedDocument, type SandboxUser, type Verdict, type VerdictRow } from "./state.ts";

export interface SchemaIssue {
  path?: string;
  message: string;
  line?: number;
  column?: number;
}

/** A business-rule finding (rules.ts `{ path, message }`); `warning` ones do not reject. */
export interface RuleIssue {
  path?: string;
  message: string;
  warning?: boolean;
}

export interface SandboxVerification {
  valid: boolean;
  errors?: unknown[];
  /** The identification in the signing certificate (CPF-/CPJ- serialNumber), when known. */
  signerId?: string | null;
}

/**
 * Codes of the rows of a DetalleMensaje (decision 142). -1 (schema, with the validator's text),
 * -16 (sent late: a warning inside an accepted answer) are Hacienda's as seen in real answers;
 * -37 (warning) and -99 (consecutive already used) are the ones issue 11 names; the others are the
 * sandbox's own, not Hacienda's catalogue.
 */
export const SANDBOX_CODES = {
  schema: -1,
  late: -16,
  warning: -37,
  signature: -41,
  signer: -42,
  clave: -43,
  date: -44,
  rule: -45,
  receiverMessage: -46,
  duplicateConsecutive: -99,
} as const;

/** The v4.4 Anexo is in force from 2025-06-01 (A44 p.3): no v4.4 comprobante is dated before. */
export const V44_IN_FORCE = Date.parse("2025-06-01T00:00:00-06:00");

/**
 * `fecha` as the recepción API documents it (NOTES §3): RFC 3339 date-time, yyyy-MM-dd'T'HH:mm:ss
 * with optional fraction and an offset (Z, ±hh:mm, or ±hhmm as Java's "Z" writes it).
 */
const FECHA_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

export interface SandboxOptions<K = unknown> {
  port?: number;
  host?: string;
  /** Key that signs every MensajeHacienda. When absent, `createSigningKey` is called at start. */
  signingKey?: K;
  createSigningKey?: () => K | Promise<K>;
  users?: SandboxUser[];
  faults?: Partial<SandboxFaults>;
  /** Milliseconds since epoch. */
  now?: () => number;
  random?: () => number;
  /** Time between reception and the final answer (default 1000 ms). */
  processingDelayMs?: number;
  /** Polls answered `procesando` before the final answer is revealed (default 0). */
  processingPolls?: number;
  /** Access token lifetime in seconds (default 300, as Hacienda). */
  tokenLifetimeSeconds?: number;
  refreshLifetimeSeconds?: number;
  /** Delay between callback attempts (default 1000 ms); 1 try + 3 retries. */
  callbackRetryDelayMs?: number;
  /** Schema validation of a comprobante; returns the errors (empty = valid). */
  validate: (xml: string) => SchemaIssue[] | Promise<SchemaIssue[]>;
  /** Signature verification of a comprobante (`signerId`: the certificate's identification). */
  verify: (xml: string) => SandboxVerification | Promise<SandboxVerification>;
  /**
   * The engine's business rules over a schema-valid document (real.ts: checkRules on readModel).
   * Errors reject (code -45), warnings are listed inside the accepted answer (code -37).
   */
  rules?: (xml: string) => RuleIssue[] | Promise<RuleIssue[]>;
  /** FechaEmision may be ahead of the sandbox clock by this much (clock skew; default 5 minutes). */
  maxFutureMs?: number;
  /** FechaEmision older than this at reception earns the -16 "extemporáneo" warning (default 24 hours). */
  lateAfterMs?: number;
  /** Signs the MensajeHacienda with the sandbox key. */
  sign: (xml: string, key: K, opts: { now: Date }) => string | Promise<string>;
  /** Optional full parser (app/hacienda/parse.ts) — not needed by the sandbox itself. */
  parse?: (xml: string) => unknown;
  /** fetch used for callbacks (default global fetch). */
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface Sandbox {
  /** e.g. `http://127.0.0.1:8089` */
  url: string;
  /** Staging realm token URL. */
  tokenUrl: string;
  /** Production-realm token URL (realm `rut`, client `api-prod`). */
  tokenUrlProduction: string;
  /** Recepción base, ending in `/`: `${url}/recepcion/v1/`. */
  recepcionUrl: string;
  users: SandboxUser[];
  state: SandboxState;
  faults(): SandboxFaults;
  setFaults(patch: Partial<SandboxFaults>): SandboxFaults;
  /** Waits until every pending callback has been delivered or given up. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_SANDBOX_USER: SandboxUser = {
  username: "cpf-01-0123-0456@stag.comprobanteselectronicos.go.cr",
  password: "colibri-sandbox",
};

const REALMS: Record<string, string> = { "rut-stag": "api-stag", rut: "api-prod" };
const TOKEN_PATH = /^\/auth\/realms\/(rut|rut-stag)\/protocol\/openid-connect\/token$/;
const MAX_BODY = 8 * 1024 * 1024;
const CLAVE_RE = /^[a-zA-Z0-9]{50}$/;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly cause_: string,
  ) {
    super(cause_);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, "El mensaje excede el tamaño permitido."));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, cause: string, headers: Record<string, string> = {}) {
  // Hacienda puts the reason in X-Error-Cause; header values must be Latin-1, so keep ASCII-safe.
  res.writeHead(status, { "x-error-cause": encodeHeader(cause), "content-length": 0, ...headers });
  res.end();
}

/** Header values are ByteStrings: replace characters outside Latin-1. */
function encodeHeader(s: string): string {
  return s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** An identification as the recepción API documents it (NOTES §3): tipoIdentificacion ≤ 2, numeroIdentificacion ≤ 12. */
function isIdent(v: unknown): v is { tipoIdentificacion: string; numeroIdentificacion: string } {
  if (!v || typeof v !== "object") return false;
  const { tipoIdentificacion: tipo, numeroIdentificacion: numero } = v as Record<string, unknown>;
  return typeof tipo === "string" && tipo.length > 0 && tipo.length <= 2 && typeof numero === "string" && numero.length > 0 && numero.length <= 12;
}

export async function startSandbox<K>(options: SandboxOptions<K>): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const users = options.users ?? [DEFAULT_SANDBOX_USER];
  const state = new SandboxState(users);
  const processingDelayMs = options.processingDelayMs ?? 1000;
  const processingPolls = options.processingPolls ?? 0;
  const tokenLifetime = options.tokenLifetimeSeconds ?? 300;
  const refreshLifetime = options.refreshLifetimeSeconds ?? 36_000;
  const callbackRetryDelayMs = options.callbackRetryDelayMs ?? 1000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const log = options.log ?? (() => undefined);
  let faults: SandboxFaults = mergeFaults({ ...NO_FAULTS }, options.faults ?? {});

  let signingKey: K;
  if (options.signingKey !== undefined) signingKey = options.signingKey;
  else if (options.createSigningKey) signingKey = await options.createSigningKey();
  else throw new Error("startSandbox necesita signingKey o createSigningKey para firmar los MensajeHacienda.");

  /** Keys being registered right now: guards against a retry racing the first request. */
  const pending = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const callbacks = new Set<Promise<void>>();

  // ------------------------------------------------------------------ IdP
  async function handleToken(req: IncomingMessage, res: ServerResponse, realm: string) {
    state.counters.tokenRequests++;
    if (req.method !== "POST") return sendJson(res, 405, { error: "method_not_allowed" });
    const body = new URLSearchParams((await readBody(req)).toString("utf8"));
    if (faults.tokenFailureShare > 0 && random() < faults.tokenFailureShare) {
      state.counters.tokenFailures++;
      return sendJson(res, 503, { error: "temporarily_unavailable", error_description: "Servicio no disponible" });
    }
    const clientId = body.get("client_id");
    if (clientId !== REALMS[realm]) {
      return sendJson(res, 401, { error: "unauthorized_client", error_description: "Invalid client credentials" });
    }
    const grant = body.get("grant_type");
    let username: string;
    if (grant === "password") {
      const u = body.get("username") ?? "";
      if (!state.users.has(u) || state.users.get(u) !== body.get("password")) {
        return sendJson(res, 401, { error: "invalid_grant", error_description: "Invalid user credentials" });
      }
      username = u;
    } else if (grant === "refresh_token") {
      const rt = body.get("refresh_token") ?? "";
      const issued = state.refreshTokens.get(rt);
      if (!issued || issued.expiresAt <= now() || issued.realm !== realm) {
        return sendJson(res, 400, { error: "invalid_grant", error_description: "Invalid refresh token" });
      }
      state.refreshTokens.delete(rt); // rotated, as Keycloak does
      username = issued.username;
    } else {
      return sendJson(res, 400, { error: "unsupported_grant_type", error_description: "Unsupported grant_type" });
    }
    const access = randomBytes(24).toString("base64url");
    const refresh = randomBytes(24).toString("base64url");
    state.tokens.set(access, { username, realm, expiresAt: now() + tokenLifetime * 1000 });
    state.refreshTokens.set(refresh, { username, realm, expiresAt: now() + refreshLifetime * 1000 });
    sendJson(res, 200, {
      access_token: access,
      expires_in: tokenLifetime,
      refresh_expires_in: refreshLifetime,
      refresh_token: refresh,
      token_type: "bearer",
      "not-before-policy": 0,
      session_state: randomBytes(8).toString("hex"),
      scope: "",
    });
  }

  /** The user the request's bearer token belongs to; 401 otherwise. */
  function authenticate(req: IncomingMessage): string {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
    const t = m ? state.tokens.get(m[1].trim()) : undefined;
    if (!t || t.expiresAt <= now()) throw new HttpError(401, "Token de acceso inválido o vencido.");
    return t.username;
  }

  // ------------------------------------------------------------------ processing
  const maxFutureMs = options.maxFutureMs ?? 5 * 60_000;
  const lateAfterMs = options.lateAfterMs ?? 24 * 3_600_000;
  const row = (codigo: number, mensaje: string, fila = 0, columna = 0): VerdictRow => ({ codigo, mensaje, fila, columna });

  /**
   * Whose identification a document carries in its clave and whose certificate must sign it: the
   * issuer's; for a FEC the buyer who issues it (the Receptor, decision 087, A44 p.59); for a
   * MensajeReceptor the receiver who answers.
   */
  function signerOf(facts: ComprobanteFacts): { id?: string; role: string } {
    if (facts.root === "FacturaElectronicaCompra") return { id: facts.receptor.numero, role: "receptor que emite la factura de compra" };
    if (facts.root === "MensajeReceptor") return { id: facts.receptor.numero, role: "receptor que envía el mensaje" };
    return { id: facts.emisor.numero, role: "emisor" };
  }

  /** Identifications compare as the clave writes them: left-padded to 12 characters. */
  const pad12 = (id: string) => id.replace(/[-\s]/g, "").toUpperCase().padStart(12, "0");

  /** Issuer (as in the clave) + consecutive number: a number an issuer may use once. */
  function consecutiveKey(facts: ComprobanteFacts): string | undefined {
    const signer = signerOf(facts).id;
    if (!signer) return undefined;
    if (facts.root === "MensajeReceptor") return facts.numeroConsecutivoReceptor ? `MR ${pad12(signer)} ${facts.numeroConsecutivoReceptor}` : undefined;
    return facts.numeroConsecutivo ? `${pad12(signer)} ${facts.numeroConsecutivo}` : undefined;
  }

  /** The clave must say what the XML says: date, issuer, consecutive and document type (A44 Nota 3, NOTES §4). */
  function claveRows(facts: ComprobanteFacts): VerdictRow[] {
    if (facts.root === "MensajeReceptor" || !facts.clave) return [];
    const rows: VerdictRow[] = [];
    let parts;
    try {
      parts = parseClave(facts.clave);
    } catch (err) {
      return [row(SANDBOX_CODES.clave, err instanceof ClaveError ? err.message : `La clave ${facts.clave} no tiene la estructura de Hacienda.`)];
    }
    const issued = facts.fechaEmision ? new Date(facts.fechaEmision) : undefined;
    if (issued && !Number.isNaN(issued.getTime())) {
      const p = costaRicaParts(issued);
      const claveDate = facts.clave.slice(3, 9);
      if (claveDate !== `${p.day}${p.month}${p.year.slice(-2)}`)
        rows.push(row(SANDBOX_CODES.clave, `La fecha de la clave (${claveDate.slice(0, 2)}/${claveDate.slice(2, 4)}/${claveDate.slice(4)}) no corresponde a la FechaEmision del comprobante (${p.day}/${p.month}/${p.year.slice(-2)}, hora de Costa Rica).`));
    }
    const { id, role } = signerOf(facts);
    if (id && parts.issuerId.toUpperCase() !== pad12(id))
      rows.push(row(SANDBOX_CODES.clave, `La identificación de la clave (${parts.issuerId}) no corresponde a la del ${role} en el comprobante (${id}).`));
    if (facts.numeroConsecutivo && parts.consecutivo !== facts.numeroConsecutivo)
      rows.push(row(SANDBOX_CODES.clave, `El consecutivo de la clave (${parts.consecutivo}) no corresponde al NumeroConsecutivo del comprobante (${facts.numeroConsecutivo}).`));
    const docType = RECEIVABLE_ROOTS[facts.root];
    if (facts.numeroConsecutivo && docType && facts.numeroConsecutivo.slice(8, 10) !== docType)
      rows.push(row(SANDBOX_CODES.clave, `El NumeroConsecutivo ${facts.numeroConsecutivo} indica el tipo de documento ${facts.numeroConsecutivo.slice(8, 10)}, pero el comprobante es ${facts.root} (tipo ${docType}).`));
    return rows;
  }

  /** FechaEmision around the reception instant (the sandbox's own clock): decision 142. */
  function dateRows(facts: ComprobanteFacts, receivedAt: number): { errores: VerdictRow[]; avisos: VerdictRow[] } {
    const out = { errores: [] as VerdictRow[], avisos: [] as VerdictRow[] };
    if (!facts.fechaEmision) return out;
    const t = Date.parse(facts.fechaEmision);
    if (Number.isNaN(t)) return out; // the schema reports it
    const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
    if (t > receivedAt + maxFutureMs)
      out.errores.push(row(SANDBOX_CODES.date, `La FechaEmision (${facts.fechaEmision}) es posterior al momento en que Hacienda recibió el comprobante (${at(receivedAt)}): no se admiten comprobantes con fecha futura.`));
    else if (t < V44_IN_FORCE)
      out.errores.push(row(SANDBOX_CODES.date, `La FechaEmision (${facts.fechaEmision}) es anterior al 01/06/2025, cuando entró a regir la versión 4.4 de los comprobantes electrónicos.`));
    else if (receivedAt - t > lateAfterMs)
      out.avisos.push(
        row(SANDBOX_CODES.late, "El archivo XML, fue enviado a la Dirección General de Tributación de manera extemporánea; con base en lo estipulado en el artículo 9 y 15 ambos de la resolución 48-2016"),
      );
    return out;
  }

  const amount = (v: string | undefined) => (v && /^\d+(\.\d+)?$/.test(v) ? v.replace(/^0+(?=\d)/, "").replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "") : v);

  /** A MensajeReceptor answers a comprobante Hacienda has, with its issuer, receiver and amounts. */
  function receiverMessageRows(facts: ComprobanteFacts): VerdictRow[] {
    if (facts.root !== "MensajeReceptor" || !facts.clave) return [];
    const original = state.documents.get(facts.clave);
    if (!original)
      return [row(SANDBOX_CODES.receiverMessage, `Hacienda no ha recibido el comprobante con clave ${facts.clave}: el mensaje de receptor solo responde a un comprobante recibido.`)];
    const rows: VerdictRow[] = [];
    if (original.verdict.estado !== "aceptado")
      rows.push(row(SANDBOX_CODES.receiverMessage, `El comprobante con clave ${facts.clave} no fue aceptado por Hacienda (${original.verdict.estado}): no admite mensaje de receptor.`));
    if (facts.emisor.numero && pad12(facts.emisor.numero) !== pad12(original.emisor.numeroIdentificacion))
      rows.push(row(SANDBOX_CODES.receiverMessage, `NumeroCedulaEmisor (${facts.emisor.numero}) no es el emisor del comprobante (${original.emisor.numeroIdentificacion}).`));
    if (facts.receptor.numero && original.receptor && pad12(facts.receptor.numero) !== pad12(original.receptor.numeroIdentificacion))
      rows.push(row(SANDBOX_CODES.receiverMessage, `NumeroCedulaReceptor (${facts.receptor.numero}) no es el receptor del comprobante (${original.receptor.numeroIdentificacion}).`));
    if (facts.total && original.total && amount(facts.total) !== amount(original.total))
      rows.push(row(SANDBOX_CODES.receiverMessage, `TotalFactura (${facts.total}) no es el total del comprobante (${original.total}).`));
    if (facts.totalImpuesto && original.totalImpuesto && amount(facts.totalImpuesto) !== amount(original.totalImpuesto))
      rows.push(row(SANDBOX_CODES.receiverMessage, `MontoTotalImpuesto (${facts.totalImpuesto}) no es el impuesto del comprobante (${original.totalImpuesto}).`));
    return rows;
  }

  /**
   * Hacienda's judgement (NOTES §7: structure, formats, data): schema, signature and signer, clave
   * against the XML, date window, consecutive number, receiver message against its comprobante,
   * then the engine's business rules on a schema-valid document.
   */
  async function judge(xml: string, facts: ComprobanteFacts, ctx: { receivedAt: number; consecutiveTakenBy?: string }): Promise<Verdict> {
    const errores: VerdictRow[] = [];
    const avisos: VerdictRow[] = [];
    let issues: SchemaIssue[] = [];
    try {
      issues = await options.validate(xml);
    } catch (err) {
      issues = [{ message: (err as Error)?.message ?? String(err) }];
    }
    for (const i of issues.slice(0, 20)) {
      errores.push(row(SANDBOX_CODES.schema, `El comprobante no cumple el esquema XSD v4.4${i.path ? ` en ${i.path}` : ""}: ${i.message}`, i.line ?? 0, i.column ?? 0));
    }
    let verification: SandboxVerification;
    try {
      verification = await options.verify(xml);
    } catch (err) {
      verification = { valid: false, errors: [(err as Error)?.message ?? String(err)] };
    }
    if (!verification.valid) {
      const why = (verification.errors ?? [])
        .map((e) => (typeof e === "string" ? e : ((e as { message?: string })?.message ?? JSON.stringify(e))))
        .slice(0, 3)
        .join("; ");
      errores.push(row(SANDBOX_CODES.signature, `La firma del comprobante electrónico no es válida${why ? ` (${why})` : ""}`));
    } else if (verification.signerId) {
      const { id, role } = signerOf(facts);
      if (id && pad12(verification.signerId) !== pad12(id))
        errores.push(
          row(SANDBOX_CODES.signer, `El comprobante está firmado con el certificado de la identificación ${verification.signerId}, que no es la del ${role} (${id}): debe firmarse con la llave criptográfica del ${role}.`),
        );
    }
    errores.push(...claveRows(facts));
    const dates = dateRows(facts, ctx.receivedAt);
    errores.push(...dates.errores);
    avisos.push(...dates.avisos);
    if (ctx.consecutiveTakenBy) {
      const n = facts.root === "MensajeReceptor" ? facts.numeroConsecutivoReceptor : facts.numeroConsecutivo;
      errores.push(row(SANDBOX_CODES.duplicateConsecutive, `La numeración consecutiva ${n} de la identificación ${signerOf(facts).id} ya fue utilizada por el comprobante ${ctx.consecutiveTakenBy}.`));
    }
    errores.push(...receiverMessageRows(facts));
    if (issues.length === 0 && options.rules) {
      try {
        for (const r of await options.rules(xml)) {
          const mensaje = r.path && !r.message.includes(r.path) ? `${r.path}: ${r.message}` : r.message;
          if (r.warning) avisos.push(row(SANDBOX_CODES.warning, mensaje));
          else errores.push(row(SANDBOX_CODES.rule, mensaje));
        }
      } catch (err) {
        errores.push(row(SANDBOX_CODES.rule, `No se pudieron revisar las reglas del comprobante: ${(err as Error)?.message ?? String(err)}`));
      }
    }
    return { estado: errores.length ? "rechazado" : "aceptado", errores, avisos };
  }

  function isFinal(doc: ReceivedDocument): boolean {
    return now() - doc.receivedAt >= processingDelayMs && doc.pollsAnsweredProcessing >= processingPolls;
  }

  /**
   * GET /recepcion/{clave}: `recibido` right after reception (the first poll, and the first half
   * of the processing delay), then `procesando`, then the final state with the MensajeHacienda
   * (none for `error`).
   */
  function statusJson(doc: ReceivedDocument, final: boolean) {
    let estado: string = doc.verdict.estado;
    if (!final) estado = doc.pollsAnsweredProcessing === 0 || now() - doc.receivedAt < processingDelayMs / 2 ? "recibido" : "procesando";
    const body: Record<string, string> = { clave: doc.key, fecha: doc.fecha, "ind-estado": estado };
    if (final && doc.respuestaXml) body["respuesta-xml"] = Buffer.from(doc.respuestaXml, "utf8").toString("base64");
    return body;
  }

  function scheduleCallback(doc: ReceivedDocument) {
    if (!doc.callbackUrl) return;
    const url = doc.callbackUrl;
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    callbacks.add(done);
    const finish = () => {
      callbacks.delete(done);
      resolveDone();
    };
    const attempt = async () => {
      doc.callback.attempts++;
      try {
        const r = await doFetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(statusJson(doc, true)),
          signal: AbortSignal.timeout(10_000),
        });
        await r.arrayBuffer().catch(() => undefined);
        if (r.status === 200) {
          doc.callback.delivered = true;
          return finish();
        }
        doc.callback.lastError = `HTTP ${r.status}`;
      } catch (err) {
        doc.callback.lastError = (err as Error)?.message ?? String(err);
      }
      if (doc.callback.attempts >= 4) {
        log(`callback de ${doc.key} abandonado tras ${doc.callback.attempts} intentos: ${doc.callback.lastError}`);
        return finish();
      }
      const t = setTimeout(() => {
        timers.delete(t);
        void attempt();
      }, callbackRetryDelayMs);
      timers.add(t);
    };
    const t = setTimeout(() => {
      timers.delete(t);
      void attempt();
    }, processingDelayMs);
    timers.add(t);
  }

  async function register(json: Record<string, unknown>, username: string): Promise<{ key: string; duplicate: boolean }> {
    const { clave, fecha, emisor, receptor, callbackUrl, consecutivoReceptor, comprobanteXml } = json;
    if (typeof clave !== "string" || !CLAVE_RE.test(clave)) throw new HttpError(400, "La clave debe tener 50 caracteres alfanuméricos.");
    if (typeof fecha !== "string" || !FECHA_RE.test(fecha) || Number.isNaN(Date.parse(fecha))) {
      throw new HttpError(400, "La fecha es obligatoria y debe seguir el formato RFC 3339 (yyyy-MM-ddTHH:mm:ssZ), por ejemplo 2026-11-21T09:30:00-06:00.");
    }
    if (!isIdent(emisor)) throw new HttpError(400, "El emisor es obligatorio (tipoIdentificacion y numeroIdentificacion, hasta 12 caracteres).");
    if (receptor !== undefined && receptor !== null && !isIdent(receptor)) {
      throw new HttpError(400, "El receptor debe traer tipoIdentificacion (2) y numeroIdentificacion (hasta 12 caracteres).");
    }
    if (callbackUrl !== undefined && (typeof callbackUrl !== "string" || !/^https?:\/\//.test(callbackUrl))) {
      throw new HttpError(400, "El callbackUrl no es una dirección válida.");
    }
    if (consecutivoReceptor !== undefined && (typeof consecutivoReceptor !== "string" || !/^\d{20}$/.test(consecutivoReceptor))) {
      throw new HttpError(400, "El consecutivoReceptor debe tener 20 dígitos.");
    }
    if (typeof comprobanteXml !== "string" || !/^[A-Za-z0-9+/=\s]+$/.test(comprobanteXml)) {
      throw new HttpError(400, "El comprobanteXml es obligatorio y debe venir en Base64.");
    }
    const key = consecutivoReceptor ? `${clave}-${consecutivoReceptor}` : clave;
    for (let inflight = pending.get(key); inflight; inflight = pending.get(key)) await inflight;
    if (state.documents.has(key)) return { key, duplicate: true };

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    pending.set(key, gate);
    try {
      const xml = Buffer.from(comprobanteXml, "base64").toString("utf8");
      // Unreadable, or not a v4.4 comprobante: received, then answered `error` (nothing to judge).
      let facts: ComprobanteFacts | undefined;
      let unprocessable: string | undefined;
      try {
        facts = readComprobante(xml);
        if (!facts.receivable)
          unprocessable = `El documento (${facts.root}${facts.namespace ? `, ${facts.namespace}` : ", sin espacio de nombres"}) no es un comprobante electrónico v4.4 que la recepción admita.`;
      } catch (err) {
        unprocessable = (err as Error).message;
      }
      if (facts && !unprocessable) {
        if (facts.clave !== clave) {
          throw new HttpError(400, `La clave del mensaje (${clave}) no coincide con la clave del comprobante XML (${facts.clave ?? "ausente"}).`);
        }
        if (facts.root === "MensajeReceptor") {
          if (!consecutivoReceptor) throw new HttpError(400, "Un mensaje de receptor requiere consecutivoReceptor.");
          if (facts.numeroConsecutivoReceptor !== consecutivoReceptor) {
            throw new HttpError(400, "El consecutivoReceptor no coincide con NumeroConsecutivoReceptor del XML.");
          }
        }
        if (facts.emisor.numero !== emisor.numeroIdentificacion || (facts.emisor.tipo && facts.emisor.tipo !== emisor.tipoIdentificacion)) {
          throw new HttpError(
            400,
            `El emisor del mensaje (${emisor.tipoIdentificacion}-${emisor.numeroIdentificacion}) no coincide con el emisor del comprobante XML (${facts.emisor.tipo ?? "?"}-${facts.emisor.numero ?? "?"}).`,
          );
        }
      }
      const receivedAt = now();
      let verdict: Verdict;
      let respuestaXml: string | undefined;
      if (!facts || unprocessable) {
        verdict = { estado: "error", errores: [row(0, unprocessable ?? "El comprobante no se pudo procesar.")] };
      } else {
        // The consecutive number is taken at reception, before any await: a racing twin gets -99.
        const consKey = consecutiveKey(facts);
        const consecutiveTakenBy = consKey ? state.consecutives.get(consKey) : undefined;
        if (consKey && !consecutiveTakenBy) state.consecutives.set(consKey, key);
        verdict = await judge(xml, facts, { receivedAt, consecutiveTakenBy });
        // The MensajeHacienda names the comprobante's parties (for a receiver message: the original's).
        const original = facts.root === "MensajeReceptor" && facts.clave ? state.documents.get(facts.clave) : undefined;
        const named: ComprobanteFacts = {
          ...facts,
          emisor: { ...facts.emisor, nombre: facts.emisor.nombre || original?.emisorNombre || "DESCONOCIDO", tipo: facts.emisor.tipo ?? original?.emisor.tipoIdentificacion },
          receptor: { ...facts.receptor, tipo: facts.receptor.tipo ?? (isIdent(receptor) ? receptor.tipoIdentificacion : undefined) },
        };
        respuestaXml = await options.sign(buildMensajeHacienda(named, clave, verdict), signingKey, { now: new Date(now()) });
      }
      const doc: ReceivedDocument = {
        key,
        clave,
        consecutivoReceptor: consecutivoReceptor as string | undefined,
        fecha,
        emisor,
        receptor: isIdent(receptor) ? receptor : undefined,
        callbackUrl: callbackUrl as string | undefined,
        xml,
        username,
        fechaEmision: facts?.fechaEmision,
        root: facts?.root,
        total: facts?.total,
        totalImpuesto: facts?.totalImpuesto,
        emisorNombre: facts?.emisor.nombre,
        receivedAt,
        pollsAnsweredProcessing: 0,
        verdict,
        respuestaXml,
        callback: { attempts: 0, delivered: false },
      };
      state.documents.set(key, doc);
      state.registrations.set(key, (state.registrations.get(key) ?? 0) + 1);
      scheduleCallback(doc);
      return { key, duplicate: false };
    } finally {
      pending.delete(key);
      release();
    }
  }

  /** GET /comprobantes: the user's documents, newest first (A44 p.97; shape in decision 142). */
  function listJson(username: string, query: URLSearchParams) {
    const int = (name: string, fallback: number, max: number) => {
      const v = query.get(name);
      if (v === null || v === "") return fallback;
      if (!/^\d+$/.test(v)) throw new HttpError(400, `El parámetro ${name} debe ser un número entero no negativo.`);
      return Math.min(Number(v), max);
    };
    const offset = int("offset", 0, Number.MAX_SAFE_INTEGER);
    const limit = int("limit", 50, 100);
    const emisor = query.get("emisor") ?? query.get("emisorIdentificacion");
    const receptorId = query.get("receptor") ?? query.get("receptorIdentificacion");
    const since = query.get("fechaEmisionDesde");
    const until = query.get("fechaEmisionHasta");
    for (const [name, v] of [["fechaEmisionDesde", since], ["fechaEmisionHasta", until]] as const)
      if (v && Number.isNaN(Date.parse(v))) throw new HttpError(400, `El parámetro ${name} debe ser una fecha (yyyy-MM-dd o RFC 3339).`);
    const dayEnd = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T23:59:59.999-06:00`) : Date.parse(v));
    const dayStart = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00-06:00`) : Date.parse(v));
    const issuedAt = (d: ReceivedDocument) => Date.parse(d.fechaEmision ?? d.fecha);
    const mine = [...state.documents.values()]
      .filter((d) => d.username === username)
      .filter((d) => !emisor || d.emisor.numeroIdentificacion === emisor)
      .filter((d) => !receptorId || d.receptor?.numeroIdentificacion === receptorId)
      .filter((d) => !since || issuedAt(d) >= dayStart(since))
      .filter((d) => !until || issuedAt(d) <= dayEnd(until))
      .sort((a, b) => b.receivedAt - a.receivedAt || (a.key < b.key ? 1 : -1));
    return {
      totalRegistros: mine.length,
      offset,
      comprobantes: mine.slice(offset, offset + limit).map((d) => summaryOf(d)),
    };
  }

  function summaryOf(d: ReceivedDocument) {
    const final = isFinal(d);
    return {
      clave: d.clave,
      ...(d.consecutivoReceptor ? { consecutivoReceptor: d.consecutivoReceptor } : {}),
      fecha: d.fecha,
      fechaEmision: d.fechaEmision ?? d.fecha,
      emisor: d.emisor,
      ...(d.receptor ? { receptor: d.receptor } : {}),
      estado: final ? d.verdict.estado : "procesando",
    };
  }

  /** Returns true when the request was answered by a fault. */
  async function injectFaults(res: ServerResponse): Promise<boolean> {
    if (faults.delayMs > 0) await sleep(faults.delayMs);
    if (faults.error5xxShare > 0 && random() < faults.error5xxShare) {
      state.counters.injected5xx++;
      sendError(res, 503, "Servicio no disponible temporalmente.");
      return true;
    }
    if (faults.rateLimitShare > 0 && random() < faults.rateLimitShare) {
      state.counters.injected429++;
      sendError(res, 429, "Demasiadas solicitudes.", { "retry-after": String(faults.retryAfterSeconds) });
      return true;
    }
    return false;
  }

  function shouldDrop(): boolean {
    return faults.dropShare > 0 && random() < faults.dropShare;
  }

  function drop(req: IncomingMessage, res: ServerResponse) {
    state.counters.droppedAnswers++;
    res.socket?.destroy();
    req.socket.destroy();
  }

  async function handleRecepcion(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    if (await injectFaults(res)) return;
    const username = authenticate(req);
    if (path === "/recepcion/v1/recepcion" || path === "/recepcion/v1/recepcion/") {
      if (req.method !== "POST") throw new HttpError(405, "Método no permitido.");
      state.counters.posts++;
      let json: unknown;
      try {
        json = JSON.parse((await readBody(req)).toString("utf8"));
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw new HttpError(400, "El cuerpo del mensaje no es un JSON válido.");
      }
      if (!json || typeof json !== "object" || Array.isArray(json)) throw new HttpError(400, "El cuerpo del mensaje debe ser un objeto JSON.");
      let result: { key: string; duplicate: boolean };
      try {
        result = await register(json as Record<string, unknown>, username);
      } catch (err) {
        if (err instanceof HttpError) state.counters.rejectedPosts++;
        throw err;
      }
      if (shouldDrop()) return drop(req, res);
      if (result.duplicate) {
        state.counters.duplicatePosts++;
        return sendError(res, 400, `El comprobante [${result.key}] ya fue recibido anteriormente.`);
      }
      res.writeHead(202, { location: `${base}/recepcion/v1/recepcion/${result.key}`, "content-length": 0 });
      return res.end();
    }
    const m = /^\/recepcion\/v1\/recepcion\/([^/]+)$/.exec(path);
    if (m) {
      if (req.method !== "GET") throw new HttpError(405, "Método no permitido.");
      state.counters.gets++;
      const key = decodeURIComponent(m[1]);
      const doc = state.documents.get(key);
      if (!doc) throw new HttpError(404, `El comprobante [${key}] no ha sido recibido.`);
      const final = isFinal(doc);
      const body = statusJson(doc, final);
      if (!final) doc.pollsAnsweredProcessing++;
      if (shouldDrop()) return drop(req, res);
      return sendJson(res, 200, body);
    }
    if (path === "/recepcion/v1/comprobantes" || path === "/recepcion/v1/comprobantes/") {
      if (req.method !== "GET") throw new HttpError(405, "Método no permitido.");
      state.counters.gets++;
      return sendJson(res, 200, listJson(username, query));
    }
    const one = /^\/recepcion\/v1\/comprobantes\/([^/]+)$/.exec(path);
    if (one) {
      if (req.method !== "GET") throw new HttpError(405, "Método no permitido.");
      state.counters.gets++;
      const doc = state.documents.get(decodeURIComponent(one[1]));
      if (!doc || doc.username !== username) throw new HttpError(404, `El comprobante [${decodeURIComponent(one[1])}] no ha sido recibido.`);
      const final = isFinal(doc);
      return sendJson(res, 200, {
        ...summaryOf(doc),
        comprobanteXml: Buffer.from(doc.xml, "utf8").toString("base64"),
        ...(final && doc.respuestaXml ? { respuestaXml: Buffer.from(doc.respuestaXml, "utf8").toString("base64") } : {}),
      });
    }
    throw new HttpError(404, "Recurso no encontrado.");
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string) {
    if (path === "/__sandbox/faults") {
      if (req.method === "POST") {
        try {
          faults = mergeFaults(faults, JSON.parse((await readBody(req)).toString("utf8") || "{}"));
        } catch (err) {
          return sendJson(res, 400, { error: (err as Error).message });
        }
      }
      return sendJson(res, 200, faults);
    }
    if (path === "/__sandbox/state") return sendJson(res, 200, state.snapshot());
    return sendJson(res, 404, { error: "no encontrado" });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const path = url.pathname;
    const run = async () => {
      const tm = TOKEN_PATH.exec(path);
      if (tm) {
        if (faults.delayMs > 0) await sleep(faults.delayMs);
        return handleToken(req, res, tm[1]);
      }
      if (path.startsWith("/recepcion/v1/")) return handleRecepcion(req, res, path, url.searchParams);
      if (path.startsWith("/__sandbox/")) return handleAdmin(req, res, path);
      throw new HttpError(404, "Recurso no encontrado.");
    };
    run().catch((err) => {
      if (res.headersSent || res.destroyed) return;
      if (err instanceof HttpError) return sendError(res, err.status, err.cause_);
      log(`error interno: ${(err as Error)?.stack ?? String(err)}`);
      sendError(res, 500, "Error interno del simulador.");
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  const base = `http://${host}:${addr.port}`;

  return {
    url: base,
    tokenUrl: `${base}/auth/realms/rut-stag/protocol/openid-connect/token`,
    tokenUrlProduction: `${base}/auth/realms/rut/protocol/openid-connect/token`,
    recepcionUrl: `${base}/recepcion/v1/`,
    users,
    state,
    faults: () => ({ ...faults }),
    setFaults(patch) {
      faults = mergeFaults(faults, patch);
      return { ...faults };
    },
    async settled() {
      while (callbacks.size) await Promise.all([...callbacks]);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
