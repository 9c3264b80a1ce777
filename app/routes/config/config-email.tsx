// /config-email/:company_id (admins): outgoing SMTP server with a real test e-mail, and the
// reception mailbox (spec part 1 §3 E-mail server configuration, §5: failure 'Faltan datos').
import type { Route } from "./+types/config-email";
import { emailFormState } from "../../server/company-mail.server.ts";
import { requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { handleSection, hereOf } from "./sections.server.ts";
import { EmailForms, type SectionState } from "./views.tsx";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id, { admin: true });
  return { company: { id: company.id, name: company.name }, here: hereOf(request), email: await emailFormState(db(), company.id) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id, { admin: true });
  const form = await request.formData();
  const section = String(form.get("section") ?? "");
  if (!["email-outgoing", "email-reception", "email-test"].includes(section)) form.set("section", "email-outgoing");
  return handleSection(db(), user!, company, form, hereOf(request));
}

export default function ConfigEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">Servidor Email — {loaderData.company.name}</h1>
      <EmailForms action={loaderData.here} outgoing={loaderData.email.outgoing} reception={loaderData.email.reception} state={actionData as SectionState | undefined} />
    </div>
  );
}
