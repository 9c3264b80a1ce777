// Payments through the integrator API (issue 15 item 2, REP "where it applies"; docs/decisions/187):
// POST /documents/{id}/payments registers a payment with the payment form's schema (same messages at
// the same fields) and the same use-case (recordPayment), which on an invoice sold with condition 08
// or 10 issues the Recibo Electrónico de Pago in the payment's transaction (decision 135). The REP is
// a document like any other (GET /documents/{id}, its XML and Hacienda's answer) and every document
// answer lists its payments with their REP. DELETE /documents/{id}/payments/{paymentId} is the
// interface's 'Eliminar' (deletePayment): a payment whose REP was issued cannot be deleted (409).
import type { z } from "zod";
import type { DbOrTx } from "../../../db/client.ts";
import { documentPayments } from "../../../db/queries/payments.ts";
import type { PaymentInput } from "../../domain/api/schemas.ts";
import { costaRicaDay } from "../../domain/document-status.ts";
import { parseForm } from "../../domain/forms.ts";
import { defaultDescription, paymentSchema } from "../../domain/payments.ts";
import { rejectionReasons } from "../../domain/rejection-reasons.ts";
import { deletePayment, PAYMENT_FORM_CODES, recordPayment } from "../payments.server.ts";
import type { ApiCall } from "./documents.server.ts";
import { ApiError, invalid, json, notFound } from "./http.server.ts";
import { claimFirst, releaseKey, storeAnswer } from "./idempotency.server.ts";

type PaymentRow = Awaited<ReturnType<typeof documentPayments>>[number];

export function paymentJson(p: PaymentRow) {
  const repWanted = p.repDocumentId !== null || p.repNote !== null;
  return {
    id: p.id,
    documentId: p.documentId,
    date: p.paidOn,
    amount: p.amount,
    currency: p.currencyId === 1 ? ("USD" as const) : ("CRC" as const),
    payment_form: p.paymentForm,
    description: p.description,
    reference: p.reference,
    bank_id: p.bankId,
    rep: repWanted
      ? {
          documentId: p.repDocumentId,
          consecutive: p.repConsecutivo,
          clave: p.repClave,
          status: (p.repStatus ?? null) as "por enviar" | "procesando" | "aceptado" | "rechazado" | "no aplica" | null,
          reasons: p.repStatus === "rechazado" ? rejectionReasons(p.repDetail) : [],
          note: p.repNote,
        }
      : null,
  };
}

/** The payments of a document (with their REP), for the document's answer. */
export async function paymentsJson(db: DbOrTx, companyId: number, documentId: number) {
  return (await documentPayments(db, { companyId, documentId })).map(paymentJson);
}

interface DocRef {
  id: number;
  currencyId: number;
  consecutivo: string | null;
  number: number | null;
}

/**
 * POST /documents/{id}/payments. `doc` is the company's document (the caller checked it exists). The
 * key is claimed first (recordPayment is its own transaction), freed when the payment is refused.
 */
export async function createPayment(call: ApiCall, doc: DocRef, input: z.output<typeof PaymentInput>): Promise<Response> {
  const { db, principal, now } = call;
  const companyId = principal.companyId;
  const values = {
    document_id: String(doc.id),
    amount: String(input.amount),
    payment_form: input.payment_form,
    currency_id: String(input.currency_id ?? doc.currencyId),
    date: input.date ?? costaRicaDay(now),
    description: input.description ?? defaultDescription(doc.consecutivo ?? String(doc.number ?? doc.id)),
    reference: input.reference ?? "",
    bank_id: input.bank_id === undefined ? "" : String(input.bank_id),
  };
  const parsed = parseForm(paymentSchema({ paymentForms: PAYMENT_FORM_CODES }), values);
  if (!parsed.ok) throw invalid(Object.entries(parsed.errors).map(([field, message]) => ({ field, message })));
  const k = call.idempotency;
  if (k) {
    const replay = await claimFirst(db, k, now);
    if (replay) return replay;
  }
  let result;
  try {
    result = await recordPayment(db, { companyId, userId: principal.userId, payment: parsed.data, now });
  } catch (error) {
    if (k) await releaseKey(db, k);
    throw error;
  }
  if (!result.ok) {
    if (k) await releaseKey(db, k);
    if (result.reason === "not-found") throw notFound();
    throw invalid(Object.entries(result.errors).map(([field, message]) => ({ field, message })));
  }
  const payment = (await documentPayments(db, { companyId, documentId: doc.id })).find((p) => p.id === result.paymentId)!;
  const body = { payment: paymentJson(payment), paidAmount: result.paymentAmount, due: result.due };
  const headers = { Location: `/api/v1/documents/${doc.id}` };
  if (k) await storeAnswer(db, k, 201, body, headers);
  return json(body, 201, headers);
}

/**
 * DELETE /documents/{id}/payments/{paymentId}: `documentId` is the company's document (the caller
 * checked it). The interface's use-case and rules; another company's payment, a payment of another
 * document or one already deleted is 404; a payment whose REP was issued is refused (409) with the
 * interface's reason. No Idempotency-Key (only POSTs take one): a repeated DELETE answers 404.
 */
export async function removePayment(call: ApiCall, documentId: number, paymentId: number): Promise<void> {
  const done = await deletePayment(call.db, { companyId: call.principal.companyId, userId: call.principal.userId, id: paymentId, documentId, now: call.now });
  if (!done) throw notFound();
  if ("refused" in done) throw new ApiError(409, "pago-con-rep", done.refused);
}
