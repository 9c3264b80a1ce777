// The texts, options and pure helpers of the company configuration screens (spec part 1 §3), without
// zod: the screens import these and ship no schema code (the JavaScript budget, decision 166); the
// form schemas are in config-schemas.ts, which re-exports all of this.
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
