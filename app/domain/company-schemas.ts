// Validation of the company form (spec part 1 §3 Company, §5 Company, §9), with Spanish messages,
// and the pure rules around it: plans, logo type/size by magic bytes, activity selection.
import { z } from "zod";
import { COMPANY_MESSAGES } from "./company-texts.ts";
import { ACTIVITY_CODE_MESSAGES, activityCodeError, normalizeActivityCode, type ActivityOption } from "./activity-codes.ts";
import { IDENTIFICATION_MESSAGES, isCedulaJuridica } from "./identification.ts";

export const PLANS = [
  { value: 1, label: "1 - Completo" },
  { value: 2, label: "2 - Solo recepción" },
  { value: 3, label: "3 - Escuela" },
  { value: 4, label: "4 - 100 anual" },
  { value: 5, label: "5 - API" },
] as const;

export const INVOICE_FORMATS = [
  { value: "1", label: "Formato Uno" },
  { value: "2", label: "Formato Dos" },
] as const;

/** currency_emit_doc: 0 ask, 2 colones, 1 dollars (spec part 1 §3 General configuration). */
export const CURRENCY_EMIT_DOC = [
  { value: 0, label: "Preguntar al emitir" },
  { value: 2, label: "Colones" },
  { value: 1, label: "Dólares" },
] as const;

export { COMPANY_MESSAGES };

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

const intIn = (message: string, allowed: readonly number[]) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => /^\d+$/.test(v) && allowed.includes(Number(v)), message)
    .transform(Number);

const positiveInt = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0, message)
    .transform(Number);

const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `Máximo ${max} caracteres`)
    .optional()
    .transform((v) => (v ? v : null));

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "1" || v === "true");

/**
 * What a user of an inactive company is told (spec part 1 §2.2): selecting it, and whenever a screen
 * it may not open sends them to the dashboard. Administrators may still use it.
 */
export function inactiveCompanyMessage(name: string, isAdmin: boolean): string {
  return isAdmin
    ? `La compañia ${name} esta inactiva. Como administrador puede seguir usándola.`
    : `La compañia ${name} esta inactiva: solo puede ver el inicio y las compañías. Pida a un administrador que la active.`;
}

export interface CompanySchemaOptions {
  creating: boolean;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  /** The company already has an API password stored (editing may leave the field blank). */
  hasApiPassword?: boolean;
  /** The activity code stored now: an old-catalogue code may be posted back unchanged (activityCodeError). */
  storedActivityCode?: string | null;
}

export function companySchema(opts: CompanySchemaOptions) {
  return z
    .object({
      name: required("El nombre es obligatorio").pipe(z.string().max(160, "El nombre admite máximo 160 caracteres")),
      fantasy_name: optionalText(160),
      identification_type: intIn("El tipo de identificación es obligatorio", [1, 2, 3, 4]),
      // Digits, or a cédula jurídica in Registro Nacional's alphanumeric form (checked with the type below).
      identification: required("La identificación es obligatoria").pipe(
        z
          .string()
          .regex(/^[0-9A-Z]+$/, "La identificación solo admite números")
          .min(9, "La identificación debe tener entre 9 y 12 caracteres")
          .max(12, "La identificación debe tener entre 9 y 12 caracteres"),
      ),
      email: required("El correo es obligatorio").pipe(z.email("Ingresa un correo válido")),
      phone: required("El teléfono es obligatorio").pipe(z.string().regex(/^\d{1,20}$/, "El teléfono debe ser un número entero")),
      country: positiveInt("El país es obligatorio"),
      province: positiveInt("La provincia es obligatoria"),
      canton: positiveInt("El cantón es obligatorio"),
      district: positiveInt("El distrito es obligatorio"),
      other_signs: required("Otras señas son obligatorias").pipe(z.string().max(250, "Otras señas admite máximo 250 caracteres")),
      economic_activity_code: (opts.creating ? required("La actividad económica es obligatoria") : z.string().trim().optional())
        .transform((v) => normalizeActivityCode(v))
        .refine((v) => !activityCodeError(v, opts.storedActivityCode), ACTIVITY_CODE_MESSAGES.format)
        .transform((v) => v || null),
      economic_activity_name: optionalText(250),
      custom_quotation_name: required("El nombre de la cotización es obligatorio").pipe(z.string().max(60, "Máximo 60 caracteres")),
      currency: intIn("La moneda es obligatoria", [1, 2]),
      currency_emit_doc: intIn("La moneda de emisión es obligatoria", [0, 1, 2]),
      invoice_format: z.enum(["1", "2"], { error: "El formato de factura es obligatorio" }),
      permission: opts.isAdmin
        ? intIn("El plan es obligatorio", [1, 2, 3, 4, 5])
        : z
            .unknown()
            .optional()
            .transform(() => null as number | null),
      username_api: optionalText(100),
      password_api: z
        .string()
        .optional()
        .transform((v) => (v ? v : null)),
      database: opts.isSuperAdmin && !opts.creating ? optionalText(100) : z
            .unknown()
            .optional()
            .transform(() => undefined as string | null | undefined),
      no_hacienda: checkbox,
    })
    .superRefine((v, ctx) => {
      if (!/^\d+$/.test(v.identification) && !(v.identification_type === 2 && isCedulaJuridica(v.identification)))
        ctx.addIssue({ code: "custom", path: ["identification"], message: v.identification_type === 2 ? IDENTIFICATION_MESSAGES.juridica : "La identificación solo admite números" });
      if (v.permission === 5) {
        if (!v.username_api) ctx.addIssue({ code: "custom", path: ["username_api"], message: API_CREDENTIAL_MESSAGES.usernameRequired });
        if (!v.password_api && !opts.hasApiPassword)
          ctx.addIssue({ code: "custom", path: ["password_api"], message: API_CREDENTIAL_MESSAGES.passwordRequired });
      }
      if (v.password_api && !apiPasswordLengthOk(v.password_api))
        ctx.addIssue({ code: "custom", path: ["password_api"], message: API_CREDENTIAL_MESSAGES.passwordLength });
    });
}

