// /template-email/:company_id: the e-mail templates with their placeholders and a preview
// (spec part 1 §3 E-mail template, §5: failure 'flatan datos').
import type { Route } from "./+types/template-email";
import { withParam } from "../../domain/config-schemas.ts";
import { listTemplates, optionalId, requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { handleSection, hereOf } from "./sections.server.ts";
import { TemplatesView, stateFor, type SectionState } from "./views.tsx";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  const raw = optionalId(new URL(request.url).searchParams.get("template"));
  return { company: { id: company.id, name: company.name }, base: new URL(hereOf(request), request.url).pathname, here: hereOf(request), templates: await listTemplates(db(), company.id), templateId: raw !== null && !Number.isNaN(raw) ? raw : null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  const form = await request.formData();
  form.set("section", "template");
  return handleSection(db(), user!, company, form, hereOf(request));
}

export default function TemplateEmail({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">Plantillas Email — {d.company.name}</h1>
      <TemplatesView action={d.here} linkBase={(id) => withParam(d.base, "template", String(id))} templates={d.templates} selectedId={d.templateId} state={stateFor(actionData as SectionState | undefined, "template")} />
    </div>
  );
}
