// Expenses, their categories and the company's own payment methods (spec part 2 "Expenses", §3, §5,
// §8; docs/decisions/150-expenses.md). Every function reads by company id and id together: another
// company's category, payment method, receipt or expense is "not found" and nothing changes.
import { formatDecimalInput } from "../domain/number-input.ts";
import { and, eq, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { categoriesOf, categoryOf, paymentMethodOf, paymentMethodsOf, pendingAttachmentOf } from "../../db/queries/expenses.ts";
import { expenseCategories, expensePaymentMethods, expenses } from "../../db/schema/index.ts";
import { costaRicaDay } from "../domain/document-status.ts";
import { EXPENSE_MESSAGES, parsePaymentMethod, type ExpenseFormData } from "../domain/expenses.ts";
import type { FieldErrors } from "../domain/forms.ts";
import { currentRate } from "./exchange-rate.server.ts";
import { PAYMENT_FORMS } from "./payments.server.ts";

export type RecordExpenseResult = { ok: true; id: number } | { ok: false; errors: FieldErrors };

/** Hacienda's payment methods (TipoMedioPago), the same list as payments. */
export const STANDARD_PAYMENT_METHODS = PAYMENT_FORMS;

/**
 * Records an expense: the category, the payment method (one of Hacienda's codes or the company's
 * own) and the kept receipt must be the company's; the receipt must not belong to another expense.
 */
export async function recordExpense(db: Db, opts: { companyId: number; userId: number | null; expense: ExpenseFormData; now: Date }): Promise<RecordExpenseResult> {
  const { companyId, expense: e } = opts;
  return db.transaction(async (tx): Promise<RecordExpenseResult> => {
    const errors: FieldErrors = {};
    if (!(await categoryOf(tx, { companyId, id: e.category_id }))) errors.category_id = EXPENSE_MESSAGES.categoryInvalid;
    const method = parsePaymentMethod(e.payment_method);
    if (!method || (method.code !== null && !STANDARD_PAYMENT_METHODS.some((p) => p.code === method.code)) || (method.id !== null && !(await paymentMethodOf(tx, { companyId, id: method.id }))))
      errors.payment_method = EXPENSE_MESSAGES.paymentMethodInvalid;
    if (e.attachment_id !== null && !(await pendingAttachmentOf(tx, { companyId, id: e.attachment_id }))) errors.attachment = EXPENSE_MESSAGES.fileGone;
    if (Object.keys(errors).length) return { ok: false, errors };
    const [row] = await tx
      .insert(expenses)
      .values({
        companyId,
        spentOn: e.date,
        description: e.description,
        currencyId: e.currency_id,
        exchangeRate: e.exchange_rate,
        amount: e.amount,
        reference: e.reference || null,
        categoryId: e.category_id,
        paymentMethodCode: method!.code,
        paymentMethodId: method!.id,
        attachmentId: e.attachment_id,
        createdBy: opts.userId,
        createdAt: opts.now,
      })
      .returning({ id: expenses.id });
    return { ok: true, id: row.id };
  });
}

/** Deletes (soft) one of the company's live expenses; false when it is not the company's (or already gone). */
export async function deleteExpense(db: DbOrTx, opts: { companyId: number; userId: number | null; id: number; now: Date }): Promise<boolean> {
  if (!Number.isInteger(opts.id) || opts.id <= 0) return false;
  const gone = await db
    .update(expenses)
    .set({ deletedAt: opts.now, deletedBy: opts.userId })
    .where(and(eq(expenses.id, opts.id), eq(expenses.companyId, opts.companyId), isNull(expenses.deletedAt)))
    .returning({ id: expenses.id });
  return gone.length > 0;
}

function uniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) if (e.code === "23505") return true;
  return false;
}

type SaveResult = { ok: true; id: number; created: boolean } | { ok: false; errors: FieldErrors } | null;

/** Creates (no id) or renames one of the company's categories. Null: not the company's category. */
export async function saveCategory(db: DbOrTx, opts: { companyId: number; id: number | null; name: string; now: Date }): Promise<SaveResult> {
  const duplicate = { ok: false as const, errors: { name: EXPENSE_MESSAGES.categoryDuplicate } };
  try {
    if (opts.id === null) {
      const [row] = await db.insert(expenseCategories).values({ companyId: opts.companyId, name: opts.name, createdAt: opts.now }).onConflictDoNothing().returning({ id: expenseCategories.id });
      return row ? { ok: true, id: row.id, created: true } : duplicate;
    }
    const [row] = await db
      .update(expenseCategories)
      .set({ name: opts.name, updatedAt: opts.now })
      .where(and(eq(expenseCategories.id, opts.id), eq(expenseCategories.companyId, opts.companyId)))
      .returning({ id: expenseCategories.id });
    return row ? { ok: true, id: row.id, created: false } : null;
  } catch (error) {
    if (uniqueViolation(error)) return duplicate;
    throw error;
  }
}

/** Creates (no id) or edits one of the company's own payment methods. Null: not the company's. */
export async function savePaymentMethod(db: DbOrTx, opts: { companyId: number; id: number | null; name: string; code: string; now: Date }): Promise<SaveResult> {
  const duplicate = { ok: false as const, errors: { name: EXPENSE_MESSAGES.methodDuplicate } };
  // A name of Hacienda's list is taken too: the select would show it twice.
  if (STANDARD_PAYMENT_METHODS.some((p) => p.name.toLowerCase() === opts.name.toLowerCase())) return duplicate;
  const code = opts.code || null;
  try {
    if (opts.id === null) {
      const [row] = await db.insert(expensePaymentMethods).values({ companyId: opts.companyId, name: opts.name, code, createdAt: opts.now }).onConflictDoNothing().returning({ id: expensePaymentMethods.id });
      return row ? { ok: true, id: row.id, created: true } : duplicate;
    }
    const [row] = await db
      .update(expensePaymentMethods)
      .set({ name: opts.name, code, updatedAt: opts.now })
      .where(and(eq(expensePaymentMethods.id, opts.id), eq(expensePaymentMethods.companyId, opts.companyId)))
      .returning({ id: expensePaymentMethods.id });
    return row ? { ok: true, id: row.id, created: false } : null;
  } catch (error) {
    if (uniqueViolation(error)) return duplicate;
    throw error;
  }
}

/** What the new-expense form offers: categories, payment methods, and its defaults (today, colones). */
export async function expenseFormState(db: DbOrTx, opts: { companyId: number; now: Date }) {
  const [categories, custom, rate] = await Promise.all([categoriesOf(db, opts), paymentMethodsOf(db, opts), currentRate(db, { now: opts.now })]);
  return {
    categories,
    paymentMethods: [...STANDARD_PAYMENT_METHODS.map((p) => ({ value: p.code, name: p.name })), ...custom.map((m) => ({ value: `m${m.id}`, name: m.name }))],
    defaults: {
      date: costaRicaDay(opts.now),
      description: "",
      amount: "",
      currency_id: "2",
      // Shown the Costa Rican way (decision 164): "505,25".
      exchange_rate: rate.ok ? formatDecimalInput(rate.rate) : "",
      reference: "",
      category_id: "",
      payment_method: "01",
      attachment_id: "",
    } as Record<string, string>,
    /** Today's dollar rate note (or why there is none). */
    rateNote: rate.ok ? (rate.warning ?? null) : rate.message,
  };
}
