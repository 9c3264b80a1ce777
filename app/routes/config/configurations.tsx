// /main-configurations/:company_id and /all-configurations/:company_id: the configuration tabs
// (spec part 1 §2.3 Company configuration). Tabs are links; each renders its own form.
import { Link } from "react-router";
import type { Route } from "./+types/configurations";
import { CONFIG_TABS, ConfigTabs, type ConfigTab } from "../../components/config-tabs.tsx";
import { emailFormState } from "../../server/company-mail.server.ts";
import { generalConfigValues, listTemplates, listTerms, optionalId, requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { withParam } from "../../domain/config-schemas.ts";
import { handleSection, hereOf, tooLarge } from "./sections.server.ts";
import { EmailForms, GeneralForm, TemplatesView, TermsView, stateFor, type SectionState } from "./views.tsx";

function tabOf(request: Request, isAdmin: boolean): ConfigTab {
  const raw = new URL(request.url).searchParams.get("tab");
  const tab = CONFIG_TABS.find((t) => t.key === raw && (isAdmin || !t.adminOnly));
  return tab?.key ?? "generales";
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  const tab = tabOf(request, user!.isAdmin);
  const url = new URL(request.url);
  const base = new URL(hereOf(request), url).pathname;
  const here = `${base}?tab=${tab}${url.searchParams.get("template") ? `&template=${url.searchParams.get("template")}` : ""}${url.searchParams.get("term") ? `&term=${url.searchParams.get("term")}` : ""}`;
  const common = { company: { id: company.id, name: company.name, plan5: company.permission === 5 }, base, here, tab, isAdmin: user!.isAdmin };
  switch (tab) {
    case "email":
      return { ...common, email: await emailFormState(db(), company.id) };
    case "plantillas":
      return { ...common, templates: await listTemplates(db(), company.id), templateId: optionalId(url.searchParams.get("template")) };
    case "terminos": {
      const raw = url.searchParams.get("term");
      return { ...common, terms: await listTerms(db(), company.id), termId: raw === "new" ? ("new" as const) : optionalId(raw) };
    }
    default:
      return { ...common, general: await generalConfigValues(db(), company.id) };
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id);
  if (tooLarge(request, 256 * 1024)) return { section: "generals", values: {}, errors: {}, message: "El formulario es demasiado grande", ok: false } satisfies SectionState;
  return handleSection(db(), user!, company, await request.formData(), hereOf(request));
}

export default function Configurations({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const state = actionData as SectionState | undefined;
  const backTo = d.isAdmin ? "/all-companies" : "/companies";
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">Configuraciones — {d.company.name}</h1>
        <div className="flex gap-2">
          {d.isAdmin && (
            <Link to={`/config-hacienda/${d.company.id}`} className="btn btn-outline">
              Config Hacienda
            </Link>
          )}
          {d.isAdmin && d.company.plan5 && (
            <Link to={`/config-api/${d.company.id}`} className="btn btn-outline">
              API
            </Link>
          )}
          <Link to={backTo} className="btn btn-outline">
            Volver
          </Link>
        </div>
      </div>
      <ConfigTabs base={d.base} current={d.tab} isAdmin={d.isAdmin} />
      {"general" in d && d.general && <GeneralForm action={d.here} values={d.general} state={stateFor(state, "generals")} />}
      {"email" in d && d.email && <EmailForms action={d.here} outgoing={d.email.outgoing} reception={d.email.reception} state={state} />}
      {"templates" in d && d.templates && (
        <TemplatesView
          action={d.here}
          linkBase={(id) => withParam(`${d.base}?tab=plantillas`, "template", String(id))}
          templates={d.templates}
          selectedId={typeof d.templateId === "number" && !Number.isNaN(d.templateId) ? d.templateId : null}
          state={stateFor(state, "template")}
        />
      )}
      {"terms" in d && d.terms && (
        <TermsView
          action={d.here}
          linkBase={(id) => withParam(`${d.base}?tab=terminos`, "term", String(id))}
          terms={d.terms}
          selected={d.termId === "new" ? "new" : typeof d.termId === "number" && !Number.isNaN(d.termId) ? d.termId : null}
          state={stateFor(state, "term")}
        />
      )}
    </div>
  );
}
