import { data } from "react-router";
import authChecks from "../../enhance/auth-checks.ts?worker&url";
import type { Route } from "./+types/password-reset";
import { AuthCard } from "../../components/auth-card.tsx";
import { AppForm, Field, FormAlert } from "../../components/form.tsx";
import { resetPasswordSchema } from "../../domain/auth-schemas.ts";
import { parseForm } from "../../domain/forms.ts";
import { RESET_DONE, RESET_FAILED, resetPassword } from "../../server/auth.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

// No React here (decision 003): the field checks are a small script of their own (decision 166).
export const handle = { hydrate: false, script: authChecks };

export async function action({ request, params, context }: Route.ActionArgs) {
  const parsed = parseForm(resetPasswordSchema, await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors, values: { email: parsed.values.email ?? "" }, message: null }, { status: 400 });
  const result = await resetPassword(db(), { token: params.token, ...parsed.data, ip: context.get(requestContext).ip, now: new Date() });
  if (!result.ok) {
    return data({ errors: {}, values: { email: parsed.data.email }, message: result.message ?? RESET_FAILED }, { status: result.throttled ? 429 : 400 });
  }
  return redirectWithToast("/login", { type: "success", text: RESET_DONE });
}

export default function PasswordReset({ actionData }: Route.ComponentProps) {
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <AuthCard title="Restablecer contraseña">
      <FormAlert className="mb-4">{actionData?.message}</FormAlert>
      <AppForm id="reset-form" data-checks="reset" className="space-y-4">
        <Field label="Correo" name="email" error={errors.email}>
          <input id="email" name="email" type="email" className="input" required minLength={3} defaultValue={actionData?.values?.email} aria-invalid={!!errors.email || undefined} />
        </Field>
        <Field label="Nueva contraseña" name="password" error={errors.password}>
          <input id="password" name="password" type="password" className="input" required minLength={6} maxLength={30} autoComplete="new-password" aria-invalid={!!errors.password || undefined} />
        </Field>
        <Field label="Confirmar contraseña" name="password_confirmation" error={errors.password_confirmation}>
          <input id="password_confirmation" name="password_confirmation" type="password" className="input" required minLength={6} maxLength={30} autoComplete="new-password" aria-invalid={!!errors.password_confirmation || undefined} />
        </Field>
        <button type="submit" className="btn btn-primary w-full">
          Cambiar contraseña
        </button>
      </AppForm>
    </AuthCard>
  );
}
