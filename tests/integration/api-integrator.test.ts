// A test integrator (issue 15 item 7): a client that talks to the API over HTTP, issues a ticket,
// retries it with the same Idempotency-Key after a lost answer, polls until Hacienda (the local
// sandbox, through the real jobs) answers, receives the webhook on its own local HTTP server and
// verifies its signature with its own code; a failing receiver is retried with backoff and the
// delivery log shows it; 'reenviar' posts it again; a rejected document sends document.rejected.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { documents, jobs, webhookDeliveries } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import type { Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import { configurePipeline } from "../../app/server/hacienda-pipeline.server.ts";
import { handleApi } from "../../app/server/api/router.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { API_MESSAGES } from "../../app/domain/api/schemas.ts";
import { apiCompany, contractChecker } from "../fixtures/api.ts";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sandbox: Sandbox;
let app: Server;
let appUrl: string;
let receiver: Server;
let receiverUrl: string;
let smtp: SmtpCapture;
let contract: Awaited<ReturnType<typeof contractChecker>>;
const clock = { now: new Date("2026-11-25T15:00:00Z") };

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}
const received: Received[] = [];
const contractErrors: unknown[] = [];
/** How the receiver answers the next posts (then 200). */
const failNext: number[] = [];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  database = await createTestDatabase();
  sandbox = await startRealSandbox({ port: 0, schemaSet: testSchemaSet(), processingDelayMs: 0, callbackRetryDelayMs: 10, log: () => {} });
  configurePipeline({ clientOptions: { maxRetries: 2, backoffBaseMs: 2, backoffMaxMs: 10, maxRetryAfterMs: 20, timeoutMs: 5000, rateLimitPerSecond: 0 }, callbackUrl: null });
  smtp = await startSmtpCapture();
  contract = await contractChecker(database.db);
  // The API over HTTP, as /api/v1/* serves it (the dispatcher behind the route module).
  app = createServer(async (req, res) => {
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    headers.set("x-colibri-client-ip", req.socket.remoteAddress ?? "unknown");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const request = new Request(url, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
    const response = await handleApi(request, url.pathname.replace(/^\/api\/v1\//, ""), { db: database.db, now: () => clock.now });
    // Every answer against the served OpenAPI document; a mismatch fails the test (afterEach).
    await contract.check(req.method!, templateOf(req.method!, url.pathname), response).catch((e: unknown) => contractErrors.push(e));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", () => r()));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/api/v1`;
  // The integrator's webhook endpoint.
  receiver = createServer(async (req, res) => {
    const body = (await readBody(req)).toString("utf8");
    received.push({ headers: req.headers, body });
    const status = failNext.shift() ?? 200;
    res.writeHead(status).end();
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/colibri`;
}, 60_000);

afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  await new Promise((r) => app?.close(r));
  await new Promise((r) => receiver?.close(r));
  await smtp?.close();
  await sandbox?.close();
  await database?.drop();
});

afterEach(() => {
  expect(contractErrors).toEqual([]);
});

/** The OpenAPI path template of a request (for the contract check). */
function templateOf(method: string, pathname: string): string {
  const path = pathname.replace(/^\/api\/v1/, "");
  const paths = Object.keys((contract.doc as { paths: Record<string, unknown> }).paths);
  return paths.find((p) => new RegExp(`^${p.replace(/\{\w+\}/g, "[^/]+")}$`).test(path)) ?? path;
}

/** Runs due jobs on a virtual clock: when nothing is due, jumps to the next job's run_at (up to `until`). */
async function drain(until?: (ran: number) => Promise<boolean>, maxSteps = 500) {
  for (let i = 0; i < maxSteps; i++) {
    if (until && (await until(i))) return;
    const ran = await runOne(database.db, handlers, "test-worker", () => clock.now);
    if (ran) continue;
    const [next] = await database.db.select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.status, "pending")).orderBy(asc(jobs.runAt)).limit(1);
    if (!next) return;
    clock.now = new Date(Math.max(clock.now.getTime(), next.runAt.getTime()));
  }
}

/** What an integrator writes: a small client over fetch, with its own signature check. */
class Integrator {
  token = "";
  refresh = "";
  constructor(
    private username: string,
    private password: string,
  ) {}
  async signIn() {
    const r = await fetch(`${appUrl}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: this.username, password: this.password }) });
    const b = (await r.json()) as { access_token: string; refresh_token: string };
    this.token = b.access_token;
    this.refresh = b.refresh_token;
  }
  async call(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any; headers: Headers }> {
    const send = () =>
      fetch(`${appUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(key ? { "idempotency-key": key } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let r = await send();
    if (r.status === 401) {
      // Expired: renew with the refresh token and try once more.
      const rr = await fetch(`${appUrl}/auth/refresh`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refresh_token: this.refresh }) });
      const b = (await rr.json()) as { access_token: string; refresh_token: string };
      this.token = b.access_token;
      this.refresh = b.refresh_token;
      r = await send();
    }
    const text = await r.text();
    return { status: r.status, body: text && r.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text, headers: r.headers };
  }
  /** The integrator's check of a webhook: HMAC-SHA256 over "t.body", within 5 minutes. */
  static verify(secret: string, header: string | undefined, body: string, nowSeconds: number): boolean {
    if (!header) return false;
    const parts = Object.fromEntries(header.split(",").map((p) => p.split("=") as [string, string]));
    const t = Number(parts.t);
    if (!parts.v1 || !Number.isFinite(t) || Math.abs(nowSeconds - t) > 300) return false;
    const expected = createHmac("sha256", secret).update(`${parts.t}.${body}`).digest("hex");
    return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
  }
}

const line = { cabys: "4523000000100", description: "Café chorreado", quantity: 1, unitPrice: "1500", tax: { code: "01", tarifaCode: "08" } };

describe("an integrator over HTTP", () => {
  it("issues, retries with the same key, polls until accepted, receives the signed webhook, downloads Hacienda's answer, e-mails it again", async () => {
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    await saveOutgoingEmail(database.db, a.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtp.port, username: "u", password: "p", from_email: "facturas@pos.example", from_name: "POS" });
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const hook = await pos.call("POST", "/webhooks", { url: receiverUrl });
    expect(hook.status).toBe(201);
    const secret = hook.body.secret as string;

    const sale = { kind: "te", controlNumber: "CAJA1-0001", emails: ["cliente@example.cr"], lines: [line] };
    const first = await pos.call("POST", "/documents", sale, "caja1-venta-0001");
    expect(first.status).toBe(201);
    // The answer was "lost": the integrator sends the same request again with the same key.
    const retry = await pos.call("POST", "/documents", sale, "caja1-venta-0001");
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await database.db.select().from(documents).where(eq(documents.companyId, a.company.id))).toHaveLength(1);

    // Poll (the jobs run between polls) until Hacienda answers.
    let status = first.body.status;
    for (let i = 0; i < 20 && (status === "por enviar" || status === "procesando"); i++) {
      await drain(async (n) => n > 3);
      status = (await pos.call("GET", `/documents/${first.body.id}`)).body.status;
    }
    expect(status).toBe("aceptado");
    await drain();

    const events = received.filter((r) => r.headers["colibri-event-type"] === "document.accepted");
    expect(events).toHaveLength(1);
    const event = events[0];
    expect(Integrator.verify(secret, event.headers["colibri-signature"] as string, event.body, clock.now.getTime() / 1000)).toBe(true);
    // A tampered body, another key or an old timestamp do not verify.
    expect(Integrator.verify(secret, event.headers["colibri-signature"] as string, event.body.replace("CAJA1", "CAJA9"), clock.now.getTime() / 1000)).toBe(false);
    expect(Integrator.verify("whsec_otra", event.headers["colibri-signature"] as string, event.body, clock.now.getTime() / 1000)).toBe(false);
    expect(Integrator.verify(secret, event.headers["colibri-signature"] as string, event.body, clock.now.getTime() / 1000 + 3600)).toBe(false);
    const payload = JSON.parse(event.body);
    expect(payload).toMatchObject({ type: "document.accepted", data: { document: { id: first.body.id, controlNumber: "CAJA1-0001", status: "aceptado" } } });
    expect(payload.id).toBe(event.headers["colibri-event-id"]);

    const answer = await pos.call("GET", `/documents/${first.body.id}/response`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(answer.body).toContain("MensajeHacienda");

    // The automatic e-mail went out once; the integrator asks for it again.
    const before = smtp.received.length;
    const again = await pos.call("POST", `/documents/${first.body.id}/email`, { emails: ["contabilidad@example.cr"] });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.sentTo).toEqual(["contabilidad@example.cr"]);
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.to).toEqual(["contabilidad@example.cr"]);
    const badMail = await pos.call("POST", `/documents/${first.body.id}/email`, { emails: ["no-es-correo"] });
    expect(badMail.status).toBe(400);
    expect(badMail.body.errors[0]).toEqual({ pointer: "/emails", detail: "no-es-correo: invalido" });
  });

  it("a failing receiver is retried with growing waits until it answers; the log shows the attempts; 'reenviar' posts it again", async () => {
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const hook = await pos.call("POST", "/webhooks", { url: receiverUrl, events: ["document.accepted"] });
    const doc = await pos.call("POST", "/documents", { kind: "te", lines: [line] }, "k-1");
    failNext.push(500, 503);
    const start = received.length;
    // Hacienda accepts; the delivery fails twice, then succeeds.
    await drain();
    const mine = received.slice(start).filter((r) => JSON.parse(r.body).data.document.id === doc.body.id);
    expect(mine).toHaveLength(3);
    expect(new Set(mine.map((r) => r.headers["colibri-event-id"])).size).toBe(1);
    const [delivery] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.body.id));
    expect(delivery).toMatchObject({ status: "entregado", attempts: 3, lastStatus: 200 });
    // The waits grew: the third attempt came at least 30 s + 2 min after the first.
    const ts = mine.map((r) => Number(/t=(\d+)/.exec(r.headers["colibri-signature"] as string)![1]));
    expect(ts[1] - ts[0]).toBeGreaterThanOrEqual(30);
    expect(ts[2] - ts[1]).toBeGreaterThanOrEqual(120);

    const log = await pos.call("GET", `/webhooks/${hook.body.id}/deliveries`);
    expect(log.body.data[0]).toMatchObject({ id: delivery.id, status: "entregado", attempts: 3, lastStatus: 200 });
    expect((await pos.call("POST", `/webhooks/deliveries/${delivery.id}/resend`)).status).toBe(202);
    await drain();
    const after = received.slice(start).filter((r) => JSON.parse(r.body).data.document.id === doc.body.id);
    expect(after).toHaveLength(4);
    // Another company's delivery cannot be resent.
    const b = await apiCompany(database.db);
    const other = new Integrator(b.username, b.password);
    await other.signIn();
    expect((await other.call("POST", `/webhooks/deliveries/${delivery.id}/resend`)).status).toBe(404);
  });

  it("a document Hacienda rejects sends document.rejected with the reasons in Spanish", async () => {
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    await pos.call("POST", "/webhooks", { url: receiverUrl, events: ["document.rejected"] });
    const doc = await pos.call("POST", "/documents", { kind: "te", controlNumber: "R-1", lines: [line] });
    // Damage the stored signature (our own validation never lets an invalid document through).
    const [row] = await database.db.select({ xml: documents.signedXml }).from(documents).where(eq(documents.id, doc.body.id));
    await database.db.update(documents).set({ signedXml: Buffer.from(row.xml!.toString("utf8").replace("Café chorreado", "Cafe chorreado")) }).where(eq(documents.id, doc.body.id));
    const start = received.length;
    await drain();
    const got = await pos.call("GET", `/documents/${doc.body.id}`);
    expect(got.body.status).toBe("rechazado");
    expect(got.body.hacienda.reasons.length).toBeGreaterThan(0);
    const rejected = received.slice(start).filter((r) => r.headers["colibri-event-type"] === "document.rejected");
    expect(rejected).toHaveLength(1);
    expect(JSON.parse(rejected[0].body).data.document).toMatchObject({ id: doc.body.id, status: "rechazado", controlNumber: "R-1" });
    expect(JSON.parse(rejected[0].body).data.document.reasons.length).toBeGreaterThan(0);
  });

  it("without WEBHOOK_ALLOW_PRIVATE a loopback or private URL is refused, at registration and at delivery", async () => {
    const a = await apiCompany(database.db);
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    try {
      const refused = await pos.call("POST", "/webhooks", { url: "http://127.0.0.1:9/x" });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toEqual({ pointer: "/url", detail: API_MESSAGES.webhookPrivate });
      expect((await pos.call("POST", "/webhooks", { url: "http://192.168.1.20/x" })).status).toBe(400);
      // A name that resolves to loopback (registered while allowed) is caught when connecting.
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
      const named = await pos.call("POST", "/webhooks", { url: "http://localhost:9/x" });
      expect(named.status).toBe(201);
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
      const { queueWebhookEvent, deliverWebhook } = await import("../../app/server/api/webhooks.server.ts");
      await queueWebhookEvent(database.db, { companyId: a.company.id, type: "document.accepted", data: {} }, clock.now);
      const [d] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, named.body.id));
      await expect(deliverWebhook(database.db, d.id, clock.now)).rejects.toThrow(API_MESSAGES.webhookPrivate);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    }
  });
});
