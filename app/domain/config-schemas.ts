// Validation of the company configuration forms (spec part 1 §3 General configuration,
// Consecutive/access configuration, E-mail server configuration, E-mail template, Term; §5; §8; §9)
// with the spec's Spanish messages, and the pure helpers around them (template placeholders, the
// key-expiry warning text). No server code here.
import { z } from "zod";
import { formatDate } from "./format.ts";
import { formatMoney } from "./format-money.ts";
import { fillTemplate } from "./email-template.ts";

export const CONFIG_MESSAGES = {
  /** General configuration saved (spec §8 Companies). */
  saved: "Guardado correctamente",
  /** Hacienda access / consecutives saved (spec §8 Companies). */
  configSaved: "Configuración guardada correctamente",
  /** E-mail server failure (spec §5). */
  emailMissing: "Faltan datos",
  /** General configuration and terms failure (spec §5). */
  missing: "faltan datos",
  /** Templates failure, spelled as the spec spells it (spec §5). */
  templateMissing: "flatan datos",
  keyTestFailed: "No se logro probar la llave",
  accessOk: "Hacceso a hacienda correcto",
  accessDenied: "Acceso negado a hacienda",
  accessFailed: "No se logro probar el acceso",
  keyOnlyP12: "Solo se permite un archivo .p12",
  keyOneFile: "Solo se permite un archivo de llave",
  keyTooLarge: "La llave criptográfica no puede pesar más de 100 kB",
  keyRequired: "Suba la llave criptográfica (.p12)",
  noKeyStored: "No hay llave criptográfica guardada. Súbala con su PIN y guarde la configuración.",
  noAccessStored: "Faltan el usuario y la contraseña de Hacienda. Guárdelos antes de probar el acceso.",
  testMailSent: "Correo de prueba enviado a",
  noOutgoingServer: "Guarde primero la configuración del servidor de correo para poder probarlo.",
  testMailAddress: "Ingrese un correo válido para la prueba",
} as const;

/** Largest .p12 accepted (real Hacienda keys are 4–8 kB). */
export const MAX_P12_BYTES = 100 * 1024;

export const MAX_CONSECUTIVE = 9_999_999_999;

/** Document types with a consecutive on the Hacienda screen: form field, Hacienda code, label. */
export const CONSECUTIVE_TYPES = [
  { field: "cfe", docType: "01", label: "Factura electrónica (FE)" },
  { field: "cnc", docType: "03", label: "Nota de crédito (NC)" },
  { field: "cnd", docType: "02", label: "Nota de débito (ND)" },
  { field: "cte", docType: "04", label: "Tiquete electrónico (TE)" },
  { field: "ccce", docType: "05", label: "Aceptación de comprobante (CCE)" },
  { field: "ccpce", docType: "06", label: "Aceptación parcial de comprobante (CPCE)" },
  { field: "crce", docType: "07", label: "Rechazo de comprobante (RCE)" },
  { field: "fec", docType: "08", label: "Factura electrónica de compra (FEC)" },
  { field: "crep", docType: "10", label: "Recibo electrónico de pago (REP)" },
] as const;

export type ConsecutiveField = (typeof CONSECUTIVE_TYPES)[number]["field"];

export const HACIENDA_ENVIRONMENTS = [
  { value: "staging", label: "Pruebas (staging de Hacienda)" },
  { value: "production", label: "Producción" },
  { value: "sandbox", label: "Simulador local (sin Internet)" },
] as const;
export type HaciendaEnvironment = (typeof HACIENDA_ENVIRONMENTS)[number]["value"];

/** currency_emit_doc: 0 ask, 2 colones, 1 dollars. */
export const EMIT_CURRENCY_OPTIONS = [
  { value: "0", label: "Preguntar al emitir" },
  { value: "2", label: "Colones" },
  { value: "1", label: "Dólares" },
] as const;

export const CURRENCY_OPTIONS = [
  { value: "1", label: "Dólar ($)" },
  { value: "2", label: "Colón (₡)" },
] as const;

export const EMAIL_PROTOCOLS = ["smtp", "sendmail"] as const;
export const ENCRYPTIONS = [
  { value: "", label: "Sin especificar" },
  { value: "none", label: "Ninguna" },
  { value: "ssl", label: "SSL/TLS implícito (puerto 465)" },
  { value: "tls", label: "STARTTLS (puerto 587)" },
] as const;

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

/** Placeholders a template may use, with the sample value the preview shows. */
export const PLACEHOLDERS = [
  { key: "cliente", label: "Nombre del cliente", sample: "María Rodríguez Solís" },
  { key: "referencia", label: "Consecutivo o referencia del documento", sample: "00100001010000000042" },
  { key: "compania", label: "Nombre de la compañía", sample: "Colibrí Demo S.A." },
  { key: "monto", label: "Monto del documento o saldo", sample: formatMoney("125000") },
  { key: "vencimiento", label: "Fecha de vencimiento", sample: "15/12/2026" },
  { key: "fecha", label: "Fecha del documento", sample: "15/11/2026" },
  { key: "detalle", label: "Facturas pendientes (estado de cuenta)", sample: "00100001010000000042  15/11/2026  " + formatMoney("125000") },
] as const;

/** The preview fills the template as the e-mails do (app/domain/email-template.ts). */
export const renderTemplate = fillTemplate;

export const SAMPLE_VALUES: Record<string, string> = Object.fromEntries(PLACEHOLDERS.map((p) => [p.key, p.sample]));

// ---- Key expiry -----------------------------------------------------------------------------------

const DAY_MS = 86_400_000;


export interface KeyExpiryWarning {
  kind: "expiring" | "expired";
  text: string;
  notAfter: string;
  daysLeft: number;
}

/** The dashboard warning: 30 days before the key expires, and once it has expired; else null. */
export function keyExpiryText(notAfter: Date | null | undefined, now: Date): KeyExpiryWarning | null {
  if (!notAfter) return null;
  const ms = notAfter.getTime() - now.getTime();
  const date = formatDate(notAfter);
  if (ms <= 0) {
    return {
      kind: "expired",
      daysLeft: 0,
      notAfter: date,
      text: `La llave criptográfica venció el ${date}. No se pueden firmar comprobantes: suba una llave nueva en Configuración Hacienda.`,
    };
  }
  const days = Math.ceil(ms / DAY_MS);
  if (days > 30) return null;
  return { kind: "expiring", daysLeft: days, notAfter: date, text: `La llave criptográfica vence el ${date} (${days === 1 ? "falta 1 día" : `faltan ${days} días`}).` };
}

/** path?search with one parameter set. */
export function withParam(here: string, key: string, value: string): string {
  const url = new URL(here, "http://x");
  url.searchParams.set(key, value);
  return url.pathname + url.search;
}
