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
import { deleteUser, requireUserAdmin } from "../../server/users.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUserAdmin(context.get(requestContext).user);
  const req = await listRequest(request, context, "users");
  const { rows, total } = await usersPage(db(), { viewer: user, ...req });
  return { rows, total, ...req, lastPage: lastPage(total, req.perPage), me: user.id };
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
  const { rows, page, perPage, search, me } = loaderData;
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Usuarios</h1>
        <div className="flex gap-2">
          <Link to="/assign-company" className="btn btn-outline">
            Asignar compañia
          </Link>
          <Link to="/add-user" className="btn btn-primary">
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
                    <Link className="btn btn-outline btn-sm" to={`/edit-user/${u.id}`}>
                      Editar
                    </Link>
                    {u.id !== me && (
                      <ConfirmAction label="Eliminar" title={USER_MESSAGES.confirmDeleteTitle} message={USER_MESSAGES.confirmDelete} intent="delete" fields={{ user_id: u.id }} />
                    )}
                    <Link className="btn btn-outline btn-sm" to={`/companies-user/${u.id}`}>
                      Ver Compañias
                    </Link>
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
