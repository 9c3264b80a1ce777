// Helpers for loader/action tests: factories and a runner that passes a request through the real
// root middleware (session, CSRF, access rules) into a route module's loader or action.
import { RouterContextProvider } from "react-router";
import type { Db } from "../../db/client.ts";
import { companies, companyUsers, generalConfigurations, users } from "../../db/schema/index.ts";
import { csrfFor } from "../../app/server/csrf.server.ts";
import { hashPassword } from "../../app/server/password.server.ts";
import { createSession } from "../../app/server/session.server.ts";
import { rootMiddleware } from "../../app/server/middleware.server.ts";

let seq = 0;
const next = () => ++seq;

export async function createUser(db: Db, opts: { email?: string; password?: string; name?: string; role?: "admin" | "user"; createdById?: number } = {}) {
  const n = next();
  const password = opts.password ?? "secreto123";
  const [u] = await db
    .insert(users)
    .values({ name: opts.name ?? `Usuario ${n}`, email: opts.email ?? `user${n}-${process.pid}@example.cr`, passwordHash: await hashPassword(password), role: opts.role ?? "user", createdById: opts.createdById ?? null })
    .returning();
  return { ...u, password };
}

export async function createCompany(db: Db, opts: { name?: string; permission?: number; active?: boolean; userIds?: number[]; identification?: string } = {}) {
  const n = next();
  const [c] = await db
    .insert(companies)
    .values({
      name: opts.name ?? `Compañía ${n}`,
      identificationTypeId: 2,
      identification: opts.identification ?? String(3101000000 + n),
      email: `empresa${n}@example.cr`,
      phone: "22223333",
      provinceNumber: 1,
      cantonNumber: 1,
      districtNumber: 1,
      otherSigns: "Frente al parque central",
      permission: opts.permission ?? 1,
      active: opts.active ?? true,
      userId: opts.userIds?.[0] ?? null,
    })
    .returning();
  await db.insert(generalConfigurations).values({ companyId: c.id });
  for (const userId of opts.userIds ?? []) await db.insert(companyUsers).values({ companyId: c.id, userId });
  return c;
}

export interface Browser {
  cookies: Map<string, string>;
  csrf: string;
}

/** A signed-in browser: session cookie and CSRF cookie/token. */
export async function signedIn(db: Db, userId: number, companyId: number | null): Promise<Browser> {
  const { cookie } = await createSession(db, userId, companyId, { ip: "127.0.0.1", userAgent: "test", now: new Date() });
  const b = anonymous();
  absorb(b, [cookie]);
  return b;
}

export function anonymous(): Browser {
  const b: Browser = { cookies: new Map(), csrf: "" };
  const probe = csrfFor(new Request("http://test/"));
  absorb(b, [probe.setCookie!]);
  b.csrf = probe.token;
  return b;
}

function absorb(b: Browser, setCookies: string[]) {
  for (const sc of setCookies) {
    const [pair, ...attrs] = sc.split(";");
    const i = pair.indexOf("=");
    const name = pair.slice(0, i).trim();
    const value = pair.slice(i + 1);
    if (attrs.some((a) => a.trim().toLowerCase() === "max-age=0")) b.cookies.delete(name);
    else b.cookies.set(name, value);
  }
}

export interface CallResult {
  /** The response itself (for bodies of resource routes: files, JSON). */
  response: Response;
  status: number;
  location?: string;
  headers: Headers;
  data: any;
}

type RouteFn = (args: any) => unknown;

/**
 * Runs `fn` (a loader or action) for a request to `path` through the root middleware.
 * Pass `form` for a POST (the CSRF token is added unless `csrf: false`); an array sends the field several times.
 */
export async function call(
  browser: Browser,
  fn: RouteFn,
  opts: { path: string; params?: Record<string, string>; form?: Record<string, string | Blob | (string | Blob)[]>; csrf?: boolean; headers?: Record<string, string> },
): Promise<CallResult> {
  const headers = new Headers(opts.headers);
  headers.set("cookie", [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  // The client address the server sets (server/client-ip.ts); a test may pass its own.
  if (!headers.has("x-colibri-client-ip")) headers.set("x-colibri-client-ip", "127.0.0.1");
  let body: FormData | undefined;
  if (opts.form) {
    body = new FormData();
    if (opts.csrf !== false) body.set("_csrf", browser.csrf);
    // An array is a repeated field (ticked checkboxes).
    for (const [k, v] of Object.entries(opts.form)) {
      if (Array.isArray(v)) for (const item of v) body.append(k, item);
      else body.set(k, v);
    }
  }
  const request = new Request(`http://localhost${opts.path}`, { method: body ? "POST" : "GET", headers, body });
  const context = new RouterContextProvider();
  let result: unknown;
  const toResponse = (r: unknown): Response => {
    if (r instanceof Response) return r;
    if (r && typeof r === "object" && (r as { type?: string }).type === "DataWithResponseInit") {
      const d = r as unknown as { data: unknown; init?: ResponseInit };
      result = d.data;
      return new Response(null, d.init ?? undefined);
    }
    result = r;
    return new Response(null, { status: 200 });
  };
  let response: Response;
  try {
    response = (await rootMiddleware({ request, context, params: opts.params ?? {}, unstable_pattern: "", url: new URL(request.url) } as never, async () => {
      try {
        return toResponse(await fn({ request, context, params: opts.params ?? {} }));
      } catch (thrown) {
        if (thrown instanceof Error) throw thrown;
        return toResponse(thrown);
      }
    })) as Response;
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    response = toResponse(thrown);
  }
  absorb(browser, response.headers.getSetCookie());
  return { response, status: response.status, location: response.headers.get("location") ?? undefined, headers: response.headers, data: result };
}

/**
 * A page's HTML as the server sends it: React's render waits for the parts the page loads lazily in
 * the browser (decision 155), which a synchronous renderToString cannot.
 */
export async function renderPage(element: import("react").ReactElement): Promise<string> {
  const { prerenderToNodeStream } = await import("react-dom/static");
  const { prelude } = await prerenderToNodeStream(element);
  let html = "";
  for await (const chunk of prelude) html += String(chunk);
  return html;
}
