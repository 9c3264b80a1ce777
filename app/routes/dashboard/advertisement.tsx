import { data } from "react-router";
import type { Route } from "./+types/advertisement";
import { AppForm, Field, SubmitButton } from "../../components/form.tsx";
import { parseForm } from "../../domain/forms.ts";
import { ADVERTISEMENT_MESSAGES, advertisementSchema } from "../../domain/user-schemas.ts";
import { ADVERTISEMENT_SUPER_ADMIN_ONLY, currentAdvertisement, saveAdvertisement } from "../../server/advertisement.server.ts";
import { requireSuperAdmin } from "../../server/companies.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

export async function loader({ context }: Route.LoaderArgs) {
  requireSuperAdmin(context.get(requestContext).user, ADVERTISEMENT_SUPER_ADMIN_ONLY);
  const ad = await currentAdvertisement(db());
  return { values: { active: ad?.active ? "on" : "", title: ad?.title ?? "", content: ad?.contentHtml ?? "" } as Record<string, string>, code: ad?.code ?? 0 };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireSuperAdmin(context.get(requestContext).user, ADVERTISEMENT_SUPER_ADMIN_ONLY);
  const parsed = parseForm(advertisementSchema, await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors, values: parsed.values }, { status: 400 });
  await saveAdvertisement(db(), parsed.data, new Date(), user.id);
  return redirectWithToast("/advertisement", { type: "success", text: ADVERTISEMENT_MESSAGES.saved });
}

export default function Advertisement({ loaderData, actionData }: Route.ComponentProps) {
  const errors: Record<string, string> = actionData?.errors ?? {};
  const values: Record<string, string> = actionData?.values ?? loaderData.values;
  return (
    <div className="card mx-auto max-w-2xl">
      <h1 className="text-lg font-semibold">Anuncio</h1>
      <AppForm key={JSON.stringify(values)} className="mt-4 space-y-4" noValidate>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="active" defaultChecked={values.active === "on"} role="switch" />
          <span>Activado/Desactivado</span>
        </label>
        <Field label="Título" name="title" error={errors.title}>
          <input id="title" name="title" className="input" required maxLength={150} defaultValue={values.title ?? ""} aria-invalid={!!errors.title || undefined} />
        </Field>
        <Field label="Contenido" name="content" error={errors.content}>
          <textarea id="content" name="content" className="input font-mono" rows={10} required defaultValue={values.content ?? ""} aria-invalid={!!errors.content || undefined} />
        </Field>
        <p className="text-xs text-slate-500">
          Admite HTML básico: párrafos, negrita, cursiva, subrayado, enlaces, listas, títulos e imágenes https. Todo lo demás se elimina al guardar.
        </p>
        <div className="flex justify-end">
          <SubmitButton>Guardar</SubmitButton>
        </div>
      </AppForm>
    </div>
  );
}
