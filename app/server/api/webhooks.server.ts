// Webhooks (issue 15 item 5, docs/decisions/183). A company registers URLs (configuration screen and
// API). An event (a document accepted or rejected by Hacienda, a received document processed) is
// written as one delivery per endpoint in the same transaction as the change, and a job posts it:
// JSON signed with HMAC-SHA256 over "<timestamp>.<body>" (header Colibri-Signature: t=…,v1=…; the
// receiver refuses a timestamp outside its replay window), retried by the jobs runner with its
// exponential backoff (30 s, 2 min, 8 min, 32 min, then hourly) for more than 24 hours. Each
// delivery keeps its attempts and last answer (the delivery log), and 'reenviar' posts it again.
import { createHmac, randomUUID } from "node:crypto";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { documents, jobs, receivedDocuments, webhookDeliveries, webhookEndpoints } from "../../../db/schema/index.ts";
import { enqueue } from "../../../jobs/runner.ts";
import { API_MESSAGES, WEBHOOK_EVENTS } from "../../domain/api/schemas.ts";
import { rejectionReasons } from "../../domain/rejection-reasons.ts";
import { decryptSecret, encryptSecret, randomToken } from "../secrets.server.ts";
import { apiEnv } from "./config.server.ts";
import { ApiError, invalid } from "./http.server.ts";

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Attempts of one delivery: with the runner's backoff capped at one hour, about 26 hours of retries. */
export const WEBHOOK_MAX_ATTEMPTS = 30;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The replay window the documentation asks receivers to enforce. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
const JOB = "deliver-webhook";
const jobKey = (deliveryId: number) => `webhook:${deliveryId}`;

export const WEBHOOK_MESSAGES = {
  created: "Webhook registrado: copie la clave de firma ahora, no se volverá a mostrar.",
  deleted: "Webhook eliminado",
  resent: "Entrega reenviada",
  notFound: "No encontrado",
} as const;

// ---- Endpoints ------------------------------------------------------------------------------------

/** A URL a webhook may post to: http(s), complete, without credentials. */
export function checkWebhookUrl(raw: string): { ok: true; url: string } | { ok: false; message: string } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { ok: false, message: API_MESSAGES.webhookUrl };
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password || !u.hostname) return { ok: false, message: API_MESSAGES.webhookUrl };
  if (!apiEnv().webhookAllowPrivate && (u.hostname === "localhost" || internalLiteral(u.hostname))) {
    return { ok: false, message: API_MESSAGES.webhookPrivate };
  }
  return { ok: true, url: u.toString() };
}

export interface WebhookView {
  id: number;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  active: boolean;
  createdAt: string;
  secret?: string;
}

const viewOf = (r: typeof webhookEndpoints.$inferSelect): WebhookView => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: ((r.events as string[]) ?? []).length ? (r.events as WebhookEventType[]) : [...WEBHOOK_EVENTS],
  active: r.active,
  createdAt: r.createdAt.toISOString(),
});

/** Registers an endpoint; the answer carries its signing secret, the only time it is shown. */
export async function createWebhook(db: DbOrTx, companyId: number, input: { url: string; description?: string | null; events?: readonly WebhookEventType[] }, now: Date): Promise<WebhookView> {
  const checked = checkWebhookUrl(input.url);
  if (!checked.ok) throw invalid([{ field: "url", message: checked.message }]);
  const secret = `whsec_${randomToken(32)}`;
  const events = input.events?.length && input.events.length < WEBHOOK_EVENTS.length ? [...new Set(input.events)] : [];
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ companyId, url: checked.url, description: input.description?.trim() || null, secretEnc: encryptSecret(secret), events, createdAt: now })
    .returning();
  return { ...viewOf(row), secret };
}

export async function webhooksOf(db: DbOrTx, companyId: number): Promise<WebhookView[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(webhookEndpoints.id);
  return rows.map(viewOf);
}

/** Removes an endpoint of the company (its pending deliveries stop); false when it is not one of them. */
export async function deleteWebhook(db: DbOrTx, companyId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ deletedAt: now, active: false })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId), isNull(webhookEndpoints.deletedAt)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

// ---- Events ---------------------------------------------------------------------------------------

/**
 * Writes an event for every endpoint of the company that takes it, and queues their deliveries.
 * Called inside the transaction of the change it reports (the event exists iff the change does).
 */
