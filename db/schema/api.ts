// The integrator API (issue 15, docs/decisions/180–182): idempotency keys and webhooks. Its tokens
// live in `sessions` (kind 'api', db/schema/auth.ts).
import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.ts";

/**
 * One row per Idempotency-Key and company. A POST that changes data claims its key in the same
 * transaction as the work (INSERT … ON CONFLICT DO NOTHING: a second request with the key waits on
 * the first's row until it commits) and stores its answer there; the same key with the same request
 * answers the stored answer, with another request 409. Kept at least 24 hours (expires_at).
 */
export const apiIdempotencyKeys = pgTable(
  "api_idempotency_keys",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** sha256 of the method, the path and the canonical JSON body. */
    requestHash: text("request_hash").notNull(),
    /** Null while a request that is not one transaction (sending an e-mail) is under way. */
    status: integer("status"),
    /** The first answer's body and the headers worth repeating (Location). */
    response: jsonb("response"),
    headers: jsonb("headers"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] }), index("api_idempotency_expires_idx").on(t.expiresAt)],
);

/** A URL a company receives document events at (configuration screen and API). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    /** The signing secret, AES-256-GCM under APP_SECRET (it must be read back to sign). */
    secretEnc: text("secret_enc").notNull(),
    /** Event types it receives (empty: every event). */
    events: jsonb("events").notNull().default([]),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("webhook_endpoints_company_idx").on(t.companyId).where(sql`deleted_at is null`)],
);

/**
 * One event for one endpoint: the JSON posted (the same bytes every attempt), how many attempts, the
 * last answer, and when it was delivered — the delivery log of the configuration screen.
 * status: 'pendiente' | 'entregado' | 'fallido' (gave up after ≥ 24 hours of attempts).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The event's id (the same for every endpoint it goes to); integrators de-duplicate on it. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    documentId: integer("document_id"),
    payload: text("payload").notNull(),
    status: text("status").notNull().default("pendiente"),
    attempts: integer("attempts").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webhook_deliveries_company_idx").on(t.companyId, t.createdAt), index("webhook_deliveries_endpoint_idx").on(t.endpointId)],
);
