// /quotations (spec part 2 "Quotations"): search, page size, the remembered page; number (to the
// detail viewer), client (to client-detail unless deleted or generic), subtotal, discount, tax,
// total, date and the actions. The new button and the title use the company's own name for its
// quotations. The action takes the confirmed "convert" and "delete" posted from here, the client
// detail tab and the detail viewer (docs/decisions/090-quotations.md).
import { data, isRouteErrorResponse, useRouteError } from "react-router";
import type { Route } from "./+types/quotations";
import { documentList } from "../../../db/queries/document-lists.ts";
import { invoicesOfQuotations } from "../../../db/queries/quotations.ts";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { QuotationActions } from "../../components/quotation-actions.tsx";
import { formatDate, formatMoney, truncate } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { backPath, convertFailedMessage, QUOTATION_MESSAGES } from "../../domain/quotations.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { appSchemaSet } from "../../server/document-form.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { convertQuotation, deleteQuotation, quotationNameOf } from "../../server/quotations.server.ts";
import { AppLink } from "../../components/app-link.tsx";

function requireSession(context: Route.LoaderArgs["context"]) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data(QUOTATION_MESSAGES.notFound, { status: 404 });
  return { company, user };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = requireSession(context);
  const req = await listRequest(request, context, "/quotations");
  const database = db();
  const query = { companyId: company.id, kinds: ["qt"], search: req.search, perPage: req.perPage };
  let { rows, total } = await documentList(database, { ...query, page: req.page });
  // A remembered page past the end: show the last one.
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total } = await documentList(database, { ...query, page: req.page }));
  }
  // Independent reads of the page, at once.
  const [invoices, name] = await Promise.all([
    invoicesOfQuotations(database, { companyId: company.id, quotationIds: rows.map((r) => r.id) }),
    quotationNameOf(database, company.id),
  ]);
  const money = (v: string, currencyId: number) => formatMoney(v, currencyId === 1 ? "$" : "₡");
  return {
    name,
    plan5: company.permission === 5,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    rows: rows.map((r) => {
      const client = (r.clientSnapshot ?? {}) as { name?: string };
      return {
        id: r.id,
        number: String(r.number ?? r.id),
        clientId: r.clientLinkable ? r.clientId : null,
        clientName: client.name ?? "",
        subtotal: money(r.subtotal, r.currencyId),
        discount: money(r.discount, r.currencyId),
        tax: money(r.tax, r.currencyId),
        total: money(r.total, r.currencyId),
        date: formatDate(r.issuedAt),
        invoiceId: invoices.get(r.id) ?? null,
      };
    }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Plan 5 posts are refused by the root middleware (app/domain/access.ts, docs/decisions/124).
  const { company, user } = requireSession(context);
  const form = await request.formData();
  const back = backPath(form.get("back"), "/quotations");
  if (form.get("confirm") === "cancel") return redirectWithToast(back, { type: "info", text: QUOTATION_MESSAGES.cancelled });
  const raw = String(form.get("quotation_id") ?? "");
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  const intent = form.get("intent");
  if (intent === "convert") {
    const r = await convertQuotation(db(), { companyId: company.id, userId: user.id, quotationId: id, now: new Date(), schemaSet: appSchemaSet() });
    if (r.ok) return redirectWithToast(`/detail/invoice/${r.invoiceId}`, { type: "success", text: QUOTATION_MESSAGES.converted });
    if (r.reason === "not-found") throw data(QUOTATION_MESSAGES.notFound, { status: 404 });
    if (r.reason === "converted") return redirectWithToast(r.invoiceId ? `/detail/invoice/${r.invoiceId}` : back, { type: "error", text: QUOTATION_MESSAGES.alreadyConverted });
    return redirectWithToast(back, { type: "error", text: convertFailedMessage(r.errors) });
  }
  if (intent === "delete") {
    if (!(await deleteQuotation(db(), { companyId: company.id, id, now: new Date() }))) throw data(QUOTATION_MESSAGES.notFound, { status: 404 });
    // The deleted quotation's own page is gone: from there, back to the list.
    return redirectWithToast(back.startsWith("/detail/") ? "/quotations" : back, { type: "success", text: QUOTATION_MESSAGES.deleted });
  }
  return redirectWithToast(back, { type: "error", text: QUOTATION_MESSAGES.problem });
}

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: d?.name ?? "Cotizaciones" }];
}

export default function Quotations({ loaderData }: Route.ComponentProps) {
  const { name, rows, page, perPage, search, plan5 } = loaderData;
  const here = `/quotations${page > 1 ? `?page=${page}` : ""}`;
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">{name}</h1>
        {!plan5 && (
          <AppLink to="/new-quotation" className="btn btn-primary" data-new-document>
            Nueva {name}
          </AppLink>
        )}
      </div>
      <ListControls search={search} perPage={perPage} />
      <div className="overflow-x-auto">
        <table className="table" data-documents="quotations" data-stack>
          <thead>
            <tr>
              <th>Número</th>
              <th>Cliente</th>
              <th>Subtotal</th>
              <th>Descuento</th>
              <th>IVA</th>
              <th>Total</th>
              <th>Fecha</th>
              {!plan5 && <th>Acciones</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={plan5 ? 7 : 8} className="text-center text-slate-500" data-empty>
                  {QUOTATION_MESSAGES.empty}
                </td>
              </tr>
            )}
            {rows.map((r) => (
              <tr key={r.id} data-document-id={r.id}>
                <td data-label="Número">
                  <AppLink to={`/detail/quotation/${r.id}`}>{r.number}</AppLink>
                </td>
                <td data-label="Cliente" title={r.clientName}>
                  {r.clientId ? <AppLink to={`/client-detail/${r.clientId}`}>{truncate(r.clientName)}</AppLink> : truncate(r.clientName)}
                </td>
                <td data-label="Subtotal" className="whitespace-nowrap text-right">{r.subtotal}</td>
                <td data-label="Descuento" className="whitespace-nowrap text-right">{r.discount}</td>
                <td data-label="IVA" className="whitespace-nowrap text-right">{r.tax}</td>
                <td data-label="Total" className="whitespace-nowrap text-right">{r.total}</td>
                <td data-label="Fecha">{r.date}</td>
                {!plan5 && (
                  <td data-label="Acciones">
                    <QuotationActions id={r.id} invoiceId={r.invoiceId} back={here} name={name} />
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

/** Not this company's quotation (or already deleted): the plain message inside the layout. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : QUOTATION_MESSAGES.problem;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
