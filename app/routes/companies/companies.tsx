import { redirect } from "react-router";
import type { Route } from "./+types/companies";
import { companiesPage } from "../../../db/queries/companies.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { AppForm } from "../../components/form.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { COMPANY_MESSAGES } from "../../domain/company-texts.ts";
import { truncate } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { deleteCompany, toggleCompany } from "../../server/companies.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { AppLink } from "../../components/app-link.tsx";

const section = (request: Request) => (new URL(request.url).pathname.startsWith("/all-companies") ? "/all-companies" : "/companies");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, company } = context.get(requestContext);
  const path = section(request);
  if (path === "/all-companies" && !user!.isAdmin) throw redirect("/companies");
  const req = await listRequest(request, context, new URL(request.url).pathname);
  const { rows, total } = await companiesPage(db(), { userId: user!.id, all: path === "/all-companies" && user!.isSuperAdmin, ...req, now: new Date() });
  return {
    path,
    rows,
    total,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    selectedId: company!.id,
    isAdmin: user!.isAdmin,
    isSuperAdmin: user!.isSuperAdmin,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, company } = context.get(requestContext);
  const path = section(request);
  const form = await request.formData();
  if (form.get("confirm") === "cancel") return redirectWithToast(path, { type: "info", text: COMPANY_MESSAGES.cancelled });
  const companyId = Number(form.get("company_id"));
  const intent = form.get("intent");
  if (intent === "toggle") {
    const result = await toggleCompany(db(), user!, companyId);
    return redirectWithToast(path, { type: "success", text: result.message });
  }
  if (intent === "delete") {
    const result = await deleteCompany(db(), user!, companyId, { sessionCompanyId: company?.id, now: new Date() });
    return redirectWithToast(path, result.ok ? { type: "success", text: COMPANY_MESSAGES.deleted } : { type: "error", text: result.message });
  }
  return redirectWithToast(path, { type: "error", text: COMPANY_MESSAGES.problem });
}

export default function Companies({ loaderData }: Route.ComponentProps) {
  const { rows, path, page, perPage, search, selectedId, isAdmin, isSuperAdmin } = loaderData;
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">{path === "/all-companies" ? "Todas las compañías" : "Compañías"}</h1>
        {isAdmin && (
          <div className="flex gap-2">
            <AppLink to="/assign-company" className="btn btn-outline">
              Asignar compañia a usuario
            </AppLink>
            <AppLink to="/new-company" className="btn btn-primary">
              Nueva Compañia
            </AppLink>
          </div>
        )}
      </div>
      <ListControls search={search} perPage={perPage} />
      <div className="overflow-x-auto">
        <table className="table" data-companies>
          <thead>
            <tr>
              <th>#</th>
              <th>Nombre</th>
              <th>Email</th>
              <th>Identificación</th>
              <th>Teléfono</th>
              <th>Status</th>
              {isSuperAdmin && <th>Administrador</th>}
              <th>Documentos del año</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={isSuperAdmin ? 9 : 8} className="text-center text-slate-500">
                  {COMPANY_MESSAGES.empty}
                </td>
              </tr>
            )}
            {rows.map((c, i) => (
              <tr key={c.id} className={c.id === selectedId ? "bg-primary/10" : undefined} aria-current={c.id === selectedId ? "true" : undefined} data-company-id={c.id}>
                <td>{(page - 1) * perPage + i + 1}</td>
                <td title={c.name}>{truncate(c.name)}</td>
                <td title={c.email}>{truncate(c.email)}</td>
                <td>{c.identification}</td>
                <td>{c.phone}</td>
                <td>
                  <span className={`chip ${c.active ? "chip-on" : "chip-off"}`}>{c.active ? "Activa" : "Inactiva"}</span>
                </td>
                {isSuperAdmin && <td>{c.administrator ?? "S/C"}</td>}
                <td>{c.documentsThisYear}</td>
                <td>
                  <div className="flex flex-wrap gap-1">
                    <AppForm action="/select-company" className="inline">
                      <input type="hidden" name="company_id" value={c.id} />
                      <button type="submit" className="btn btn-outline btn-sm" disabled={c.id === selectedId}>
                        Seleccionar
                      </button>
                    </AppForm>
                    {isAdmin && (
                      <AppLink className="btn btn-outline btn-sm" to={`/config-hacienda/${c.id}`}>
                        Config Hacienda
                      </AppLink>
                    )}
                    <AppLink className="btn btn-outline btn-sm" to={`/main-configurations/${c.id}`}>
                      Configuraciones
                    </AppLink>
                    {isAdmin && (
                      <>
                        <AppLink className="btn btn-outline btn-sm" to={`/edit-company/${c.id}`}>
                          Editar
                        </AppLink>
                        <ConfirmAction label="Eliminar" title="Eliminar Compañia" message={COMPANY_MESSAGES.confirmDelete} intent="delete" fields={{ company_id: c.id }} />
                        <ConfirmAction
                          label={c.active ? "Desactivar" : "Activar"}
                          title="Activar/Desactivar Compañia"
                          message={COMPANY_MESSAGES.confirmToggle}
                          intent="toggle"
                          fields={{ company_id: c.id }}
                        />
                      </>
                    )}
                    {/* A file, not a page: a plain link to the resource route (no client-side navigation). */}
                    <a className="btn btn-outline btn-sm" href={`/download-all-files/${c.id}${path === "/all-companies" ? "?from=all-companies" : ""}`}>
                      Descargar XML y PDF
                    </a>
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
