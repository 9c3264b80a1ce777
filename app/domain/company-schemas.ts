// Validation of the company form (spec part 1 §3 Company, §5 Company, §9), with Spanish messages.
// The zod-free rules around it (plans, logo type/size by magic bytes, activity selection) live in
// company-texts.ts, re-exported here.
import { z } from "zod";
import { API_CREDENTIAL_MESSAGES, apiPasswordLengthOk } from "./company-texts.ts";
import { ACTIVITY_CODE_MESSAGES, activityCodeError, normalizeActivityCode } from "./activity-codes.ts";
import { IDENTIFICATION_MESSAGES, isCedulaJuridica } from "./identification.ts";

export * from "./company-texts.ts";

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

