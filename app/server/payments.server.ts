// Payments and banks (spec part 2 "Payments, banks, reminders"; docs/decisions/095-payments.md).
// recordPayment and deletePayment each run in one transaction that locks the document row first
// (SELECT … FOR UPDATE), so concurrent payments on one document are applied one after the other and
// the second sees the first: the sum never exceeds the total. Every function reads by company id and
// id together: another company's document, payment or bank is "not found" and nothing changes.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bankOf, banksOf } from "../../db/queries/payments.ts";
import { paymentMethods } from "../../db/seed/reference-data.ts";
import { banks, documents, payments } from "../../db/schema/index.ts";
import { dec, money } from "../domain/decimal.ts";
import { costaRicaDay } from "../domain/document-status.ts";
import { formatMoney } from "../domain/format.ts";
import type { FieldErrors } from "../domain/forms.ts";
import { formatMoneyInput } from "../domain/number-input.ts";
import { amountDue, creditedInFull, type Receivable } from "../domain/receivables.ts";
import { REP_MESSAGES, repSaleCondition } from "../domain/rep.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { appSchemaSet } from "./document-form.server.ts";
import {
  issueRepForPayment,
  RepError,
  repNeeded,
  type RepOutcome,
} from "./rep.server.ts";
import { signingKeyFor, SigningKeyError } from "./signing-key.server.ts";
import {
  defaultDescription,
  isPayableKind,
  overDueMessage,
  PAYMENT_MESSAGES,
  type PaymentFormData,
} from "../domain/payments.ts";

export const PAYMENT_FORMS = paymentMethods.map((p) => ({
  code: p.code as string,
  name: p.name as string,
}));
export const PAYMENT_FORM_CODES = PAYMENT_FORMS.map((p) => p.code);
export const paymentFormName = (code: string) =>
  PAYMENT_FORMS.find((p) => p.code === code)?.name ?? code;

const KIND_LABEL: Record<string, string> = {
  fe: "Factura",
  te: "Tiquete",
  nc: "Nota de Crédito",
  nd: "Nota de Débito",
  fec: "Factura de compra",
};
export const symbolOf = (currencyId: number) => (currencyId === 1 ? "$" : "₡");
const CURRENCY_NAME: Record<number, string> = { 1: "Dólares", 2: "Colones" };

const liveDocument = (companyId: number, id: number) =>
  and(
    eq(documents.id, id),
    eq(documents.companyId, companyId),
    isNull(documents.deletedAt),
  );

/** Why nothing can be paid on a document with nothing due: its credit notes cancel it, or it is paid. */
const nothingDueMessage = (d: Receivable) => (creditedInFull(d) ? PAYMENT_MESSAGES.creditedInFull : PAYMENT_MESSAGES.paidInFull);

/** The reference a payment's default description names: the consecutive, else the counter number. */
const referenceOf = (d: {
  consecutivo: string | null;
  number: number | null;
  id: number;
}) => d.consecutivo ?? String(d.number ?? d.id);

export type RecordPaymentResult =
  | {
      ok: true;
      paymentId: number;
      documentId: number;
      paymentAmount: string;
      due: string;
      rep: RepOutcome;
    }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "invalid"; errors: FieldErrors };

/**
 * Registers a payment against one of the company's documents, in one transaction: the document row
 * locked; it must be payable (invoice, ticket, note, purchase invoice), not rejected, in the same
 * currency as the payment; the amount (> 0, 5 decimals — the schema checked it) at most the due
 * amount (app/domain/receivables.ts: total − payments − accepted credit notes + accepted debit
 * notes); the bank, when given, the company's. The payment is stored with
 * the document's currency and exchange rate and added to documents.payment_amount. On an invoice
 * whose sale condition requires it (08, 10) the same transaction issues the Recibo Electrónico de
 * Pago (rep.server.ts, docs/decisions/135): a REP that cannot be issued saves nothing.
 */
