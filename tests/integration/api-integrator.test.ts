// A test integrator (issue 15 item 7): a client that talks to the API over HTTP, issues a ticket,
// retries it with the same Idempotency-Key after a lost answer, polls until Hacienda (the local
// sandbox, through the real jobs) answers, receives the webhook on its own local HTTP server and
// verifies its signature with its own code; a failing receiver is retried with backoff and the
// delivery log shows it; 'reenviar' posts it again; a rejected document sends document.rejected.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { documentCounters, documents, expenseCategories, jobs, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
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
import { RECEPTION_MESSAGES } from "../../app/domain/receptions.ts";
import { overDueMessage, PAYMENT_MESSAGES } from "../../app/domain/payments.ts";
import { RECEIVED_API_MESSAGES } from "../../app/server/api/receptions.server.ts";
import { apiCompany, contractChecker } from "../fixtures/api.ts";
import { acceptedBySandbox, supplierDocument } from "../fixtures/receptions.ts";
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
      // Loopback written as an IPv4-mapped IPv6 address (URL spells it [::ffff:7f00:1]), or in the
      // old IPv4-compatible form, is loopback too.
      for (const url of ["http://[::ffff:127.0.0.1]:9/x", "http://[::ffff:a9fe:a9fe]/latest", "http://[::7f00:1]:9/x", "http://[::1]:9/x"]) {
        const mapped = await pos.call("POST", "/webhooks", { url });
        expect(mapped.status, url).toBe(400);
        expect(mapped.body.errors[0], url).toEqual({ pointer: "/url", detail: API_MESSAGES.webhookPrivate });
      }
      // One saved before that rule is not connected to: an address in the URL gets no lookup, so
      // the delivery checks it itself. The receiver (listening on 127.0.0.1) hears nothing.
      const port = new URL(receiverUrl).port;
      await database.db.update(webhookEndpoints).set({ url: `http://[::ffff:7f00:1]:${port}/colibri` }).where(eq(webhookEndpoints.id, named.body.id));
      const before = received.length;
      await expect(deliverWebhook(database.db, d.id, clock.now)).rejects.toThrow(API_MESSAGES.webhookPrivate);
      expect(received.length).toBe(before);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    }
  });

  it("delivers to an endpoint named by its host name, not only by its address", async () => {
    const a = await apiCompany(database.db);
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    // localhost is private, so allowed here by WEBHOOK_ALLOW_PRIVATE; the name still goes through the
    // delivery's own DNS lookup, which Node asks for every address.
    const hook = await pos.call("POST", "/webhooks", { url: receiverUrl.replace("127.0.0.1", "localhost"), events: ["document.accepted"] });
    expect(hook.status).toBe(201);
    const { queueWebhookEvent, deliverWebhook } = await import("../../app/server/api/webhooks.server.ts");
    await queueWebhookEvent(database.db, { companyId: a.company.id, type: "document.accepted", data: { by: "name" } }, clock.now);
    const [d] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.body.id));
    const before = received.length;
    expect(await deliverWebhook(database.db, d.id, clock.now)).toBe("delivered");
    expect(received.slice(before).map((r) => JSON.parse(r.body).data)).toEqual([{ by: "name" }]);
  });
});

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("received documents over HTTP (plan 5 answers its suppliers through the API)", () => {
  it("uploads a supplier's invoice with Hacienda's answer, accepts it, and receives received_document.processed when Hacienda answers our message", async () => {
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const [category] = await database.db.insert(expenseCategories).values({ companyId: a.company.id, name: "Equipo de cómputo" }).returning();
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const hook = await pos.call("POST", "/webhooks", { url: receiverUrl, events: ["received_document.processed"] });
    const secret = hook.body.secret as string;
    const categories = await pos.call("GET", "/expense-categories");
    expect(categories.body.data).toEqual([{ id: category.id, name: "Equipo de cómputo" }]);

    const inv = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification } });
    const mh = await acceptedBySandbox(sandbox.url, inv);
    const upload = { xml: b64(inv.xml), response: b64(mh.respuestaXml), filename: "factura.xml" };

    // Refusals: not base64, another receiver (the intake's own reason), at the file's pointer.
    const garbled = await pos.call("POST", "/received-documents", { xml: "no es base64!" });
    expect(garbled.status).toBe(400);
    expect(garbled.body.errors).toEqual([{ pointer: "/xml", detail: RECEIVED_API_MESSAGES.notBase64 }]);
    const other = supplierDocument({ receiver: { name: "Otra Empresa S.A.", id: "3101999999" } });
    const misaddressed = await pos.call("POST", "/received-documents", { xml: b64(other.xml) });
    expect(misaddressed.status).toBe(400);
    expect(misaddressed.body.errors[0].pointer).toBe("/xml");
    expect(misaddressed.body.errors[0].detail).toMatch(/^El comprobante está emitido a Otra Empresa S\.A\./);

    const first = await pos.call("POST", "/received-documents", upload, "rx-0001");
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get("location")).toBe(`/api/v1/received-documents/${first.body.id}`);
    // The answer that came along is not the verdict: the jobs ask Hacienda for its own.
    expect(first.body).toMatchObject({ clave: inv.clave, kind: "FE", issuerStatus: null, status: "pendiente", acceptance: { message: 4, label: "Pendiente" } });
    await drain();
    expect((await pos.call("GET", `/received-documents/${first.body.id}`)).body.issuerStatus).toBe("aceptado");
    // The same key: the same document; without a key, the same XML again: 409 naming it.
    const replay = await pos.call("POST", "/received-documents", upload, "rx-0001");
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const again = await pos.call("POST", "/received-documents", upload);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(RECEIVED_API_MESSAGES.alreadyReceived(inv.clave));
    expect(again.headers.get("location")).toBe(`/api/v1/received-documents/${first.body.id}`);

    // The acceptance form's rules, same messages at the same fields; nothing changes.
    const noDetail = await pos.call("POST", `/received-documents/${first.body.id}/acceptance`, { message: 3, expense_category: category.id, tax_condition: "01" });
    expect(noDetail.status).toBe(400);
    expect(noDetail.body.errors).toEqual([{ pointer: "/message_detail", detail: RECEPTION_MESSAGES.detailRequired }]);
    const badCategory = await pos.call("POST", `/received-documents/${first.body.id}/acceptance`, { message: 1, expense_category: 999999, tax_condition: "01" });
    expect(badCategory.body.errors).toEqual([{ pointer: "/expense_category", detail: RECEPTION_MESSAGES.categoryInvalid }]);
    const tooMuch = await pos.call("POST", `/received-documents/${first.body.id}/acceptance`, { message: 1, expense_category: category.id, tax_condition: "01", tax_credit: "99999999", applicable_expense: "1" });
    expect(tooMuch.body.errors[0].pointer).toBe("/tax_credit");
    expect((await pos.call("GET", `/received-documents/${first.body.id}`)).body.acceptance.message).toBe(4);

    // Another company sees none of it.
    const b = await apiCompany(database.db);
    const stranger = new Integrator(b.username, b.password);
    await stranger.signIn();
    expect((await stranger.call("GET", `/received-documents/${first.body.id}`)).status).toBe(404);
    expect((await stranger.call("GET", `/received-documents/${first.body.id}/xml`)).status).toBe(404);
    expect((await stranger.call("POST", `/received-documents/${first.body.id}/acceptance`, { message: 1, expense_category: category.id, tax_condition: "01" })).status).toBe(404);
    expect((await stranger.call("GET", "/received-documents")).body.data).toEqual([]);

    const accepted = await pos.call("POST", `/received-documents/${first.body.id}/acceptance`, { message: 1, expense_category: category.id, tax_condition: "01" }, "rx-0001-ok");
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ status: "por enviar", acceptance: { message: 1, label: "Aceptado", expenseCategory: category.id, creditableTax: first.body.totals.tax } });
    expect(accepted.body.message.consecutive).toMatch(/^\d{8}05\d{10}$/);
    const twice = await pos.call("POST", `/received-documents/${first.body.id}/acceptance`, { message: 1, expense_category: category.id, tax_condition: "01" });
    expect(twice.body.detail).toBe(RECEPTION_MESSAGES.notPending);

    const start = received.length;
    let status = accepted.body.status;
    for (let i = 0; i < 20 && status !== "aceptado" && status !== "rechazado"; i++) {
      await drain(async (n) => n > 3);
      status = (await pos.call("GET", `/received-documents/${first.body.id}`)).body.status;
    }
    expect(status).toBe("aceptado");
    await drain();
    const events = received.slice(start).filter((r) => r.headers["colibri-event-type"] === "received_document.processed");
    expect(events).toHaveLength(1);
    const signature = events[0].headers["colibri-signature"] as string;
    expect(Integrator.verify(secret, signature, events[0].body, Number(/t=(\d+)/.exec(signature)![1]))).toBe(true);
    expect(JSON.parse(events[0].body).data.receivedDocument).toMatchObject({ id: first.body.id, clave: inv.clave, message: 1, status: "aceptado", messageConsecutive: accepted.body.message.consecutive });

    const message = await pos.call("GET", `/received-documents/${first.body.id}/message`);
    expect(message.status).toBe(200);
    expect(message.body).toContain("MensajeReceptor");
    expect((await pos.call("GET", `/received-documents/${first.body.id}/response`)).body).toContain("MensajeHacienda");
    expect((await pos.call("GET", `/received-documents/${first.body.id}/xml`)).body).toBe(inv.xml);
    const list = await pos.call("GET", "/received-documents?acceptance=aceptado");
    expect(list.body.data.map((d: { id: number }) => d.id)).toEqual([first.body.id]);
    expect((await pos.call("GET", "/received-documents?acceptance=pendiente")).body.data).toEqual([]);
  });

  it("takes one XML per call, as its contract says: a .zip in `xml` or `response` (by its bytes, whatever the filename) is refused at its field and nothing is stored", async () => {
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const inv = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification } });
    const mh = await acceptedBySandbox(sandbox.url, inv);
    const zipped = Buffer.from(zipSync({ "factura.xml": strToU8(inv.xml), "respuesta.xml": strToU8(mh.respuestaXml) })).toString("base64");
    const asXml = await pos.call("POST", "/received-documents", { xml: zipped, filename: "factura.xml" });
    expect(asXml.status, JSON.stringify(asXml.body)).toBe(400);
    expect(asXml.body.errors).toEqual([{ pointer: "/xml", detail: RECEIVED_API_MESSAGES.zip }]);
    const asResponse = await pos.call("POST", "/received-documents", { xml: b64(inv.xml), response: zipped });
    expect(asResponse.status, JSON.stringify(asResponse.body)).toBe(400);
    expect(asResponse.body.errors).toEqual([{ pointer: "/response", detail: RECEIVED_API_MESSAGES.zip }]);
    expect((await pos.call("GET", `/received-documents?clave=${inv.clave}`)).body.data).toEqual([]);
    // The XML itself is received.
    expect((await pos.call("POST", "/received-documents", { xml: b64(inv.xml), response: b64(mh.respuestaXml) })).status).toBe(201);
  });

  it("a document uploaded without Hacienda's answer waits ('esperando') and is answered once Hacienda confirms it", async () => {
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const [category] = await database.db.insert(expenseCategories).values({ companyId: a.company.id, name: "Servicios" }).returning();
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const inv = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification } });
    await acceptedBySandbox(sandbox.url, inv);
    const up = await pos.call("POST", "/received-documents", { xml: b64(inv.xml), expense_category: category.id, tax_condition: "04" });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ issuerStatus: null, acceptance: { expenseCategory: category.id, taxCondition: "04" } });
    const decided = await pos.call("POST", `/received-documents/${up.body.id}/acceptance`, { message: 2, message_detail: "Faltó una unidad", expense_category: category.id, tax_condition: "04" });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.status).toBe("esperando");
    await drain();
    const got = await pos.call("GET", `/received-documents/${up.body.id}`);
    expect(got.body).toMatchObject({ issuerStatus: "aceptado", status: "aceptado", acceptance: { message: 2, label: "Aceptado Parcialmente", creditableTax: "0.00000" } });
    expect(got.body.message.consecutive).toMatch(/^\d{8}06\d{10}$/);
  });
});

