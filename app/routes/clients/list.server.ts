// Loader and action shared by /clients and /providers: the list (tabs, search, page size,
// remembered page), the new/edit dialog (?new=1, ?edit=ID), the account statement (?statement=ID),
// the activity catalogue import (?activities=1, admins) and the row actions.
import { data, type RouterContextProvider } from "react-router";
import { clientsPage } from "../../../db/queries/clients.ts";
import { countActivities } from "../../../db/queries/activities.ts";
import { CLIENT_MESSAGES } from "../../domain/client-schemas.ts";
import { lastPage } from "../../domain/pagination.ts";
import { sendStatement, statementScreen } from "./screens/statement.server.ts";
import {
  clientFormState,
  deleteClient,
  handleClientForm,
  importActivitiesCsv,
  toggleClient,
  type ClientFormState,
} from "../../server/clients.server.ts";
import { requireSuperAdmin } from "../../server/companies.server.ts";
import { requestContext, type Toast } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";

type Ctx = Readonly<RouterContextProvider>;

/** The answer to an activate/deactivate sent with JavaScript. */
export interface ToggleReply {
  id: number;
  ok: boolean;
  active: boolean;
  toast: Toast;
}

const positiveId = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null);

function where(request: Request, provider: boolean) {
  const url = new URL(request.url);
  const base = provider ? "/providers" : "/clients";
  const inactive = !provider && url.searchParams.get("tab") === "inactive";
  return { url, base, inactive, back: inactive ? `${base}?tab=inactive` : base };
}

export async function clientListLoader({ request, context, provider }: { request: Request; context: Ctx; provider: boolean }) {
  const { company, user } = context.get(requestContext);
  const companyId = company!.id;
  const { url, base, inactive, back } = where(request, provider);
  const readOnly = company!.permission === 5;
  const req = await listRequest(request, context, provider ? "/providers" : inactive ? "/clients?tab=inactive" : "/clients");

  let form: ClientFormState | null = null;
  const editId = positiveId(url.searchParams.get("edit"));
  if (editId) form = await clientFormState(db(), { companyId, mode: "dialog", provider, clientId: editId });
  else if (url.searchParams.get("new") && !readOnly) form = await clientFormState(db(), { companyId, mode: "dialog", provider });
  // The new/edit popup is full-screen: while it is open the page shows no list (client-list-screen.tsx).
  // Each client's balance comes with its row; plan 5 shows none.
  const { rows, total } = form ? { rows: [], total: 0 } : await clientsPage(db(), { companyId, provider, active: provider ? undefined : !inactive, ...req, balances: !readOnly });
  const statementId = positiveId(url.searchParams.get("statement"));
  const statement = statementId ? await statementScreen(db(), companyId, statementId) : null;
  // The activity catalogue is shared by every company: only the super-admin imports it (decision 121).
  const activities = url.searchParams.get("activities") && user!.isSuperAdmin ? { count: await countActivities(db()) } : null;

  return {
    base,
    back,
    provider,
    inactive,
    readOnly,
    canImportActivities: user!.isSuperAdmin,
    currencySymbol: company!.currencySymbol,
    rows: rows.map((r) => ({ ...r, balance: r.balance ?? "0" })),
    total,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    form,
    formAction: editId ? `${base}?edit=${editId}${inactive ? "&tab=inactive" : ""}` : `${base}?new=1`,
    statement,
    activities,
  };
}

export async function clientListAction({ request, context, provider }: { request: Request; context: Ctx; provider: boolean }) {
  const { company, user } = context.get(requestContext);
  const companyId = company!.id;
  const { url, back } = where(request, provider);
  const form = await request.formData();
  if (form.get("confirm") === "cancel") return redirectWithToast(back, { type: "info", text: CLIENT_MESSAGES.cancelled });
  const intent = String(form.get("intent") ?? "save");
  const clientId = Number(form.get("client_id"));

  if (intent === "toggle") {
    const r = await toggleClient(db(), companyId, clientId);
    const toast: Toast = { type: r.ok ? "success" : "error", text: r.message };
    // With JavaScript (stay=1, sent through a fetcher) the list shows the row's new state and the
    // message, and drops the row after 1 s (spec part 1 §4); without it the redirect re-renders the list.
    if (form.get("stay") === "1") return { toggled: { id: clientId, ok: r.ok, active: r.active, toast } satisfies ToggleReply };
    return redirectWithToast(back, toast);
  }
  if (intent === "delete") {
    const r = await deleteClient(db(), companyId, clientId, new Date());
    return redirectWithToast(back, r.ok ? { type: "success", text: CLIENT_MESSAGES.deleted } : { type: "error", text: `${CLIENT_MESSAGES.problem}: ${r.message}` });
  }
  if (intent === "send-statement") {
    const r = await sendStatement(db(), companyId, clientId);
    return redirectWithToast(back, { type: r.ok ? "success" : "error", text: r.message });
  }
  if (intent === "import-activities") {
    requireSuperAdmin(user, CLIENT_MESSAGES.activitiesSuperAdminOnly);
    const file = form.get("file");
    if (!file || typeof file === "string" || file.size === 0) return redirectWithToast(`${back}${back.includes("?") ? "&" : "?"}activities=1`, { type: "error", text: "Seleccione un archivo CSV" });
    const r = await importActivitiesCsv(db(), file);
    return redirectWithToast(`${back}${back.includes("?") ? "&" : "?"}activities=1`, { type: r.ok ? "success" : "error", text: r.message });
  }

  // The client form (dialog): ?edit=ID or ?new=1.
  const editId = positiveId(url.searchParams.get("edit"));
  const outcome = await handleClientForm(db(), { companyId, mode: "dialog", provider, clientId: editId, form });
  if (outcome.kind === "saved") return redirectWithToast(back, { type: "success", text: outcome.created ? CLIENT_MESSAGES.saved : CLIENT_MESSAGES.updated });
  return data({ form: outcome.state }, { status: outcome.status });
}
