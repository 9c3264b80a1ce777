import { data, Link } from "react-router";
import authChecks from "../../enhance/auth-checks.ts?worker&url";
import type { Route } from "./+types/password-email";
import { AuthCard } from "../../components/auth-card.tsx";
import { AppForm, Field, FormAlert } from "../../components/form.tsx";
import { forgotPasswordSchema } from "../../domain/auth-schemas.ts";
import { parseForm } from "../../domain/forms.ts";
import { requestPasswordReset, RESET_SENT } from "../../server/auth.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

// No React here (decision 003): the field checks are a small script of their own (decision 166).
export const handle = { hydrate: false, script: authChecks };

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(forgotPasswordSchema, await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors, values: parsed.values, message: null }, { status: 400 });
  // The same answer whether or not the account exists or the mail can be sent (only the throttle differs).
  const result = await requestPasswordReset(db(), { email: parsed.data.email, ip: context.get(requestContext).ip, now: new Date() });
  if (!result.ok) return data({ errors: {}, values: { email: parsed.data.email }, message: result.message }, { status: 429 });
  return redirectWithToast("/login", { type: "success", text: RESET_SENT });
}

export default function PasswordEmail({ actionData }: Route.ComponentProps) {
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <AuthCard title="Recuperar contraseña">
      <FormAlert className="mb-4">{actionData?.message}</FormAlert>
      <AppForm id="forgot-form" data-checks="forgot" className="space-y-4">
        <Field label="Correo" name="email" error={errors.email}>
          <input id="email" name="email" type="email" className="input" required minLength={4} defaultValue={actionData?.values?.email} aria-invalid={!!errors.email || undefined} />
        </Field>
        <button type="submit" className="btn btn-primary w-full">
          Enviar enlace
        </button>
      </AppForm>
      <p className="mt-4 text-center text-sm">
        <Link to="/login">Volver a iniciar sesión</Link>
      </p>
    </AuthCard>
  );
}
