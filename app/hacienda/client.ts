/**
 * Hacienda API client: IdP tokens (Keycloak password / refresh grants) and the recepción API
 * (POST /recepcion, GET /recepcion/{clave}). Pure: `fetch`, `now`, `sleep` and `random` are
 * injected, and so are the MensajeHacienda verifier and parser.
 *
 * TLS: this client uses the platform `fetch`, which always verifies server certificates. It never
 * passes a dispatcher/agent that disables verification, and refuses plain `http:` URLs except for
 * loopback hosts (the local sandbox). See docs/decisions/032-hacienda-client-transport.md.
 */
import { DOMParser } from "@xmldom/xmldom";

// ---------------------------------------------------------------------------------------------
// Environments (NOTES §2–3)

export type HaciendaEnvironmentName = "staging" | "production";

export interface EnvironmentConfig {
  /** IdP token endpoint (Keycloak realm `rut` or `rut-stag`). */
  tokenUrl: string;
  /** OAuth2 client id: `api-prod` or `api-stag`. */
  clientId: string;
  /** Recepción API base, ending in `/`, e.g. `https://api.comprobanteselectronicos.go.cr/recepcion/v1/`. */
  recepcionUrl: string;
}

export const IDP_BASE_URL = "https://idp.comprobanteselectronicos.go.cr/auth";

export function tokenUrlFor(idpBase: string, realm: "rut" | "rut-stag"): string {
  return `${idpBase.replace(/\/+$/, "")}/realms/${realm}/protocol/openid-connect/token`;
}

/** The second sandbox URL seen in client code (TICO, CRLibre); the Anexo's one is the default. */
export const ALTERNATE_STAGING_RECEPCION_URL = "https://api-sandbox.comprobanteselectronicos.go.cr/recepcion/v1/";

export const ENVIRONMENTS: Readonly<Record<HaciendaEnvironmentName, Readonly<EnvironmentConfig>>> = Object.freeze({
  production: Object.freeze({
    tokenUrl: tokenUrlFor(IDP_BASE_URL, "rut"),
    clientId: "api-prod",
    recepcionUrl: "https://api.comprobanteselectronicos.go.cr/recepcion/v1/",
  }),
  staging: Object.freeze({
    tokenUrl: tokenUrlFor(IDP_BASE_URL, "rut-stag"),
    clientId: "api-stag",
    recepcionUrl: "https://api.comprobanteselectronicos.go.cr/recepcion-sandbox/v1/",
  }),
});

/** Configuration for a local sandbox started at `baseUrl` (e.g. `http://127.0.0.1:8089`). */
export function sandboxEnvironment(baseUrl: string, realm: "rut" | "rut-stag" = "rut-stag"): EnvironmentConfig {
  const root = baseUrl.replace(/\/+$/, "");
  return {
    tokenUrl: tokenUrlFor(`${root}/auth`, realm),
    clientId: realm === "rut" ? "api-prod" : "api-stag",
    recepcionUrl: `${root}/recepcion/v1/`,
  };
}

// ---------------------------------------------------------------------------------------------
// Errors

export type HaciendaClientErrorCode =
  | "CONFIGURACION"
  | "CREDENCIALES_INVALIDAS"
  | "IDP_NO_DISPONIBLE"
  | "TIEMPO_AGOTADO"
  | "RED"
  | "SERVICIO_NO_DISPONIBLE"
  | "LIMITE_DE_SOLICITUDES"
  | "ENVIO_RECHAZADO"
  | "NO_AUTORIZADO"
  | "NO_ENCONTRADO"
  | "CONSULTA_RECHAZADA"
  | "RESPUESTA_INVALIDA";

