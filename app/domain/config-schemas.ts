// Validation of the company configuration forms (spec part 1 §3 General configuration,
// Consecutive/access configuration, E-mail server configuration, E-mail template, Term; §5; §8; §9)
// with the spec's Spanish messages, and the pure helpers around them (template placeholders, the
// key-expiry warning text). No server code here.
import { z } from "zod";
import { CONFIG_MESSAGES, CONSECUTIVE_TYPES, EMAIL_PROTOCOLS, MAX_CONSECUTIVE, MAX_P12_BYTES, type ConsecutiveField } from "./config-texts.ts";

export * from "./config-texts.ts";
const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Every field of a failed form carries the same form-level message, as the spec words it. */
const req = (message: string) => z.preprocess(text, z.string().min(1, message));

const intRange = (message: string, min: number, max: number) =>
  z.preprocess(
    text,
    z
      .string()
      .min(1, message)
      .refine((v) => /^\d{1,11}$/.test(v) && Number(v) >= min && Number(v) <= max, message)
      .transform(Number),
  );

// ---- General configuration --------------------------------------------------------------------

export const generalConfigSchema = z.object({
  custom_quotation_name: req(CONFIG_MESSAGES.missing).pipe(z.string().max(60, CONFIG_MESSAGES.missing)),
  currency: z.preprocess(text, z.enum(["1", "2"], { error: CONFIG_MESSAGES.missing }).transform(Number)),
  mode_pos: z.preprocess(text, z.enum(["0", "1"], { error: CONFIG_MESSAGES.missing }).transform((v) => v === "1")),
  currency_emit_doc: z.preprocess(text, z.enum(["0", "1", "2"], { error: CONFIG_MESSAGES.missing }).transform(Number)),
  /** How tickets and the detail's print variant print (decision 165); absent: a full page. */
  print_format: z.preprocess((v) => text(v) || "a4", z.enum(["a4", "80", "58"], { error: CONFIG_MESSAGES.missing })),
});
export type GeneralConfigInput = z.output<typeof generalConfigSchema>;

// ---- Hacienda access and consecutives -----------------------------------------------------------

const consecutiveMessage = (label: string) => `${label}: requerido, numérico, de 0 a 9999999999`;

export function haciendaConfigSchema(opts: { hasPassword: boolean; hasPin: boolean }) {
  const consecutives = Object.fromEntries(CONSECUTIVE_TYPES.map((t) => [t.field, intRange(consecutiveMessage(t.label), 0, MAX_CONSECUTIVE)])) as Record<
    ConsecutiveField,
    ReturnType<typeof intRange>
  >;
  return z.object({
    ...consecutives,
    branch: intRange("La sucursal debe ser un número de 1 a 999", 1, 999),
    terminal: intRange("La terminal debe ser un número de 1 a 99999", 1, 99999),
    username: req("El usuario de Hacienda es obligatorio").pipe(z.string().max(120, "El usuario admite máximo 120 caracteres")),
    password: z.preprocess(
      (v) => (typeof v === "string" ? v : ""),
      z
        .string()
        .max(200, "La contraseña admite máximo 200 caracteres")
        .refine((v) => opts.hasPassword || v.length > 0, "La contraseña de Hacienda es obligatoria")
        .transform((v) => v || null),
    ),
    pin: z.preprocess(
      (v) => (typeof v === "string" ? v.trim() : ""),
      z
        .string()
        .max(64, "El PIN admite máximo 64 caracteres")
        .refine((v) => opts.hasPin || v.length > 0, "El PIN de la llave es obligatorio")
        .transform((v) => v || null),
    ),
    email_rejection: z.preprocess(
      text,
      z
        .string()
        .max(160, "Ingresa un correo válido")
        .refine((v) => v === "" || z.email().safeParse(v).success, "Ingresa un correo válido")
        .transform((v) => v || null),
    ),
    environment: z.preprocess(text, z.enum(["staging", "production", "sandbox"], { error: "Seleccione el ambiente" })),
  });
}
export type HaciendaConfigInput = z.output<ReturnType<typeof haciendaConfigSchema>>;

