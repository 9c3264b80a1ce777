// Received documents end to end against the real local sandbox (issue 12 items 2 and 3): a supplier's
// invoice (built and signed with another company's test certificate, accepted by the sandbox) is
// received with or without Hacienda's answer, accepted, partially accepted or rejected; our
// MensajeReceptor is numbered with the CCE/CPCE/RCE counters, carries the document's amounts, tax and
// issuer, is signed (checked by xmlsec1), sent by the jobs and accepted by the sandbox.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { documentCounters, expenseCategories, jobs, receivedDocuments } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { xmlsecVerify } from "../../app/hacienda/testing/xmlsec.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import type { Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { parseReceived } from "../../app/hacienda/parse.ts";
import { runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import { configurePipeline, PIPELINE_MESSAGES } from "../../app/server/hacienda-pipeline.server.ts";
import { ingestReceivedFiles } from "../../app/server/receptions/intake.server.ts";
import { processReceptions } from "../../app/server/receptions/process.server.ts";
import type { ReceptionDecision } from "../../app/domain/receptions.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { acceptedBySandbox, supplierDocument, supplierKey } from "../fixtures/receptions.ts";
import { signXml } from "../../app/hacienda/sign.ts";
import { RECEPTION_MESSAGES } from "../../app/domain/reception-texts.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sandbox: Sandbox;
const schemaSet = testSchemaSet();
const clock = { now: new Date() };

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startRealSandbox({ port: 0, schemaSet, processingDelayMs: 0, callbackRetryDelayMs: 10, log: () => {} });
  configurePipeline({ clientOptions: { maxRetries: 2, backoffBaseMs: 2, backoffMaxMs: 10, maxRetryAfterMs: 20, timeoutMs: 5000, rateLimitPerSecond: 0 }, callbackUrl: null });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await database?.drop();
});
beforeEach(() => {
  clock.now = new Date();
});

/** Runs due jobs on a virtual clock: when nothing is due, jumps to the next job's run_at (bounded). */
async function drain(maxSteps = 500) {
  for (let i = 0; i < maxSteps; i++) {
    const ran = await runOne(database.db, handlers, "test-worker", () => clock.now);
    if (ran) continue;
    const [next] = await database.db
      .select({ runAt: jobs.runAt, type: jobs.type })
      .from(jobs)
      .where(eq(jobs.status, "pending"))
      .orderBy(asc(jobs.runAt))
      .limit(1);
    if (!next || next.type === "reception-sweep") return;
    clock.now = new Date(Math.max(clock.now.getTime(), next.runAt.getTime()));
  }
  throw new Error("drain: too many steps");
}

async function receivingCompany() {
  const c = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
  const [category] = await database.db.insert(expenseCategories).values({ companyId: c.company.id, name: "Equipo de cómputo" }).returning();
  return { ...c, category };
}

const rowOf = async (id: number) => (await database.db.select().from(receivedDocuments).where(eq(receivedDocuments.id, id)))[0]!;
const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });

function decision(category: number, over: Partial<ReceptionDecision> = {}): ReceptionDecision {
  return { message: 1, detail: null, expenseCategoryId: category, taxCondition: "01", creditableTax: null, applicableExpense: null, ...over };
}

