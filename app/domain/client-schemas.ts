// Validation of the client/provider form (spec part 1 §3 Client/provider and Contact, §5 Client,
// Identification length, Contacts, Activity lookup; §9), with Spanish messages. Pure: no I/O.
import { activityCodeError, isCiiu4, normalizeActivityCode } from "./activity-codes.ts";
import { IDENTIFICATION_MESSAGES, isCedulaJuridica } from "./identification.ts";
import { z } from "zod";
import { activityRequired, HOME_COUNTRY, maxContacts, maxContactsMessage, type ClientSchemaOptions } from "./client-texts.ts";

export * from "./client-texts.ts";

/** Identification types a client may have (spec part 1 §3): id → code. */
export const CLIENT_ID_TYPES: Record<number, string> = { 1: "01", 2: "02", 3: "03", 4: "04" };

/** The stricter per-type reading of spec part 1 §5 applies to clients. */
export function identificationError(typeId: number, identification: string): string | null {
  if (typeId === 2 && !/^\d+$/.test(identification)) return isCedulaJuridica(identification) ? null : IDENTIFICATION_MESSAGES.juridica;
  if (!/^\d+$/.test(identification)) return "La identificación solo admite números";
  const n = identification.length;
  switch (typeId) {
    case 1:
      return n === 9 ? null : "La cédula física debe tener exactamente 9 dígitos";
    case 2:
      return n === 10 ? null : "La cédula jurídica debe tener exactamente 10 dígitos";
    case 3:
      return n >= 11 && n <= 12 ? null : "El DIMEX debe tener entre 11 y 12 dígitos";
    case 4:
      return n === 10 ? null : "El NITE debe tener exactamente 10 dígitos";
    default:
      return null;
  }
}

const required = (message: string) => z.string({ error: message }).trim().min(1, message);
const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `Máximo ${max} caracteres`)
    .optional()
    .transform((v) => (v ? v : null));
const positiveInt = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0, message)
    .transform(Number);
const optionalInt = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v && /^\d+$/.test(v) ? Number(v) : null));