export class HaciendaClientError extends Error {
  readonly code: HaciendaClientErrorCode;
  readonly httpStatus?: number;
  /** The `X-Error-Cause` header (or IdP error description) as Hacienda sent it. */
  readonly errorCause?: string;
  readonly retryable: boolean;
  constructor(
    code: HaciendaClientErrorCode,
    message: string,
    extra: { httpStatus?: number; errorCause?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = "HaciendaClientError";
    this.code = code;
    this.httpStatus = extra.httpStatus;
    this.errorCause = extra.errorCause;
    this.retryable = extra.retryable ?? false;
  }
}

// ---------------------------------------------------------------------------------------------
// Types

export interface Credentials {
  username: string;
  password: string;
  /** Cache / rate-limit key; one per company. Defaults to the username. */
  companyKey?: string;
}

export interface Identificacion {
  tipoIdentificacion: string;
  numeroIdentificacion: string;
}

/** An identification the recepción API takes: a 2-character type and at most 12 characters of number (NOTES §3). */
export function fitsApi(id: Identificacion): boolean {
  return /^\d{2}$/.test(id.tipoIdentificacion) && id.numeroIdentificacion.length > 0 && id.numeroIdentificacion.length <= 12;
}

export interface SubmitRequest {
  clave: string;
  /** RFC 3339 string, or a Date (formatted in Costa Rica time, -06:00). */
  fecha: string | Date;
  emisor: Identificacion;
  receptor?: Identificacion;
  callbackUrl?: string;
  consecutivoReceptor?: string;
  /** The signed XML exactly as stored (string = UTF-8 text, or its bytes). Never re-serialized. */
  comprobanteXml: string | Uint8Array;
}

export interface SubmitResult {
  sent: true;
  /** True when Hacienda said the clave had already been received (a safe resubmission). */
  duplicate: boolean;
  httpStatus: number;
  location?: string;
  errorCause?: string;
}

export type EstadoHacienda = "recibido" | "procesando" | "aceptado" | "rechazado" | "error";

export interface VerifyLike {
  valid: boolean;
  errors?: unknown[];
}

export interface MensajeHaciendaInfo {
  xml: string;
  /** Result of the injected verifier, or undefined when none was injected. */
  verification?: VerifyLike;
  /** Result of the injected parser, or undefined when none was injected. */
  summary?: unknown;
  clave?: string;
  /** 1 aceptado, 2 aceptación parcial, 3 rechazado */
  mensaje?: string;
  estadoMensaje?: string;
  detalleMensaje?: string;
  /** DetalleMensaje split into lines, blank lines removed. */
  detalleLineas: string[];
}

export interface StatusResult {
  clave: string;
  fecha?: string;
  estado: EstadoHacienda;
  /** The raw `ind-estado` as received. */
  indEstado: string;
  respuesta?: MensajeHaciendaInfo;
}

export interface ClientOptions {
  environment?: HaciendaEnvironmentName;
  /** Overrides for the environment's URLs / client id (the sandbox is just another base URL). */
  tokenUrl?: string;
  clientId?: string;
  recepcionUrl?: string;
  fetch?: typeof fetch;
  /** Milliseconds since epoch. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Per-request timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 5xx and 429 (default 5). */
  maxRetries?: number;
  /** Backoff base and cap in ms (default 500 ms, 30 s). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Longest Retry-After honoured, in ms (default 120 s). */
  maxRetryAfterMs?: number;
  /** Per-company token bucket: requests per second and burst (default 10/s, burst 10). 0 disables. */
  rateLimitPerSecond?: number;
  rateLimitBurst?: number;
  /** Renew tokens this long before they expire (default 10 s). */
  tokenSkewMs?: number;
  /** Verifies the MensajeHacienda signature (app/hacienda/verify.ts `verifyXml`). */
  verify?: (xml: string) => VerifyLike | Promise<VerifyLike>;
  /** Parses the MensajeHacienda (app/hacienda/parse.ts `parseReceived`). */
  parse?: (xml: string) => unknown;
}

export interface HaciendaClient {
  readonly config: Readonly<EnvironmentConfig>;
  getToken(credentials: Credentials): Promise<string>;
  /** Forgets the cached token of a company (e.g. on password change). */
  forgetToken(credentials: Credentials): void;
  submit(credentials: Credentials, request: SubmitRequest): Promise<SubmitResult>;
  status(credentials: Credentials, clave: string, consecutivoReceptor?: string): Promise<StatusResult>;
}

// ---------------------------------------------------------------------------------------------
// Helpers (exported for tests and for the sandbox)

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function assertSafeUrl(url: string, what: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HaciendaClientError("CONFIGURACION", `La dirección de ${what} no es válida: ${url}`);
  }
  if (parsed.protocol === "https:") return;
  if (parsed.protocol === "http:" && LOOPBACK.has(parsed.hostname)) return;
  throw new HaciendaClientError(
    "CONFIGURACION",
    `La dirección de ${what} debe usar HTTPS (solo el simulador local puede usar http://127.0.0.1): ${url}`,
  );
}

