// CSRF protection: a signed double-submit token. A random value lives in an httpOnly cookie; forms
// carry HMAC(value) in the hidden field `_csrf` (or the header x-csrf-token). A cross-site page can
// neither read the cookie nor compute the HMAC. Unsafe requests from another origin are refused too.
import { readCookie, serializeCookie } from "./cookies.server.ts";
import { hmac, randomToken, safeEqual } from "./secrets.server.ts";

const NAME = "colibri_csrf";
export const CSRF_FIELD = "_csrf";
export const CSRF_MESSAGE = "El formulario expiró o no es válido. Recarga la página e inténtalo de nuevo.";

export function csrfFor(request: Request): { token: string; setCookie?: string } {
  let value = readCookie(request, NAME);
  let setCookie: string | undefined;
  if (!value || value.length < 20) {
    value = randomToken(24);
    setCookie = serializeCookie(NAME, value, { maxAgeSeconds: 60 * 60 * 24 * 30 });
  }
  return { token: hmac("csrf", value), setCookie };
}

export async function checkCsrf(request: Request, expected: string): Promise<boolean> {
  const origin = request.headers.get("origin");
  if (origin && origin !== "null") {
    const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
    try {
      if (new URL(origin).host !== host) return false;
    } catch {
      return false;
    }
  }
  const header = request.headers.get("x-csrf-token");
  if (header) return safeEqual(header, expected);
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("form")) return false;
  try {
    const form = await request.clone().formData();
    const sent = form.get(CSRF_FIELD);
    return typeof sent === "string" && safeEqual(sent, expected);
  } catch {
    return false;
  }
}
