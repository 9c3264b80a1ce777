// HTTP pieces of the integrator API: JSON answers, errors as application/problem+json with a Spanish
// `detail` (RFC 9457), request bodies read up to a limit of bytes actually read, and zod validation
// whose issues become JSON-pointer field errors.
import { z } from "zod";
import { API_MESSAGES, pointerOf } from "../../domain/api/schemas.ts";
import type { FieldError as DraftFieldError } from "../../domain/document-draft.ts";
import { readTextLimited } from "../request-body.server.ts";

export interface FieldError {
  pointer: string;
  detail: string;
}

const TITLES: Record<number, string> = {
  400: "Solicitud inválida",
  401: "No autorizado",
  403: "Prohibido",
  404: "No encontrado",
  405: "Método no permitido",
  409: "Conflicto",
  413: "Solicitud demasiado grande",
  415: "Tipo de contenido no admitido",
  429: "Demasiadas solicitudes",
  500: "Error interno",
  502: "Falla de un servicio externo",
};

/** An API failure: thrown anywhere in a call, answered by the dispatcher as problem+json. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export function problemBody(status: number, code: string, detail: string, errors?: FieldError[]) {
  return { type: `/api/docs#${code}`, title: TITLES[status] ?? "Error", status, detail, ...(errors?.length ? { errors } : {}) };
}

const NO_STORE = { "Cache-Control": "no-store" };

export function problem(error: ApiError): Response {
  return new Response(JSON.stringify(problemBody(error.status, error.code, error.detail, error.errors)), {
    status: error.status,
    headers: { "Content-Type": "application/problem+json; charset=utf-8", ...NO_STORE, ...error.headers },
  });
}

/** A JSON answer; `null` answers with no body (204, 202). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const empty = body === null || body === undefined || status === 204;
  return new Response(empty ? null : JSON.stringify(body), { status, headers: { ...(empty ? {} : { "Content-Type": "application/json; charset=utf-8" }), ...NO_STORE, ...headers } });
}

export const notFound = (detail: string = API_MESSAGES.notFound) => new ApiError(404, "no-encontrado", detail);

/** Field errors of a use-case (form field paths) as a 400. */
export function invalid(errors: readonly DraftFieldError[], rename: (field: string) => string = (f) => f): ApiError {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors) {
    const pointer = pointerOf(rename(e.field));
    const key = `${pointer}\u0000${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, detail: e.message });
  }
  const whole = out.find((e) => e.pointer === "");
  return new ApiError(400, "validacion", whole && out.length === 1 ? whole.detail : API_MESSAGES.invalidBody, out);
}

const SPANISH = z.locales.es().localeError;

/** Parses with a schema of app/domain/api/schemas.ts; issues become field errors (zod's own in Spanish). */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { error: SPANISH });
  if (result.success) return result.data;
  throw invalid(result.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message })));
}

function humanBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} kB`;
}

/**
 * The request body as JSON, reading at most `limit` bytes (a declared Content-Length above it is
 * refused unread; a body that grows past it is cut off and refused).
 */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type.trim())) throw new ApiError(415, "tipo-de-contenido", API_MESSAGES.contentType);
  const text = await readText(request, limit);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "json", API_MESSAGES.invalidJson);
  }
}

export async function readText(request: Request, limit: number): Promise<string> {
  const text = await readTextLimited(request, limit);
  if (text === null) throw new ApiError(413, "demasiado-grande", API_MESSAGES.tooLarge(humanBytes(limit)));
  return text;
}

/** A positive id from a path segment, or 404. */
export function idParam(raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw) || Number(raw) <= 0) throw notFound();
  return Number(raw);
}

/** An opaque keyset cursor (base64url of JSON), or null when absent; a malformed one is a 400. */
export function readCursor<T>(raw: string | undefined, check: (v: unknown) => v is T): T | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown;
    if (check(v)) return v;
  } catch {
    // fall through
  }
  throw new ApiError(400, "validacion", "El cursor no es válido: use el nextCursor de la página anterior.", [{ pointer: "", detail: "cursor" }]);
}

export const cursorOf = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

export function pageLimit(raw: string | undefined, fallback = 50, max = 200): number {
  const n = raw ? Number(raw) : fallback;
  return Math.min(max, Math.max(1, Number.isFinite(n) ? n : fallback));
}