describe("received documents: intake, acceptance messages and the pipeline", () => {
  it("an invoice uploaded with its MensajeHacienda is stored byte for byte and accepted: the CCE is numbered, matches the invoice, verifies with xmlsec1 and the sandbox accepts it", async () => {
    const { company, user, category } = await receivingCompany();
    const inv = supplierDocument({ receiver: { name: company.name, id: company.identification } });
    const mh = await acceptedBySandbox(sandbox.url, inv);
    expect(mh.estado).toBe("aceptado");

    const report = await ingestReceivedFiles(database.db, { companyId: company.id, userId: user.id, source: "upload", files: [file("factura.xml", inv.xml), file("respuesta.xml", mh.respuestaXml)], now: clock.now });
    expect(report.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(report.stored).toHaveLength(1);
    const stored = await rowOf(report.stored[0]!.id);
    expect(Buffer.from(stored.uploadXml).toString("utf8")).toBe(inv.xml);
    // The answer that came along is not the verdict: the jobs ask Hacienda for its own.
    expect(stored).toMatchObject({ clave: inv.clave, kind: "FE", message: 4, status: "pendiente", issuerStatus: null, issuerResponseXml: null, issuerId: "3102777888", source: "upload" });
    expect(stored.total).toBe(inv.doc.lines.length === 2 ? "1277000.00000" : stored.total);
    await drain();
    expect(await rowOf(stored.id)).toMatchObject({ issuerStatus: "aceptado", status: "pendiente" });
    expect(Buffer.from((await rowOf(stored.id)).issuerResponseXml!).toString("utf8")).toContain("<MensajeHacienda");

    const r = await processReceptions(database.db, { companyId: company.id, userId: user.id, ids: [stored.id], decision: decision(category.id), now: clock.now, schemaSet });
    expect(r).toMatchObject({ ok: true, outcomes: [{ ok: true, status: "por enviar" }] });
    const queued = await rowOf(stored.id);
    expect(queued.messageDocType).toBe("05");
    expect(queued.messageNumber).toBe(1);
    expect(queued.messageConsecutive).toBe("00100001050000000001");
    const sent = Buffer.from(queued.sendXml!).toString("utf8");
    const mr = parseReceived(sent);
    expect(mr.kind).toBe("MR");
    expect(mr.signature.valid).toBe(true);
    expect(xmlsecVerify(sent).ok).toBe(true);
    expect(mr).toMatchObject({ clave: inv.clave, consecutive: "00100001050000000001" });
    expect(mr.issuer?.id).toBe("3102777888");
    expect(mr.receiver?.id).toBe(company.identification);
    expect(mr.message).toMatchObject({ mensaje: "1", montoTotalImpuesto: stored.tax, totalFactura: stored.total });
    expect(sent).toContain(`<MontoTotalImpuestoAcreditar>${stored.tax}</MontoTotalImpuestoAcreditar>`);
    expect(sent).toContain("<CondicionImpuesto>01</CondicionImpuesto>");
    const [counter] = await database.db.select().from(documentCounters).where(and(eq(documentCounters.companyId, company.id), eq(documentCounters.docType, "05")));
    expect(counter.nextNumber).toBe(2);

    await drain();
    const answered = await rowOf(stored.id);
    expect(answered.status).toBe("aceptado");
    expect(Buffer.from(answered.responseXml!).toString("utf8")).toContain("<MensajeHacienda");
    expect(sandbox.state.registrations.get(`${inv.clave}-00100001050000000001`)).toBe(1);
  });

  it("without Hacienda's answer the jobs ask Hacienda; a decision taken before it is known waits ('esperando') and the message goes once Hacienda confirms", async () => {
    const { company, user, category } = await receivingCompany();
    const inv = supplierDocument({ receiver: { name: company.name, id: company.identification } });
    const report = await ingestReceivedFiles(database.db, { companyId: company.id, userId: user.id, source: "upload", files: [file("f.xml", inv.xml)], now: clock.now });
    const id = report.stored[0]!.id;
    expect((await rowOf(id)).issuerStatus).toBeNull();
    // The supplier has not sent it to Hacienda yet: the decision waits.
    const r = await processReceptions(database.db, { companyId: company.id, userId: user.id, ids: [id], decision: decision(category.id, { message: 2, detail: "Faltó una unidad", taxCondition: "04" }), now: clock.now, schemaSet });
    expect(r).toMatchObject({ ok: true, outcomes: [{ ok: true, status: "esperando" }] });
    await runOne(database.db, handlers, "w", () => clock.now);
    expect((await rowOf(id)).lastError).toMatch(/Hacienda todavía no tiene este comprobante/);
    await acceptedBySandbox(sandbox.url, inv);
    await drain();
    const done = await rowOf(id);
    expect(done).toMatchObject({ issuerStatus: "aceptado", status: "aceptado", messageDocType: "06", message: 2, messageDetail: "Faltó una unidad" });
    const sent = Buffer.from(done.sendXml!).toString("utf8");
    // 04: no credit; the whole total is the expense.
    expect(sent).toContain("<MontoTotalImpuestoAcreditar>0.00000</MontoTotalImpuestoAcreditar>");
    expect(sent).toContain(`<MontoTotalDeGastoAplicable>${done.total}</MontoTotalDeGastoAplicable>`);
    expect(sent).toContain("<DetalleMensaje>Faltó una unidad</DetalleMensaje>");
  });
  it("a MensajeHacienda that comes from outside is not Hacienda's verdict: one signed by anybody else decides nothing, with its comprobante or alone", async () => {
    const { company, user } = await receivingCompany();
    const inv = supplierDocument({ receiver: { name: company.name, id: company.identification } });
    const genuine = await acceptedBySandbox(sandbox.url, inv);
    // A "rechazado" answer the supplier (or anyone who knows the clave) signed with a certificate of
    // their own: a valid signature, not Hacienda's.
    const unsigned = genuine.respuestaXml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "").replace(/<Mensaje>1<\/Mensaje>/, "<Mensaje>3</Mensaje>");
    expect(unsigned).toContain("<Mensaje>3</Mensaje>");
    const forged = signXml(unsigned, supplierKey(), { now: clock.now });
    expect(parseReceived(forged)).toMatchObject({ kind: "MH", signature: { valid: true } });

    const together = await ingestReceivedFiles(database.db, { companyId: company.id, userId: user.id, source: "email", files: [file("f.xml", inv.xml), file("r.xml", forged)], now: clock.now });
    expect(together.outcomes.filter((o) => !o.ok)).toEqual([]);
    const id = together.stored[0]!.id;
    expect(await rowOf(id)).toMatchObject({ issuerStatus: null, issuerResponseXml: null });
    // Alone, for the document already received: noted, nothing changed.
    const alone = await ingestReceivedFiles(database.db, { companyId: company.id, userId: user.id, source: "email", files: [file("r.xml", forged)], now: clock.now });
    expect(alone.outcomes).toEqual([expect.objectContaining({ ok: true, message: RECEPTION_MESSAGES.answerNotNeeded, documentId: id })]);
    expect((await rowOf(id)).issuerStatus).toBeNull();
    // Hacienda's own answer, asked by the jobs, is the verdict.
    await drain();
    const checked = await rowOf(id);
    expect(checked.issuerStatus).toBe("aceptado");
    expect(Buffer.from(checked.issuerResponseXml!).toString("utf8")).toContain("<Mensaje>1</Mensaje>");
  });

  it("a message Hacienda cannot process ('error') is asked about three times, never sent again, and ends 'rechazado' with the reason", async () => {
    const { company, user, category } = await receivingCompany();
    const inv = supplierDocument({ receiver: { name: company.name, id: company.identification } });
    const mh = await acceptedBySandbox(sandbox.url, inv);
    const report = await ingestReceivedFiles(database.db, { companyId: company.id, userId: user.id, source: "upload", files: [file("f.xml", inv.xml), file("r.xml", mh.respuestaXml)], now: clock.now });
    const id = report.stored[0]!.id;
    await drain();
    await processReceptions(database.db, { companyId: company.id, userId: user.id, ids: [id], decision: decision(category.id), now: clock.now, schemaSet });
    const duplicatesBefore = sandbox.state.counters.duplicatePosts;
    // Bytes Hacienda cannot read as a message (as a broken proxy might leave them): it answers 'error'.
    await database.db.update(receivedDocuments).set({ sendXml: Buffer.from(`<?xml version="1.0"?><Pedido><Clave>${inv.clave}</Clave></Pedido>`, "utf8") }).where(eq(receivedDocuments.id, id));
    await drain(200);
    const row = await rowOf(id);
    expect(row.status).toBe("rechazado");
    expect(row.haciendaDetail).toBe(PIPELINE_MESSAGES.unprocessable);
    expect(sandbox.state.errorKeys()).toContain(`${inv.clave}-${row.messageConsecutive}`);
    expect(sandbox.state.counters.duplicatePosts).toBe(duplicatesBefore);
  });
});
