// Validation of the user forms, company assignment and advertisement (spec part 1 §5 User, Assign,
// Advertisement), with Spanish messages.
import { z } from "zod";
import { USER_MESSAGES } from "./user-texts.ts";

export { USER_MESSAGES };

const password = z
  .string({ error: "La contraseña es obligatoria" })
  .min(6, "La contraseña debe tener entre 6 y 30 caracteres")
  .max(30, "La contraseña debe tener entre 6 y 30 caracteres");

export function userSchema(opts: { creating: boolean }) {
  return z.object({
    name: z.string({ error: "El nombre es obligatorio" }).trim().min(1, "El nombre es obligatorio").max(120, "El nombre admite máximo 120 caracteres"),
    email: z
      .string({ error: "El correo es obligatorio" })
      .trim()
      .min(1, "El correo es obligatorio")
      .min(4, "El correo debe tener al menos 4 caracteres")
      .max(160, "El correo admite máximo 160 caracteres")
      .pipe(z.email("Ingresa un correo válido")),
    password: opts.creating
      ? z.string({ error: "La contraseña es obligatoria" }).min(1, "La contraseña es obligatoria").pipe(password)
      : z
          .string()
          .optional()
          .transform((v) => (v ? v : undefined))
          .pipe(password.optional()),
    admin: z
      .string()
      .optional()
      .transform((v) => v === "on" || v === "1" || v === "true"),
  });
}

export type UserInput = z.output<ReturnType<typeof userSchema>>;

const id = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine((v) => /^\d+$/.test(v) && Number(v) > 0, message)
    .transform(Number);

export const assignSchema = z.object({
  user_id: id("Selecciona un usuario"),
  company_id: id("Selecciona una compañia"),
});

// ---- Advertisement -----------------------------------------------------------------------------

export const ADVERTISEMENT_MESSAGES = {
  saved: "Anuncio actualizado correctamente",
} as const;

export const advertisementSchema = z.object({
  active: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "1" || v === "true"),
  title: z.string({ error: "El título es obligatorio" }).trim().min(1, "El título es obligatorio").max(150, "El título admite máximo 150 caracteres"),
  content: z
    .string({ error: "El contenido es obligatorio" })
    .trim()
    .min(1, "El contenido es obligatorio")
    .max(20000, "El contenido admite máximo 20000 caracteres"),
});