/** RFC 3339 `yyyy-MM-ddTHH:mm:ss-06:00` in Costa Rica time (UTC-6, no daylight saving). */
export function formatFechaCR(date: Date): string {
  const shifted = new Date(date.getTime() - 6 * 3600_000);
  return `${shifted.toISOString().slice(0, 19)}-06:00`;
}

export function toBase64Utf8(xml: string | Uint8Array): string {
  return typeof xml === "string" ? Buffer.from(xml, "utf8").toString("base64") : Buffer.from(xml).toString("base64");
}

/** Parses a Retry-After header (seconds or HTTP date) into ms, or undefined. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: a random delay in [cap/2, cap], cap = min(max, base·2^attempt). */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const cap = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(cap / 2 + random() * (cap / 2));
}

const ESTADOS: readonly EstadoHacienda[] = ["recibido", "procesando", "aceptado", "rechazado", "error"];

export function normalizeEstado(value: unknown): EstadoHacienda {
  const s = String(value ?? "").trim().toLowerCase();
  return (ESTADOS as readonly string[]).includes(s) ? (s as EstadoHacienda) : "error";
}

/** Token bucket with reservation: callers may drive the bucket negative and wait their turn. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.tokens = burst;
    this.last = now();
  }
  /** Returns the wait (ms) that was needed. */
  async take(): Promise<number> {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    const wait = Math.ceil((-this.tokens / this.ratePerSecond) * 1000);
    await this.sleep(wait);
    return wait;
  }
}

function textOf(doc: Document, localName: string): string | undefined {
  const root = doc.documentElement;
  if (!root) return undefined;
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === localName) return (n as Element).textContent ?? "";
  }
  return undefined;
}

/** Reads Clave, Mensaje, EstadoMensaje and DetalleMensaje out of a MensajeHacienda. */
export function readMensajeHacienda(xml: string): Omit<MensajeHaciendaInfo, "xml" | "verification" | "summary"> {
  let doc: Document;
  try {
    doc = new DOMParser({ onError: () => undefined }).parseFromString(xml, "text/xml") as unknown as Document;
  } catch {
    return { detalleLineas: [] };
  }
  const detalle = textOf(doc, "DetalleMensaje");
  return {
    clave: textOf(doc, "Clave"),
    mensaje: textOf(doc, "Mensaje"),
    estadoMensaje: textOf(doc, "EstadoMensaje"),
    detalleMensaje: detalle,
    detalleLineas: (detalle ?? "")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0),
  };
}

function normalizeKey(k: string): string {
  return k.toLowerCase().replace(/[-_\s]/g, "");
}

export interface CallbackPayload {
  clave: string;
  fecha?: string;
  estado: EstadoHacienda;
  indEstado: string;
  /** Decoded MensajeHacienda XML, when present. */
  respuestaXml?: string;
}

/**
 * Parses the JSON Hacienda POSTs to a callbackUrl. Accepts `ind-estado`/`respuesta-xml` (as the
 * GET answers) and `indEstado`/`respuestaXml` (as the Anexo's example), any key case, any state case.
 */
