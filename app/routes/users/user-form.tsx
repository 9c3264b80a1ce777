import { data, Link } from "react-router";
import type { Route } from "./+types/user-form";
import { AppForm, Field, SubmitButton } from "../../components/form.tsx";
import { parseForm } from "../../domain/forms.ts";
import { USER_MESSAGES, userSchema } from "../../domain/user-schemas.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { createUser, requireManageableUser, requireUserAdmin, updateUser } from "../../server/users.server.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  if (!params.user_id) return { id: null, values: {} as Record<string, string> };
  const row = await requireManageableUser(db(), user, Number(params.user_id));
  return { id: row.id, values: { name: row.name, email: row.email, admin: row.role === "admin" ? "on" : "" } as Record<string, string> };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const id = params.user_id ? Number(params.user_id) : null;
  if (id !== null) await requireManageableUser(db(), user, id);
  const parsed = parseForm(userSchema({ creating: id === null }), await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors, values: { ...parsed.values, password: "" } }, { status: 400 });
  const result = id === null ? await createUser(db(), user, parsed.data) : await updateUser(db(), user, id, parsed.data);
  if (!result.ok) return data({ errors: result.errors, values: { name: parsed.data.name, email: parsed.data.email, admin: parsed.data.admin ? "on" : "" } }, { status: 400 });
  return redirectWithToast("/users", { type: "success", text: id === null ? USER_MESSAGES.saved : USER_MESSAGES.updated });
}

export default function UserForm({ loaderData, actionData }: Route.ComponentProps) {
  const creating = loaderData.id === null;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const values: Record<string, string> = actionData?.values ?? loaderData.values;
  return (
    <div className="card mx-auto max-w-lg">
      <h1 className="text-lg font-semibold">{creating ? "Nuevo Usuario" : "Editar Usuario"}</h1>
      <AppForm key={JSON.stringify(values)} className="mt-4 space-y-4" noValidate>
        <Field label="Nombre" name="name" error={errors.name}>
          <input id="name" name="name" className="input" required maxLength={120} defaultValue={values.name ?? ""} aria-invalid={!!errors.name || undefined} />
        </Field>
        <Field label="Email" name="email" error={errors.email}>
          <input id="email" name="email" type="email" className="input" required minLength={4} defaultValue={values.email ?? ""} aria-invalid={!!errors.email || undefined} />
        </Field>
        <Field label={creating ? "Contraseña" : "Contraseña (dejar en blanco para conservarla)"} name="password" error={errors.password}>
          <input id="password" name="password" type="password" className="input" required={creating} minLength={6} maxLength={30} autoComplete="new-password" aria-invalid={!!errors.password || undefined} />
        </Field>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="admin" defaultChecked={values.admin === "on"} />
          <span>Administrador</span>
        </label>
        <div className="flex justify-end gap-2">
          <Link to="/users" className="btn btn-outline">
            Cancelar
          </Link>
          <SubmitButton>Guardar</SubmitButton>
        </div>
      </AppForm>
    </div>
  );
}
