// The company screens' messages, choices and rules without zod (lists and the form's page ship no
// schema code: the JavaScript budget, decisions 166 and 155); company-schemas.ts re-exports them.
export const COMPANY_MESSAGES = {
  saved: "Compañia guardada",
  updated: "Compañia actualizada",
  duplicateIdentification: "Ya existe una compañia registrada con esta identificación",
  deleted: "Compañia eliminada",
  activated: "Compañia activada",
  deactivated: "Compañia desactivada",
  problem: "Ocurrio un problema",
  cannotDeleteCurrent: "No puedes eliminar la compañia que tienes seleccionada. Selecciona otra compañia y vuelve a intentarlo.",
  noDocuments: "No hay documentos",
  confirmDelete: "¿ Deseas eliminar la compañia ?",
  confirmToggle: "¿ Deseas Activar/Desactivar la compañia ?",
  empty: "No hay Compañias",
  cancelled: "Acción cancelada",
} as const;

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

/**
 * What a user of an inactive company is told (spec part 1 §2.2): selecting it, and whenever a screen
 * it may not open sends them to the dashboard. Administrators may still use it.
 */
export function inactiveCompanyMessage(name: string, isAdmin: boolean): string {
  return isAdmin
    ? `La compañia ${name} esta inactiva. Como administrador puede seguir usándola.`
    : `La compañia ${name} esta inactiva: solo puede ver el inicio y las compañías. Pida a un administrador que la active.`;
}

/** The company's API credentials (plan 5): the company form and the API configuration screen. */
export const API_CREDENTIAL_MESSAGES = {
  usernameRequired: "El usuario API es obligatorio para el plan 5",
  passwordRequired: "La contraseña API es obligatoria para el plan 5",
  passwordLength: "La contraseña API debe tener entre 6 y 30 caracteres",
  /** Another company (not archived) has the username in any case: 'Caja' is taken by 'caja'. */
  usernameTaken: "Ya existe una compañia registrada con este usuario API",
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

// The activity lookup's messages and reading (the client form uses them too): activity-codes.ts.
export { ACTIVITY_MESSAGES, interpretActivities, lookupDigits, type Activity, type ActivityLookup } from "./activity-codes.ts";
