// /expenses (spec part 2 "Expenses"; docs/decisions/150-expenses.md): the paged, searchable list of
// the company's expenses (#, description, amount, date, reference or 'S/R', the receipt, delete with
// a confirmation) and 'Nuevo gasto'. Its dialogs are child routes with their own URLs, rendered over
// the list (without JavaScript the same HTML is a page): /expenses/new (and its new-category dialog),
// /expenses/categories and /expenses/payment-methods. Plan 5 (read-only) sees the list only.
import { data, isRouteErrorResponse, Outlet, useRouteError } from "react-router";
import type { Route } from "./+types/expenses";
import { expensesPage } from "../../../db/queries/expenses.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { EXPENSE_MESSAGES } from "../../domain/expense-texts.ts";
import { formatMoney } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { formatDay } from "../../domain/payment-texts.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { deleteExpense } from "../../server/expenses.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { symbolOf } from "../../server/payments.server.ts";
import { AppLink } from "../../components/app-link.tsx";

/** Where the delete goes back to: this list, with its page and search. */
function listReturn(raw: unknown): string {
  const s = typeof raw === "string" ? raw : "";
  const [p, query = ""] = s.split("?", 2);
  if (p !== "/expenses") return "/expenses";
  const params = new URLSearchParams(query);
  const kept = new URLSearchParams();
  const page = params.get("page");
  if (page && /^\d{1,6}$/.test(page)) kept.set("page", page);
  const search = params.get("search");
  if (search && search.length <= 100) kept.set("search", search);
  const q = kept.toString();
  return q ? `/expenses?${q}` : "/expenses";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  if (!company) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  const req = await listRequest(request, context, "/expenses");
  const database = db();
  const query = { companyId: company.id, search: req.search, perPage: req.perPage };
  let { rows, total, totalCapped } = await expensesPage(database, { ...query, page: req.page });
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total, totalCapped } = await expensesPage(database, { ...query, page: req.page }));
  }
  return {
    plan5: company.permission === 5,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    totalCapped,
    rows: rows.map((r) => ({
      id: r.id,
      description: r.description,
      category: r.category,
      amount: formatMoney(r.amount, symbolOf(r.currencyId)),
      date: formatDay(r.spentOn),
      reference: r.reference || EXPENSE_MESSAGES.noReference,
      attachment: r.hasAttachment ? `/expense-file/${r.id}` : null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (company.permission === 5) throw data(EXPENSE_MESSAGES.readOnly, { status: 403 });
  const form = await request.formData();
  const back = listReturn(form.get("back"));
  if (form.get("intent") !== "delete") return redirectWithToast(back, { type: "error", text: EXPENSE_MESSAGES.problem });
  if (form.get("confirm") === "cancel") return redirectWithToast(back, { type: "info", text: EXPENSE_MESSAGES.cancelled });
  const raw = String(form.get("expense_id") ?? "");
  const done = /^\d{1,9}$/.test(raw) && (await deleteExpense(db(), { companyId: company.id, userId: user.id, id: Number(raw), now: new Date() }));
  if (!done) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  return redirectWithToast(back, { type: "success", text: EXPENSE_MESSAGES.deleted });
}

export function meta() {
  return [{ title: "Gastos" }];
}

export default function Expenses({ loaderData: d }: Route.ComponentProps) {
  const query = new URLSearchParams({ ...(d.page > 1 ? { page: String(d.page) } : {}), ...(d.search ? { search: d.search } : {}) }).toString();
  const here = `/expenses${query ? `?${query}` : ""}`;
  const columns = d.plan5 ? 5 : 6;
  return (
    <div className="space-y-4">
      <div className="card">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-lg font-semibold">Gastos</h1>
          {!d.plan5 && (
            <div className="flex flex-wrap gap-2">
              <AppLink className="btn btn-outline" to="/expenses/categories">
                Categorías
              </AppLink>
              <AppLink className="btn btn-outline" to="/expenses/payment-methods">
                Métodos de pago
              </AppLink>
              <AppLink className="btn btn-primary" to="/expenses/new" data-new-expense>
                Nuevo gasto
              </AppLink>
            </div>
          )}
        </div>
        <ListControls search={d.search} perPage={d.perPage} />
        <div className="overflow-x-auto">
          <table className="table" data-expenses>
            <thead>
              <tr>
                <th>#</th>
                <th>Descripción</th>
                <th className="text-right">Monto</th>
                <th>Fecha</th>
                <th>Referencia</th>
                {!d.plan5 && <th>Acciones</th>}
              </tr>
            </thead>
            <tbody>
              {d.rows.length === 0 && (
                <tr>
                  <td colSpan={columns} className="text-center text-slate-500" data-empty>
                    {EXPENSE_MESSAGES.empty}
                  </td>
                </tr>
              )}
              {d.rows.map((r) => (
                <tr key={r.id} data-expense-id={r.id}>
                  <td>{r.id}</td>
                  <td>
                    <div>{r.description}</div>
                    <div className="text-xs text-slate-500">
                      {r.category}
                      {r.attachment && (
                        <>
                          {" · "}
                          <a href={r.attachment} target="_blank" rel="noopener" data-attachment-link>
                            Ver adjunto
                          </a>
                        </>
                      )}
                    </div>
                  </td>
                  <td className="text-right">{r.amount}</td>
                  <td>{r.date}</td>
                  <td>{r.reference}</td>
                  {!d.plan5 && (
                    <td>
                      <ConfirmAction
                        label="Eliminar"
                        title="Eliminar gasto"
                        message={EXPENSE_MESSAGES.confirmDelete}
                        intent="delete"
                        action="/expenses"
                        fields={{ expense_id: r.id, back: here }}
                        confirmLabel="Sí, eliminar"
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination page={d.page} lastPage={d.lastPage} more={d.totalCapped} />
      </div>
      <Outlet />
    </div>
  );
}

/** Not this company's expense (404), or a read-only plan (403): the plain message inside the layout. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : EXPENSE_MESSAGES.problem;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
