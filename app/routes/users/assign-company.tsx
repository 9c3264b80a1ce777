import { data, Form, Link } from "react-router";
import type { Route } from "./+types/assign-company";
import { assignableCompanies } from "../../../db/queries/companies.ts";
import { assignableUsers } from "../../../db/queries/users.ts";
import { AppForm, Field, SubmitButton } from "../../components/form.tsx";
import { parseForm } from "../../domain/forms.ts";
import { assignSchema } from "../../domain/user-schemas.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { assignCompany, requireManageableUser, requireUserAdmin, viewerOf } from "../../server/users.server.ts";

/** Step 1 picks a user (a GET form, works without JavaScript); step 2 a company not yet assigned. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const userId = Number(new URL(request.url).searchParams.get("user_id"));
  const users = await assignableUsers(db(), viewerOf(user));
  const chosen = userId > 0 ? await requireManageableUser(db(), user, userId) : null;
  const companies = chosen ? await assignableCompanies(db(), { viewerId: user.id, isSuperAdmin: user.isSuperAdmin, userId: chosen.id }) : [];
  return { users, chosen: chosen ? { id: chosen.id, name: chosen.name } : null, companies };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const parsed = parseForm(assignSchema, await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors }, { status: 400 });
  const result = await assignCompany(db(), user, parsed.data.user_id, parsed.data.company_id);
  if (!result.ok) return data({ errors: { company_id: result.message } as Record<string, string> }, { status: 400 });
  return redirectWithToast("/all-companies", { type: "success", text: result.message });
}

export default function AssignCompany({ loaderData, actionData }: Route.ComponentProps) {
  const { users, chosen, companies } = loaderData;
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <div className="card mx-auto max-w-lg space-y-4">
      <h1 className="text-lg font-semibold">Asignar compañia a usuario</h1>
      <Form method="get" className="flex items-end gap-2">
        <Field label="Usuario" name="user_id" className="flex-1" error={errors.user_id}>
          <select id="user_id" name="user_id" className="input" defaultValue={chosen?.id ?? ""} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
            <option value="">Selecciona un usuario</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name} ({u.email})
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="btn btn-outline">
          Elegir
        </button>
      </Form>
      {chosen && (
        <AppForm className="space-y-4">
          <input type="hidden" name="user_id" value={chosen.id} />
          <Field label="Compañia" name="company_id" error={errors.company_id}>
            <select id="company_id" name="company_id" className="input" required>
              <option value="">Selecciona una compañia</option>
              {companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.identification})
                </option>
              ))}
            </select>
          </Field>
          {companies.length === 0 && <p className="text-sm text-slate-500">El usuario ya tiene asignadas todas tus compañías.</p>}
          <div className="flex justify-end gap-2">
            <Link to="/all-companies" className="btn btn-outline">
              Cancelar
            </Link>
            <SubmitButton>Asignar</SubmitButton>
          </div>
        </AppForm>
      )}
    </div>
  );
}
