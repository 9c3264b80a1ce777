// /invoices, /tickets, /notes and /simples (spec part 2 §2): one route module, the section decided
// by the URL path. Search, page size, a filter, the remembered page; payment status and due state
// worded by app/domain/document-status.ts. Plan 5 hides the new-document button, the payment and
// action columns, and shows the control-number column (invoices and notes).
import { Form } from "react-router";
import type { Route } from "./+types/documents-list";
import { currencySymbols } from "../../server/reference-cache.server.ts";
import { detailTypeOf, DOCUMENT_LIST_FILTERS, documentList, noteParents, type DocumentListFilter } from "../../../db/queries/document-lists.ts";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { costaRicaDay, dueState, haciendaStatusLabel, paymentStatus, pendingText, reminderAllowed } from "../../domain/document-status.ts";
import { DocumentRowActions } from "../../components/document-row-actions.tsx";
import { formatDate, formatMoney, truncate } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { canPay } from "../../domain/payment-texts.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { PendingBanner } from "../../components/pending-banner.tsx";
import { AppLink } from "../../components/app-link.tsx";

type Section = "invoices" | "tickets" | "notes" | "simples";

interface SectionInfo {
  title: string;
  kinds: string[];
  /** Detail-viewer type of the rows. */
  type: string;
  empty: string;
  filters: { value: DocumentListFilter; label: string }[];
  newLink: { to: string; label: string } | null;
  /** Paid, payment status and due columns (invoices only). */
  payments: boolean;
  /** The pay row action (invoices and simplified documents). */
  pay: boolean;
}

const hacienda = [
  { value: "aceptado", label: "Aceptado" },
  { value: "rechazado", label: "Rechazado" },
] as const;
const paid = [
  { value: "pagado", label: "Pagado" },
  { value: "no-pagado", label: "No Pagado" },
] as const;

export const SECTIONS: Record<Section, SectionInfo> = {
  invoices: { title: "Facturas", kinds: ["fe"], type: "invoice", empty: "No hay Facturas", filters: [...hacienda, ...paid], newLink: { to: "/new-invoice", label: "Nueva Factura" }, payments: true, pay: true },
  tickets: { title: "Tiquetes Electrónicos", kinds: ["te"], type: "ticket", empty: "No hay Tiquetes Electronicos", filters: [...hacienda], newLink: { to: "/new-ticket", label: "Nuevo Tiquete" }, payments: false, pay: false },
  notes: {
    title: "Notas",
    kinds: ["nc", "nd"],
    type: "note",
    empty: "No hay Notas",
    filters: [{ value: "nc", label: "Notas Credito" }, { value: "nd", label: "Notas Debito" }, ...hacienda],
    newLink: null,
    payments: false,
    pay: false,
  },
  simples: { title: "Simplificados", kinds: ["fec"], type: "simple", empty: "No hay Simplificados", filters: [...hacienda, ...paid], newLink: { to: "/new-simple", label: "Nuevo Simplificado" }, payments: false, pay: true },
};

const KIND_LABEL: Record<string, string> = { fe: "Factura", te: "Tiquete", nc: "Nota de Crédito", nd: "Nota de Débito", fec: "Simplificado", qt: "Cotización" };