export async function queueWebhookEvent(tx: DbOrTx, event: { companyId: number; type: WebhookEventType; documentId?: number | null; data: Record<string, unknown> }, now: Date): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, event.companyId), eq(webhookEndpoints.active, true), isNull(webhookEndpoints.deletedAt)));
  const takers = endpoints.filter((e) => {
    const list = (e.events as string[]) ?? [];
    return list.length === 0 || list.includes(event.type);
  });
  if (!takers.length) return 0;
  const id = `evt_${randomUUID()}`;
  const payload = JSON.stringify({ id, type: event.type, createdAt: now.toISOString(), data: event.data });
  const rows = await tx
    .insert(webhookDeliveries)
    .values(takers.map((e) => ({ companyId: event.companyId, endpointId: e.id, eventId: id, eventType: event.type, documentId: event.documentId ?? null, payload, createdAt: now })))
    .returning({ id: webhookDeliveries.id });
  for (const r of rows) await enqueue(tx, JOB, { deliveryId: r.id }, { runAt: now, uniqueKey: jobKey(r.id), maxAttempts: WEBHOOK_MAX_ATTEMPTS + 5 });
  return rows.length;
}

/** The event of a document that Hacienda accepted or rejected (document-pipeline transactions). */
export async function queueDocumentEvent(tx: DbOrTx, documentId: number, now: Date): Promise<void> {
  const [d] = await tx
    .select({ id: documents.id, companyId: documents.companyId, kind: documents.kind, status: documents.status, clave: documents.clave, consecutivo: documents.consecutivo, controlNumber: documents.controlNumber, total: documents.totalComprobante, detail: documents.haciendaDetail })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (!d || (d.status !== "aceptado" && d.status !== "rechazado")) return;
  await queueWebhookEvent(
    tx,
    {
      companyId: d.companyId,
      type: d.status === "aceptado" ? "document.accepted" : "document.rejected",
      documentId: d.id,
      data: { document: { id: d.id, kind: d.kind, status: d.status, clave: d.clave, consecutive: d.consecutivo, controlNumber: d.controlNumber, total: d.total, reasons: d.status === "rechazado" ? rejectionReasons(d.detail) : [] } },
    },
    now,
  );
}

/**
 * The event of a received document whose processing ended: Hacienda answered our MensajeReceptor
 * (aceptado or rechazado, also a refusal at reception) or refused the supplier's document, so no
 * message is sent ('no enviado'). Called in the transaction of that change (receptions/pipeline.server.ts).
 */
export async function queueReceivedEvent(tx: DbOrTx, receivedId: number, now: Date): Promise<void> {
  const [r] = await tx
    .select({
      id: receivedDocuments.id,
      companyId: receivedDocuments.companyId,
      clave: receivedDocuments.clave,
      issuerName: receivedDocuments.issuerName,
      issuerId: receivedDocuments.issuerId,
      message: receivedDocuments.message,
      status: receivedDocuments.status,
      messageConsecutive: receivedDocuments.messageConsecutive,
      detail: receivedDocuments.haciendaDetail,
    })
    .from(receivedDocuments)
    .where(eq(receivedDocuments.id, receivedId));
  if (!r || !["aceptado", "rechazado", "no enviado"].includes(r.status)) return;
  await queueWebhookEvent(
    tx,
    {
      companyId: r.companyId,
      type: "received_document.processed",
      data: {
        receivedDocument: {
          id: r.id,
          clave: r.clave,
          issuerName: r.issuerName,
          issuerId: r.issuerId,
          message: r.message,
          status: r.status,
          messageConsecutive: r.messageConsecutive,
          reasons: r.status === "rechazado" ? rejectionReasons(r.detail) : [],
        },
      },
    },
    now,
  );
}

// ---- Delivery ---------------------------------------------------------------------------------------

/** The signature header of a body posted at `timestamp` (seconds): t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/**
 * Loopback, private, link-local, unique-local, CGNAT, multicast, reserved and unspecified addresses,
 * in any of their spellings: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, which URL writes
 * `::ffff:7f00:1`) is judged as the IPv4 address it maps to.
 */
const INTERNAL = new net.BlockList();
for (const [address, bits] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3]] as const) {
  INTERNAL.addSubnet(address, bits, "ipv4");
}
// ::/96 holds the unspecified address, loopback and the old IPv4-compatible form (::7f00:1).
for (const [address, bits] of [["::", 96], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8]] as const) INTERNAL.addSubnet(address, bits, "ipv6");

export function privateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  return family !== 0 && INTERNAL.check(ip, family === 4 ? "ipv4" : "ipv6");
}

/** A URL's host written as an internal address (`127.0.0.1`, `[::ffff:7f00:1]`): no lookup will see it. */
function internalLiteral(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return net.isIP(bare) !== 0 && privateAddress(bare);
}

/**
 * DNS lookup that refuses internal addresses: only the addresses that are not internal are handed
 * to the connection, so the address checked is the one connected to. Node asks for every address
 * (`all`, to try IPv6 and IPv4 in turn) and gets them all.
 */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !privateAddress(a.address));
      if (usable.length === 0) return callback(new Error(API_MESSAGES.webhookPrivate), "", 0);
      if (options.all) return callback(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
}

