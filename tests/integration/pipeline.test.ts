// The send pipeline against the real local sandbox (issue 5 items 4, 10): every kind accepted with
// its MensajeHacienda stored, a rejected document and its accepted replacement, the fault switches
// with nothing lost or sent twice, Hacienda down, and the callback taken only as a hint (decision 110).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asc, eq, and, ne } from "drizzle-orm";
import { documents, jobs } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import type { Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { rejectionReasons } from "../../app/domain/rejection-reasons.ts";
import { configurePipeline, creditNoteDraft, PIPELINE_MESSAGES, replacementDraft, submitDocument } from "../../app/server/hacienda-pipeline.server.ts";
import { pendingCount } from "../setup/pending-count.ts";
import * as callbackRoute from "../../app/routes/hacienda-callback.tsx";
import { requestContext } from "../../app/server/context.ts";
import { makeTestP12 } from "../../app/hacienda/cert.ts";
import { loadP12 } from "../../app/hacienda/p12.ts";
import { signXml } from "../../app/hacienda/sign.ts";
import { verifyXml } from "../../app/hacienda/verify.ts";
import { buildMensajeHacienda, readComprobante } from "../../app/hacienda/sandbox/mensaje.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import { call, signedIn } from "../setup/app.ts";
import { RouterContextProvider } from "react-router";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sandbox: Sandbox;
const schemaSet = testSchemaSet();
const clock = { now: new Date("2026-11-21T15:30:00Z") };

beforeAll(async () => {
  database = await createTestDatabase();
  // The sandbox judges FechaEmision against its own clock: the same virtual clock the documents are issued on.
  sandbox = await startRealSandbox({ port: 0, schemaSet, processingDelayMs: 0, callbackRetryDelayMs: 10, log: () => {}, now: () => clock.now.getTime() });
  configurePipeline({ clientOptions: { maxRetries: 4, backoffBaseMs: 2, backoffMaxMs: 10, maxRetryAfterMs: 20, timeoutMs: 5000, rateLimitPerSecond: 0 }, callbackUrl: null });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await database?.drop();
});
beforeEach(() => {
  sandbox.setFaults({ delayMs: 0, error5xxShare: 0, rateLimitShare: 0, dropShare: 0, tokenFailureShare: 0, retryAfterSeconds: 0 });
});

const issue = async (companyId: number, userId: number, draft: DocumentDraft, extra: { replacesDocumentId?: number } = {}) => {
  const r = await issueDocument(database.db, { companyId, userId, draft, now: clock.now, schemaSet, ...extra });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
};

/** Runs due jobs on a virtual clock: when nothing is due, jumps to the next job's run_at. */
async function drain(maxSteps = 2000) {
  for (let i = 0; i < maxSteps; i++) {
    const ran = await runOne(database.db, handlers, "test-worker", () => clock.now);
    if (ran) continue;
    const [next] = await database.db.select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.status, "pending")).orderBy(asc(jobs.runAt)).limit(1);
    if (!next) return;
    clock.now = new Date(Math.max(clock.now.getTime(), next.runAt.getTime()));
  }
  throw new Error("drain: too many steps");
}

const docOf = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0];

/** Runs the jobs due now, by the real clock (the callback route queues its poll at the real time). */
async function runDueJobs() {
  while (await runOne(database.db, handlers, "test-worker", () => new Date()));
}

/** Removes the backoff chain's poll queued by the submission: only the callback can make a poll happen. */
const dropPollChain = (documentId: number) => database.db.delete(jobs).where(eq(jobs.uniqueKey, `poll:${documentId}:0`));

/** The e-mail jobs of a document, whatever their state (a job that ran has lost its unique key). */
const emailJobsOf = async (documentId: number) =>
  (await database.db.select().from(jobs).where(eq(jobs.type, "send-document-email"))).filter((j) => (j.payload as { documentId?: number }).documentId === documentId);

/** A POST to /hacienda/callback through the route's action, as Hacienda (no session, no CSRF token) would send it. */
async function postCallback(body: string): Promise<{ status: number; body: string }> {
  const request = new Request("http://localhost/hacienda/callback", { method: "POST", headers: { "content-type": "application/json" }, body });
  const context = new RouterContextProvider();
  context.set(requestContext, { ip: "198.51.100.7", csrf: "", toasts: [] });
  const response = (await callbackRoute.action({ request, context, params: {} } as never)) as Response;
  return { status: response.status, body: await response.text() };
}

