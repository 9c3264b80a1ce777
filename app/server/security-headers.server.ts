// Browser security headers, one place (docs/decisions/113-browser-security-headers.md). Pages get a
// Content-Security-Policy whose only inline scripts are React Router's, carrying the page's nonce
// (app/entry.server.tsx); every other answer of the app gets the same policy without a nonce
// (server/request-handler.ts). The public document page has its own (inline CSS by hash).
import { createHash, randomBytes } from "node:crypto";

/** A fresh nonce for one page. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The print page of a ticket is printed from a hidden frame of the document form ('Guardar e
 * imprimir'): it may be framed by the app itself; nothing else may be framed at all.
 */
export function framedBySelf(pathname: string): boolean {
  return /^\/detail\/[^/]+\/[^/]+\/print\/?$/.test(pathname);
}

export function contentSecurityPolicy(opts: { nonce?: string; pathname?: string } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self'${opts.nonce ? ` 'nonce-${opts.nonce}'` : ""}`,
    "style-src 'self'",
    // Logos are served by the app; the advertisement may show https images.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${opts.pathname && framedBySelf(opts.pathname) ? "'self'" : "'none'"}`,
  ].join("; ");
}

/**
 * A self-contained page (no script at all) whose only inline CSS is `css`: allowed by its hash. A
 * print page (the detail's print variant, a ticket's receipt) may be framed by the app itself: the
 * document form prints it from a hidden frame.
 */
export function standalonePagePolicy(css: string, opts: { framedBySelf?: boolean } = {}): string {
  const hash = createHash("sha256").update(css, "utf8").digest("base64");
  return ["default-src 'none'", `style-src 'sha256-${hash}'`, "img-src data:", "base-uri 'none'", "form-action 'none'", `frame-ancestors ${opts.framedBySelf ? "'self'" : "'none'"}`].join("; ");
}
