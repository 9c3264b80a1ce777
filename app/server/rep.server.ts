// The Recibo Electrónico de Pago issued with a payment (issue 11 point 9; docs/decisions/135): in the
// payment's own transaction, the way issueDocument issues (decision 070) — validated (rules + XSD)
// on a provisional number before the counter is touched, then its own consecutive (counter type 10)
// from one upsert … returning, built, signed, stored as a documents row of kind 'rep' and queued
// to the same submit pipeline. The signing key is resolved by the caller before the transaction.
import { randomBytes as nodeRandomBytes } from "node:crypto";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { documentCounters, documents, payments } from "../../db/schema/index.ts";
import { enqueue } from "../../jobs/runner.ts";
import { draftLineInputs, draftTotals, partyOf, summaryOf, type DocumentDraft, type PartySnapshot } from "../domain/document-draft.ts";
import { REP_MESSAGES, repLines, repSaleCondition } from "../domain/rep.ts";
import { buildXml, documentTotals } from "../hacienda/build.ts";
import { buildClave, buildConsecutivo, DOC_TYPE_CODES, randomSecurityCode } from "../hacienda/clave.ts";
import type { Comprobante } from "../hacienda/model.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import { validateDocument } from "../hacienda/validate.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { companySnapshot } from "./issue-document.server.ts";
import { companyHacienda } from "./signing-key.server.ts";
import { signOffThread } from "./engine/pool.server.ts";

/** Thrown inside the payment's transaction: the REP cannot be issued, nothing is saved. */
export class RepError extends Error {}

/** The invoice a payment is recorded on, as the REP needs it. */
export interface RepInvoice {
  id: number;
  kind: string;
  saleCondition: string | null;
  clave: string | null;
  consecutivo: string | null;
  number: number | null;
  issuedAt: Date;
  currencyId: number;
  exchangeRate: string;
  clientId: number | null;
  clientSnapshot: unknown;
  draft: unknown;
}

export type RepOutcome = { issued: true; documentId: number; consecutivo: string } | { issued: false; note: string } | null;

/**
 * Issues the REP of a payment just inserted (`paymentId`, `amount` in the invoice's currency) on
 * `invoice`, or records why not (payments.rep_note). Null when the sale condition needs no REP.
 * Throws RepError with the Spanish reasons when the REP does not validate.
 */
