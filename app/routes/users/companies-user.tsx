import { Link } from "react-router";
import type { Route } from "./+types/companies-user";
import { companiesOfUserPage } from "../../../db/queries/companies.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { truncate } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { USER_MESSAGES } from "../../domain/user-schemas.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { requireManageableUser, requireUserAdmin, unlinkCompany } from "../../server/users.server.ts";

/** Companies of a user (only those the viewing admin may see); pagination only above 10 entries. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = requireUserAdmin(context.get(requestContext).user);
  const target = await requireManageableUser(db(), viewer, Number(params.user_id));
  const req = await listRequest(request, context, "companies-user");
  const perPage = 10;
  const { rows, total } = await companiesOfUserPage(db(), { userId: target.id, viewerId: viewer.id, isSuperAdmin: viewer.isSuperAdmin, page: req.page, perPage, now: new Date() });
  return { user: { id: target.id, name: target.name }, rows, total, page: req.page, perPage, lastPage: total > 10 ? lastPage(total, perPage) : 1 };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = requireUserAdmin(context.get(requestContext).user);
  const userId = Number(params.user_id);
  const back = `/companies-user/${params.user_id}`;
  const form = await request.formData();
  if (form.get("confirm") === "cancel") return redirectWithToast(back, { type: "info", text: "Acción cancelada" });
  const result = await unlinkCompany(db(), viewer, userId, Number(form.get("company_id")));
  return redirectWithToast(back, { type: result.ok ? "success" : "error", text: result.message });
}

export default function CompaniesUser({ loaderData }: Route.ComponentProps) {
  const { user, rows, page, perPage } = loaderData;
  return (
    <div className="card">
      <div className="mb-4 flex items-center justify-between">
        <h1 className="text-lg font-semibold">Compañías de {user.name}</h1>
        <Link to="/users" className="btn btn-outline">
          Volver
        </Link>
      </div>
      <div className="overflow-x-auto">
        <table className="table" data-user-companies>
          <thead>
            <tr>
              <th>#</th>
              <th>Nombre</th>
              <th>Email</th>
              <th>Identificación</th>
              <th>Teléfono</th>
              <th>Documentos del año</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={7} className="text-center text-slate-500">
                  No hay Compañias
                </td>
              </tr>
            )}
            {rows.map((c, i) => (
              <tr key={c.id} data-company-id={c.id}>
                <td>{(page - 1) * perPage + i + 1}</td>
                <td title={c.name}>{truncate(c.name)}</td>
                <td title={c.email}>{truncate(c.email)}</td>
                <td>{c.identification}</td>
                <td>{c.phone}</td>
                <td>{c.documentsThisYear}</td>
                <td>
                  <ConfirmAction label="Desvincular" title={USER_MESSAGES.confirmUnlinkTitle} message={USER_MESSAGES.confirmUnlink} intent="unlink" fields={{ company_id: c.id }} />
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
