// /terms/:company_id: terms and conditions (spec part 1 §3 Term, §5: failure 'faltan datos').
import type { Route } from "./+types/terms";
import { withParam } from "../../domain/config-schemas.ts";
import { listTerms, optionalId, requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { handleSection, hereOf } from "./sections.server.ts";
import { TermsView, stateFor, type SectionState } from "./views.tsx";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  const url = new URL(request.url);
  const rawParam = url.searchParams.get("term");
  const raw = rawParam === "new" ? "new" : optionalId(rawParam);
  return {
    company: { id: company.id, name: company.name },
    base: new URL(hereOf(request), url).pathname,
    here: hereOf(request),
    terms: await listTerms(db(), company.id),
    selected: raw === "new" ? ("new" as const) : raw !== null && !Number.isNaN(raw) ? raw : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  const form = await request.formData();
  form.set("section", "term");
  return handleSection(db(), user!, company, form, hereOf(request));
}

export default function Terms({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">Términos y Condiciones — {d.company.name}</h1>
      <TermsView action={d.here} linkBase={(id) => withParam(d.base, "term", String(id))} terms={d.terms} selected={d.selected} state={stateFor(actionData as SectionState | undefined, "term")} />
    </div>
  );
}