export type CompanyInput = z.output<ReturnType<typeof companySchema>>;

/** The company's API credentials (plan 5): the company form and the API configuration screen. */
export const API_CREDENTIAL_MESSAGES = {
  usernameRequired: "El usuario API es obligatorio para el plan 5",
  passwordRequired: "La contraseña API es obligatoria para el plan 5",
  passwordLength: "La contraseña API debe tener entre 6 y 30 caracteres",
} as const;

export const apiPasswordLengthOk = (password: string) => password.length >= 6 && password.length <= 30;

// ---- Logo -------------------------------------------------------------------------------------

export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_MESSAGES = {
  type: "El logo debe ser una imagen PNG, JPEG, WEBP o GIF",
  size: "El logo no puede pesar más de 1 MB",
} as const;

/** The image type by its first bytes (never by the file name), or null. */
export function sniffImage(bytes: Uint8Array): "image/png" | "image/jpeg" | "image/gif" | "image/webp" | null {
  const b = bytes;
  const at = (i: number, ...vals: number[]) => vals.every((v, k) => b[i + k] === v);
  if (b.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (b.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (b.length >= 6 && (at(0, 0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || at(0, 0x47, 0x49, 0x46, 0x38, 0x39, 0x61))) return "image/gif";
  if (b.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

export function checkLogo(bytes: Uint8Array): { ok: true; mime: string } | { ok: false; message: string } {
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, message: LOGO_MESSAGES.size };
  const mime = sniffImage(bytes);
  if (!mime) return { ok: false, message: LOGO_MESSAGES.type };
  return { ok: true, mime };
}

// ---- Economic activity lookup ------------------------------------------------------------------

export const ACTIVITY_MESSAGES = {
  noActive: "No se encontraron actividades activas",
  none: "No se encontraron actividades",
  principal: "Actividad principal seleccionada automáticamente",
  loaded: "Actividades cargadas",
  network: "Error conectando con Hacienda",
  identification: "La identificación debe tener entre 9 y 12 caracteres",
  rateLimited: "Hacienda está limitando las consultas: intente de nuevo en un minuto.",
} as const;

export type Activity = ActivityOption;

export type ActivityLookup =
  | { ok: true; activities: Activity[]; selected: string; message: string; name: string | null }
  | { ok: false; activities: Activity[]; message: string };

/**
 * The identification as Hacienda's fe/ae lookup takes it (spec part 1 §4 Company creation): no
 * dashes or spaces, 9 to 12 characters; letters are kept (an alphanumeric cédula jurídica).
 */
export function lookupDigits(identification: string): string | null {
  const id = identification.toUpperCase().replace(/[^0-9A-Z]/g, "");
  return id.length >= 9 && id.length <= 12 ? id : null;
}

/** The reply of Hacienda's fe/ae endpoint: active activities, the principal 'P' preselected. */
export function interpretActivities(reply: unknown): ActivityLookup {
  const r = (reply ?? {}) as { nombre?: unknown; actividades?: unknown };
  const list = Array.isArray(r.actividades) ? (r.actividades as Record<string, unknown>[]) : [];
  if (list.length === 0) return { ok: false, activities: [], message: ACTIVITY_MESSAGES.none };
  const active = list
    .filter((a) => String(a.estado ?? "").toUpperCase() === "A")
    .map((a) => ({ code: normalizeActivityCode(String(a.codigo ?? "")), description: String(a.descripcion ?? "").trim(), type: String(a.tipo ?? "").toUpperCase() }))
    .filter((a) => a.code);
  if (active.length === 0) return { ok: false, activities: [], message: ACTIVITY_MESSAGES.noActive };
  const principal = active.find((a) => a.type === "P");
  return {
    ok: true,
    activities: active,
    selected: (principal ?? active[0]).code,
    message: principal ? ACTIVITY_MESSAGES.principal : ACTIVITY_MESSAGES.loaded,
    name: typeof r.nombre === "string" ? r.nombre : null,
  };
}