function sectionOf(pathname: string): Section {
  const first = pathname.split("/").filter(Boolean)[0];
  return first === "tickets" || first === "notes" || first === "simples" ? first : "invoices";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company, banners } = context.get(requestContext);
  const url = new URL(request.url);
  const section = sectionOf(url.pathname);
  const info = SECTIONS[section];
  const rawFilter = url.searchParams.get("filter") ?? "";
  const filter = info.filters.some((f) => f.value === rawFilter) && (DOCUMENT_LIST_FILTERS as readonly string[]).includes(rawFilter) ? (rawFilter as DocumentListFilter) : null;
  const req = await listRequest(request, context, `/${section}${filter ? `?${filter}` : ""}`);
  const database = db();
  const query = { companyId: company!.id, kinds: info.kinds, search: req.search, filter, perPage: req.perPage };
  // The pending-documents banner's counts came with the session (docs/decisions/147).
  const pending = pendingText(banners!.pending);
  let { rows, total, totalCapped } = await documentList(database, { ...query, page: req.page });
  // A remembered page past the end (documents were filtered or the page size grew): show the last one.
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total, totalCapped } = await documentList(database, { ...query, page: req.page }));
  }
  // Independent reads of the page, at once.
  const [symbols, parents] = await Promise.all([
    currencySymbols(database),
    section === "notes" ? noteParents(database, { companyId: company!.id, noteIds: rows.map((r) => r.id) }) : new Map(),
  ]);
  const today = costaRicaDay(new Date());
  const plan5 = company!.permission === 5;
  return {
    section,
    filter,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    total,
    /** Counted only up to lastPage: more pages follow (docs/decisions/092). */
    totalCapped,
    plan5,
    pending,
    rows: rows.map((r) => {
      const client = (r.clientSnapshot ?? {}) as { name?: string };
      const symbol = symbols.get(r.currencyId) ?? "₡";
      const input = { total: r.total, paymentAmount: r.paymentAmount, creditNoteTotal: r.creditNoteTotal, debitNoteTotal: r.debitNoteTotal, haciendaStatus: r.status, expirationDate: r.expirationDate };
      const parent = parents.get(r.id) as { id: number | null; kind: string | null; number: string | null } | undefined;
      return {
        id: r.id,
        kind: r.kind,
        kindLabel: KIND_LABEL[r.kind] ?? r.kind,
        number: r.consecutivo ?? String(r.number ?? r.id),
        // The integrator's reference (API, plan 5): 'N° de control'.
        control: r.controlNumber ?? "",
        // The client links to client-detail unless it is deleted (or the generic client).
        clientId: r.clientLinkable ? r.clientId : null,
        clientName: client.name ?? "",
        total: formatMoney(r.total, symbol),
        paid: formatMoney(r.paymentAmount, symbol),
        owes: canPay({ ...input, kind: r.kind, status: r.status }, company!.permission),
        paymentStatus: paymentStatus(input),
        due: dueState(input, today),
        reminder: reminderAllowed({ ...input, kind: r.kind, status: r.status }, today) ? r.remindersSent : null,
        date: formatDate(r.issuedAt),
        hacienda: haciendaStatusLabel(r.status),
        parent: parent ? { href: parent.id && parent.kind ? `/detail/${detailTypeOf(parent.kind)}/${parent.id}` : null, label: `${KIND_LABEL[parent.kind ?? ""] ?? "Documento"} ${parent.number ?? ""}`.trim() } : null,
      };
    }),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? SECTIONS[data.section].title : "Documentos" }];
}

function statusChip(status: string | null) {
  if (!status) return null;
  const cls = status === "aceptado" ? "chip chip-on" : status === "rechazado" ? "chip chip-off" : "chip";
  return <span className={cls}>{status}</span>;
}