export async function issueRepForPayment(
  tx: Tx,
  input: {
    companyId: number;
    userId: number | null;
    invoice: RepInvoice;
    paymentId: number;
    amount: string;
    paymentForm: string;
    now: Date;
    key: SigningKey | null;
    noHacienda: boolean;
    schemaSet: CompiledSchemaSet;
    randomBytes?: (n: number) => Uint8Array;
  },
): Promise<RepOutcome> {
  const { companyId, invoice, now } = input;
  const condition = repSaleCondition(invoice.kind, invoice.saleCondition);
  if (!condition) return null;
  const note = async (text: string): Promise<RepOutcome> => {
    await tx.update(payments).set({ repNote: text }).where(and(eq(payments.id, input.paymentId), eq(payments.companyId, companyId)));
    return { issued: false, note: text };
  };
  if (input.noHacienda) return note(REP_MESSAGES.noHacienda);
  if (!input.key) throw new RepError("La empresa no tiene una llave criptográfica configurada: súbala en Configuración › Hacienda para emitir el recibo electrónico de pago de este pago.");
  const draft = invoice.draft as DocumentDraft | null;
  if (!draft || !invoice.clave) return note(REP_MESSAGES.unsupported);

  // "Pago N": the payment's number among the invoice's live payments (A44 p.28: "número de cuota").
  const [{ n }] = await tx
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.companyId, companyId), eq(payments.documentId, invoice.id), isNull(payments.deletedAt)));
  const reference = invoice.consecutivo ?? String(invoice.number ?? invoice.id);
  const lines = repLines({ lines: draftLineInputs(draft), totals: draftTotals(draft) }, input.amount, `Pago ${n} de la factura ${reference}`);
  if (!lines) return note(REP_MESSAGES.unsupported);

  const { issuer } = await companySnapshot(tx, companyId);
  const client = invoice.clientSnapshot as PartySnapshot;
  const hc = await companyHacienda(tx, companyId, now);
  const branch = hc?.branch ?? 1;
  const terminal = hc?.terminal ?? 1;
  const header = (sequence: number) => {
    const consecutivo = buildConsecutivo({ branch, terminal, docType: DOC_TYPE_CODES.rep, sequence });
    const securityCode = randomSecurityCode(input.randomBytes ?? ((k) => nodeRandomBytes(k)));
    return { consecutivo, clave: buildClave({ issuedAt: now, issuerId: issuer.idNumber, issuerIdType: issuer.idType, consecutivo, situacion: 1, securityCode }) };
  };
  const model = (h: { clave: string; consecutivo: string }): Comprobante => ({
    kind: "rep",
    clave: h.clave,
    consecutivo: h.consecutivo,
    issuedAt: now,
    providerId: issuer.idNumber,
    // The REP's parties carry only name, identification and e-mail (the builder writes no more).
    issuer: partyOf(issuer),
    receiver: partyOf(client),
    saleCondition: condition,
    lines: lines.map((l) => ({ quantity: "1", unit: "Os", description: l.description, unitPrice: l.amount, taxes: [{ code: "01", tarifaCode: l.tarifaCode }] })),
    currency: { code: invoice.currencyId === 1 ? "USD" : "CRC", rate: invoice.currencyId === 1 ? invoice.exchangeRate : "1" },
    payments: [{ code: input.paymentForm }],
    references: [{ docType: "01", number: invoice.clave!, issuedAt: invoice.issuedAt, code: "17", reason: `Pago ${n} de la factura ${reference}`.slice(0, 180) }],
  });

  // Validate before the counter (a provisional number of the same shape), as issuing does.
  const checked = validateDocument(model(header(1)), input.schemaSet);
  if (!checked.ok) throw new RepError(`No se pudo emitir el recibo electrónico de pago: ${checked.errors.map((e) => e.message).join(" ")}`);

  const [counter] = await tx
    .insert(documentCounters)
    .values({ companyId, branch, terminal, docType: DOC_TYPE_CODES.rep, nextNumber: 2 })
    .onConflictDoUpdate({
      target: [documentCounters.companyId, documentCounters.branch, documentCounters.terminal, documentCounters.docType],
      set: { nextNumber: sql`${documentCounters.nextNumber} + 1` },
    })
    .returning({ next: documentCounters.nextNumber });
  const number = counter.next - 1;
  const h = header(number);
  const doc = model(h);
  const signed = Buffer.from(await signOffThread(buildXml(doc), input.key, now), "utf8");
  const totals = documentTotals(doc);
  const summary = summaryOf(totals);
  const [row] = await tx
    .insert(documents)
    .values({
      companyId,
      kind: "rep",
      clientId: invoice.clientId,
      status: "por enviar",
      issuedAt: now,
      currencyId: invoice.currencyId,
      exchangeRate: invoice.currencyId === 1 ? invoice.exchangeRate : "1",
      totalComprobante: summary.total,
      branch,
      terminal,
      number,
      consecutivo: h.consecutivo,
      clave: h.clave,
      situacion: 1,
      createdBy: input.userId,
      createdAt: now,
      saleCondition: condition,
      payments: totals.payments,
      clientSnapshot: client,
      subtotal: summary.subtotal,
      discount: summary.discount,
      tax: summary.tax,
      totals: totals.resumen,
      signedXml: signed,
    })
    .returning({ id: documents.id });
  await tx.update(payments).set({ repDocumentId: row.id, repNote: null }).where(and(eq(payments.id, input.paymentId), eq(payments.companyId, companyId)));
  await enqueue(tx, "submit-document", { documentId: row.id, companyId }, { runAt: now, uniqueKey: `submit:${row.id}`, maxAttempts: 1000 });
  return { issued: true, documentId: row.id, consecutivo: h.consecutivo };
}

/** Whether a payment on this document issues a REP (the key must then be resolved before the transaction). */
export async function repNeeded(db: DbOrTx, companyId: number, documentId: number): Promise<{ needed: boolean; noHacienda: boolean }> {
  const [row] = await db
    .select({ kind: documents.kind, saleCondition: documents.saleCondition })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.companyId, companyId)));
  if (!row || !repSaleCondition(row.kind, row.saleCondition)) return { needed: false, noHacienda: false };
  const { company } = await companySnapshot(db, companyId);
  return { needed: true, noHacienda: company.noHacienda };
}