describe("send pipeline against the local sandbox", () => {
  it("fe, te, nc, nd and fec end 'aceptado' with the MensajeHacienda stored; an accepted NC counts against its invoice", async () => {
    const { company, user, client, provider, generic } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    const fe = await issue(company.id, user.id, sampleDraft("fe", client.id));
    const te = await issue(company.id, user.id, sampleDraft("te", generic.id));
    // A foreign buyer's identification longer than the API's 12 characters travels in the XML only.
    const teForeign = await issue(company.id, user.id, sampleDraft("te", generic.id, { internationalClient: { name: "John Smith", cedula: "P12345678901234" } }));
    const ncDraft = (await creditNoteDraft(database.db, company.id, fe.documentId))!;
    const nc = await issue(company.id, user.id, ncDraft);
    const nd = await issue(
      company.id,
      user.id,
      sampleDraft("nd", client.id, { note: "Horas extra", references: [{ documentId: fe.documentId, docType: "", number: "", issuedAt: "", code: "02", reason: "Horas adicionales" }], lines: sampleDraft("fe", 1).lines.slice(1) }),
    );
    const fec = await issue(
      company.id,
      user.id,
      sampleDraft("fec", provider.id, {
        references: [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-21T14:00:00Z", code: "04", reason: "Compra a productor de régimen especial" }],
        lines: [{ cabys: "0113100000100", description: "Café en grano oro", quantity: "50", unit: "Kg", unitPrice: "3200", tax: { tarifaCode: "02" } }],
      }),
    );
    expect((await pendingCount(database.db, company.id)).porEnviar).toBe(6);
    await drain();
    for (const r of [fe, te, teForeign, nc, nd, fec]) {
      const d = await docOf(r.documentId);
      expect(d.status, `${r.kind}: ${d.haciendaDetail} ${d.lastError}`).toBe("aceptado");
      expect(d.responseXml!.toString()).toContain("MensajeHacienda");
      expect(d.haciendaDetail).toMatch(/aceptado en el ambiente de pruebas/);
    }
    expect(await pendingCount(database.db, company.id)).toEqual({ porEnviar: 0, procesando: 0, total: 0 });
    expect((await docOf(fe.documentId)).creditNoteTotal).toBe((await docOf(nc.documentId)).totalComprobante);
    expect((await docOf(fe.documentId)).debitNoteTotal).toBe((await docOf(nd.documentId)).totalComprobante);
    for (const r of [fe, te, teForeign, nc, nd, fec]) expect(sandbox.state.registrations.get(r.clave!)).toBe(1);
  });

  it("a document the sandbox rejects ends 'rechazado' with the reasons; its code-16 replacement is accepted", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    const bad = await issue(company.id, user.id, sampleDraft("fe", client.id));
    // The stored bytes are damaged after signing (as a faulty disk or proxy would): the sandbox's own signature check refuses them.
    const d0 = await docOf(bad.documentId);
    const damaged = d0.signedXml!.toString("utf8").replace("Computadora portátil", "Computadora portatil");
    await database.db.update(documents).set({ signedXml: Buffer.from(damaged, "utf8") }).where(eq(documents.id, bad.documentId));
    await drain();
    const rejected = await docOf(bad.documentId);
    expect(rejected.status).toBe("rechazado");
    expect(rejectionReasons(rejected.haciendaDetail).join(" ")).toMatch(/firma/i);
    expect(rejected.responseXml!.toString()).toContain("<Mensaje>3</Mensaje>");

    const replacement = (await replacementDraft(database.db, company.id, bad.documentId))!;
    expect(replacement.references?.at(-1)).toMatchObject({ code: "16", docType: "10", number: bad.clave, reason: "Sustituye comprobante electrónico rechazado" });
    const fixed = await issue(company.id, user.id, replacement, { replacesDocumentId: bad.documentId });
    await drain();
    const accepted = await docOf(fixed.documentId);
    expect(accepted.status, `${accepted.haciendaDetail}`).toBe("aceptado");
    expect(accepted.signedXml!.toString()).toContain("<Codigo>16</Codigo>");
    expect(accepted.replacesDocumentId).toBe(bad.documentId);
    expect(await replacementDraft(database.db, company.id, fixed.documentId)).toBeNull();
  });

  it("a document Hacienda cannot process ('error') is asked about three times, never sent again, and ends 'rechazado' with the reason, so it can be replaced", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    const duplicatesBefore = sandbox.state.counters.duplicatePosts;
    // Bytes Hacienda cannot read as a comprobante (as a broken proxy might leave them): it answers 'error'.
    await database.db.update(documents).set({ signedXml: Buffer.from(`<?xml version="1.0"?><Pedido><Clave>${r.clave}</Clave></Pedido>`, "utf8") }).where(eq(documents.id, r.documentId));
    await drain(200);
    const d = await docOf(r.documentId);
    expect(d.status).toBe("rechazado");
    expect(d.haciendaDetail).toBe(PIPELINE_MESSAGES.unprocessable);
    expect(sandbox.state.errorKeys()).toContain(r.clave);
    expect(sandbox.state.registrations.get(r.clave!)).toBe(1);
    expect(sandbox.state.counters.duplicatePosts).toBe(duplicatesBefore);
    expect((await replacementDraft(database.db, company.id, r.documentId))?.references?.at(-1)).toMatchObject({ code: "16", number: r.clave });
  });

  it("Hacienda down: the document stays 'por enviar', the job retries, nothing is lost", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    sandbox.setFaults({ error5xxShare: 1 });
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    await runOne(database.db, handlers, "w", () => clock.now);
    const waiting = await docOf(r.documentId);
    expect(waiting.status).toBe("por enviar");
    expect(waiting.lastError).toBeTruthy();
    expect((await pendingCount(database.db, company.id)).porEnviar).toBe(1);
    // The user sees it on the dashboard.
    const browser = await signedIn(database.db, user.id, company.id);
    expect((await call(browser, dashboard.loader, { path: "/dashboard" })).data.pending).toMatch(/^1 documento espera respuesta de Hacienda \(1 por enviar\)/);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.uniqueKey, `submit:${r.documentId}`));
    expect(job).toMatchObject({ status: "pending" });
    sandbox.setFaults({ error5xxShare: 0 });
    await drain();
    expect((await docOf(r.documentId)).status).toBe("aceptado");
    expect(sandbox.state.registrations.get(r.clave!)).toBe(1);
  });

  it("fault switches (delay, 5xx, 429, dropped answers, token failures): N documents all accepted exactly once", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    sandbox.setFaults({ delayMs: 5, error5xxShare: 0.25, rateLimitShare: 0.2, retryAfterSeconds: 0, dropShare: 0.25, tokenFailureShare: 0.25 });
    const issued = [];
    for (let i = 0; i < 12; i++) issued.push(await issue(company.id, user.id, sampleDraft(i % 3 === 0 ? "te" : "fe", client.id)));
    await drain();
    const c = sandbox.state.counters;
    expect(c.injected5xx + c.injected429 + c.droppedAnswers + c.tokenFailures).toBeGreaterThan(0);
    for (const r of issued) {
      expect((await docOf(r.documentId)).status).toBe("aceptado");
      expect(sandbox.state.registrations.get(r.clave!)).toBe(1);
    }
    const left = await database.db.select().from(documents).where(and(eq(documents.companyId, company.id), ne(documents.status, "aceptado")));
    expect(left).toHaveLength(0);
  });

  it("a forged 'aceptado' (a MensajeHacienda signed with a freshly made certificate) changes nothing: the document stays 'procesando' and no e-mail is queued until the API answers", async () => {
    // A sandbox of its own whose clock the test moves: it answers 'procesando' until a minute after reception.
    let sandboxNow = Date.parse("2026-11-21T15:30:00Z");
    const slow = await startRealSandbox({ port: 0, schemaSet, processingDelayMs: 60_000, now: () => sandboxNow, log: () => {} });
    try {
      const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: slow.url });
      const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
      expect(await submitDocument(database.db, { companyId: company.id, documentId: r.documentId }, clock.now)).toBe("sent");
      expect((await docOf(r.documentId)).status).toBe("procesando");
      await dropPollChain(r.documentId);

      // The attacker's own key (node-forge certificate under a CA of his own): the signature is valid, the signer is not Hacienda.
      const pin = "0000";
      const attacker = loadP12(
        makeTestP12({ cedula: "3101999999", idType: "02", name: "HACIENDA FALSA", pin, notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2028-01-01T00:00:00Z") }),
        pin,
        { now: clock.now },
      );
      const signed = (await docOf(r.documentId)).signedXml!.toString("utf8");
      const forged = signXml(buildMensajeHacienda(readComprobante(signed), r.clave!, { estado: "aceptado", errores: [] }), attacker, { now: clock.now });
      expect(verifyXml(forged).valid).toBe(true);
      const notification = (clave: string) => JSON.stringify({ clave, fecha: "2026-11-21T09:30:00-06:00", "ind-estado": "aceptado", "respuesta-xml": Buffer.from(forged).toString("base64") });

      const ours = await postCallback(notification(r.clave!));
      const unknown = await postCallback(notification("5".repeat(50)));
      await runDueJobs();
      const waiting = await docOf(r.documentId);
      expect(waiting).toMatchObject({ status: "procesando", responseXml: null, answeredAt: null, emailSentAt: null });
      expect(await emailJobsOf(r.documentId)).toEqual([]);
      expect(slow.state.counters.gets, "the hint asked Hacienda's API").toBe(1);
      // The same answer whether the clave exists or not.
      expect(ours).toEqual({ status: 200, body: "Notificación recibida." });
      expect(unknown).toEqual(ours);

      // A minute later Hacienda's API has the answer: the next notification (or poll) stores the API's MensajeHacienda.
      sandboxNow += 60_000;
      expect(await postCallback(notification(r.clave!))).toEqual({ status: 200, body: "Notificación recibida." });
      await runDueJobs();
      const accepted = await docOf(r.documentId);
      expect(accepted.status).toBe("aceptado");
      expect(accepted.responseXml!.toString()).toBe(slow.state.documents.get(r.clave!)!.respuestaXml);
      expect(accepted.responseXml!.toString()).not.toBe(forged);
      expect(await emailJobsOf(r.documentId)).toHaveLength(1);
      // A later (even forged 'rechazado') notification changes nothing: the document is no longer waiting.
      expect(await postCallback(JSON.stringify({ clave: r.clave, indEstado: "rechazado" }))).toEqual({ status: 200, body: "Notificación recibida." });
      await runDueJobs();
      expect((await docOf(r.documentId)).status).toBe("aceptado");
    } finally {
      await slow.close();
    }
  });

  it("a notification without a valid clave gets 400; a body past the route's limit 413; nothing is queued", async () => {
    const before = (await database.db.select().from(jobs)).length;
    expect(await postCallback("no es json")).toEqual({ status: 400, body: "La notificación no trae una clave de comprobante válida." });
    expect(await postCallback(JSON.stringify({ clave: "123", indEstado: "aceptado" }))).toMatchObject({ status: 400 });
    expect(await postCallback(JSON.stringify({ clave: "1".repeat(50) + "x".repeat(300 * 1024) }))).toMatchObject({ status: 413 });
    expect((await database.db.select().from(jobs)).length).toBe(before);
  });

  it("the sandbox's real callback reaches the endpoint and the poll it triggers makes the document 'aceptado'", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    const received: number[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void postCallback(Buffer.concat(chunks).toString("utf8")).then((r) => {
          received.push(r.status);
          res.writeHead(r.status).end(r.body);
        });
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    configurePipeline({ callbackUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hacienda/callback` });
    try {
      const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
      expect(await submitDocument(database.db, { companyId: company.id, documentId: r.documentId }, clock.now)).toBe("sent");
      await dropPollChain(r.documentId);
      await sandbox.settled();
      expect(received).toEqual([200]);
      await runDueJobs();
      expect((await docOf(r.documentId)).status).toBe("aceptado");
    } finally {
      configurePipeline({ callbackUrl: null });
      await new Promise((r) => server.close(r));
    }
  });
});
