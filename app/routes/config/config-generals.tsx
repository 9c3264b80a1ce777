// /config-generals/:company_id (spec part 1 §3 General configuration, §5: failure 'faltan datos').
import type { Route } from "./+types/config-generals";
import { generalConfigValues, requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { handleSection, hereOf } from "./sections.server.ts";
import { GeneralForm, stateFor, type SectionState } from "./views.tsx";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  return { company: { id: company.id, name: company.name }, here: hereOf(request), values: await generalConfigValues(db(), company.id) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  const form = await request.formData();
  form.set("section", "generals");
  return handleSection(db(), user!, company, form, hereOf(request));
}

export default function ConfigGenerals({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">Configuraciones generales — {loaderData.company.name}</h1>
      <GeneralForm action={loaderData.here} values={loaderData.values} state={stateFor(actionData as SectionState | undefined, "generals")} />
    </div>
  );
}