describe("a received document uploaded and decided in one call", () => {
  it("takes the acceptance's fields in the upload (same rules, messages and pointers), checks them before storing anything, and goes through the intake and processReceptions; a refused call stores nothing and its Idempotency-Key works for the retry", async () => {
    // The sandbox and the deadline judge dates against the real clock.
    clock.now = new Date();
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const [category] = await database.db.insert(expenseCategories).values({ companyId: a.company.id, name: "Materiales" }).returning();
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const inv = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification } });
    const mh = await acceptedBySandbox(sandbox.url, inv);
    const upload = { xml: b64(inv.xml), response: b64(mh.respuestaXml), filename: "factura.xml" };
    const decide = { message: 1, expense_category: category.id, tax_condition: "01" };
    const storedWith = async (clave: string) => (await pos.call("GET", `/received-documents?clave=${clave}`)).body.data as Array<{ id: number }>;

    // The 'Actualizar aceptación' form's rules at the same pointers, before anything is stored.
    const refusals: Array<[Record<string, unknown>, { pointer: string; detail: string }]> = [
      [{ ...decide, message: 3 }, { pointer: "/message_detail", detail: RECEPTION_MESSAGES.detailRequired }],
      [{ ...decide, message: 4 }, { pointer: "/message", detail: RECEPTION_MESSAGES.messageRequired }],
      [{ ...decide, tax_condition: "07" }, { pointer: "/tax_condition", detail: RECEPTION_MESSAGES.taxConditionRequired }],
      [{ ...decide, expense_category: 999999 }, { pointer: "/expense_category", detail: RECEPTION_MESSAGES.categoryInvalid }],
      [{ ...decide, tax_credit: "12345678901234" }, { pointer: "/tax_credit", detail: RECEPTION_MESSAGES.amountFormat }],
      // A decision's field without the decision.
      [{ message_detail: "Faltó una unidad" }, { pointer: "/message", detail: RECEPTION_MESSAGES.messageRequired }],
    ];
    for (const [fields, error] of refusals) {
      const r = await pos.call("POST", "/received-documents", { ...upload, ...fields }, "rx-both-1");
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.body.errors, JSON.stringify(fields)).toEqual([error]);
    }
    // The acceptance call on a stored document says the same for the same fields.
    const parked = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification } });
    // Known to Hacienda (the sandbox), so the jobs that ask for its verdict end.
    await acceptedBySandbox(sandbox.url, parked);
    const pending = await pos.call("POST", "/received-documents", { xml: b64(parked.xml) });
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    expect(pending.body.acceptance.message).toBe(4);
    for (const [fields, error] of refusals.slice(0, 5)) expect((await pos.call("POST", `/received-documents/${pending.body.id}/acceptance`, { ...decide, ...fields })).body.errors).toEqual([error]);
    // Checked against the document itself (its tax), inside the intake and still before storing.
    const tooMuch = await pos.call("POST", "/received-documents", { ...upload, ...decide, tax_credit: "99999999", applicable_expense: "1" }, "rx-both-1");
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors).toHaveLength(1);
    expect(tooMuch.body.errors[0]).toMatchObject({ pointer: "/tax_credit", detail: expect.stringMatching(/^El impuesto acreditable no puede ser mayor que el impuesto del comprobante/) });
    const late = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification }, issuedAt: new Date(clock.now.getTime() - 60 * 86_400_000) });
    const tooLate = await pos.call("POST", "/received-documents", { xml: b64(late.xml), ...decide, message: 3, message_detail: "No lo pedimos" });
    expect(tooLate.status).toBe(400);
    expect(tooLate.body.errors).toEqual([{ pointer: "", detail: expect.stringMatching(/^El plazo para rechazar venció el /) }]);
    expect(await storedWith(late.clave)).toEqual([]);
    // Stored and decided; Hacienda's answer that came along is not its verdict, so the decision
    // waits for the one the jobs ask Hacienda for, as without it.
    const done = await pos.call("POST", "/received-documents", { ...upload, ...decide }, "rx-both-2");
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.headers.get("location")).toBe(`/api/v1/received-documents/${done.body.id}`);
    expect(done.body).toMatchObject({ clave: inv.clave, issuerStatus: null, status: "esperando", acceptance: { message: 1, label: "Aceptado", expenseCategory: category.id, taxCondition: "01", creditableTax: done.body.totals.tax } });
    const replay = await pos.call("POST", "/received-documents", { ...upload, ...decide }, "rx-both-2");
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(done.body.id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await storedWith(inv.clave)).map((d) => d.id)).toEqual([done.body.id]);
    expect((await pos.call("POST", "/received-documents", { ...upload, ...decide })).status).toBe(409);
    let status = done.body.status;
    for (let i = 0; i < 20 && status !== "aceptado" && status !== "rechazado"; i++) {
      await drain(async (n) => n > 3);
      status = (await pos.call("GET", `/received-documents/${done.body.id}`)).body.status;
    }
    expect(status).toBe("aceptado");
    expect((await pos.call("GET", `/received-documents/${done.body.id}`)).body.message.consecutive).toMatch(/^\d{8}05\d{10}$/);

    // Without Hacienda's answer a decision waits for Hacienda's verdict, as in the interface.
    const later = supplierDocument({ receiver: { name: a.company.name, id: a.company.identification } });
    await acceptedBySandbox(sandbox.url, later);
    const waiting = await pos.call("POST", "/received-documents", { xml: b64(later.xml), message: 2, message_detail: "Faltó una unidad", expense_category: category.id, tax_condition: "04" });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(201);
    expect(waiting.body).toMatchObject({ issuerStatus: null, status: "esperando", acceptance: { message: 2, detail: "Faltó una unidad", taxCondition: "04" } });
    await drain();
    expect((await pos.call("GET", `/received-documents/${waiting.body.id}`)).body).toMatchObject({ issuerStatus: "aceptado", status: "aceptado" });
  });
});

