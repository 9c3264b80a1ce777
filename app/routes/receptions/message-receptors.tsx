// /message-receptors (spec part 2 §2 "Received documents (reception)", §4, §9; issue 12 items 1, 4, 9):
// the company's received documents of a date range (default the current month), page size (default
// 100), search and the filters aceptado / rechazado / pendiente. Columns: checkbox (pending rows),
// number (ten characters of the clave from position 31), issuer and emission date, amount with
// currency and exchange rate, type, acceptance (with the days left to reject on pending rows),
// Hacienda status ('Pendiente' for pending rows) and the actions. Ticking rows and 'Procesar
// múltiples' is one GET form to the process dialog (works without JavaScript). The dialogs ('Subir
// Nuevo XML', process) are child routes rendered over the list. Plan 5 sees the list only.
import { Form, Outlet, useLocation } from "react-router";
import type { Route } from "./+types/message-receptors";
import { pendingDeadlines, receptionList } from "../../../db/queries/receptions.ts";
import { Pagination } from "../../components/pagination.tsx";
import { costaRicaDay } from "../../domain/document-status.ts";
import { formatDate, formatMoney, truncate } from "../../domain/format.ts";
import { lastPage, PAGE_SIZES } from "../../domain/pagination.ts";
import { addDays } from "../../domain/document-status.ts";
import { DEADLINE_WARNING_DAYS, deadlineBanner, deadlineText } from "../../domain/reception-deadline.ts";
import { ACCEPTANCE_LABEL, currencySymbol, RECEIVED_KIND_LABEL, RECEPTION_FILTERS, RECEPTION_MESSAGES, receptionNumber, receptionRange, receptionStatusLabel, type ReceptionFilter } from "../../domain/receptions.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { AppLink } from "../../components/app-link.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const url = new URL(request.url);
  const rawFilter = url.searchParams.get("filter") ?? "";
  const filter = RECEPTION_FILTERS.some((f) => f.value === rawFilter) ? (rawFilter as ReceptionFilter) : null;
  const req = await listRequest(request, context, `/message-receptors${filter ? `?${filter}` : ""}`, 100);
  const today = costaRicaDay(new Date());
  const range = receptionRange({ from: url.searchParams.get("from"), to: url.searchParams.get("to") }, today);
  const database = db();
  const query = { companyId: company!.id, ...range, filter, search: req.search, perPage: req.perPage };
  const [first, deadlines] = await Promise.all([
    receptionList(database, { ...query, page: req.page }),
    pendingDeadlines(database, { companyId: company!.id, today, urgentUntil: addDays(today, DEADLINE_WARNING_DAYS) }),
  ]);
  let { rows, total, totalCapped } = first;
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total, totalCapped } = await receptionList(database, { ...query, page: req.page }));
  }
  const plan5 = company!.permission === 5;
  return {
    plan5,
    filter,
    range,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    totalCapped,
    /** The list's query, carried by the process form so its dialog returns here. */
    back: Object.fromEntries([...url.searchParams].filter(([k]) => ["from", "to", "search", "filter", "perPage", "page"].includes(k))),
    banner: deadlineBanner(deadlines, today),
    rows: rows.map((r) => {
      const pending = r.message === 4;
      const deadline = pending ? deadlineText(r.rejectDeadline, today) : null;
      return {
        id: r.id,
        number: receptionNumber(r.clave),
        clave: r.clave,
        issuer: r.issuerName,
        date: formatDate(r.issuedAt),
        amount: formatMoney(r.total, currencySymbol(r.currency)),
        currency: r.currency,
        rate: r.currency === "CRC" ? null : formatMoney(r.exchangeRate, "₡"),
        type: RECEIVED_KIND_LABEL[r.kind] ?? r.kind,
        pending,
        acceptance: ACCEPTANCE_LABEL[r.message] ?? String(r.message),
        deadline,
        hacienda: receptionStatusLabel(r.message, r.status),
        status: r.status,
        /** Hacienda's answer to our message, or why it is waiting. */
        detail: pending ? null : r.status === "rechazado" ? r.haciendaDetail : r.status === "aceptado" ? null : r.lastError,
        messageDetail: r.messageDetail,
        files: {
          xml: !pending,
          mensaje: !pending && r.hasSent,
          respuesta: !pending && r.hasResponse,
        },
      };
    }),
  };
}

export function meta() {
  return [{ title: "Documentos recibidos" }];
}

function statusChip(status: string, label: string) {
  const cls = status === "aceptado" ? "chip chip-on" : status === "rechazado" || status === "no enviado" ? "chip chip-off" : "chip";
  return <span className={cls}>{label}</span>;
}

