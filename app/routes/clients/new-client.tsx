import { data } from "react-router";
import type { Route } from "./+types/new-client";
import { ClientForm, type ClientFormViewState } from "../../components/client-form.tsx";
import { CLIENT_MESSAGES, clientFormKey } from "../../domain/client-texts.ts";
import { QUICK_ADD_RETURNS, quickAddReturn } from "../../domain/document-form.ts";
import { clientFormState, handleClientForm } from "../../server/clients.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

/**
 * The standalone new-client page (no barrio): returns to the clients list after saving, or, opened
 * from a document form (`?volver=/new-invoice`, the quick-add), back to that form with the new client
 * selected (a provider for the purchase invoice).
 */
function returnOf(request: Request) {
  const volver = quickAddReturn(new URL(request.url).searchParams.get("volver"));
  return volver ? { volver, provider: QUICK_ADD_RETURNS[volver].provider } : { volver: null, provider: false };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  if (company!.permission === 5) throw data(CLIENT_MESSAGES.readOnlyPlan, { status: 403 });
  const { volver, provider } = returnOf(request);
  return { volver, provider, form: await clientFormState(db(), { companyId: company!.id, mode: "new", provider }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Plan 5 posts are refused by the root middleware (app/domain/access.ts, docs/decisions/124).
  const { company } = context.get(requestContext);
  const { volver, provider } = returnOf(request);
  const outcome = await handleClientForm(db(), { companyId: company!.id, mode: "new", provider, clientId: null, form: await request.formData() });
  if (outcome.kind === "saved") return redirectWithToast(volver ? `${volver}?id=${outcome.id}&restore=1` : "/clients", { type: "success", text: CLIENT_MESSAGES.saved });
  return data({ form: outcome.state }, { status: outcome.status });
}

export default function NewClient({ loaderData, actionData }: Route.ComponentProps) {
  const state = (actionData?.form ?? loaderData.form) as ClientFormViewState;
  const { volver, provider } = loaderData;
  return (
    <ClientForm
      key={clientFormKey(state)}
      state={state}
      action={volver ? `/new-client?volver=${encodeURIComponent(volver)}` : "/new-client"}
      cancelTo={volver ? `${volver}?restore=1` : "/clients"}
      title={provider ? "Nuevo Proveedor" : "Nuevo Cliente"}
    />
  );
}