export async function recordPayment(
  db: Db,
  opts: {
    companyId: number;
    userId: number | null;
    payment: PaymentFormData;
    now?: Date;
    schemaSet?: CompiledSchemaSet;
    /** The company's signing key (default: signing-key.server.ts). Resolved before the transaction. */
    keyFor?: (companyId: number) => Promise<SigningKey>;
    randomBytes?: (n: number) => Uint8Array;
  },
): Promise<RecordPaymentResult> {
  const { companyId, payment: p } = opts;
  const now = opts.now ?? new Date();
  // The REP's key is resolved before the transaction (no .p12 work under the document's lock, and
  // PGlite has one connection: no query outside the transaction while it is open).
  const rep = await repNeeded(db, companyId, p.document_id);
  let key: SigningKey | null = null;
  if (rep.needed && !rep.noHacienda) {
    try {
      key = opts.keyFor
        ? await opts.keyFor(companyId)
        : await signingKeyFor(db, companyId, now);
    } catch (error) {
      if (error instanceof SigningKeyError)
        return {
          ok: false,
          reason: "invalid",
          errors: {
            _form: `${error.message} Este pago emite un recibo electrónico de pago.`,
          },
        };
      throw error;
    }
  }
  try {
    return await db.transaction(async (tx): Promise<RecordPaymentResult> => {
      const [doc] = await tx
        .select({
          id: documents.id,
          kind: documents.kind,
          status: documents.status,
          currencyId: documents.currencyId,
          exchangeRate: documents.exchangeRate,
          total: documents.totalComprobante,
          paymentAmount: documents.paymentAmount,
          creditNoteTotal: documents.creditNoteTotal,
          debitNoteTotal: documents.debitNoteTotal,
          saleCondition: documents.saleCondition,
          clave: documents.clave,
          consecutivo: documents.consecutivo,
          number: documents.number,
          issuedAt: documents.issuedAt,
          clientId: documents.clientId,
          clientSnapshot: documents.clientSnapshot,
          draft: documents.draft,
        })
        .from(documents)
        .where(liveDocument(companyId, p.document_id))
        .for("update");
      if (!doc) return { ok: false, reason: "not-found" };
      const invalid = (errors: FieldErrors): RecordPaymentResult => ({
        ok: false,
        reason: "invalid",
        errors,
      });
      if (!isPayableKind(doc.kind))
        return invalid({ _form: PAYMENT_MESSAGES.notPayable });
      if (doc.status === "rechazado")
        return invalid({ _form: PAYMENT_MESSAGES.rejected });
      const errors: FieldErrors = {};
      if (p.currency_id !== doc.currencyId)
        errors.currency_id = PAYMENT_MESSAGES.currencyMismatch;
      if (
        p.bank_id !== null &&
        !(await bankOf(tx, { companyId, id: p.bank_id }))
      )
        errors.bank_id = PAYMENT_MESSAGES.bankInvalid;
      const due = amountDue(doc);
      if (dec(due).isZero()) errors.amount = nothingDueMessage(doc);
      else if (dec(p.amount).gt(dec(due)))
        errors.amount = overDueMessage(
          formatMoney(due, symbolOf(doc.currencyId)),
        );
      if (Object.keys(errors).length) return invalid(errors);
      const [row] = await tx
        .insert(payments)
        .values({
          companyId,
          documentId: doc.id,
          paymentForm: p.payment_form,
          paidOn: p.date,
          amount: money(p.amount),
          currencyId: doc.currencyId,
          exchangeRate: doc.exchangeRate,
          description: p.description,
          reference: p.reference || null,
          bankId: p.bank_id,
          createdBy: opts.userId,
        })
        .returning({ id: payments.id });
      const paid = money(dec(doc.paymentAmount).plus(dec(p.amount)));
      await tx
        .update(documents)
        .set({ paymentAmount: paid })
        .where(liveDocument(companyId, doc.id));
      const issued = await issueRepForPayment(tx, {
        companyId,
        userId: opts.userId,
        invoice: doc,
        paymentId: row.id,
        amount: money(p.amount),
        paymentForm: p.payment_form,
        now,
        key,
        noHacienda: rep.noHacienda,
        schemaSet: opts.schemaSet ?? appSchemaSet(),
        randomBytes: opts.randomBytes,
      });
      return {
        ok: true,
        paymentId: row.id,
        documentId: doc.id,
        paymentAmount: paid,
        due: amountDue({ ...doc, paymentAmount: paid }),
        rep: issued,
      };
    });
  } catch (error) {
    if (error instanceof RepError)
      return { ok: false, reason: "invalid", errors: { _form: error.message } };
    throw error;
  }
}

/**
 * Deletes (soft) one of the company's live payments and subtracts it from its document's
 * payment_amount, in one transaction with the document row locked. Null when it is not the
 * company's (or already deleted), or not a payment of `documentId` when that is given (the API's
 * /documents/{id}/payments/{paymentId}).
 */
export async function deletePayment(
  db: Db,
  opts: { companyId: number; userId: number | null; id: number; documentId?: number; now: Date },
): Promise<
  { documentId: number; paymentAmount: string } | { refused: string } | null
> {
  const { companyId, id } = opts;
  if (!Number.isInteger(id) || id <= 0) return null;
  return db.transaction(async (tx) => {
    const [pay] = await tx
      .select({
        documentId: payments.documentId,
        repDocumentId: payments.repDocumentId,
      })
      .from(payments)
      .where(
        and(
          eq(payments.id, id),
          eq(payments.companyId, companyId),
          isNull(payments.deletedAt),
          opts.documentId === undefined ? undefined : eq(payments.documentId, opts.documentId),
        ),
      );
    if (!pay) return null;
    // A REP is a comprobante sent to Hacienda: its payment stays (docs/decisions/135).
    if (pay.repDocumentId !== null)
      return { refused: REP_MESSAGES.cannotDelete };
    // The document first, then the payment: the same lock order as recordPayment.
    const [doc] = await tx
      .select({ paid: documents.paymentAmount })
      .from(documents)
      .where(
        and(
          eq(documents.id, pay.documentId),
          eq(documents.companyId, companyId),
        ),
      )
      .for("update");
    const [gone] = await tx
      .update(payments)
      .set({ deletedAt: opts.now, deletedBy: opts.userId })
      .where(
        and(
          eq(payments.id, id),
          eq(payments.companyId, companyId),
          isNull(payments.deletedAt),
        ),
      )
      .returning({ amount: payments.amount });
    if (!doc || !gone) return null;
    const left = dec(doc.paid).minus(dec(gone.amount));
    const paid = money(left.isNegative() ? dec("0") : left);
    await tx
      .update(documents)
      .set({ paymentAmount: paid })
      .where(
        and(
          eq(documents.id, pay.documentId),
          eq(documents.companyId, companyId),
        ),
      );
    return { documentId: pay.documentId, paymentAmount: paid };
  });
}