/** One POST; resolves with the status code (or throws on a network failure or timeout). */
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(url);
  const lib = u.protocol === "https:" ? https : http;
  const allowPrivate = apiEnv().webhookAllowPrivate;
  // An address written in the URL is connected to without a lookup: it is checked here.
  if (!allowPrivate && internalLiteral(u.hostname)) return Promise.reject(new Error(API_MESSAGES.webhookPrivate));
  return new Promise((resolve, reject) => {
    const req = lib.request(
      u,
      { method: "POST", headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, timeout: WEBHOOK_TIMEOUT_MS, lookup: guardedLookup(allowPrivate) },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`sin respuesta en ${WEBHOOK_TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}

export type DeliveryOutcome = "delivered" | "retry" | "failed" | "skipped";

/**
 * The deliver-webhook job: posts the stored payload, signed now, and records the attempt. A 2xx is
 * delivered; anything else throws (the runner retries with backoff) until WEBHOOK_MAX_ATTEMPTS,
 * then the delivery is 'fallido' (still resendable by hand).
 */
export async function deliverWebhook(db: Db, deliveryId: number, now: Date): Promise<DeliveryOutcome> {
  const [d] = await db
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, secretEnc: webhookEndpoints.secretEnc, deleted: webhookEndpoints.deletedAt })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!d || d.deleted || d.delivery.status !== "pendiente") return "skipped";
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = d.delivery.payload;
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "Colibri-Webhooks/1",
    "Colibri-Event-Id": d.delivery.eventId,
    "Colibri-Event-Type": d.delivery.eventType,
    "Colibri-Delivery-Id": String(d.delivery.id),
    "Colibri-Signature": signatureHeader(decryptSecret(d.secretEnc).toString("utf8"), timestamp, body),
  };
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = await post(d.url, body, headers);
    if (status < 200 || status >= 300) error = `El receptor respondió ${status}`;
  } catch (e) {
    error = `No se pudo entregar: ${(e as Error).message}`.slice(0, 500);
  }
  const attempts = d.delivery.attempts + 1;
  const delivered = !error;
  const gaveUp = !delivered && attempts >= WEBHOOK_MAX_ATTEMPTS;
  await db
    .update(webhookDeliveries)
    .set({ attempts, lastStatus: status, lastError: error, lastAttemptAt: now, ...(delivered ? { status: "entregado", deliveredAt: now } : gaveUp ? { status: "fallido" } : {}) })
    .where(eq(webhookDeliveries.id, deliveryId));
  if (delivered) return "delivered";
  if (gaveUp) return "failed";
  throw new Error(error!);
}

export interface DeliveryView {
  id: number;
  eventId: string;
  eventType: WebhookEventType;
  documentId: number | null;
  status: "pendiente" | "entregado" | "fallido";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  url?: string;
}

/** The delivery log: the company's deliveries, newest first (of one endpoint when given). */
export async function deliveriesOf(db: DbOrTx, companyId: number, opts: { endpointId?: number; before?: number; limit: number }): Promise<DeliveryView[]> {
  const rows = await db
    .select({ d: webhookDeliveries, url: webhookEndpoints.url })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.companyId, companyId), opts.endpointId ? eq(webhookDeliveries.endpointId, opts.endpointId) : undefined, opts.before ? lt(webhookDeliveries.id, opts.before) : undefined))
    .orderBy(desc(webhookDeliveries.id))
    .limit(opts.limit);
  return rows.map(({ d, url }) => ({
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType as WebhookEventType,
    documentId: d.documentId,
    status: d.status as DeliveryView["status"],
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    url,
  }));
}

/**
 * 'Reenviar': posts a delivery of the company again now (delivered or given up: once more; waiting
 * for a retry: at once). False when it is not one of the company's deliveries.
 */
export async function resendDelivery(db: Db, companyId: number, deliveryId: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [d] = await tx
      .update(webhookDeliveries)
      .set({ status: "pendiente", attempts: sql`least(${webhookDeliveries.attempts}, ${WEBHOOK_MAX_ATTEMPTS - 1})` })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.companyId, companyId)))
      .returning({ id: webhookDeliveries.id });
    if (!d) return false;
    const moved = await tx
      .update(jobs)
      .set({ runAt: now })
      .where(and(eq(jobs.uniqueKey, jobKey(deliveryId)), inArray(jobs.status, ["pending"])))
      .returning({ id: jobs.id });
    if (!moved.length) await enqueue(tx, JOB, { deliveryId }, { runAt: now, uniqueKey: jobKey(deliveryId), maxAttempts: WEBHOOK_MAX_ATTEMPTS + 5 });
    return true;
  });
}

/** Deliveries older than 30 days (a daily job). */
export async function purgeDeliveries(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db
    .delete(webhookDeliveries)
    .where(and(lt(webhookDeliveries.createdAt, new Date(now.getTime() - 30 * 86_400_000)), inArray(webhookDeliveries.status, ["entregado", "fallido"])))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

export const webhookNotFound = () => new ApiError(404, "no-encontrado", WEBHOOK_MESSAGES.notFound);
