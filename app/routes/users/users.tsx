import { Link } from "react-router";
import type { Route } from "./+types/users";
import { usersPage } from "../../../db/queries/users.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { truncate } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { USER_MESSAGES } from "../../domain/user-schemas.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { deleteUser, requireUserAdmin, userFormData, viewerOf } from "../../server/users.server.ts";
import { UserFormCard } from "../../components/user-form.tsx";
import { AppLink } from "../../components/app-link.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const req = await listRequest(request, context, "users");
  const { rows, total } = await usersPage(db(), { viewer: viewerOf(user), ...req });
  // ?new=1 / ?edit=ID open the user form as a dialog over the list (a page without JavaScript too).
  const params = new URL(request.url).searchParams;
  const editId = params.get("edit");
  const dialog = params.get("new") === "1" || editId ? await userFormData(db(), user, editId ? Number(editId) : null) : null;
  return { rows, total, ...req, lastPage: lastPage(total, req.perPage), me: user.id, dialog };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const form = await request.formData();
  if (form.get("confirm") === "cancel") return redirectWithToast("/users", { type: "info", text: "Acción cancelada" });
  if (form.get("intent") !== "delete") return redirectWithToast("/users", { type: "error", text: USER_MESSAGES.problem });
  const result = await deleteUser(db(), user, Number(form.get("user_id")), new Date());
  return redirectWithToast("/users", { type: result.ok ? "success" : "error", text: result.message });
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const { rows, page, perPage, search, me, dialog } = loaderData;
  return (
    <div className="card">
      {dialog && (
        <div className="confirm-panel fixed inset-0 z-50 flex items-center justify-center bg-slate-900/45 p-4" role="dialog" aria-modal="true" aria-label={dialog.id === null ? "Nuevo Usuario" : "Editar Usuario"}>
          <UserFormCard creating={dialog.id === null} values={dialog.values} errors={{}} action={dialog.id === null ? "/add-user" : `/edit-user/${dialog.id}`} />
        </div>
      )}
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Usuarios</h1>
        <div className="flex gap-2">
          <AppLink to="/assign-company" className="btn btn-outline">
            Asignar compañia
          </AppLink>
          <Link to="?new=1" className="btn btn-primary">
            Nuevo Usuario
          </Link>
        </div>
      </div>
      <ListControls search={search} perPage={perPage} />
      <div className="overflow-x-auto">
        <table className="table" data-users>
          <thead>
            <tr>
              <th>#</th>
              <th>Nombre</th>
              <th>Email</th>
              <th>Administrador</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={5} className="text-center text-slate-500">
                  {USER_MESSAGES.empty}
                </td>
              </tr>
            )}
            {rows.map((u, i) => (
              <tr key={u.id} data-user-id={u.id}>
                <td>{(page - 1) * perPage + i + 1}</td>
                <td title={u.name}>
                  {truncate(u.name)} {u.role === "admin" && <span className="chip chip-on">admin</span>}
                </td>
                <td title={u.email}>{truncate(u.email)}</td>
                <td>{u.administrator ?? USER_MESSAGES.noCreator}</td>
                <td>
                  <div className="flex flex-wrap gap-1">
                    <AppLink className="btn btn-outline btn-sm" to={`/users?edit=${u.id}`}>
                      Editar
                    </AppLink>
                    {u.id !== me && (
                      <ConfirmAction label="Eliminar" title={USER_MESSAGES.confirmDeleteTitle} message={USER_MESSAGES.confirmDelete} intent="delete" fields={{ user_id: u.id }} />
                    )}
                    <AppLink className="btn btn-outline btn-sm" to={`/companies-user/${u.id}`}>
                      Ver Compañias
                    </AppLink>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} lastPage={loaderData.lastPage} />
    </div>
  );
}
