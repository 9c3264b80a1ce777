/**
 * Expenses (spec part 2 "Expenses", §3 Expense / Expense category / Payment method, §5, §8, §9): the
 * texts, the form schemas with their Spanish messages, the attachment rule (a photo or a PDF, one
 * file, size-limited, recognised by its bytes) and the payment-method choice. Pure.
 * docs/decisions/150-expenses.md.
 */
import { z } from "zod";
import { sniffImage } from "./company-texts.ts";
import { decimalPlaces, fixed5, isPositiveDecimal, parseDecimalInput } from "./number-input.ts";
import { decimalField } from "./number-schemas.ts";
import { isCalendarDay } from "./payment-texts.ts";
import { ATTACHMENT_MAX_BYTES, EXPENSE_MESSAGES } from "./expense-texts.ts";

export { ATTACHMENT_MAX_BYTES, EXPENSE_MESSAGES };

/** 'El archivo no puede superar 10 MB.' */
export const fileTooLarge = (max = ATTACHMENT_MAX_BYTES) => `El archivo no puede superar ${Math.round(max / (1024 * 1024))} MB.`;

export type AttachmentType = { mime: "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "application/pdf"; ext: string };

const EXTENSIONS: Record<AttachmentType["mime"], string> = { "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "application/pdf": "pdf" };

/**
 * What a receipt is, by its first bytes (never by its name or the type the browser claims): a photo
 * (the image types the company logo accepts: sniffImage) or a PDF. Null for anything else.
 */
export function attachmentType(head: Uint8Array): AttachmentType | null {
  const isPdf = head.length >= 5 && [0x25, 0x50, 0x44, 0x46, 0x2d].every((b, i) => head[i] === b);
  const mime = isPdf ? "application/pdf" : sniffImage(head);
  return mime ? { mime, ext: EXTENSIONS[mime] } : null;
}

/** The checks of one uploaded receipt: size first (nothing is read past the limit), then its bytes. */
export function checkAttachment(file: { size: number; head: Uint8Array }, max = ATTACHMENT_MAX_BYTES): { ok: true; type: AttachmentType } | { ok: false; message: string } {
  if (file.size > max) return { ok: false, message: fileTooLarge(max) };
  const type = attachmentType(file.head);
  return type ? { ok: true, type } : { ok: false, message: EXPENSE_MESSAGES.fileType };
}

/**
 * The name shown for a receipt and offered on download: the user's file name without folders or
 * control characters, at most 120 characters, never empty.
 */
export function displayFileName(raw: string, ext: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "").trim().slice(0, 120);
  return base || `adjunto.${ext}`;
}

/**
 * A payment method of the form: Hacienda's TipoMedioPago code ('01' Efectivo …) or a company's own
 * method ('m' and its id, e.g. 'm12').
 */
export type PaymentMethodChoice = { code: string; id: null } | { code: null; id: number };

export function parsePaymentMethod(value: string): PaymentMethodChoice | null {
  if (/^\d{2}$/.test(value)) return { code: value, id: null };
  const m = /^m(\d{1,9})$/.exec(value);
  return m ? { code: null, id: Number(m[1]) } : null;
}

export const paymentMethodValue = (p: { code: string | null; id: number | null }) => (p.id ? `m${p.id}` : (p.code ?? ""));

const text = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, EXPENSE_MESSAGES.invalid);

/**
 * Amount: required, positive, at most 2 decimals (spec §5, §9), typed the Costa Rican way
 * ('1.500,50', '1500,50', '1500.50': the one parser, decision 164).
 */
export const expenseAmountSchema = decimalField({ required: EXPENSE_MESSAGES.amountRequired, format: EXPENSE_MESSAGES.amountFormat, maxDecimals: 2 })
  .refine(isPositiveDecimal, EXPENSE_MESSAGES.amountPositive)
  .transform(fixed5);

/** A dollar's exchange rate typed the Costa Rican way ('505,25'): canonical decimal, or null when it is not one (> 0, 7 digits, 5 decimals). */
function exchangeRateOf(raw: string | undefined): string | null {
  const v = parseDecimalInput(raw);
  return v !== null && decimalPlaces(v) <= 5 && v.split(".")[0].length <= 7 && isPositiveDecimal(v) ? v : null;
}

const idField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .regex(/^\d{1,9}$/, message)
    .transform(Number);

/**
 * The expense form (spec §5: date, description, amount with 2 decimals, currency, category and
 * payment method required; reference optional; one attachment — checked apart, by the use-case).
 * A dollar expense needs its exchange rate (colones per dollar); a colón expense is stored at 1.
 */
export const expenseSchema = z
  .object({
    date: z.string({ error: EXPENSE_MESSAGES.dateRequired }).trim().min(1, EXPENSE_MESSAGES.dateRequired).refine(isCalendarDay, EXPENSE_MESSAGES.dateInvalid),
    description: text(EXPENSE_MESSAGES.descriptionRequired, 250),
    amount: expenseAmountSchema,
    currency_id: z.string({ error: EXPENSE_MESSAGES.currencyRequired }).trim().regex(/^[12]$/, EXPENSE_MESSAGES.currencyRequired).transform(Number),
    exchange_rate: z.string().trim().optional().default(""),
    reference: z.string().trim().max(100, EXPENSE_MESSAGES.invalid).optional().default(""),
    category_id: idField(EXPENSE_MESSAGES.categoryRequired),
    payment_method: z
      .string({ error: EXPENSE_MESSAGES.paymentMethodRequired })
      .trim()
      .min(1, EXPENSE_MESSAGES.paymentMethodRequired)
      .refine((v) => parsePaymentMethod(v) !== null, EXPENSE_MESSAGES.paymentMethodRequired),
    /** An upload already kept for this form (a failed submission or the new-category dialog). */
    attachment_id: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine((v) => v === "" || /^\d{1,9}$/.test(v), EXPENSE_MESSAGES.fileGone)
      .transform((v) => (v === "" ? null : Number(v))),
  })
  // Also when other fields are wrong, so every message shows at once (the values may then be partly
  // unparsed: the currency is compared as text).
  .superRefine(
    (v, ctx) => {
      if (String(v.currency_id) !== "1") return;
      if (exchangeRateOf(v.exchange_rate) === null) ctx.addIssue({ code: "custom", path: ["exchange_rate"], message: EXPENSE_MESSAGES.exchangeRate });
    },
    { when: () => true },
  )
  .transform((v) => ({ ...v, exchange_rate: v.currency_id === 1 ? fixed5(exchangeRateOf(v.exchange_rate)!) : fixed5("1") }));
export type ExpenseFormData = z.output<typeof expenseSchema>;

/** A category (spec §5: name required). */
export const categorySchema = z.object({ name: text(EXPENSE_MESSAGES.categoryNameRequired, 100) });

/** A company's own payment method (spec §3: name and code; §5: name required). */
export const paymentMethodSchema = z.object({
  name: text(EXPENSE_MESSAGES.methodNameRequired, 100),
  code: z.string().trim().max(20, EXPENSE_MESSAGES.invalid).optional().default(""),
});