export function parseCallback(body: string | Record<string, unknown>): CallbackPayload {
  let obj: unknown = body;
  if (typeof body === "string") {
    try {
      obj = JSON.parse(body);
    } catch {
      throw new HaciendaClientError("RESPUESTA_INVALIDA", "La notificación de Hacienda no es un JSON válido.");
    }
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) {
    throw new HaciendaClientError("RESPUESTA_INVALIDA", "La notificación de Hacienda no tiene la forma esperada.");
  }
  const map = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) map.set(normalizeKey(k), v);
  const clave = map.get("clave");
  if (typeof clave !== "string" || clave.length === 0) {
    throw new HaciendaClientError("RESPUESTA_INVALIDA", "La notificación de Hacienda no trae la clave del comprobante.");
  }
  const ind = map.get("indestado");
  if (typeof ind !== "string") {
    throw new HaciendaClientError("RESPUESTA_INVALIDA", "La notificación de Hacienda no trae el estado del comprobante.");
  }
  const rx = map.get("respuestaxml");
  const fecha = map.get("fecha");
  return {
    clave,
    fecha: typeof fecha === "string" ? fecha : undefined,
    estado: normalizeEstado(ind),
    indEstado: ind,
    respuestaXml: typeof rx === "string" && rx.length > 0 ? Buffer.from(rx, "base64").toString("utf8") : undefined,
  };
}

/** Hacienda's X-Error-Cause for a clave it already has. */
export function isAlreadyReceivedCause(cause: string | undefined): boolean {
  return !!cause && /(ya\s+(fue|ha\s+sido)\s+recibid|ya\s+existe|already\s+(been\s+)?received|duplicad)/i.test(cause);
}

// ---------------------------------------------------------------------------------------------
// Client

interface CachedToken {
  accessToken: string;
  expiresAt: number;
  refreshToken?: string;
  refreshExpiresAt: number;
}

class RetryableFailure extends Error {
  constructor(
    readonly error: HaciendaClientError,
    readonly retryAfterMs?: number,
  ) {
    super(error.message);
  }
}

