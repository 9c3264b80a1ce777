// The documents tabs of the client detail (/client-detail/:id?tab=quotations|invoices|tickets, spec
// part 1 §2.3 Client detail): the same list, filters and search as /invoices and /tickets, with the
// quotation actions or the row actions. A screen of its own (docs/decisions/169): the route module
// loads it lazily, so the Información tab does not ship these actions and the pagination
// (docs/decisions/155).
import { Form, Link } from "react-router";
import { DocumentRowActions } from "../../../components/document-row-actions.tsx";
import { ListControls, Pagination } from "../../../components/pagination.tsx";
import { QuotationActions } from "../../../components/quotation-actions.tsx";
import { CLIENT_SCREEN_TEXTS, DOCUMENT_FILTERS } from "../../../domain/client-texts.ts";
import { formatDate, formatMoney } from "../../../domain/format.ts";
import type { loader } from "../client-detail.tsx";

type Documents = NonNullable<Awaited<ReturnType<typeof loader>>["documents"]>;

export function ClientDocuments({ tab, type, documents }: { tab: string; type: string; documents: Documents }) {
  return (
    <div className="card">
      <div className="mb-2 flex flex-wrap items-end gap-2">
        <ListControls search={documents.search} perPage={documents.perPage} extra={{ tab, ...(documents.filter ? { filter: documents.filter } : {}) }} />
        <Form method="get" className="mb-4 flex items-end gap-2">
          <input type="hidden" name="tab" value={tab} />
          <label className="flex items-center gap-2">
            <span>Filtro</span>
            <select name="filter" defaultValue={documents.filter ?? ""} className="input w-36">
              <option value="">Todos</option>
              {DOCUMENT_FILTERS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          <input type="hidden" name="page" value="1" />
          <button type="submit" className="btn btn-outline">
            Filtrar
          </button>
        </Form>
      </div>
      <table className="table" data-documents>
        <thead>
          <tr>
            <th>Referencia</th>
            <th>Fecha</th>
            <th>Estado</th>
            <th>Total</th>
            {(documents.quotationName || documents.actions) && <th>Acciones</th>}
          </tr>
        </thead>
        <tbody>
          {documents.rows.length === 0 && (
            <tr>
              <td colSpan={documents.quotationName || documents.actions ? 5 : 4} className="text-center text-slate-500">
                {CLIENT_SCREEN_TEXTS.noDocuments}
              </td>
            </tr>
          )}
          {documents.rows.map((d) => (
            <tr key={d.id}>
              <td>
                <Link to={`/detail/${type}/${d.id}`}>{d.consecutivo ?? String(d.number ?? d.id)}</Link>
              </td>
              <td>{formatDate(d.issuedAt)}</td>
              <td>{d.status}</td>
              <td>{formatMoney(d.total, d.currencyId === 1 ? "$" : "₡")}</td>
              {documents.quotationName && (
                <td>
                  <QuotationActions id={d.id} invoiceId={d.invoiceId} back={documents.back} name={documents.quotationName} />
                </td>
              )}
              {documents.actions && (
                <td>
                  <DocumentRowActions type={type} id={d.id} pay={type === "invoice" && d.owes} reminder={d.reminder} back={documents.back} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination page={documents.page} lastPage={documents.lastPage} />
    </div>
  );
}
