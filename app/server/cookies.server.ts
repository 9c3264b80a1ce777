// Minimal cookie helpers; every cookie is httpOnly and sameSite=lax, secure in production.
import { env } from "./env.server.ts";

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function serializeCookie(name: string, value: string, opts: { maxAgeSeconds?: number } = {}): string {
  const attrs = [`${name}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (opts.maxAgeSeconds !== undefined) attrs.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAgeSeconds))}`);
  if (env().secureCookies) attrs.push("Secure");
  return attrs.join("; ");
}

export function clearCookie(name: string): string {
  return serializeCookie(name, "", { maxAgeSeconds: 0 });
}