export function clientSchema(opts: ClientSchemaOptions) {
  const max = maxContacts(opts.mode);
  return z
    .object({
      name: required("El nombre es obligatorio").pipe(z.string().max(160, "El nombre admite máximo 160 caracteres")),
      comercial_name: optionalText(160),
      identification_type: z
        .string({ error: "El tipo de identificación es obligatorio" })
        .trim()
        .refine((v) => /^[1-4]$/.test(v), "El tipo de identificación es obligatorio")
        .transform(Number),
      identification: required("La identificación es obligatoria"),
      email: required("El correo es obligatorio").pipe(z.email("Ingresa un correo válido")),
      phone: required("El teléfono es obligatorio").pipe(z.string().regex(/^\d{1,20}$/, "El teléfono debe ser un número entero")),
      address: required("La dirección es obligatoria").pipe(z.string().max(250, "La dirección admite máximo 250 caracteres")),
      country: positiveInt("El país es obligatorio"),
      province: optionalInt,
      canton: optionalInt,
      district: optionalInt,
      barrio: optionalText(160),
      economic_activity_code: z
        .string()
        .trim()
        .optional()
        .transform((v) => normalizeActivityCode(v) || null),
      economic_activity_name: optionalText(250),
      contacts: z.array(
        z.object({
          name: z.string().trim().max(160, "Máximo 160 caracteres"),
          email: z.string().trim().max(160, "Máximo 160 caracteres"),
          workstation: z.string().trim().max(160, "Máximo 160 caracteres"),
          send_copy: z.string().transform((v) => v === "on" || v === "1" || v === "true"),
        }),
      ),
    })
    .superRefine((v, ctx) => {
      const idError = identificationError(v.identification_type, v.identification);
      if (idError) ctx.addIssue({ code: "custom", path: ["identification"], message: idError });
      if (v.country === HOME_COUNTRY) {
        if (!v.province) ctx.addIssue({ code: "custom", path: ["province"], message: "La provincia es obligatoria" });
        if (!v.canton) ctx.addIssue({ code: "custom", path: ["canton"], message: "El cantón es obligatorio" });
        if (!v.district) ctx.addIssue({ code: "custom", path: ["district"], message: "El distrito es obligatorio" });
        if (opts.mode !== "new" && !v.barrio) ctx.addIssue({ code: "custom", path: ["barrio"], message: "El barrio es obligatorio" });
      }
      const activityError = activityCodeError(v.economic_activity_code, opts.storedActivityCode);
      if (activityError) ctx.addIssue({ code: "custom", path: ["economic_activity_code"], message: activityError });
      if (!v.economic_activity_code && activityRequired(opts, v.identification_type))
        ctx.addIssue({ code: "custom", path: ["economic_activity_code"], message: "La actividad económica es obligatoria" });
      if (v.contacts.length < 1) ctx.addIssue({ code: "custom", path: ["contacts"], message: "Debe haber al menos un contacto" });
      if (v.contacts.length > max) ctx.addIssue({ code: "custom", path: ["contacts"], message: maxContactsMessage(opts.mode) });
      v.contacts.forEach((c, i) => {
        if (c.email && !c.name) ctx.addIssue({ code: "custom", path: ["contacts", i, "name"], message: "El nombre del contacto es obligatorio" });
        if (c.name && !c.email) ctx.addIssue({ code: "custom", path: ["contacts", i, "email"], message: "El correo del contacto es obligatorio" });
        if (c.email && !z.email().safeParse(c.email).success) ctx.addIssue({ code: "custom", path: ["contacts", i, "email"], message: "Ingresa un correo válido" });
      });
    })
    .transform((v) => ({
      ...v,
      // Outside the home country the location does not apply.
      province: v.country === HOME_COUNTRY ? v.province : null,
      canton: v.country === HOME_COUNTRY ? v.canton : null,
      district: v.country === HOME_COUNTRY ? v.district : null,
      barrio: v.country === HOME_COUNTRY ? v.barrio : null,
      economic_activity_name: v.economic_activity_code ? v.economic_activity_name : null,
      // Empty contact rows are not stored.
      contacts: v.contacts.filter((c) => c.name || c.email || c.workstation),
    }));
}

export type ClientInput = z.output<ReturnType<typeof clientSchema>>;

// ---- Activity catalogue import (code;description) -------------------------------------------------

export const ACTIVITY_IMPORT_MESSAGES = {
  empty: "El archivo está vacío",
  noFile: "Seleccione un archivo CSV",
  tooBig: "El archivo no puede pesar más de 5 MB",
  done: (n: number) => `Catálogo de actividades importado: ${n} actividades`,
  line: (n: number, why: string) => `Línea ${n}: ${why}`,
  columns: "debe tener el formato código;descripción",
  code: "el código debe ser CIIU 4 de la forma 0000.0 (p. ej. 6201.0)",
  description: "la descripción es obligatoria (máximo 250 caracteres)",
  duplicate: (code: string) => `el código ${code} está repetido`,
} as const;

/** One CSV line of the activity catalogue, or the Spanish reason it is wrong. */
export function parseActivityLine(line: string): { ok: true; code: string; description: string } | { ok: false; why: string } {
  const parts = line.split(";");
  if (parts.length < 2) return { ok: false, why: ACTIVITY_IMPORT_MESSAGES.columns };
  const code = normalizeActivityCode(parts[0].trim().replace(/^"|"$/g, ""));
  const description = parts.slice(1).join(";").trim().replace(/^"|"$/g, "").trim();
  if (!isCiiu4(code)) return { ok: false, why: ACTIVITY_IMPORT_MESSAGES.code };
  if (!description || description.length > 250) return { ok: false, why: ACTIVITY_IMPORT_MESSAGES.description };
  return { ok: true, code, description };
}