export function createHaciendaClient(options: ClientOptions = {}): HaciendaClient {
  const env = ENVIRONMENTS[options.environment ?? "staging"];
  if (!env) throw new HaciendaClientError("CONFIGURACION", `Ambiente de Hacienda desconocido: ${options.environment}`);
  const config: EnvironmentConfig = {
    tokenUrl: options.tokenUrl ?? env.tokenUrl,
    clientId: options.clientId ?? env.clientId,
    recepcionUrl: (options.recepcionUrl ?? env.recepcionUrl).replace(/\/*$/, "/"),
  };
  assertSafeUrl(config.tokenUrl, "autenticación de Hacienda");
  assertSafeUrl(config.recepcionUrl, "recepción de Hacienda");

  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 5;
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const backoffMaxMs = options.backoffMaxMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
  const rate = options.rateLimitPerSecond ?? 10;
  const burst = options.rateLimitBurst ?? Math.max(1, Math.ceil(rate));
  const skew = options.tokenSkewMs ?? 10_000;

  const tokens = new Map<string, CachedToken>();
  const inflightTokens = new Map<string, Promise<string>>();
  const buckets = new Map<string, TokenBucket>();

  const keyOf = (c: Credentials) => c.companyKey ?? c.username;

  async function throttle(key: string): Promise<void> {
    if (!(rate > 0)) return;
    let b = buckets.get(key);
    if (!b) {
      b = new TokenBucket(rate, burst, now, sleep);
      buckets.set(key, b);
    }
    await b.take();
  }

  /** One HTTP exchange with a timeout. Network errors and timeouts become RetryableFailure. */
  async function exchange(url: string, init: RequestInit, what: string): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await doFetch(url, { ...init, signal: controller.signal });
      // Read the body inside the timeout too.
      const body = await res.arrayBuffer();
      return new Response(res.status === 204 || res.status === 304 ? null : body, {
        status: res.status,
        headers: res.headers,
      });
    } catch (err) {
      if (controller.signal.aborted) {
        throw new RetryableFailure(
          new HaciendaClientError(
            "TIEMPO_AGOTADO",
            `Hacienda no respondió a tiempo (${what}, ${Math.round(timeoutMs / 1000)} s). Se reintentará; el envío es seguro de repetir.`,
            { retryable: true, cause: err },
          ),
        );
      }
      throw new RetryableFailure(
        new HaciendaClientError(
          "RED",
          `No se pudo conectar con Hacienda (${what}): ${(err as Error)?.message ?? String(err)}. Revise la conexión a internet.`,
          { retryable: true, cause: err },
        ),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `attempt` with retries for RetryableFailure; 5xx/429 are turned into RetryableFailure by callers. */
  async function withRetries<T>(key: string, attempt: () => Promise<T>): Promise<T> {
    let lastError: HaciendaClientError | undefined;
    for (let i = 0; i <= maxRetries; i++) {
      await throttle(key);
      try {
        return await attempt();
      } catch (err) {
        if (!(err instanceof RetryableFailure)) throw err;
        lastError = err.error;
        if (i === maxRetries) break;
        const delay =
          err.retryAfterMs !== undefined
            ? Math.min(err.retryAfterMs, maxRetryAfterMs)
            : backoffDelay(i, backoffBaseMs, backoffMaxMs, random);
        await sleep(delay);
      }
    }
    throw lastError!;
  }

  function statusFailure(res: Response, what: string): RetryableFailure | undefined {
    const cause = res.headers.get("x-error-cause") ?? undefined;
    if (res.status === 429) {
      return new RetryableFailure(
        new HaciendaClientError(
          "LIMITE_DE_SOLICITUDES",
          `Hacienda pidió esperar antes de más solicitudes (${what}). Se reintentará automáticamente.`,
          { httpStatus: 429, errorCause: cause, retryable: true },
        ),
        parseRetryAfter(res.headers.get("retry-after"), now()),
      );
    }
    if (res.status >= 500) {
      return new RetryableFailure(
        new HaciendaClientError(
          "SERVICIO_NO_DISPONIBLE",
          `El servicio de Hacienda no está disponible (${what}, HTTP ${res.status}${cause ? `: ${cause}` : ""}). Se reintentará más tarde.`,
          { httpStatus: res.status, errorCause: cause, retryable: true },
        ),
        parseRetryAfter(res.headers.get("retry-after"), now()),
      );
    }
    return undefined;
  }

  async function tokenRequest(key: string, form: Record<string, string>): Promise<Response> {
    return withRetries(key, async () => {
      const res = await exchange(
        config.tokenUrl,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: new URLSearchParams(form).toString(),
        },
        "autenticación",
      );
      const failure = statusFailure(res, "autenticación");
      if (failure) {
        throw new RetryableFailure(
          new HaciendaClientError(
            "IDP_NO_DISPONIBLE",
            `El servicio de autenticación de Hacienda no está disponible (HTTP ${res.status}). Se reintentará más tarde.`,
            { httpStatus: res.status, retryable: true },
          ),
          failure.retryAfterMs,
        );
      }
      return res;
    });
  }

  async function readTokenResponse(res: Response, key: string): Promise<string> {
    let body: Record<string, unknown>;
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      throw new HaciendaClientError("RESPUESTA_INVALIDA", "El servicio de autenticación de Hacienda respondió algo ilegible.", {
        httpStatus: res.status,
      });
    }
    const access = body.access_token;
    if (typeof access !== "string" || !access) {
      throw new HaciendaClientError("RESPUESTA_INVALIDA", "El servicio de autenticación de Hacienda no entregó un token.", {
        httpStatus: res.status,
      });
    }
    const t = now();
    const expiresIn = Number(body.expires_in ?? 300);
    const refreshIn = Number(body.refresh_expires_in ?? 0);
    tokens.set(key, {
      accessToken: access,
      expiresAt: t + (Number.isFinite(expiresIn) ? expiresIn : 300) * 1000,
      refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : undefined,
      refreshExpiresAt: t + (Number.isFinite(refreshIn) ? refreshIn : 0) * 1000,
    });
    return access;
  }

  async function passwordGrant(c: Credentials, key: string): Promise<string> {
    const res = await tokenRequest(key, {
      grant_type: "password",
      client_id: config.clientId,
      client_secret: "",
      username: c.username,
      password: c.password,
      scope: "",
    });
    if (res.status === 200) return readTokenResponse(res, key);
    let description = "";
    try {
      const body = (await res.json()) as Record<string, unknown>;
      description = String(body.error_description ?? body.error ?? "");
    } catch {
      /* not JSON */
    }
    if (res.status === 401 || res.status === 400) {
      throw new HaciendaClientError(
        "CREDENCIALES_INVALIDAS",
        "Hacienda rechazó el usuario o la contraseña de comprobantes electrónicos. Revíselos en Configuración › Hacienda (se obtienen en ATV / OVi).",
        { httpStatus: res.status, errorCause: description || undefined },
      );
    }
    throw new HaciendaClientError(
      "IDP_NO_DISPONIBLE",
      `El servicio de autenticación de Hacienda respondió HTTP ${res.status}${description ? `: ${description}` : ""}.`,
      { httpStatus: res.status, errorCause: description || undefined },
    );
  }

  async function refreshGrant(refreshToken: string, key: string): Promise<string | undefined> {
    const res = await tokenRequest(key, {
      grant_type: "refresh_token",
      client_id: config.clientId,
      refresh_token: refreshToken,
    });
    if (res.status === 200) return readTokenResponse(res, key);
    return undefined; // expired / revoked: fall back to the password grant
  }

  async function obtainToken(c: Credentials): Promise<string> {
    const key = keyOf(c);
    const cached = tokens.get(key);
    const t = now();
    if (cached && t < cached.expiresAt - skew) return cached.accessToken;
    const running = inflightTokens.get(key);
    if (running) return running;
    const p = (async () => {
      if (cached?.refreshToken && t < cached.refreshExpiresAt - skew) {
        const refreshed = await refreshGrant(cached.refreshToken, key);
        if (refreshed) return refreshed;
      }
      tokens.delete(key);
      return passwordGrant(c, key);
    })();
    inflightTokens.set(key, p);
    try {
      return await p;
    } finally {
      inflightTokens.delete(key);
    }
  }

  /** An authenticated call; on 401 the token is dropped and the call retried once with a new one. */
  async function authorized(c: Credentials, url: string, init: RequestInit, what: string): Promise<Response> {
    const key = keyOf(c);
    for (let round = 0; round < 2; round++) {
      const token = await obtainToken(c);
      const res = await withRetries(key, async () => {
        const r = await exchange(
          url,
          { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } },
          what,
        );
        const failure = statusFailure(r, what);
        if (failure) throw failure;
        return r;
      });
      if (res.status === 401 && round === 0) {
        tokens.delete(key);
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        throw new HaciendaClientError(
          "NO_AUTORIZADO",
          "Hacienda no autorizó la solicitud con el usuario configurado. Revise que el usuario de comprobantes electrónicos pertenezca a este emisor.",
          { httpStatus: res.status, errorCause: res.headers.get("x-error-cause") ?? undefined },
        );
      }
      return res;
    }
    throw new HaciendaClientError("NO_AUTORIZADO", "Hacienda no autorizó la solicitud.");
  }

  async function submit(c: Credentials, req: SubmitRequest): Promise<SubmitResult> {
    const body: Record<string, unknown> = {
      clave: req.clave,
      fecha: typeof req.fecha === "string" ? req.fecha : formatFechaCR(req.fecha),
      emisor: { tipoIdentificacion: req.emisor.tipoIdentificacion, numeroIdentificacion: req.emisor.numeroIdentificacion },
    };
    // The receptor is optional in the API and its numeroIdentificacion has at most 12 characters
    // (NOTES §3): a foreign buyer's longer identification travels in the signed XML only.
    if (req.receptor && fitsApi(req.receptor)) {
      body.receptor = {
        tipoIdentificacion: req.receptor.tipoIdentificacion,
        numeroIdentificacion: req.receptor.numeroIdentificacion,
      };
    }
    if (req.callbackUrl) body.callbackUrl = req.callbackUrl;
    if (req.consecutivoReceptor) body.consecutivoReceptor = req.consecutivoReceptor;
    body.comprobanteXml = toBase64Utf8(req.comprobanteXml);

    const res = await authorized(
      c,
      `${config.recepcionUrl}recepcion`,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) },
      "envío del comprobante",
    );
    const cause = res.headers.get("x-error-cause") ?? undefined;
    const location = res.headers.get("location") ?? undefined;
    if (res.status === 202 || res.status === 201 || res.status === 200) {
      return { sent: true, duplicate: false, httpStatus: res.status, location };
    }
    if (res.status === 409 || (res.status === 400 && isAlreadyReceivedCause(cause))) {
      return { sent: true, duplicate: true, httpStatus: res.status, location, errorCause: cause };
    }
    throw new HaciendaClientError(
      "ENVIO_RECHAZADO",
      `Hacienda no recibió el comprobante ${req.clave}: ${cause ?? `HTTP ${res.status}`}. Corrija el documento y vuelva a enviarlo.`,
      { httpStatus: res.status, errorCause: cause },
    );
  }

  async function status(c: Credentials, clave: string, consecutivoReceptor?: string): Promise<StatusResult> {
    const pathKey = consecutivoReceptor ? `${clave}-${consecutivoReceptor}` : clave;
    const res = await authorized(
      c,
      `${config.recepcionUrl}recepcion/${encodeURIComponent(pathKey)}`,
      { method: "GET", headers: { accept: "application/json" } },
      "consulta de estado",
    );
    const cause = res.headers.get("x-error-cause") ?? undefined;
    if (res.status === 404) {
      throw new HaciendaClientError(
        "NO_ENCONTRADO",
        `Hacienda no tiene registrado el comprobante ${pathKey}${cause ? `: ${cause}` : ""}. Envíelo de nuevo.`,
        { httpStatus: 404, errorCause: cause },
      );
    }
    if (res.status !== 200) {
      throw new HaciendaClientError(
        "CONSULTA_RECHAZADA",
        `Hacienda no respondió el estado de ${pathKey}: ${cause ?? `HTTP ${res.status}`}.`,
        { httpStatus: res.status, errorCause: cause },
      );
    }
    let payload: CallbackPayload;
    try {
      payload = parseCallback(await res.text());
    } catch (err) {
      throw new HaciendaClientError("RESPUESTA_INVALIDA", `Hacienda respondió el estado de ${pathKey} en un formato inesperado.`, {
        httpStatus: 200,
        cause: err,
      });
    }
    const result: StatusResult = {
      clave: payload.clave,
      fecha: payload.fecha,
      estado: payload.estado,
      indEstado: payload.indEstado,
    };
    if (payload.respuestaXml) result.respuesta = await describeRespuesta(payload.respuestaXml, options);
    return result;
  }

  return {
    config,
    getToken: obtainToken,
    forgetToken: (c) => {
      tokens.delete(keyOf(c));
    },
    submit,
    status,
  };
}

/** Verifies (injected), parses (injected) and reads a MensajeHacienda. */
export async function describeRespuesta(
  xml: string,
  deps: Pick<ClientOptions, "verify" | "parse">,
): Promise<MensajeHaciendaInfo> {
  const info: MensajeHaciendaInfo = { xml, ...readMensajeHacienda(xml) };
  if (deps.verify) {
    try {
      info.verification = await deps.verify(xml);
    } catch (err) {
      info.verification = { valid: false, errors: [(err as Error)?.message ?? String(err)] };
    }
  }
  if (deps.parse) {
    try {
      info.summary = deps.parse(xml);
    } catch (err) {
      info.summary = { error: (err as Error)?.message ?? String(err) };
    }
  }
  return info;
}