/** Checks the uploaded key file by name and size (its content is checked by opening it with the PIN). */
export function checkKeyFile(file: { name: string; size: number }): string | null {
  if (!/\.p12$/i.test(file.name)) return CONFIG_MESSAGES.keyOnlyP12;
  if (file.size > MAX_P12_BYTES) return CONFIG_MESSAGES.keyTooLarge;
  return null;
}

// ---- E-mail servers -------------------------------------------------------------------------------

export function outgoingEmailSchema(opts: { hasPassword: boolean }) {
  const m = CONFIG_MESSAGES.emailMissing;
  return z.object({
    protocol: z.preprocess(text, z.enum(EMAIL_PROTOCOLS, { error: m })),
    encryption: z.preprocess(text, z.enum(["", "none", "ssl", "tls"], { error: m }).transform((v) => v || null)),
    host: req(m).pipe(z.string().max(200, m).regex(/^[A-Za-z0-9.-]+$/, m)),
    port: intRange(m, 1, 65535),
    username: req(m).pipe(z.string().max(200, m)),
    password: z.preprocess(
      (v) => (typeof v === "string" ? v : ""),
      z
        .string()
        .max(200, m)
        .refine((v) => opts.hasPassword || v.length > 0, m)
        .transform((v) => v || null),
    ),
    from_email: req(m).pipe(z.email(m)),
    from_name: req(m).pipe(z.string().max(120, m)),
  });
}
export type OutgoingEmailInput = z.output<ReturnType<typeof outgoingEmailSchema>>;

export function receptionEmailSchema(opts: { hasPassword: boolean }) {
  const m = CONFIG_MESSAGES.emailMissing;
  return z.object({
    host: req(m).pipe(z.string().max(200, m).regex(/^[A-Za-z0-9.-]+$/, m)),
    port: intRange(m, 1, 65535),
    username: req(m).pipe(z.string().max(200, m)),
    password: z.preprocess(
      (v) => (typeof v === "string" ? v : ""),
      z
        .string()
        .max(200, m)
        .refine((v) => opts.hasPassword || v.length > 0, m)
        .transform((v) => v || null),
    ),
    encryption: z.preprocess(text, z.enum(["", "none", "ssl", "tls"], { error: m }).transform((v) => v || null)),
    // What documents that arrive by e-mail get until someone processes them (issue 12, decision 175).
    default_tax_condition: z.preprocess((v) => text(v) || "01", z.enum(["01", "02", "03", "04", "05"], { error: m })),
    default_expense_category: z.preprocess(text, z.string().regex(/^(\d{1,9})?$/, m).transform((v) => (v ? Number(v) : null))),
  });
}
export type ReceptionEmailInput = z.output<ReturnType<typeof receptionEmailSchema>>;

export const testMailSchema = z.object({
  test_to: z.preprocess(text, z.email(CONFIG_MESSAGES.testMailAddress)),
});

// ---- Templates and terms ----------------------------------------------------------------------------

export const templateSchema = z.object({
  subject: req(CONFIG_MESSAGES.templateMissing).pipe(z.string().max(200, CONFIG_MESSAGES.templateMissing)),
  body: req(CONFIG_MESSAGES.templateMissing).pipe(z.string().max(10_000, CONFIG_MESSAGES.templateMissing)),
});
export type TemplateInput = z.output<typeof templateSchema>;

export const termSchema = z.object({
  name: req(CONFIG_MESSAGES.missing).pipe(z.string().max(120, CONFIG_MESSAGES.missing)),
  body: req(CONFIG_MESSAGES.missing).pipe(z.string().max(20_000, CONFIG_MESSAGES.missing)),
});
export type TermInput = z.output<typeof termSchema>;

