/**
 * Received documents (spec part 2 §2 "Received documents (reception)", §3 Received document and
 * Reception form, §4 reception acceptance, §5 reception upload rules): texts, labels, the form schemas
 * with their Spanish messages, and the amounts a MensajeReceptor declares. Pure: money as decimal
 * strings. docs/decisions/170–176.
 */
import { z } from "zod";
import { dec, money } from "./decimal.ts";
import { decimalPlaces, formatMoneyInput, parseDecimalInput } from "./number-input.ts";
import { amountsShown, detailRequired, RECEPTION_MESSAGES, TAX_CONDITION_VALUES, type TaxCondition } from "./reception-texts.ts";

export * from "./reception-texts.ts";


const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
/** An optional amount typed the Costa Rican way (decision 164): '' or a canonical decimal ('1500.5'). */
const optionalAmount = z.preprocess(
  text,
  z.string().transform((v, ctx) => {
    if (v === "") return "";
    const parsed = parseDecimalInput(v);
    if (parsed === null || decimalPlaces(parsed) > 5 || parsed.split(".")[0].length > 13) {
      ctx.addIssue({ code: "custom", message: RECEPTION_MESSAGES.amountFormat });
      return z.NEVER;
    }
    return parsed;
  }),
);

function decisionFields(messages: readonly string[]) {
  return {
    message: z.preprocess(text, z.string().refine((v) => messages.includes(v), RECEPTION_MESSAGES.messageRequired)),
    message_detail: z.preprocess(text, z.string().max(160, RECEPTION_MESSAGES.detailTooLong)),
    expense_category: z.preprocess(text, z.string().regex(/^\d{1,9}$/, RECEPTION_MESSAGES.categoryRequired).transform(Number)),
    tax_condition: z.preprocess(text, z.enum(TAX_CONDITION_VALUES, { error: RECEPTION_MESSAGES.taxConditionRequired })),
    tax_credit: optionalAmount,
    applicable_expense: optionalAmount,
  };
}

type DecisionShape = { message: string; message_detail: string; tax_condition: string };
function decisionRules<T extends DecisionShape>(d: T, ctx: z.RefinementCtx) {
  if (detailRequired(d.message) && !d.message_detail) ctx.addIssue({ code: "custom", path: ["message_detail"], message: RECEPTION_MESSAGES.detailRequired });
}

/** The upload form (dialog and standalone page): condition 1–3 or 4 (keep pending). */
export const uploadSchema = z.object(decisionFields(["1", "2", "3", "4"])).superRefine(decisionRules);
export type UploadForm = z.output<typeof uploadSchema>;

/** The 'update acceptance' form: one document (id) or the ticked ones (accept_multiples). */
export const processSchema = z
  .object({
    ...decisionFields(["1", "2", "3"]),
    type_update_doc: z.preprocess(text, z.enum(["single", "multiple"]).catch("single")),
    id: z.preprocess(text, z.string()),
    accept_multiples: z.preprocess((v) => (Array.isArray(v) ? v : typeof v === "string" && v ? [v] : []), z.array(z.string())),
  })
  .superRefine(decisionRules);
export type ProcessForm = z.output<typeof processSchema>;

export const categorySchema = z.object({
  new_category_name: z.preprocess(text, z.string().min(1, RECEPTION_MESSAGES.categoryNameRequired).max(100, RECEPTION_MESSAGES.categoryNameTooLong)),
});

/** The decision a user takes on a pending document (or several). */
export interface ReceptionDecision {
  message: 1 | 2 | 3;
  detail: string | null;
  expenseCategoryId: number;
  taxCondition: TaxCondition;
  /** Typed amounts (one document); null: derived from each document. */
  creditableTax: string | null;
  applicableExpense: string | null;
}

export function decisionOf(form: Pick<UploadForm, "message" | "message_detail" | "expense_category" | "tax_condition" | "tax_credit" | "applicable_expense">): ReceptionDecision | null {
  const m = Number(form.message);
  if (m !== 1 && m !== 2 && m !== 3) return null;
  const shown = amountsShown(m, form.tax_condition);
  return {
    message: m,
    detail: form.message_detail || null,
    expenseCategoryId: form.expense_category,
    taxCondition: form.tax_condition as TaxCondition,
    creditableTax: shown && form.tax_credit ? form.tax_credit : null,
    applicableExpense: shown && form.applicable_expense ? form.applicable_expense : null,
  };
}

/**
 * The amounts a MensajeReceptor declares for a document (MontoTotalImpuestoAcreditar,
 * MontoTotalDeGastoAplicable), from the typed ones or derived from the tax condition:
 * 01 and 03 credit the whole tax (the rest is the expense), 04 credits none (the whole total is the
 * expense); 02 needs typed amounts; 05 and rejections declare none. Errors keyed by form field.
 */
export function messageAmounts(
  decision: ReceptionDecision,
  doc: { tax: string; total: string },
): { ok: true; creditableTax: string | null; applicableExpense: string | null } | { ok: false; errors: Record<string, string> } {
  if (!amountsShown(decision.message, decision.taxCondition)) return { ok: true, creditableTax: null, applicableExpense: null };
  const tax = dec(doc.tax);
  const total = dec(doc.total);
  let creditable = decision.creditableTax;
  let expense = decision.applicableExpense;
  if (creditable === null || expense === null) {
    if (decision.taxCondition === "02") return { ok: false, errors: { _form: RECEPTION_MESSAGES.partialNeedsAmounts } };
    const credit = decision.taxCondition === "04" ? dec("0") : tax;
    creditable ??= money(credit);
    expense ??= money(total.minus(credit));
  }
  const errors: Record<string, string> = {};
  if (dec(creditable).gt(tax)) errors.tax_credit = RECEPTION_MESSAGES.creditableTooHigh(formatMoneyInput(money(tax)));
  if (dec(expense).gt(total)) errors.applicable_expense = RECEPTION_MESSAGES.expenseTooHigh(formatMoneyInput(money(total)));
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, creditableTax: money(dec(creditable)), applicableExpense: money(dec(expense)) };
}

/** A received document's IVA by tariff, as stored in its `data.IvaPorTarifa` (decision 153). */
export interface TariffIva {
  /** CodigoTarifaIVA (Nota 8.1); null for lines without IVA. */
  tarifa: string | null;
  /** Sum of the lines' SubTotal (amount less discount), in the document's currency. */
  base: string;
  /** Sum of the lines' ImpuestoNeto. */
  impuesto: string;
}

/**
 * The lines of a supplier's document grouped by IVA tariff (the document tells it line by line),
 * for the IVA summary's purchases. Lines with unreadable amounts count as zero.
 */
export function ivaByTariff(lines: ReadonlyArray<{ subtotal: string | null; tax: string | null; ivaTariff: string | null }>): TariffIva[] {
  const num = (v: string | null) => (v && /^-?\d+(\.\d+)?$/.test(v) ? dec(v) : dec("0"));
  const by = new Map<string | null, { base: ReturnType<typeof dec>; tax: ReturnType<typeof dec> }>();
  for (const l of lines) {
    const key = l.ivaTariff && /^\d{2}$/.test(l.ivaTariff) ? l.ivaTariff : null;
    const s = by.get(key) ?? { base: dec("0"), tax: dec("0") };
    s.base = s.base.plus(num(l.subtotal));
    s.tax = s.tax.plus(num(l.tax));
    by.set(key, s);
  }
  return [...by.entries()].map(([tarifa, s]) => ({ tarifa, base: money(s.base), impuesto: money(s.tax) }));
}
