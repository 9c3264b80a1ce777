// Validation of the sign-in and password forms (spec part 1 §5), with Spanish messages. Written with
// zod/mini so the browser checks of these pages (app/enhance/auth-checks.ts, no React) stay small:
// the same schema objects run on the server (parseForm → @conform-to/zod/v4) and in the browser
// (docs/decisions/166).
import * as z from "zod/mini";

const email = (min: number) =>
  z.pipe(
    z.string({ error: "El correo es obligatorio" }).check(z.trim(), z.minLength(1, "El correo es obligatorio"), z.minLength(min, `El correo debe tener al menos ${min} caracteres`)),
    z.email("Ingresa un correo válido"),
  );

const password = (field = "La contraseña") =>
  z.string({ error: `${field} es obligatoria` }).check(z.minLength(1, `${field} es obligatoria`), z.minLength(6, `${field} debe tener entre 6 y 30 caracteres`), z.maxLength(30, `${field} debe tener entre 6 y 30 caracteres`));

export const loginSchema = z.object({ email: email(4), password: password() });

export const forgotPasswordSchema = z.object({ email: email(4) });

export const resetPasswordSchema = z.object({ email: email(3), password: password(), password_confirmation: password("La confirmación") }).check(
  z.refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "La confirmación no coincide con la contraseña",
  }),
);

/** The fields that must be filled before the submit button is enabled (spec part 1 §2.3, §5). */
export const AUTH_REQUIRED_FIELDS = { login: ["email", "password"], forgot: ["email"], reset: ["email", "password"] } as const;
export type AuthForm = keyof typeof AUTH_REQUIRED_FIELDS;
