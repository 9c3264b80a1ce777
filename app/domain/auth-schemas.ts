// Validation of the sign-in and password forms (spec part 1 §5), with Spanish messages.
import { z } from "zod";

const email = (min: number) =>
  z
    .string({ error: "El correo es obligatorio" })
    .trim()
    .min(1, "El correo es obligatorio")
    .min(min, `El correo debe tener al menos ${min} caracteres`)
    .pipe(z.email("Ingresa un correo válido"));

const password = (field = "La contraseña") =>
  z
    .string({ error: `${field} es obligatoria` })
    .min(1, `${field} es obligatoria`)
    .min(6, `${field} debe tener entre 6 y 30 caracteres`)
    .max(30, `${field} debe tener entre 6 y 30 caracteres`);

export const loginSchema = z.object({ email: email(4), password: password() });

export const forgotPasswordSchema = z.object({ email: email(4) });

export const resetPasswordSchema = z
  .object({ email: email(3), password: password(), password_confirmation: password("La confirmación") })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "La confirmación no coincide con la contraseña",
  });
