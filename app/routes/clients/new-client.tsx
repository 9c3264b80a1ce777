import { data } from "react-router";
import type { Route } from "./+types/new-client";
import { ClientForm, clientFormKey, type ClientFormViewState } from "../../components/client-form.tsx";
import { CLIENT_MESSAGES } from "../../domain/client-schemas.ts";
import { clientFormState, handleClientForm } from "../../server/clients.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

/** The standalone new-client page (no barrio): returns to the clients list after saving. */
export async function loader({ context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  if (company!.permission === 5) throw data(CLIENT_MESSAGES.readOnlyPlan, { status: 403 });
  return { form: await clientFormState(db(), { companyId: company!.id, mode: "new", provider: false }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { company } = context.get(requestContext);
  if (company!.permission === 5) throw data(CLIENT_MESSAGES.readOnlyPlan, { status: 403 });
  const outcome = await handleClientForm(db(), { companyId: company!.id, mode: "new", provider: false, clientId: null, form: await request.formData() });
  if (outcome.kind === "saved") return redirectWithToast("/clients", { type: "success", text: CLIENT_MESSAGES.saved });
  return data({ form: outcome.state }, { status: outcome.status });
}

export default function NewClient({ loaderData, actionData }: Route.ComponentProps) {
  const state = (actionData?.form ?? loaderData.form) as ClientFormViewState;
  return <ClientForm key={clientFormKey(state)} state={state} action="/new-client" cancelTo="/clients" title="Nuevo Cliente" />;
}