export default function DocumentsList({ loaderData }: Route.ComponentProps) {
  const { section, filter, rows, page, perPage, search, plan5 } = loaderData;
  const info = SECTIONS[section];
  // Notes have no row actions (spec part 2 "Notes list"); plan 5 hides the actions column everywhere.
  const showActions = !plan5 && section !== "notes";
  const showControl = plan5 && (section === "invoices" || section === "notes");
  const payments = info.payments && !plan5;
  // Where 'Pagar' comes back to: this page of the list, with its filter and search.
  const hereQuery = new URLSearchParams({ ...(page > 1 ? { page: String(page) } : {}), ...(filter ? { filter } : {}), ...(search ? { search } : {}) }).toString();
  const here = `/${section}${hereQuery ? `?${hereQuery}` : ""}`;
  const columns = 6 + (showControl ? 1 : 0) + (payments ? 3 : 0) + (section === "notes" ? 2 : 0) + (showActions ? 1 : 0);
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">{info.title}</h1>
        {info.newLink && !plan5 && (
          <AppLink to={info.newLink.to} className="btn btn-primary" data-new-document>
            {info.newLink.label}
          </AppLink>
        )}
      </div>
      <PendingBanner text={loaderData.pending} className="mb-4" />
      <ListControls search={search} perPage={perPage} extra={filter ? { filter } : undefined} />
      <Form method="get" className="mb-4 flex flex-wrap items-center gap-2" aria-label="Filtros">
        <input type="hidden" name="page" value="1" />
        {search ? <input type="hidden" name="search" value={search} /> : null}
        <input type="hidden" name="perPage" value={perPage} />
        <span>Filtrar:</span>
        <button type="submit" name="filter" value="" className={`btn btn-sm ${filter ? "btn-outline" : "btn-primary"}`}>
          Todos
        </button>
        {info.filters.map((f) => (
          <button key={f.value} type="submit" name="filter" value={f.value} className={`btn btn-sm ${filter === f.value ? "btn-primary" : "btn-outline"}`} aria-pressed={filter === f.value}>
            {f.label}
          </button>
        ))}
      </Form>
      <div className="overflow-x-auto">
        <table className="table" data-documents={section} data-stack>
          <thead>
            <tr>
              <th>Número</th>
              {showControl && <th>N° de control</th>}
              {section === "notes" && <th>Tipo</th>}
              {section === "notes" && <th>Pertenece a</th>}
              <th>Cliente</th>
              <th>Total</th>
              {payments && <th>Pagado</th>}
              {payments && <th>Estado de pago</th>}
              {payments && <th>Vencimiento</th>}
              <th>Fecha</th>
              <th>Hacienda</th>
              <th>Ver</th>
              {showActions && <th>Acciones</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns} className="text-center text-slate-500" data-empty>
                  {info.empty}
                </td>
              </tr>
            )}
            {rows.map((r) => (
              <tr key={r.id} data-document-id={r.id}>
                <td data-label="Número" className="break-all">
                  <AppLink to={`/detail/${info.type}/${r.id}`}>{r.number}</AppLink>
                </td>
                {showControl && <td data-label="N° de control">{r.control}</td>}
                {section === "notes" && <td data-label="Tipo">{r.kindLabel}</td>}
                {section === "notes" && <td data-label="Pertenece a">{r.parent ? r.parent.href ? <AppLink to={r.parent.href}>{r.parent.label}</AppLink> : r.parent.label : ""}</td>}
                <td data-label="Cliente" title={r.clientName}>{r.clientId ? <AppLink to={`/client-detail/${r.clientId}`}>{truncate(r.clientName)}</AppLink> : truncate(r.clientName)}</td>
                <td data-label="Total" className="whitespace-nowrap text-right">{r.total}</td>
                {payments && <td data-label="Pagado" className="whitespace-nowrap text-right">{r.paid}</td>}
                {payments && <td data-label="Estado de pago">{r.paymentStatus ?? ""}</td>}
                {payments && <td data-label="Vencimiento">{r.due ? <span className="chip chip-off">{r.due}</span> : ""}</td>}
                <td data-label="Fecha">{r.date}</td>
                <td data-label="Hacienda">{statusChip(r.hacienda)}</td>
                <td className="max-sm:hidden">
                  <AppLink className="btn btn-outline btn-sm" to={`/detail/${info.type}/${r.id}`}>
                    Ver
                  </AppLink>
                </td>
                {showActions && (
                  <td data-label="Acciones">
                    <DocumentRowActions type={info.type} id={r.id} pay={!!info.pay && r.owes} reminder={r.reminder} back={here} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} lastPage={loaderData.lastPage} more={loaderData.totalCapped} />
    </div>
  );
}
