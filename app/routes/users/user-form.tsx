import { data } from "react-router";
import type { Route } from "./+types/user-form";
import { UserFormCard } from "../../components/user-form.tsx";
import { parseForm } from "../../domain/forms.ts";
import { USER_MESSAGES, userSchema } from "../../domain/user-schemas.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { createUser, requireManageableUser, requireUserAdmin, updateUser, userFormData } from "../../server/users.server.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  return userFormData(db(), user, params.user_id ? Number(params.user_id) : null);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const id = params.user_id ? Number(params.user_id) : null;
  if (id !== null) await requireManageableUser(db(), user, id);
  const parsed = parseForm(userSchema({ creating: id === null }), await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors, values: { ...parsed.values, password: "" } }, { status: 400 });
  const result = id === null ? await createUser(db(), user, parsed.data) : await updateUser(db(), user, id, parsed.data, { keepSessionId: context.get(requestContext).sessionId });
  if (!result.ok) return data({ errors: result.errors, values: { name: parsed.data.name, email: parsed.data.email, admin: parsed.data.admin ? "on" : "" } }, { status: 400 });
  return redirectWithToast("/users", { type: "success", text: id === null ? USER_MESSAGES.saved : USER_MESSAGES.updated });
}

export default function UserForm({ loaderData, actionData }: Route.ComponentProps) {
  return <UserFormCard creating={loaderData.id === null} values={actionData?.values ?? loaderData.values} errors={actionData?.errors ?? {}} />;
}
