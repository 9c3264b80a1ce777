import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** 'admin' or 'user' (spec part 1 §3: rol). */
    role: text("role").notNull().default("user"),
    /** The administrator who created this user; shown as "administrator name" or 'S/C'. */
    createdById: integer("created_by_id"),
    /** Last advertisement code this user has seen. */
    advertisementCode: integer("advertisement_code"),
    defaultCompanyId: integer("default_company_id").references(() => companies.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`)],
);

/**
 * Sessions of the web (kind 'web': the cookie's token) and of the integrator API (kind 'api': a
 * bearer token and its refresh token, docs/decisions/180). API rows never set company_id (the web's
 * current company, which company deletion and unlinking move): a token obtained with the company's
 * API credentials names its company in api_company_id and has no user; a user's token has a user and
 * picks the company per request (x-Company).
 */
export const sessions = pgTable(
  "sessions",
  {
    /** sha256 (hex) of the random token held in the cookie (or, for the API, the bearer token); the token itself is never stored. */
    id: text("id").primaryKey(),
    /** Null only for API tokens obtained with a company's API credentials. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    companyId: integer("company_id").references(() => companies.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when the session ends for a reason the user must be told about (e.g. 'replaced'). */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedReason: text("closed_reason"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** Per-section page memory and similar small UI state. */
    uiState: text("ui_state"),
    /** 'web' (cookie) or 'api' (bearer token). */
    kind: text("kind").notNull().default("web"),
    /** API tokens of a company's API credentials: that company. */
    apiCompanyId: integer("api_company_id").references(() => companies.id, { onDelete: "cascade" }),
    /** API: when the bearer token stops working (expires_at is the refresh token's end). */
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }),
    /** API: sha256 (hex) of the current refresh token (rotated on every refresh). */
    refreshHash: text("refresh_hash"),
    /** API: who obtained it, as listed on the configuration screen ('Usuario API' or the user's e-mail). */
    label: text("label"),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_expires_idx").on(t.expiresAt),
    uniqueIndex("sessions_refresh_hash_uq").on(t.refreshHash),
    index("sessions_api_company_idx").on(t.apiCompanyId).where(sql`kind = 'api'`),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("password_reset_tokens_hash_unique").on(t.tokenHash)],
);

/** Sliding-window counters for sign-in throttling, keyed by 'email:<addr>' or 'ip:<addr>'. */
export const authThrottle = pgTable("auth_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

export const advertisements = pgTable("advertisements", {
  id: serial("id").primaryKey(),
  title: text("title").notNull(),
  contentHtml: text("content_html").notNull(),
  /** Incremented on every save so users see a changed advertisement once more. */
  code: integer("code").notNull().default(1),
  active: boolean("active").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** Who saved it last: shown only when that is the super-admin (docs/decisions/121-shared-content.md). */
  savedById: integer("saved_by_id").references(() => users.id, { onDelete: "set null" }),
});
