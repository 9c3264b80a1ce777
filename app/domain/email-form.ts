/**
 * The e-mail forms of the detail viewer (spec part 2 §5): 'Enviar por correo' and the payment
 * reminder both take e-mail addresses, a subject and a body, all required; a bad address shows
 * 'invalido'. One schema serves both; success texts from spec §8. Pure.
 */
import { z } from "zod";

export const EMAIL_FORM_MESSAGES = {
  emailsRequired: "Ingrese al menos un correo electrónico.",
  invalid: "invalido",
  subjectRequired: "Ingrese el asunto del correo.",
  bodyRequired: "Ingrese el mensaje del correo.",
  emailSent: "El email se envio correctamente",
} as const;

const EMAIL_RE = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** Addresses typed by the user: split by commas, semicolons or spaces. */
export function parseAddresses(raw: string): { ok: true; to: string[] } | { ok: false; error: string } {
  const to = raw
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!to.length) return { ok: false, error: EMAIL_FORM_MESSAGES.emailsRequired };
  const bad = to.filter((e) => !EMAIL_RE.test(e));
  if (bad.length) return { ok: false, error: `${bad.join(", ")}: ${EMAIL_FORM_MESSAGES.invalid}` };
  return { ok: true, to: [...new Set(to)] };
}

const text = (v: unknown) => (typeof v === "string" ? v : "");

export const emailFormSchema = z.object({
  emails: z.preprocess(
    text,
    z
      .string()
      .max(2000, EMAIL_FORM_MESSAGES.invalid)
      .transform((raw, ctx) => {
        const parsed = parseAddresses(raw);
        if (parsed.ok) return parsed.to;
        ctx.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }),
  ),
  subject: z.preprocess(text, z.string().trim().min(1, EMAIL_FORM_MESSAGES.subjectRequired).max(300, EMAIL_FORM_MESSAGES.invalid)),
  body: z.preprocess(text, z.string().trim().min(1, EMAIL_FORM_MESSAGES.bodyRequired).max(20_000, EMAIL_FORM_MESSAGES.invalid)),
});

export type EmailFormInput = z.output<typeof emailFormSchema>;