function uniqueViolation(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown } | undefined, i = 0;
    e && i < 4;
    e = e.cause as typeof e, i++
  )
    if (e.code === "23505") return true;
  return false;
}

/** Creates (no id) or renames one of the company's banks. Null: not the company's bank. */
export async function saveBank(
  db: Db,
  opts: { companyId: number; id: number | null; name: string; now: Date },
): Promise<
  | { ok: true; id: number; created: boolean }
  | { ok: false; errors: FieldErrors }
  | null
> {
  const { companyId, id, name } = opts;
  const duplicate = {
    ok: false as const,
    errors: { name: PAYMENT_MESSAGES.bankDuplicate },
  };
  try {
    if (id === null) {
      const [row] = await db
        .insert(banks)
        .values({ companyId, name })
        .onConflictDoNothing()
        .returning({ id: banks.id });
      return row ? { ok: true, id: row.id, created: true } : duplicate;
    }
    const [row] = await db
      .update(banks)
      .set({ name, updatedAt: opts.now })
      .where(and(eq(banks.id, id), eq(banks.companyId, companyId)))
      .returning({ id: banks.id });
    return row ? { ok: true, id: row.id, created: false } : null;
  } catch (error) {
    if (uniqueViolation(error)) return duplicate;
    throw error;
  }
}

/** What the payment form shows about one of the company's documents, and its defaults. Null: not found. */
export async function paymentFormState(
  db: Db,
  opts: { companyId: number; documentId: number; now: Date },
) {
  const { companyId, documentId } = opts;
  if (!Number.isInteger(documentId) || documentId <= 0) return null;
  const [d] = await db
    .select()
    .from(documents)
    .where(liveDocument(companyId, documentId));
  if (!d || d.kind === "qt") return null;
  const symbol = symbolOf(d.currencyId);
  const due = amountDue({ ...d, total: d.totalComprobante });
  const reference = referenceOf(d);
  const blocked = !isPayableKind(d.kind)
    ? PAYMENT_MESSAGES.notPayable
    : d.status === "rechazado"
      ? PAYMENT_MESSAGES.rejected
      : dec(due).isZero()
        ? nothingDueMessage({ ...d, total: d.totalComprobante })
        : null;
  return {
    document: {
      id: d.id,
      kind: d.kind,
      label: `${KIND_LABEL[d.kind] ?? "Documento"} ${reference}`,
      client: ((d.clientSnapshot ?? {}) as { name?: string }).name ?? "",
      currencyId: d.currencyId,
      currencyName: CURRENCY_NAME[d.currencyId] ?? "Colones",
      symbol,
      total: formatMoney(d.totalComprobante, symbol),
      paid: formatMoney(d.paymentAmount, symbol),
      /** Accepted credit and debit notes, when there are any (they change what is due). */
      credited: dec(d.creditNoteTotal).isZero() ? null : formatMoney(d.creditNoteTotal, symbol),
      debited: dec(d.debitNoteTotal).isZero() ? null : formatMoney(d.debitNoteTotal, symbol),
      due: formatMoney(due, symbol),
    },
    /** Why no payment can be registered (rejected, paid in full, not payable), else null. */
    blocked,
    /** The payment will issue a Recibo Electrónico de Pago (sale condition 08 or 10). */
    repNotice:
      repSaleCondition(d.kind, d.saleCondition) && !blocked
        ? REP_MESSAGES.notice
        : null,
    defaults: {
      document_id: String(d.id),
      // The due amount as typed in Costa Rica (decision 164): "1.130,50".
      amount: formatMoneyInput(due),
      payment_form: "01",
      currency_id: String(d.currencyId),
      date: costaRicaDay(opts.now),
      description: defaultDescription(reference),
      reference: "",
      bank_id: "",
    },
    banks: await banksOf(db, { companyId }),
    paymentForms: PAYMENT_FORMS,
  };
}

/** Payment-form codes whose names contain the search term (accent- and case-insensitive). */
export function paymentFormsMatching(
  search: string,
  fold: (s: string) => string,
): string[] {
  const t = fold(search.trim());
  if (!t) return [];
  return PAYMENT_FORMS.filter((p) => fold(p.name).includes(t)).map(
    (p) => p.code,
  );
}
