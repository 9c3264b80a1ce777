import { lazy } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/client-detail";
import { clientBalances } from "../../../db/queries/clients.ts";
import { documentList } from "../../../db/queries/document-lists.ts";
import { costaRicaDay, reminderAllowed } from "../../domain/document-status.ts";
import { invoicesOfQuotations } from "../../../db/queries/quotations.ts";
import { quotationNameOf } from "../../server/quotations.server.ts";
import type { ClientFormViewState } from "../../components/client-form.tsx";
import { activityCodeError, normalizeActivityCode } from "../../domain/activity-codes.ts";
import { activityLookupCheck, activityRequired, CLIENT_MESSAGES, DOCUMENT_FILTERS, type DocumentFilter } from "../../domain/client-texts.ts";
import type { Activity } from "../../domain/activity-codes.ts";
import { formatMoney } from "../../domain/format.ts";
import { lastPage } from "../../domain/pagination.ts";
import { canPay } from "../../domain/payment-texts.ts";
import { lookupActivities } from "../../server/activity-lookup.server.ts";
import { activityOptions, clientFormState, handleClientForm, requireClient, updateClientActivity } from "../../server/clients.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";

// Each tab is a screen of its own that the browser loads only when it is open: the Información tab
// (the activity and the client form) does not load the documents' actions and pagination, and the
// documents tabs do not load the client form; the server renders them whole (docs/decisions/155).
const ClientInfo = lazy(() => import("./screens/client-info.tsx").then((m) => ({ default: m.ClientInfo })));
const ClientDocuments = lazy(() => import("./screens/client-documents.tsx").then((m) => ({ default: m.ClientDocuments })));

const TABS = {
  quotations: { label: "Cotizaciones", kinds: ["qt"], type: "quotation" },
  invoices: { label: "Facturas", kinds: ["fe"], type: "invoice" },
  tickets: { label: "Tiquetes", kinds: ["te"], type: "ticket" },
} as const;
export type DocTab = keyof typeof TABS;

function clientIdOf(params: { id?: string }) {
  const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) throw data("No encontrado", { status: 404 });
  return id;
}

function visibleTabs(provider: boolean, readOnly: boolean): DocTab[] {
  if (provider) return [];
  return readOnly ? ["invoices", "tickets"] : ["quotations", "invoices", "tickets"];
}

export interface ActivityPanel {
  activities: Activity[];
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string | null;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const companyId = company!.id;
  const id = clientIdOf(params);
  const client = await requireClient(db(), companyId, id);
  const readOnly = company!.permission === 5;
  const url = new URL(request.url);
  const tabs = visibleTabs(client.provider, readOnly);
  const requested = url.searchParams.get("tab") as DocTab | null;
  const tab: DocTab | "info" = requested && tabs.includes(requested) ? requested : "info";
  const balance = (await clientBalances(db(), { companyId, clientIds: [id] })).get(id) ?? "0";

