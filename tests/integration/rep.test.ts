// Issue 11 point 9 (docs/decisions/135): a payment on an invoice sold with CondicionVenta 08 or 10
// issues a Recibo Electrónico de Pago in the payment's transaction — its own consecutive, built,
// validated, signed (xmlsec1 agrees), stored, queued to the same pipeline and accepted by the local
// Hacienda — and the payment list and the invoice's detail show it with its status and files.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { renderToString } from "react-dom/server";
import { createElement } from "react";
import { createRoutesStub } from "react-router";
import { companies, documentCounters, documents, haciendaConfigs, jobs, payments } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { xmlsecVerify } from "../../app/hacienda/testing/xmlsec.ts";
import { validateSchema } from "../../app/hacienda/xsd/index.ts";
import { readModel } from "../../app/hacienda/read-model.ts";
import { checkRules } from "../../app/hacienda/rules.ts";
import { verifyXml } from "../../app/hacienda/verify.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import type { Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { configurePipeline } from "../../app/server/hacienda-pipeline.server.ts";
import { deletePayment, recordPayment } from "../../app/server/payments.server.ts";
import { REP_MESSAGES } from "../../app/domain/rep.ts";
import * as paymentsRoute from "../../app/routes/payments/payments.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import { call, signedIn } from "../setup/app.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";

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

/** Runs due jobs on a virtual clock: when nothing is due, jumps to the next job's run_at. */
async function drain(maxSteps = 500) {
  for (let i = 0; i < maxSteps; i++) {
    const ran = await runOne(database.db, handlers, "test-worker", () => clock.now);
    if (ran) continue;
    const [next] = await database.db.select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.status, "pending")).orderBy(asc(jobs.runAt)).limit(1);
    if (!next) return;
    clock.now = new Date(Math.max(clock.now.getTime(), next.runAt.getTime()));
  }
  throw new Error("drain: too many steps");
}

