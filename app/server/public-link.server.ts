// The public query link of a document (spec: /query-public/:code64). The code is
// base64url({"c":companyId,"d":documentId}) + "." + an HMAC-SHA256 of that payload under APP_SECRET
// (purpose "public-link"), truncated to 128 bits. Unguessable without the secret, stateless (no
// column to add), and it carries nothing but the two ids. Decision: docs/decisions/081-public-link.md.
import { hmac, safeEqual } from "./secrets.server.ts";

const PURPOSE = "public-link";
const MAC_CHARS = 22; // 22 base64url chars = 132 bits ≥ 128

export interface PublicRef {
  companyId: number;
  documentId: number;
}

function mac(payload: string): string {
  return hmac(PURPOSE, payload).slice(0, MAC_CHARS);
}

export function publicCode(ref: PublicRef): string {
  if (!Number.isSafeInteger(ref.companyId) || !Number.isSafeInteger(ref.documentId) || ref.companyId <= 0 || ref.documentId <= 0) {
    throw new Error("publicCode: ids must be positive integers");
  }
  const payload = Buffer.from(JSON.stringify({ c: ref.companyId, d: ref.documentId }), "utf8").toString("base64url");
  return `${payload}.${mac(payload)}`;
}

/** The ids of a public code, or null when it is malformed or was not signed by this server. */
export function parsePublicCode(code: string | undefined | null): PublicRef | null {
  if (!code || code.length > 200) return null;
  const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(code);
  if (!m) return null;
  const [, payload, given] = m;
  if (!safeEqual(mac(payload), given)) return null;
  try {
    const obj = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown;
    if (!obj || typeof obj !== "object") return null;
    const { c, d } = obj as { c?: unknown; d?: unknown };
    if (!Number.isSafeInteger(c) || !Number.isSafeInteger(d) || (c as number) <= 0 || (d as number) <= 0) return null;
    return { companyId: c as number, documentId: d as number };
  } catch {
    return null;
  }
}

/** Absolute URL of the public page, from the app's base URL (e.g. env().appUrl). */
export function publicUrl(baseUrl: string, ref: PublicRef): string {
  return `${baseUrl.replace(/\/+$/, "")}/query-public/${publicCode(ref)}`;
}
