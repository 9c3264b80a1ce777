// The root middleware: session, CSRF, toasts and the access rules of spec part 1 §2.2.
import { data, redirect, type MiddlewareFunction } from "react-router";
import { companyPermission } from "../../db/queries/companies.ts";
import { decideAccess, matchRoute, targetCompanyId, isApiPath } from "../domain/access.ts";
import { inactiveCompanyMessage } from "../domain/company-schemas.ts";
import { requestContext, type RequestState } from "./context.ts";
import { checkCsrf, csrfFor, CSRF_MESSAGE } from "./csrf.server.ts";
import { db } from "./db.server.ts";
import { restoresDraft } from "./draft-stash.server.ts";
import { clearToastCookie, readToasts, toastCookie } from "./flash.server.ts";
import { aheadSlot } from "./session-ahead.ts";
import { clearSessionCookie, guessedSession, lookupSession, sameLookup, sessionIdFrom, type SessionLookup } from "./session.server.ts";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type Args = Parameters<MiddlewareFunction<Response>>[0];
type Next = Parameters<MiddlewareFunction<Response>>[1];

export const rootMiddleware: MiddlewareFunction<Response> = async (args, next) => {
  const { request, context } = args;
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
  // The integrator API: no cookie session is read nor accepted there, so no CSRF either; its calls
  // authenticate their bearer token themselves (app/server/api/router.server.ts, decision 180).
  if (isApiPath(pathname)) {
    context.set(requestContext, { ip: request.headers.get("x-colibri-client-ip") ?? "unknown", csrf: "", toasts: [] });
    return next();
  }
  const sessionId = sessionIdFrom(request);
  const now = new Date();
  const slot = aheadSlot(context);
  if (slot?.given) return answer(args, next, pathname, slot.given);
  const guess = slot && !restoresDraft(url) ? guessedSession(db(), sessionId, now) : undefined;
  if (!guess) return answer(args, next, pathname, await lookupSession(db(), sessionId, now));
  // A GET answered with the session as last read while it is read again (docs/decisions/204): kept
  // only if the reading says the same; otherwise the request handler answers again with it.
  const reading = lookupSession(db(), sessionId, now);
  reading.catch(() => {}); // awaited below, also when the answer throws first
  let response: Response | undefined;
  let thrown: { error: unknown } | undefined;
  try {
    response = await answer(args, next, pathname, guess);
  } catch (error) {
    thrown = { error };
  }
  const current = await reading;
  if (!sameLookup(current, guess)) {
    await response?.body?.cancel().catch(() => {});
    slot!.again = current;
    return new Response(null, { status: 503 });
  }
  if (thrown) throw thrown.error;
  return response!;
};

/** The answer for this session: CSRF, toasts and the access rules, then the route. */
async function answer({ request, context }: Args, next: Next, pathname: string, lookup: SessionLookup): Promise<Response> {
  const csrf = csrfFor(request);
  const setCookies: string[] = [];
  if (csrf.setCookie) setCookies.push(csrf.setCookie);

  const toasts = readToasts(request);
  const state: RequestState = { ip: request.headers.get("x-colibri-client-ip") ?? "unknown", csrf: csrf.token, toasts: toasts ?? [] };

  if (lookup.state === "active") {
    state.sessionId = lookup.sessionId;
    state.user = lookup.user;
    state.company = lookup.company;
    state.companies = lookup.companies;
    state.uiState = lookup.uiState;
    state.banners = lookup.banners;
  }
  context.set(requestContext, state);

  const finish = (response: Response) => {
    for (const c of setCookies) response.headers.append("Set-Cookie", c);
    return response;
  };

  if (lookup.state === "closed") {
    // The older browser of a replaced session, or an expired one: tell the user, then sign-in.
    setCookies.push(clearSessionCookie(), toastCookie([{ type: "warning", text: lookup.message }]));
    return finish(redirect("/login"));
  }

  const writing = UNSAFE.has(request.method);
  const access = {
    signedIn: !!state.user,
    hasCompany: !!state.company,
    isAdmin: !!state.user?.isAdmin,
    companyActive: state.company?.active ?? false,
    permission: state.company?.permission ?? 0,
    writing,
  };
  // A write to a route that names a company (its configuration) is judged by that company's plan.
  const named = writing && state.company ? matchRoute(pathname) : undefined;
  const targetId = named ? targetCompanyId(named, pathname) : null;
  const targetPermission = targetId ? await companyPermission(db(), targetId) : undefined;
  const decision = decideAccess(pathname, { ...access, targetPermission });
  if (decision.kind === "redirect") {
    // Sent to the dashboard because the company is inactive (part 1 §2.2): say why.
    if (decision.to === "/dashboard" && state.company && !state.company.active && !state.user?.isAdmin && request.method === "GET" && !matchRoute(pathname)?.public)
      setCookies.push(toastCookie([...(toasts ?? []), { type: "warning", text: inactiveCompanyMessage(state.company.name, false) }]));
    return finish(redirect(decision.to));
  }
  const headers = () => setCookies.map((c) => ["Set-Cookie", c] as [string, string]);
  if (writing && !(decision.kind === "allow" && decision.route.csrfExempt) && !(await checkCsrf(request, csrf.token))) {
    throw data(CSRF_MESSAGE, { status: 403, headers: headers() });
  }
  if (decision.kind === "refuse") throw data(decision.message, { status: decision.status, headers: headers() });
  state.title = decision.route.title;

  const response = await next();
  // Signed-in pages and their data are never stored by the browser or a proxy (the back button
  // after sign-out shows nothing); answers that chose their own caching (logos, lookups) keep it.
  if (state.user && !response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  // Toasts shown: clear them once a page or its data has carried them. A resource's answer (the CABYS
  // search, a logo) or a `.data` request that leaves the root loader out does not show them, so they
  // wait for the page that does (docs/decisions/205).
  if (toasts && state.toastsShown && request.method === "GET" && !(response.status >= 300 && response.status < 400)) {
    response.headers.append("Set-Cookie", clearToastCookie());
  }
  return finish(response);
}
