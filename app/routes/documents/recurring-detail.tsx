// /detail/recurring/:id (detail-transaction for a recurring invoice, spec part 2 "Document detail
// viewer"): a preview of the template — client, schedule, lines and totals as it will be issued —,
// not its edit form (issue 14 point 9). 'Editar' opens the editor (not for plan 5). Tenancy: the
// template is read by company and id together; anything else is 404.
import { data, Link } from "react-router";
import type { Route } from "./+types/recurring-detail";
import { clientById } from "../../../db/queries/clients.ts";
import { recurringOf } from "../../../db/queries/recurring.ts";
import { NOT_FOUND } from "../../domain/document-source.ts";
import { draftTotals, type DocumentDraft } from "../../domain/document-draft.ts";
import { formatQuantity } from "../../domain/document-view.ts";
import { formatDate, formatMoney } from "../../domain/format.ts";
import { cycleLabel } from "../../domain/recurring.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";

const day = (ymd: string) => formatDate(`${ymd}T12:00:00-06:00`);

export async function loader({ params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const id = /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : 0;
  const database = db();
  const row = id ? await recurringOf(database, { companyId: company!.id, id }) : null;
  if (!row) throw data(NOT_FOUND, { status: 404 });
  const draft = row.draft as DocumentDraft;
  const client = row.clientId ? await clientById(database, { companyId: company!.id, clientId: row.clientId }) : undefined;
  const symbol = row.currency === "USD" ? "$" : "₡";
  let lineTotals: string[] = [];
  try {
    lineTotals = draftTotals(draft).lines.map((l) => l.montoTotalLinea);
  } catch {
    // A template that no longer computes (a tax removed since) shows its lines without totals.
  }
  return {
    id: row.id,
    title: `Factura recurrente ${row.number ?? row.id}`,
    readOnly: company!.permission === 5,
    facts: [
      { label: "Cliente", value: client?.name ?? "" },
      { label: "Ciclo", value: cycleLabel(row.cycle, row.every) },
      { label: "Fecha inicio", value: day(row.startDay) },
      { label: "Ultimo envio", value: row.lastSentDate ? day(row.lastSentDate) : "N/E" },
      { label: "Proximo envio", value: day(row.nextSendDate) },
      { label: "Estado", value: row.paused ? "Pausada" : "Activa" },
      { label: "Moneda", value: row.currency },
    ],
    lines: draft.lines.map((l, i) => ({
      description: l.description,
      quantity: formatQuantity(l.quantity),
      price: formatMoney(l.unitPrice, symbol),
      total: lineTotals[i] ? formatMoney(lineTotals[i], symbol) : "",
    })),
    totals: [
      { label: "Subtotal", value: formatMoney(row.subtotal, symbol) },
      { label: "Descuento", value: formatMoney(row.discount, symbol) },
      { label: "IVA", value: formatMoney(row.tax, symbol) },
      { label: "Total", value: formatMoney(row.total, symbol) },
    ],
    note: draft.note ?? null,
    lastError: row.lastError,
  };
}

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: d?.title ?? "Factura recurrente" }];
}

export default function RecurringDetail({ loaderData: d }: Route.ComponentProps) {
  return (
    <div className="card space-y-4" data-recurring-preview>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">{d.title}</h1>
        <div className="flex gap-2">
          <Link className="btn btn-outline btn-sm" to="/recurrings">
            Facturas recurrentes
          </Link>
          {!d.readOnly && (
            <Link className="btn btn-primary btn-sm" to={`/edit-recurring/recurring/${d.id}`}>
              Editar
            </Link>
          )}
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {d.facts.map((f) => (
          <div key={f.label}>
            <dt className="text-slate-600">{f.label}</dt>
            <dd className="font-medium">{f.value}</dd>
          </div>
        ))}
      </dl>
      {d.lastError && (
        <p className="text-sm text-red-700" role="note">
          {d.lastError}
        </p>
      )}
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>Descripción</th>
              <th className="text-right">Cant.</th>
              <th className="text-right">Precio</th>
              <th className="text-right">Total</th>
            </tr>
          </thead>
          <tbody>
            {d.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.description}</td>
                <td className="text-right">{l.quantity}</td>
                <td className="whitespace-nowrap text-right">{l.price}</td>
                <td className="whitespace-nowrap text-right">{l.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap justify-between gap-4">
        <div>{d.note ? <p>Observaciones: {d.note}</p> : null}</div>
        <table className="min-w-64">
          <tbody>
            {d.totals.map((t) => (
              <tr key={t.label} className={t.label === "Total" ? "font-semibold" : undefined}>
                <td className="pr-4">{t.label}</td>
                <td className="text-right">{t.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <div className="card">{NOT_FOUND}</div>;
}
