// Configuration read from the environment, once. Every variable is listed in the README.
import path from "node:path";

function int(name: string, fallback: number) {
  const v = process.env[name];
  const n = v === undefined || v === "" ? NaN : Number(v);
  return Number.isFinite(n) ? n : fallback;
}

export function env() {
  const port = int("PORT", 3000);
  return {
    production: process.env.NODE_ENV === "production",
    port,
    host: process.env.HOST || "0.0.0.0",
    appUrl: (process.env.APP_URL || `http://localhost:${port}`).replace(/\/$/, ""),
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: path.resolve(process.env.DATA_DIR || "data"),
    appSecret: process.env.APP_SECRET || "",
    superAdminEmail: (process.env.SUPER_ADMIN_EMAIL || "").toLowerCase(),
    sessionHours: int("SESSION_TTL_HOURS", 12),
    resetTokenMinutes: int("RESET_TOKEN_TTL_MINUTES", 60),
    smtpUrl: process.env.SMTP_URL || "",
    mailFrom: process.env.MAIL_FROM || "Colibrí <no-responder@colibri.local>",
    haciendaPublicApi: (process.env.HACIENDA_PUBLIC_API_URL || "https://api.hacienda.go.cr").replace(/\/$/, ""),
    haciendaLookupTimeoutMs: int("HACIENDA_LOOKUP_TIMEOUT_MS", 4000),
    // Secure cookies whenever the public URL is https (localhost over http keeps working).
    secureCookies: process.env.COOKIE_SECURE ? process.env.COOKIE_SECURE === "true" : (process.env.APP_URL ?? "").startsWith("https://"),
  };
}

export type Env = ReturnType<typeof env>;
