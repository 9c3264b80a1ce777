import { data, Link, redirect } from "react-router";
import authChecks from "../../enhance/auth-checks.ts?worker&url";
import type { Route } from "./+types/login";
import { AuthCard } from "../../components/auth-card.tsx";
import { AppForm, Field, FormAlert } from "../../components/form.tsx";
import { loginSchema } from "../../domain/auth-schemas.ts";
import { parseForm } from "../../domain/forms.ts";
import { signIn } from "../../server/auth.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { toastCookie } from "../../server/flash.server.ts";

// No React here (decision 003): the field checks are a small script of their own (decision 166).
export const handle = { hydrate: false, script: authChecks };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = parseForm(loginSchema, form);
  if (!parsed.ok) return data({ errors: parsed.errors, values: parsed.values, message: null }, { status: 400 });
  const { ip } = context.get(requestContext);
  const result = await signIn(db(), { ...parsed.data, ip, userAgent: request.headers.get("user-agent"), now: new Date() });
  if (!result.ok) {
    return data({ errors: {}, values: { email: parsed.data.email }, message: result.message }, { status: result.throttled ? 429 : 401 });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", result.cookie);
  headers.append("Set-Cookie", toastCookie([{ type: "success", text: `La compañia ${result.companyName} esta activa` }]));
  return redirect("/dashboard", { headers });
}

export default function Login({ actionData }: Route.ComponentProps) {
  const errors: Record<string, string> = actionData?.errors ?? {};
  const values: Record<string, string> = actionData?.values ?? {};
  return (
    <AuthCard title="Iniciar sesión">
      <FormAlert className="mb-4">{actionData?.message}</FormAlert>
      <AppForm id="login-form" data-checks="login" className="login-form space-y-4" noValidate={false}>
        <Field label="Correo" name="email" error={errors.email}>
          <input id="email" name="email" type="email" className="input" required minLength={4} autoComplete="username" defaultValue={values.email} aria-invalid={!!errors.email || undefined} />
        </Field>
        <Field label="Contraseña" name="password" error={errors.password}>
          <input id="password" name="password" type="password" className="input" required minLength={6} maxLength={30} autoComplete="current-password" aria-invalid={!!errors.password || undefined} />
        </Field>
        <button type="submit" className="btn btn-primary w-full">
          Entrar
        </button>
      </AppForm>
      <p className="mt-4 text-center text-sm">
        <Link to="/password/email">¿Olvidaste tu contraseña?</Link>
      </p>
    </AuthCard>
  );
}