export default function MessageReceptors({ loaderData: d }: Route.ComponentProps) {
  const { search: query } = useLocation();
  const columns = d.plan5 ? 7 : 9;
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Documentos recibidos</h1>
        {!d.plan5 && (
          <AppLink to={`/message-receptors/upload${query}`} className="btn btn-primary" data-upload-link>
            Subir Nuevo XML
          </AppLink>
        )}
      </div>
      {d.banner ? (
        <p className={`mb-4 rounded-md p-3 text-sm ${d.banner.urgent ? "bg-danger/10 text-danger" : "bg-warning/10"}`} role="status" data-deadline-banner>
          {d.banner.text}
        </p>
      ) : null}
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" role="search" aria-label="Filtros">
        <label className="flex flex-col text-sm">
          <span>Mostrar</span>
          <select name="perPage" defaultValue={d.perPage} className="input w-20">
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm">
          <span>Desde</span>
          <input type="date" name="from" defaultValue={d.range.from} className="input" />
        </label>
        <label className="flex flex-col text-sm">
          <span>Hasta</span>
          <input type="date" name="to" defaultValue={d.range.to} className="input" />
        </label>
        <input type="search" name="search" defaultValue={d.search} placeholder="Buscar" className="input w-56" aria-label="Buscar" />
        <label className="flex flex-col text-sm">
          <span>Estado</span>
          <select name="filter" defaultValue={d.filter ?? ""} className="input w-40">
            <option value="">Todos</option>
            {RECEPTION_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <input type="hidden" name="page" value="1" />
        <button type="submit" className="btn btn-outline">
          Buscar
        </button>
      </Form>
      <Form method="get" action="/message-receptors/process" data-process-rows>
        {/* The dialog goes back to this page of the list. */}
        {Object.entries(d.back).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        {!d.plan5 && (
          <div className="mb-2 flex justify-end">
            <button type="submit" className="btn btn-primary" data-process-many>
              Procesar múltiples
            </button>
          </div>
        )}
        <div className="overflow-x-auto">
          <table className="table" data-receptions>
            <thead>
              <tr>
                {!d.plan5 && (
                  <th>
                    <span className="sr-only">Marcar</span>
                  </th>
                )}
                <th>Número</th>
                <th>Emisor</th>
                <th>Monto</th>
                <th>Tipo</th>
                <th>Aceptación</th>
                <th>Hacienda</th>
                <th>Acciones</th>
              </tr>
            </thead>
            <tbody>
              {d.rows.length === 0 && (
                <tr>
                  <td colSpan={columns} className="text-center text-slate-500" data-empty>
                    {RECEPTION_MESSAGES.empty}
                  </td>
                </tr>
              )}
              {d.rows.map((r) => (
                <tr key={r.id} data-reception-id={r.id} data-clave={r.clave}>
                  {!d.plan5 && <td>{r.pending ? <input type="checkbox" name="ids" value={r.id} aria-label={`Marcar ${r.number}`} /> : null}</td>}
                  <td className="font-mono" title={r.clave}>
                    {r.number}
                  </td>
                  <td title={r.issuer}>
                    <div>{truncate(r.issuer)}</div>
                    <div className="text-xs text-slate-500">{r.date}</div>
                  </td>
                  <td className="text-right">
                    <div>{r.amount}</div>
                    {r.rate ? <div className="text-xs text-slate-500">{`${r.currency} · TC ${r.rate}`}</div> : null}
                  </td>
                  <td>{r.type}</td>
                  <td data-acceptance>
                    <div>{r.acceptance}</div>
                    {r.deadline ? (
                      <div className={`text-xs ${r.deadline.urgent ? "font-semibold text-danger" : "text-slate-500"}`} data-deadline>
                        {r.deadline.text}
                      </div>
                    ) : null}
                    {r.messageDetail ? <div className="text-xs text-slate-500">{r.messageDetail}</div> : null}
                  </td>
                  <td data-hacienda>
                    {statusChip(r.pending ? "pendiente" : r.status, r.hacienda)}
                    {r.detail ? (
                      <details className="mt-1 text-xs">
                        <summary>Detalle</summary>
                        <p className="whitespace-pre-line" data-hacienda-detail>
                          {r.detail}
                        </p>
                      </details>
                    ) : null}
                  </td>
                  <td>
                    <div className="flex flex-wrap gap-1" data-row-actions>
                      {r.files.xml && (
                        <a className="btn btn-outline btn-sm" href={`/message-receptors/${r.id}/file/xml`} download>
                          XML
                        </a>
                      )}
                      {r.files.mensaje && (
                        <a className="btn btn-outline btn-sm" href={`/message-receptors/${r.id}/file/mensaje`} download>
                          XML enviado
                        </a>
                      )}
                      {r.files.respuesta && (
                        <a className="btn btn-outline btn-sm" href={`/message-receptors/${r.id}/file/respuesta`} download>
                          XML de respuesta
                        </a>
                      )}
                      {r.pending && !d.plan5 && (
                        <AppLink className="btn btn-primary btn-sm" to={`/message-receptors/process?id=${r.id}${query ? `&${query.slice(1)}` : ""}`}>
                          Procesar
                        </AppLink>
                      )}
                      <a className="btn btn-outline btn-sm" href={`/message-receptors/${r.id}/pdf`} download>
                        PDF
                      </a>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Form>
      <Pagination page={d.page} lastPage={d.lastPage} more={d.totalCapped} />
      <Outlet />
    </div>
  );
}
