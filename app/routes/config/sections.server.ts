// The configuration forms' actions, shared by their own screens and by the tabbed
// main-configurations / all-configurations screen. Each returns a redirect with a toast on success,
// or the submitted values (secrets dropped), the errors and the spec's message on failure.
import { data } from "react-router";
import type { Db } from "../../../db/client.ts";
import {
  CONFIG_MESSAGES,
  generalConfigSchema,
  outgoingEmailSchema,
  receptionEmailSchema,
  templateSchema,
  termSchema,
  testMailSchema,
  withParam,
} from "../../domain/config-schemas.ts";
import { formValues, parseForm, type FieldErrors } from "../../domain/forms.ts";
import { hasEmailPassword, mailServerProblem, saveOutgoingEmail, saveReceptionEmail, sendTestMail } from "../../server/company-mail.server.ts";
import { ADMIN_ONLY, optionalId, saveGeneralConfig, saveTemplate, saveTerm } from "../../server/config.server.ts";
import type { CurrentUser } from "../../server/context.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

export type Section = "generals" | "email-outgoing" | "email-reception" | "email-test" | "template" | "term";
export const SECTIONS: readonly Section[] = ["generals", "email-outgoing", "email-reception", "email-test", "template", "term"];

export interface SectionResult {
  section: Section;
  values: Record<string, string>;
  errors: FieldErrors;
  /** Form-level message: the spec's failure text, or the test e-mail outcome. */
  message: string | null;
  ok: boolean;
}

const SECRET_FIELDS = ["password", "pin", "_csrf"];

function publicValues(form: FormData) {
  const values = formValues(form);
  for (const k of SECRET_FIELDS) delete values[k];
  return values;
}

const fail = (section: Section, form: FormData, errors: FieldErrors, message: string, status = 400) =>
  data<SectionResult>({ section, values: publicValues(form), errors, message, ok: false }, { status });

/** `here` is the page to come back to (path + search). */
export async function handleSection(db: Db, user: CurrentUser, company: { id: number; name: string }, form: FormData, here: string) {
  const section = String(form.get("section") ?? "") as Section;
  if (!SECTIONS.includes(section)) throw data("Formulario desconocido", { status: 400 });
  const adminOnly = section.startsWith("email-");
  if (adminOnly && !user.isAdmin) throw data(ADMIN_ONLY, { status: 403 });

  switch (section) {
    case "generals": {
      const parsed = parseForm(generalConfigSchema, form);
      if (!parsed.ok) return fail(section, form, parsed.errors, CONFIG_MESSAGES.missing);
      await saveGeneralConfig(db, company.id, parsed.data);
      return redirectWithToast(here, { type: "success", text: CONFIG_MESSAGES.saved });
    }
    case "email-outgoing": {
      const parsed = parseForm(outgoingEmailSchema({ hasPassword: await hasEmailPassword(db, company.id, "outgoing") }), form);
      if (!parsed.ok) return fail(section, form, parsed.errors, CONFIG_MESSAGES.emailMissing);
      const problem = await mailServerProblem(db, company.id, "outgoing", parsed.data);
      if (problem) return fail(section, form, { [problem.field]: problem.message }, problem.message);
      await saveOutgoingEmail(db, company.id, parsed.data);
      return redirectWithToast(here, { type: "success", text: CONFIG_MESSAGES.configSaved });
    }
    case "email-reception": {
      const parsed = parseForm(receptionEmailSchema({ hasPassword: await hasEmailPassword(db, company.id, "reception") }), form);
      if (!parsed.ok) return fail(section, form, parsed.errors, CONFIG_MESSAGES.emailMissing);
      const problem = await mailServerProblem(db, company.id, "reception", parsed.data);
      if (problem) return fail(section, form, { [problem.field]: problem.message }, problem.message);
      await saveReceptionEmail(db, company.id, parsed.data);
      return redirectWithToast(here, { type: "success", text: CONFIG_MESSAGES.configSaved });
    }
    case "email-test": {
      const parsed = parseForm(testMailSchema, form);
      if (!parsed.ok) return fail(section, form, parsed.errors, CONFIG_MESSAGES.testMailAddress);
      const sent = await sendTestMail(db, company.id, company.name, parsed.data.test_to);
      return data<SectionResult>({ section, values: publicValues(form), errors: {}, message: sent.message, ok: sent.ok }, { status: sent.ok ? 200 : 502 });
    }
    case "template": {
      const id = optionalId(String(form.get("id") ?? ""));
      if (id === null || Number.isNaN(id)) throw data("No encontrado", { status: 404 });
      const parsed = parseForm(templateSchema, form);
      if (!parsed.ok) return fail(section, form, parsed.errors, CONFIG_MESSAGES.templateMissing);
      if (!(await saveTemplate(db, company.id, id, parsed.data))) throw data("No encontrado", { status: 404 });
      return redirectWithToast(withParam(here, "template", String(id)), { type: "success", text: CONFIG_MESSAGES.saved });
    }
    case "term": {
      const id = optionalId(String(form.get("id") ?? ""));
      if (Number.isNaN(id)) throw data("No encontrado", { status: 404 });
      const parsed = parseForm(termSchema, form);
      if (!parsed.ok) return fail(section, form, parsed.errors, CONFIG_MESSAGES.missing);
      const saved = await saveTerm(db, company.id, id, parsed.data);
      if (saved === false) throw data("No encontrado", { status: 404 });
      return redirectWithToast(withParam(here, "term", String(saved)), { type: "success", text: CONFIG_MESSAGES.saved });
    }
  }
}

/** The request's own path and search (the page a form comes back to). */
export function hereOf(request: Request): string {
  const url = new URL(request.url);
  // Single-fetch requests (JavaScript on) arrive as /path.data?_routes=…: come back to the page itself.
  for (const k of ["index", "_data", "_routes"]) url.searchParams.delete(k);
  return url.pathname.replace(/\.data$/, "").replace(/\/_root$/, "/") + url.search;
}

/** Refuses bodies above `max` bytes before parsing them. */
export function tooLarge(request: Request, max: number): boolean {
  return Number(request.headers.get("content-length") ?? 0) > max;
}
