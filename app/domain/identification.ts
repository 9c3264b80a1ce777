/**
 * Identification numbers (Nota 4, A44 p.67). Pure; shared by the forms and the engine rules.
 *
 * A cédula jurídica is 10 digits or — Registro Nacional's alphanumeric form that came with the
 * April-2026 revision of the v4.4 schemas (alphanumeric ClaveType; reported by the DOJO compliance
 * spec as e.g. 3-101-A00001) — 4 digits followed by 6 digits or capital letters, written without
 * dashes. The 2026 XSD leaves Identificacion/Numero a free string of up to 20 characters.
 * docs/decisions/133.
 */
export const CEDULA_JURIDICA = /^\d{4}[0-9A-Z]{6}$/;

/** Whether `id` is a valid cédula jurídica (numeric or alphanumeric). */
export function isCedulaJuridica(id: string): boolean {
  return CEDULA_JURIDICA.test(id);
}

export const IDENTIFICATION_MESSAGES = {
  juridica: "La cédula jurídica debe tener 10 caracteres sin guiones: 4 dígitos y luego 6 dígitos o letras mayúsculas (por ejemplo 3101123456 o 3101A00001)",
} as const;