/** An accepted invoice of 113 000 (100 000 + 13 % IVA) sold with `saleCondition`. */
async function creditInvoice(saleCondition: string, opts: { noHacienda?: boolean } = {}) {
  const fx = await issuingCompany(database.db, { sandboxUrl: sandbox.url, noHacienda: opts.noHacienda });
  const draft = sampleDraft("fe", fx.client.id, {
    saleCondition,
    payments: ["02", "08", "10"].includes(saleCondition) ? [] : [{ code: "01" }],
    ...(saleCondition === "02" ? { creditDays: 30 } : {}),
    lines: [{ cabys: "8313100000000", description: "Servicios de consultoría al Estado", quantity: "1", unit: "Sp", unitPrice: "100000", tax: { tarifaCode: "08" } }],
  });
  const r = await issueDocument(database.db, { companyId: fx.company.id, userId: fx.user.id, draft, now: clock.now, schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { ...fx, invoice: r };
}

const pay = (companyId: number, documentId: number, amount: string, paymentForm = "04") =>
  recordPayment(database.db, {
    companyId,
    userId: null,
    now: clock.now,
    schemaSet,
    payment: { document_id: documentId, amount, payment_form: paymentForm, currency_id: 2, date: "2026-11-21", description: "Abono", reference: "", bank_id: null },
  });

const docOf = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0];

describe("a payment on an invoice sold with CondicionVenta 10 issues a REP", () => {
  it("in the payment's transaction: its own consecutive, CondicionVenta 11, the payment's IVA, reference code 17 to the invoice, signed and valid", async () => {
    const { company, invoice } = await creditInvoice("10");
    const r = await pay(company.id, invoice.documentId, "56500");
    if (!r.ok || !r.rep?.issued) throw new Error(JSON.stringify(r));
    expect(r.rep).toEqual({ issued: true, documentId: expect.any(Number), consecutivo: "00100001100000000001" });
    const [payment] = await database.db.select().from(payments).where(eq(payments.id, r.paymentId));
    expect(payment.repDocumentId).toBe(r.rep.documentId);
    const rep = await docOf(payment.repDocumentId!);
    expect(rep).toMatchObject({ kind: "rep", status: "por enviar", number: 1, saleCondition: "11", totalComprobante: "56500.00000", tax: "6500.00000" });
    expect(rep.clave).toMatch(/^506211126\d{12}00100001100000000001[1]\d{8}$/);
    const xml = rep.signedXml!.toString("utf8");
    expect(xml).toContain("<CondicionVenta>11</CondicionVenta>");
    expect(xml).toContain("<Detalle>Pago 1 de la factura 00100001010000000001</Detalle><MontoTotal>50000.00000</MontoTotal><SubTotal>50000.00000</SubTotal>");
    expect(xml).toContain("<Codigo>01</Codigo><CodigoTarifaIVA>08</CodigoTarifaIVA><Tarifa>13.00</Tarifa><Monto>6500.00000</Monto>");
    expect(xml).toContain(`<TipoDocIR>01</TipoDocIR><Numero>${invoice.clave}</Numero>`);
    expect(xml).toContain("<Codigo>17</Codigo>");
    expect(xml).toContain("<MedioPago><TipoMedioPago>04</TipoMedioPago><TotalMedioPago>56500.00000</TotalMedioPago></MedioPago><TotalComprobante>56500.00000</TotalComprobante>");
    expect(verifyXml(xml).valid).toBe(true);
    expect(xmlsecVerify(xml).ok).toBe(true);
    expect(validateSchema(xml, schemaSet, { unsigned: false })).toEqual([]);
    expect(checkRules(readModel(xml), { math: true })).toEqual([]);
    expect(await database.db.select().from(jobs).where(eq(jobs.uniqueKey, `submit:${rep.id}`))).toHaveLength(1);

    // The second payment: the next consecutive of counter type 10, "Pago 2".
    const r2 = await pay(company.id, invoice.documentId, "56500");
    if (!r2.ok || !r2.rep?.issued) throw new Error(JSON.stringify(r2));
    expect(r2.rep.consecutivo).toBe("00100001100000000002");
    expect((await docOf(r2.rep.documentId)).signedXml!.toString("utf8")).toContain("<Detalle>Pago 2 de la factura 00100001010000000001</Detalle>");
    const [counter] = await database.db.select().from(documentCounters).where(and(eq(documentCounters.companyId, company.id), eq(documentCounters.docType, "10")));
    expect(counter.nextNumber).toBe(3);
  });

  it("goes through the same pipeline: submitted, accepted by the local Hacienda, with its answer stored (and not e-mailed)", async () => {
    const { company, invoice } = await creditInvoice("08");
    const r = await pay(company.id, invoice.documentId, "113000");
    if (!r.ok || !r.rep?.issued) throw new Error(JSON.stringify(r));
    expect((await docOf(r.rep.documentId)).signedXml!.toString("utf8")).toContain("<CondicionVenta>09</CondicionVenta>");
    await drain();
    const rep = await docOf(r.rep.documentId);
    expect(rep.status).toBe("aceptado");
    expect(rep.responseXml?.length).toBeGreaterThan(0);
    expect(await database.db.select().from(jobs).where(eq(jobs.uniqueKey, `document-email:${rep.id}`))).toEqual([]);
    expect((await docOf(invoice.documentId)).status).toBe("aceptado");
  });

  it("the payment list and the invoice's detail show the REP with its status and files", async () => {
    const { company, user, invoice } = await creditInvoice("10");
    const r = await pay(company.id, invoice.documentId, "113000");
    if (!r.ok || !r.rep?.issued) throw new Error(JSON.stringify(r));
    await drain();
    const b = await signedIn(database.db, user.id, company.id);
    const list = await call(b, paymentsRoute.loader, { path: "/payments" });
    const row = list.data.rows.find((x: { id: number }) => x.id === r.paymentId);
    expect(row.receipt).toEqual({ id: r.rep.documentId, consecutivo: r.rep.consecutivo, status: "aceptado" });
    const Stub = createRoutesStub([{ id: "payments", path: "/payments", Component: paymentsRoute.default as never, loader: () => null }]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/payments"], hydrationData: { loaderData: { payments: list.data } } }));
    expect(html).toContain(`href="/document-file/${r.rep.documentId}/xml"`);
    expect(html).toContain(r.rep.consecutivo);

    const d = await call(b, detail.loader, { path: `/detail/invoice/${invoice.documentId}`, params: { type: "invoice", id: String(invoice.documentId) } });
    expect(d.data.receipts).toEqual([
      { paymentId: r.paymentId, date: "21/11/2026", amount: "₡113.000,00", rep: { id: r.rep.documentId, consecutivo: r.rep.consecutivo, status: "aceptado", hasResponse: true, detail: null }, note: null },
    ]);
    // Its files download through the document-file route like any document's.
    const file = await call(b, (await import("../../app/routes/documents/document-file.tsx")).loader as never, { path: `/document-file/${r.rep.documentId}/respuesta`, params: { id: String(r.rep.documentId), file: "respuesta" } });
    expect(file.status).toBe(200);
    // The payment form told the user beforehand.
    const form = await call(b, paymentsRoute.loader, { path: `/payments?document_id=${invoice.documentId}` });
    expect(form.data.repNotice ?? null).toBeNull(); // paid in full: no form
  });

  it("the payment form announces the REP; a cash invoice's payment issues none", async () => {
    const { company, user, invoice } = await creditInvoice("10");
    const b = await signedIn(database.db, user.id, company.id);
    expect((await call(b, paymentsRoute.loader, { path: `/payments?document_id=${invoice.documentId}` })).data.repNotice).toBe(REP_MESSAGES.notice);
    const cash = await creditInvoice("01");
    const r = await recordPayment(database.db, { companyId: cash.company.id, userId: null, now: clock.now, schemaSet, payment: { document_id: cash.invoice.documentId, amount: "1000", payment_form: "01", currency_id: 2, date: "2026-11-21", description: "Abono", reference: "", bank_id: null } });
    expect(r).toMatchObject({ ok: true, rep: null });
    expect(await database.db.select().from(documents).where(and(eq(documents.companyId, cash.company.id), eq(documents.kind, "rep")))).toEqual([]);
  });

  it("without a signing key the payment is refused with the reason and nothing is saved", async () => {
    const { company, invoice } = await creditInvoice("10");
    await database.db.update(haciendaConfigs).set({ keyEnc: null, updatedAt: new Date() }).where(eq(haciendaConfigs.companyId, company.id));
    const r = await pay(company.id, invoice.documentId, "1000");
    expect(r).toEqual({
      ok: false,
      reason: "invalid",
      errors: { _form: "La empresa no tiene una llave criptográfica configurada: súbala en Configuración › Hacienda. Este pago emite un recibo electrónico de pago." },
    });
    expect(await database.db.select().from(payments).where(eq(payments.documentId, invoice.documentId))).toEqual([]);
    expect((await docOf(invoice.documentId)).paymentAmount).toBe("0.00000");
  });

  it("a company that does not send to Hacienda records the payment with the note, no REP", async () => {
    const { company, invoice } = await creditInvoice("10", { noHacienda: true });
    const r = await pay(company.id, invoice.documentId, "1000");
    expect(r).toMatchObject({ ok: true, rep: { issued: false, note: REP_MESSAGES.noHacienda } });
    const [p] = await database.db.select().from(payments).where(eq(payments.documentId, invoice.documentId));
    expect(p).toMatchObject({ repDocumentId: null, repNote: REP_MESSAGES.noHacienda });
  });

  it("a payment with a REP cannot be deleted; another company's payment is not found", async () => {
    const { company, invoice } = await creditInvoice("10");
    const r = await pay(company.id, invoice.documentId, "1000");
    if (!r.ok) throw new Error("payment");
    expect(await deletePayment(database.db, { companyId: company.id, userId: null, id: r.paymentId, now: clock.now })).toEqual({ refused: REP_MESSAGES.cannotDelete });
    const other = await creditInvoice("10");
    expect(await deletePayment(database.db, { companyId: other.company.id, userId: null, id: r.paymentId, now: clock.now })).toBeNull();
    const [p] = await database.db.select().from(payments).where(eq(payments.id, r.paymentId));
    expect(p.deletedAt).toBeNull();
    expect((await database.db.select().from(companies).where(eq(companies.id, company.id)))[0].id).toBe(company.id);
  });
});