  let documents = null;
  if (tab !== "info") {
    const req = await listRequest(request, context, `/client-detail/${tab}`);
    const rawFilter = url.searchParams.get("filter");
    const filter = (DOCUMENT_FILTERS as readonly string[]).includes(rawFilter ?? "") ? (rawFilter as DocumentFilter) : null;
    // The same list, filters (Hacienda status, paid / unpaid) and search as /invoices and /tickets.
    const { rows, total } = await documentList(db(), { companyId, clientId: id, kinds: [...TABS[tab].kinds], filter, search: req.search, page: req.page, perPage: req.perPage });
    const today = costaRicaDay(new Date());
    // The quotations tab has the quotation actions; converted ones link to their invoice.
    const invoices = tab === "quotations" ? await invoicesOfQuotations(db(), { companyId, quotationIds: rows.map((r) => r.id) }) : new Map<number, number>();
    documents = {
      rows: rows.map((r) => ({
        id: r.id,
        number: r.number,
        consecutivo: r.consecutivo,
        status: r.status,
        issuedAt: r.issuedAt.toISOString(),
        currencyId: r.currencyId,
        total: r.total,
        invoiceId: invoices.get(r.id) ?? null,
        owes: canPay(r, company!.permission),
        reminder: reminderAllowed(r, today) ? r.remindersSent : null,
      })),
      actions: !readOnly && tab !== "quotations",
      quotationName: tab === "quotations" ? await quotationNameOf(db(), companyId) : null,
      back: `/client-detail/${id}?tab=${tab}`,
      page: req.page,
      perPage: req.perPage,
      search: req.search,
      filter,
      lastPage: lastPage(total, req.perPage),
    };
  }
  const form = tab === "info" ? await clientFormState(db(), { companyId, mode: "detail", provider: client.provider, clientId: id }) : null;
  const editingActivity = tab === "info" && url.searchParams.get("activity") === "edit";
  return {
    client: { id: client.id, name: client.name, provider: client.provider, generic: client.generic, active: client.active, activityCode: client.economicActivityCode, activityName: client.economicActivityName },
    balance,
    readOnly,
    tabs,
    tab,
    documents,
    form,
    editingActivity,
    activity: null as ActivityPanel | null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { company } = context.get(requestContext);
  const companyId = company!.id;
  const id = clientIdOf(params);
  const client = await requireClient(db(), companyId, id);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const here = `/client-detail/${id}`;

  if (intent === "activity-lookup" || intent === "activity-save") {
    const values = { economic_activity_code: String(form.get("economic_activity_code") ?? "").trim(), economic_activity_name: String(form.get("economic_activity_name") ?? "").trim() };
    let activities = activityOptions(String(form.get("activity_options") ?? ""));
    let message: string | null = null;
    const errors: Record<string, string> = {};
    if (intent === "activity-lookup") {
      message = activityLookupCheck(String(client.identificationTypeId), client.identification);
      if (!message) {
        const found = await lookupActivities(client.identification);
        message = found.message;
        if (found.ok) {
          activities = found.activities;
          values.economic_activity_code = found.selected;
        }
      }
    }
    const chosen = activities.find((a) => a.code === values.economic_activity_code);
    if (chosen) values.economic_activity_name = chosen.description;
    if (intent === "activity-save") {
      values.economic_activity_code = normalizeActivityCode(values.economic_activity_code);
      const activityError = activityCodeError(values.economic_activity_code, client.economicActivityCode);
      if (activityError) errors.economic_activity_code = activityError;
      else if (!values.economic_activity_code && activityRequired({ mode: "detail", provider: client.provider }, client.identificationTypeId))
        errors.economic_activity_code = "La actividad económica es obligatoria";
      if (!Object.keys(errors).length) {
        await updateClientActivity(db(), companyId, id, { code: values.economic_activity_code || null, name: values.economic_activity_name || null });
        return redirectWithToast(here, { type: "success", text: CLIENT_MESSAGES.updatedDetail });
      }
    }
    return data({ activity: { activities, values, errors, message } as ActivityPanel, form: null }, { status: Object.keys(errors).length ? 400 : 200 });
  }

  const outcome = await handleClientForm(db(), { companyId, mode: "detail", provider: client.provider, clientId: id, form });
  if (outcome.kind === "saved") return redirectWithToast(here, { type: "success", text: CLIENT_MESSAGES.updatedDetail });
  return data({ form: outcome.state, activity: null as ActivityPanel | null }, { status: outcome.status });
}

export default function ClientDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { client, balance, readOnly, tabs, tab, documents } = loaderData;
  const here = `/client-detail/${client.id}`;
  const form = ((actionData as { form?: ClientFormViewState } | undefined)?.form ?? loaderData.form) as ClientFormViewState | null;
  const activity = (actionData as { activity?: ActivityPanel } | undefined)?.activity ?? null;
  const editingActivity = loaderData.editingActivity || !!activity;
  const showDocButtons = !client.provider && !readOnly;
  return (
    <div className="space-y-4">
      <div className="card flex flex-wrap items-center justify-between gap-3" data-client-header>
        <div>
          <h1 className="text-lg font-semibold">{client.name}</h1>
          {!readOnly && (
            <p className="text-slate-600">
              Balance: <strong data-balance>{formatMoney(balance, "₡")}</strong>
            </p>
          )}
        </div>
        <div className="flex gap-2">
          {showDocButtons && !client.generic && (
            <Link to={`/new-invoice?client_id=${client.id}`} className="btn btn-primary">
              Nueva Factura
            </Link>
          )}
          {showDocButtons && (
            <Link to={`/new-ticket?client_id=${client.id}`} className="btn btn-outline">
              Nuevo Tiquete
            </Link>
          )}
          <Link to={client.provider ? "/providers" : "/clients"} className="btn btn-outline">
            Volver
          </Link>
        </div>
      </div>

      <nav className="flex gap-2 border-b border-slate-200" aria-label="Pestañas">
        <Link to={here} className={`px-3 py-2 ${tab === "info" ? "border-b-2 border-primary font-semibold" : ""}`} aria-current={tab === "info" ? "page" : undefined}>
          Información
        </Link>
        {tabs.map((t) => (
          <Link key={t} to={`${here}?tab=${t}`} className={`px-3 py-2 ${tab === t ? "border-b-2 border-primary font-semibold" : ""}`} aria-current={tab === t ? "page" : undefined}>
            {TABS[t].label}
          </Link>
        ))}
      </nav>

      {tab === "info" && <ClientInfo client={client} here={here} form={form} activity={activity} editingActivity={editingActivity} />}

      {tab !== "info" && documents && <ClientDocuments tab={tab} type={TABS[tab].type} documents={documents} />}
    </div>
  );
}
