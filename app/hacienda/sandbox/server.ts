/**
 * Local simulator of Hacienda's IdP and recepción API (NOTES §2–3): same paths, JSON shapes,
 * status codes and headers. Schema validation, signature verification and MensajeHacienda
 * signing are injected, so tests and the CLI run it with the real library.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NO_FAULTS, mergeFaults, type SandboxFaults } from "./faults.ts";
import { buildMensajeHacienda, readComprobante, type ComprobanteFacts } from "./mensaje.ts";
import { SandboxState, type ReceivedDocument, type SandboxUser, type Verdict } from "./state.ts";

export interface SchemaIssue {
  path?: string;
  message: string;
  line?: number;
  column?: number;
}

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
  /** Signature verification of a comprobante. */
  verify: (xml: string) => { valid: boolean; errors?: unknown[] } | Promise<{ valid: boolean; errors?: unknown[] }>;
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

  function authenticate(req: IncomingMessage): void {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
    const t = m ? state.tokens.get(m[1].trim()) : undefined;
    if (!t || t.expiresAt <= now()) throw new HttpError(401, "Token de acceso inválido o vencido.");
  }

  // ------------------------------------------------------------------ processing
  async function judge(xml: string): Promise<Verdict> {
    const errores: Verdict["errores"] = [];
    let issues: SchemaIssue[] = [];
    try {
      issues = await options.validate(xml);
    } catch (err) {
      issues = [{ message: (err as Error)?.message ?? String(err) }];
    }
    for (const i of issues.slice(0, 20)) {
      errores.push({
        codigo: -37,
        mensaje: `El comprobante no cumple el esquema XSD v4.4${i.path ? ` en ${i.path}` : ""}: ${i.message}`,
        fila: i.line ?? 0,
        columna: i.column ?? 0,
      });
    }
    let verification: { valid: boolean; errors?: unknown[] };
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
      errores.push({
        codigo: -99,
        mensaje: `La firma del comprobante electrónico no es válida${why ? ` (${why})` : ""}`,
        fila: 0,
        columna: 0,
      });
    }
    return { estado: errores.length ? "rechazado" : "aceptado", errores };
  }

  function isFinal(doc: ReceivedDocument): boolean {
    return now() - doc.receivedAt >= processingDelayMs && doc.pollsAnsweredProcessing >= processingPolls;
  }

  function statusJson(doc: ReceivedDocument, final: boolean) {
    const body: Record<string, string> = { clave: doc.key, fecha: doc.fecha, "ind-estado": final ? doc.verdict.estado : "procesando" };
    if (final) body["respuesta-xml"] = Buffer.from(doc.respuestaXml, "utf8").toString("base64");
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

  async function register(json: Record<string, unknown>): Promise<{ key: string; duplicate: boolean }> {
    const { clave, fecha, emisor, receptor, callbackUrl, consecutivoReceptor, comprobanteXml } = json;
    if (typeof clave !== "string" || !CLAVE_RE.test(clave)) throw new HttpError(400, "La clave debe tener 50 caracteres alfanuméricos.");
    if (typeof fecha !== "string" || Number.isNaN(Date.parse(fecha))) {
      throw new HttpError(400, "La fecha es obligatoria y debe seguir el formato RFC 3339 (yyyy-MM-ddTHH:mm:ssZ).");
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
      let facts: ComprobanteFacts;
      try {
        facts = readComprobante(xml);
      } catch (err) {
        throw new HttpError(400, (err as Error).message);
      }
      if (facts.clave !== clave) {
        throw new HttpError(
          400,
          `La clave del mensaje (${clave}) no coincide con la clave del comprobante XML (${facts.clave ?? "ausente"}).`,
        );
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
      const verdict = await judge(xml);
      const unsigned = buildMensajeHacienda(facts, clave, verdict);
      const respuestaXml = await options.sign(unsigned, signingKey, { now: new Date(now()) });
      const doc: ReceivedDocument = {
        key,
        clave,
        consecutivoReceptor: consecutivoReceptor as string | undefined,
        fecha,
        emisor,
        receptor: isIdent(receptor) ? receptor : undefined,
        callbackUrl: callbackUrl as string | undefined,
        xml,
        receivedAt: now(),
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

  async function handleRecepcion(req: IncomingMessage, res: ServerResponse, path: string) {
    if (await injectFaults(res)) return;
    authenticate(req);
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
        result = await register(json as Record<string, unknown>);
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
      if (!final) doc.pollsAnsweredProcessing++;
      if (shouldDrop()) return drop(req, res);
      return sendJson(res, 200, statusJson(doc, final));
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
    const path = new URL(req.url ?? "/", "http://sandbox").pathname;
    const run = async () => {
      const tm = TOKEN_PATH.exec(path);
      if (tm) {
        if (faults.delayMs > 0) await sleep(faults.delayMs);
        return handleToken(req, res, tm[1]);
      }
      if (path.startsWith("/recepcion/v1/")) return handleRecepcion(req, res, path);
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
