/**
 * Payments and banks (spec part 2 "Payments, banks, reminders", §3 Payment/Bank, §4, §5, §8, §9):
 * the form schemas with their Spanish messages; the texts and rules without zod (which documents
 * take payments, where the payment form returns to) are in payment-texts.ts, re-exported here.
 * Pure: money as decimal strings, "today" passed in. docs/decisions/095-payments.md.
 */
import { z } from "zod";
import { fixed5, isPositiveDecimal } from "./number-input.ts";
import { decimalField } from "./number-schemas.ts";
import { isCalendarDay, PAYMENT_MESSAGES } from "./payment-texts.ts";

export * from "./payment-texts.ts";

const text = (message: string, max = 200) => z.string({ error: message }).trim().min(1, message).max(max, PAYMENT_MESSAGES.invalid);

/** Amount: required, a positive decimal typed the Costa Rican way with at most 5 decimals (decision 164); kept as a 5-decimal string. */
export const amountSchema = decimalField({ required: PAYMENT_MESSAGES.amountRequired, format: PAYMENT_MESSAGES.amountFormat, maxDecimals: 5 })
  .refine(isPositiveDecimal, PAYMENT_MESSAGES.amountPositive)
  .transform(fixed5);

/**
 * The payment form (spec §5: amount required, up to 5 decimals, at most the due amount — checked by
 * the use-case against the locked document —; payment_form, currency, date, description required).
 */
export function paymentSchema(opts: { paymentForms: readonly string[] }) {
  return z.object({
    document_id: z
      .string({ error: PAYMENT_MESSAGES.notFound })
      .regex(/^\d{1,9}$/, PAYMENT_MESSAGES.notFound)
      .transform(Number),
    amount: amountSchema,
    payment_form: z
      .string({ error: PAYMENT_MESSAGES.formRequired })
      .trim()
      .min(1, PAYMENT_MESSAGES.formRequired)
      .refine((v) => opts.paymentForms.includes(v), PAYMENT_MESSAGES.formRequired),
    currency_id: z
      .string({ error: PAYMENT_MESSAGES.currencyRequired })
      .trim()
      .regex(/^[12]$/, PAYMENT_MESSAGES.currencyRequired)
      .transform(Number),
    date: z
      .string({ error: PAYMENT_MESSAGES.dateRequired })
      .trim()
      .min(1, PAYMENT_MESSAGES.dateRequired)
      .refine(isCalendarDay, PAYMENT_MESSAGES.dateInvalid),
    description: text(PAYMENT_MESSAGES.descriptionRequired, 250),
    reference: z.string().trim().max(100, PAYMENT_MESSAGES.invalid).optional().default(""),
    bank_id: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine((v) => v === "" || /^\d{1,9}$/.test(v), PAYMENT_MESSAGES.bankInvalid)
      .transform((v) => (v === "" ? null : Number(v))),
  });
}
export type PaymentFormData = z.output<ReturnType<typeof paymentSchema>>;

/** Bank: name required (spec §5). */
export const bankSchema = z.object({
  name: text(PAYMENT_MESSAGES.bankNameRequired, 100),
});
