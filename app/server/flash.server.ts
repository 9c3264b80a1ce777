// Toasts carried across a redirect in a short-lived signed cookie, so they work without JavaScript.
import { redirect } from "react-router";
import type { Toast } from "./context.ts";
import { clearCookie, readCookie, serializeCookie } from "./cookies.server.ts";
import { hmac, safeEqual } from "./secrets.server.ts";

const NAME = "colibri_flash";

export function readToasts(request: Request): Toast[] | undefined {
  const raw = readCookie(request, NAME);
  if (!raw) return undefined;
  const [body, sig] = raw.split(".");
  if (!body || !sig || !safeEqual(sig, hmac("flash", body))) return [];
  try {
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    return Array.isArray(parsed) ? (parsed as Toast[]).slice(0, 5) : [];
  } catch {
    return [];
  }
}

export function toastCookie(toasts: Toast[]): string {
  const body = Buffer.from(JSON.stringify(toasts)).toString("base64url");
  return serializeCookie(NAME, `${body}.${hmac("flash", body)}`, { maxAgeSeconds: 60 });
}

export const clearToastCookie = () => clearCookie(NAME);

export function redirectWithToast(to: string, toast: Toast, init?: { headers?: HeadersInit }): Response {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", toastCookie([toast]));
  return redirect(to, { headers });
}

export const success = (text: string): Toast => ({ type: "success", text });
export const failure = (text: string): Toast => ({ type: "error", text });
