// /recurrings (spec part 2 "Recurring invoices", §4): the company's recurring invoices with search,
// page size and the remembered page; actions edit, delete (confirmed), pause, resume (confirmed, with
// the warning to check the new send dates: a date already past moves to the next period, decision
// 091). Works without JavaScript: the confirm steps are <details> panels with their own form.
import { data, Link } from "react-router";
import type { Route } from "./+types/recurrings";
import { recurringList } from "../../../db/queries/recurring.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { AppForm } from "../../components/form.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { costaRicaDay } from "../../domain/document-status.ts";
import { formatDate, formatMoney, truncate } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { cycleLabel, resumedSendDate, type Cycle } from "../../domain/recurring.ts";
import { RECURRING_MESSAGES } from "../../domain/recurring-texts.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { deleteRecurring, setRecurringPaused } from "../../server/recurring.server.ts";

function requireCompany(context: Route.LoaderArgs["context"]) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data(RECURRING_MESSAGES.notFound, { status: 404 });
  return company;
}

/** A calendar day (YYYY-MM-DD) as DD/MM/YYYY. */
const day = (ymd: string) => formatDate(`${ymd}T12:00:00-06:00`);

export async function loader({ request, context }: Route.LoaderArgs) {
  const company = requireCompany(context);
  const req = await listRequest(request, context, "/recurrings");
  const database = db();
  const query = { companyId: company.id, search: req.search, perPage: req.perPage };
  let { rows, total } = await recurringList(database, { ...query, page: req.page });
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total } = await recurringList(database, { ...query, page: req.page }));
  }
  const today = costaRicaDay(new Date());
  return {
    /** Plan 5 (read-only): no 'Nueva factura recurrente', no actions; the number opens the preview. */
    plan5: company.permission === 5,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    rows: rows.map((r) => {
      const symbol = r.currency === "USD" ? "$" : "₡";
      return {
        id: r.id,
        number: String(r.number ?? r.id),
        clientId: r.clientName && !r.clientDeleted ? r.clientId : null,
        clientName: r.clientName ?? "",
        subtotal: formatMoney(r.subtotal, symbol),
        discount: formatMoney(r.discount, symbol),
        tax: formatMoney(r.tax, symbol),
        total: formatMoney(r.total, symbol),
        created: formatDate(r.createdAt),
        start: day(r.startDay),
        cycle: cycleLabel(r.cycle, r.every),
        last: r.lastSentDate ? day(r.lastSentDate) : "N/E",
        next: day(r.nextSendDate),
        paused: r.paused,
        /** The next send date if resumed today (shown in the resume warning). */
        resumeNext: r.paused ? day(resumedSendDate({ nextSendDate: r.nextSendDate, cycle: r.cycle as Cycle, every: r.every, startDay: r.startDay }, today)) : null,
        lastError: r.lastError,
      };
    }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Plan 5 posts are refused by the root middleware (app/domain/access.ts, docs/decisions/124).
  const company = requireCompany(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = /^\d{1,10}$/.test(String(form.get("id") ?? "")) ? Number(form.get("id")) : NaN;
  if (!(id > 0) || !["pause", "resume", "delete"].includes(intent)) throw data(RECURRING_MESSAGES.notFound, { status: 404 });
  if (form.get("confirm") === "cancel") return redirectWithToast("/recurrings", { type: "info", text: RECURRING_MESSAGES.cancelled });
  const now = new Date();
  if (intent === "delete") {
    if (!(await deleteRecurring(db(), company.id, id, now))) throw data(RECURRING_MESSAGES.notFound, { status: 404 });
    return redirectWithToast("/recurrings", { type: "success", text: RECURRING_MESSAGES.deleted });
  }
  const paused = await setRecurringPaused(db(), company.id, id, intent === "pause", now);
  if (paused === null) throw data(RECURRING_MESSAGES.notFound, { status: 404 });
  return redirectWithToast("/recurrings", { type: "success", text: paused ? RECURRING_MESSAGES.paused : RECURRING_MESSAGES.resumed });
}

export function meta() {
  return [{ title: "Facturas recurrentes" }];
}

function PauseIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" role="img" aria-label="Pausada" data-paused-icon className="inline-block text-amber-600">
      <title>Pausada</title>
      <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
      <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
    </svg>
  );
}

export default function Recurrings({ loaderData }: Route.ComponentProps) {
  const { rows, page, perPage, search, plan5 } = loaderData;
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Facturas recurrentes</h1>
        {!plan5 && (
          <Link to="/recurring-new" className="btn btn-primary" data-new-document>
            Nueva factura recurrente
          </Link>
        )}
      </div>
      <ListControls search={search} perPage={perPage} />
      <div className="overflow-x-auto">
        <table className="table" data-documents="recurrings">
          <thead>
            <tr>
              <th>Número</th>
              <th>Cliente</th>
              <th>Subtotal</th>
              <th>Descuento</th>
              <th>IVA</th>
              <th>Total</th>
              <th>Creada</th>
              <th>Fecha inicio</th>
              <th>Ultimo envio</th>
              <th>Proximo envio</th>
              {!plan5 && <th>Acciones</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={plan5 ? 10 : 11} className="text-center text-slate-500" data-empty>
                  {RECURRING_MESSAGES.empty}
                </td>
              </tr>
            )}
            {rows.map((r) => (
              <tr key={r.id} data-recurring-id={r.id} data-paused={r.paused || undefined}>
                <td>
                  <span className="flex items-center gap-1">
                    {r.paused && <PauseIcon />}
                    <Link to={plan5 ? `/detail/recurring/${r.id}` : `/edit-recurring/recurring/${r.id}`}>{r.number}</Link>
                  </span>
                </td>
                <td title={r.clientName}>{r.clientId ? <Link to={`/client-detail/${r.clientId}`}>{truncate(r.clientName)}</Link> : truncate(r.clientName)}</td>
                <td className="text-right">{r.subtotal}</td>
                <td className="text-right">{r.discount}</td>
                <td className="text-right">{r.tax}</td>
                <td className="text-right">{r.total}</td>
                <td>{r.created}</td>
                <td>{r.start}</td>
                <td data-last-sent>{r.last}</td>
                <td data-next-send title={r.cycle}>
                  {r.next}
                  {r.lastError && (
                    <span className="block text-xs text-red-700" role="note">
                      {r.lastError}
                    </span>
                  )}
                </td>
                {!plan5 && (
                  <td>
                    <div className="flex flex-wrap gap-1">
                      <Link className="btn btn-outline btn-sm" to={`/edit-recurring/recurring/${r.id}`}>
                        Editar
                      </Link>
                      {r.paused ? (
                        <ConfirmAction
                          label="Reanudar"
                          title="Reanudar factura recurrente"
                          message={`${RECURRING_MESSAGES.resumeWarning} Proximo envio: ${r.resumeNext}.`}
                          intent="resume"
                          fields={{ id: r.id }}
                          confirmLabel="Reanudar"
                        />
                      ) : (
                        <AppForm className="inline">
                          <input type="hidden" name="id" value={r.id} />
                          <button type="submit" name="intent" value="pause" className="btn btn-outline btn-sm">
                            Pausar
                          </button>
                        </AppForm>
                      )}
                      <ConfirmAction label="Eliminar" title="Eliminar factura recurrente" message={RECURRING_MESSAGES.deleteConfirm} intent="delete" fields={{ id: r.id }} confirmLabel="Eliminar" />
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} lastPage={loaderData.lastPage} />
    </div>
  );
}
