// The Información tab of the client detail (/client-detail/:id, spec part 1 §2.3 Client detail): the
// economic activity (shown, or edited with its lookup: ?activity=edit) and the client form. A screen
// of its own (docs/decisions/169) that the route module loads lazily, so the documents tabs do not
// ship the client form (docs/decisions/155).
import { Link } from "react-router";
import { ActivityFields, ClientForm, type ClientFormViewState } from "../../../components/client-form.tsx";
import { AppForm, SubmitButton } from "../../../components/form.tsx";
import { ACTIVITY_CODE_MESSAGES, isLegacyActivityCode } from "../../../domain/activity-codes.ts";
import { clientFormKey } from "../../../domain/client-texts.ts";
import type { ActivityPanel, loader } from "../client-detail.tsx";

type Client = Awaited<ReturnType<typeof loader>>["client"];

export function ClientInfo({ client, here, form, activity, editingActivity }: { client: Client; here: string; form: ClientFormViewState | null; activity: ActivityPanel | null; editingActivity: boolean }) {
  return (
    <>
    <section className="card space-y-3" aria-labelledby="card-actividad" data-activity-panel>
      <h2 id="card-actividad" className="font-semibold">
        Actividad económica
      </h2>
      {editingActivity ? (
        <AppForm action={here} className="space-y-3">
          <ActivityFieldsLookup
            key={JSON.stringify(activity)}
            panel={activity ?? { activities: client.activityCode && !isLegacyActivityCode(client.activityCode) ? [{ code: client.activityCode, description: client.activityName ?? "", type: "" }] : [], values: { economic_activity_code: client.activityCode ?? "", economic_activity_name: client.activityName ?? "" }, errors: {}, message: null }}
          />
          <div className="flex gap-2">
            <Link to={here} className="btn btn-outline">
              Cancelar
            </Link>
            <SubmitButton name="intent" value="activity-save">
              Guardar actividad
            </SubmitButton>
          </div>
        </AppForm>
      ) : (
        <div className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <p data-activity-current>{client.activityCode ? `${client.activityCode} - ${client.activityName ?? ""}` : "Sin actividad económica"}</p>
            <Link to={`${here}?activity=edit`} className="btn btn-outline btn-sm">
              Editar actividad
            </Link>
          </div>
          {isLegacyActivityCode(client.activityCode) && (
            <p className="rounded-md bg-warning/10 p-3 text-sm" role="alert" data-activity-legacy>
              {ACTIVITY_CODE_MESSAGES.legacyClient(client.activityCode!)}
            </p>
          )}
        </div>
      )}
    </section>
    {form && <ClientForm key={clientFormKey(form)} state={form} action={here} cancelTo={client.provider ? "/providers" : "/clients"} title="Información" />}
    </>
  );
}

/** The activity fields with their lookup button renamed to the detail's own intent. */
function ActivityFieldsLookup({ panel }: { panel: ActivityPanel }) {
  return (
    <div data-activity-edit>
      <ActivityFields state={{ activities: panel.activities, values: panel.values, errors: panel.errors, message: panel.message }} lookupIntent="activity-lookup" />
    </div>
  );
}
