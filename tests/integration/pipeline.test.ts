// The send pipeline against the real local sandbox (issue 5 items 4, 10): every kind accepted with
// its MensajeHacienda stored, a rejected document and its accepted replacement, the fault switches
// with nothing lost or sent twice, Hacienda down, and the verified callback.
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
import { configurePipeline, creditNoteDraft, handleHaciendaCallback, pendingCount, replacementDraft, submitDocument } from "../../app/server/hacienda-pipeline.server.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import { call, signedIn } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sandbox: Sandbox;
const schemaSet = testSchemaSet();
const clock = { now: new Date("2026-11-21T15:30:00Z") };

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startRealSandbox({ port: 0, schemaSet, processingDelayMs: 0, callbackRetryDelayMs: 10, log: () => {} });
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

  it("callback: verified answers apply the same state change; forged or foreign ones get 400 and change nothing", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    expect(await submitDocument(database.db, { companyId: company.id, documentId: r.documentId }, clock.now)).toBe("sent");
    expect((await docOf(r.documentId)).status).toBe("procesando");
    const answer = sandbox.state.documents.get(r.clave!)!;
    const body = (xml: string, clave = r.clave!) => JSON.stringify({ clave, fecha: answer.fecha, "ind-estado": "aceptado", "respuesta-xml": Buffer.from(xml).toString("base64") });

    const forged = answer.respuestaXml.replace("aceptado en el ambiente", "aceptado  en el ambiente");
    expect(await handleHaciendaCallback(database.db, body(forged), clock.now)).toMatchObject({ status: 400 });
    expect(await handleHaciendaCallback(database.db, body(answer.respuestaXml, "5".repeat(50)), clock.now)).toMatchObject({ status: 400 });
    expect(await handleHaciendaCallback(database.db, "no es json", clock.now)).toMatchObject({ status: 400 });
    expect(await handleHaciendaCallback(database.db, JSON.stringify({ clave: r.clave, indEstado: "aceptado" }), clock.now)).toMatchObject({ status: 400 });
    expect((await docOf(r.documentId)).status).toBe("procesando");

    expect(await handleHaciendaCallback(database.db, JSON.stringify({ clave: r.clave, indEstado: "procesando" }), clock.now)).toMatchObject({ status: 200 });
    expect(await handleHaciendaCallback(database.db, body(answer.respuestaXml), clock.now)).toMatchObject({ status: 200, documentId: r.documentId });
    const d = await docOf(r.documentId);
    expect(d.status).toBe("aceptado");
    expect(d.responseXml!.toString()).toBe(answer.respuestaXml);
    // The poll that follows finds nothing to do.
    await drain();
    expect((await docOf(r.documentId)).status).toBe("aceptado");
  });

  it("the sandbox's real callback reaches the endpoint's handler and makes the document 'aceptado' without polling", async () => {
    const { company, user, client } = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
    const received: number[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void handleHaciendaCallback(database.db, Buffer.concat(chunks).toString("utf8"), clock.now).then((r) => {
          received.push(r.status);
          res.writeHead(r.status).end(r.message);
        });
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    configurePipeline({ callbackUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hacienda/callback` });
    try {
      const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
      expect(await submitDocument(database.db, { companyId: company.id, documentId: r.documentId }, clock.now)).toBe("sent");
      await sandbox.settled();
      expect(received).toContain(200);
      expect((await docOf(r.documentId)).status).toBe("aceptado");
    } finally {
      configurePipeline({ callbackUrl: null });
      await new Promise((r) => server.close(r));
    }
  });
});