describe("payments and the Recibo Electrónico de Pago over HTTP", () => {
  it("a payment of an invoice sold with condition 10 issues the REP, which Hacienda accepts; the invoice lists it; the form's rules and tenancy hold", async () => {
    // The sandbox judges FechaEmision against its own (real) clock: start from now, not where earlier drains left the virtual clock.
    clock.now = new Date();
    const a = await apiCompany(database.db, { sandboxUrl: sandbox.url });
    const pos = new Integrator(a.username, a.password);
    await pos.signIn();
    const invoice = await pos.call("POST", "/documents", { kind: "fe", clientId: a.client.id, saleCondition: "10", lines: [{ ...line, unitPrice: "100000" }] });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    expect(invoice.body.payments).toEqual([]);
    const total = invoice.body.totals.total as string;
    expect(total).toBe("113000.00000");

    // The payment form's rules: over the due amount, a missing form; nothing is saved.
    const over = await pos.call("POST", `/documents/${invoice.body.id}/payments`, { amount: "200000", payment_form: "04" });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([{ pointer: "/amount", detail: overDueMessage("₡113.000,00") }]);
    const noForm = await pos.call("POST", `/documents/${invoice.body.id}/payments`, { amount: "1000", payment_form: "" });
    expect(noForm.body.errors).toEqual([{ pointer: "/payment_form", detail: PAYMENT_MESSAGES.formRequired }]);
    const wrongCurrency = await pos.call("POST", `/documents/${invoice.body.id}/payments`, { amount: "1000", payment_form: "04", currency_id: 1 });
    expect(wrongCurrency.body.errors).toEqual([{ pointer: "/currency_id", detail: PAYMENT_MESSAGES.currencyMismatch }]);
    expect(await database.db.select().from(documents).where(eq(documents.kind, "rep"))).toSatisfy((rows: { companyId: number }[]) => !rows.some((r) => r.companyId === a.company.id));

    const paid = await pos.call("POST", `/documents/${invoice.body.id}/payments`, { amount: "56500", payment_form: "04", reference: "TRF-1" }, "pago-1");
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({ paidAmount: "56500.00000", due: "56500.00000", payment: { amount: "56500.00000", payment_form: "04", reference: "TRF-1", rep: { status: "por enviar", note: null } } });
    const repId = paid.body.payment.rep.documentId as number;
    expect(paid.body.payment.rep.consecutive).toMatch(/^\d{8}10\d{10}$/);
    // The same key: the first answer, no second payment or REP.
    const replay = await pos.call("POST", `/documents/${invoice.body.id}/payments`, { amount: "56500", payment_form: "04", reference: "TRF-1" }, "pago-1");
    expect(replay.status).toBe(201);
    expect(replay.body.payment.id).toBe(paid.body.payment.id);
    const [counter] = await database.db.select().from(documentCounters).where(and(eq(documentCounters.companyId, a.company.id), eq(documentCounters.docType, "10")));
    expect(counter.nextNumber).toBe(2);

    await drain();
    const rep = await pos.call("GET", `/documents/${repId}`);
    expect(rep.body, JSON.stringify(rep.body.hacienda)).toMatchObject({ kind: "rep", status: "aceptado", totals: { total: "56500.00000" } });
    expect((await pos.call("GET", `/documents/${repId}/xml`)).body).toContain("ReciboElectronicoPago");
    const after = await pos.call("GET", `/documents/${invoice.body.id}`);
    expect(after.body.paidAmount).toBe("56500.00000");
    expect(after.body.payments).toHaveLength(1);
    expect(after.body.payments[0].rep).toMatchObject({ documentId: repId, status: "aceptado", reasons: [] });
    // REPs are listed on request, not with the documents (as in the interface).
    expect((await pos.call("GET", "/documents")).body.data.map((d: { id: number }) => d.id)).not.toContain(repId);
    expect((await pos.call("GET", "/documents?kind=rep")).body.data.map((d: { id: number }) => d.id)).toEqual([repId]);

    // A cash ticket's payment issues no REP.
    const sale = await pos.call("POST", "/documents", { kind: "te", lines: [line] });
    const cash = await pos.call("POST", `/documents/${sale.body.id}/payments`, { amount: "1695", payment_form: "01" });
    expect(cash.status, JSON.stringify(cash.body)).toBe(201);
    expect(cash.body.payment.rep).toBeNull();
    expect(cash.body.due).toBe("0.00000");

    const b = await apiCompany(database.db);
    const stranger = new Integrator(b.username, b.password);
    await stranger.signIn();
    expect((await stranger.call("POST", `/documents/${invoice.body.id}/payments`, { amount: "1", payment_form: "01" })).status).toBe(404);
    expect((await stranger.call("GET", `/documents/${repId}`)).status).toBe(404);
  });
});
