// /expenses/new/category — the new-category dialog of 'Nuevo gasto' (spec part 2 "Expenses": "New
// expense form with new-category modal"; docs/decisions/150-expenses.md). A child route of the
// expense form, which shows behind it what was typed. Saving goes back to the form with everything
// typed (and the chosen receipt) and the new category chosen; 'Cerrar' goes back without it.
import { data } from "react-router";
import type { Route } from "./+types/new-category";
import { AppForm, Field, SubmitButton } from "../../components/form.tsx";
import { RouteDialog } from "../../components/route-dialog.tsx";
import { categorySchema } from "../../domain/expenses.ts";
import { EXPENSE_MESSAGES } from "../../domain/expense-texts.ts";
import { parseForm, type FieldErrors } from "../../domain/forms.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { saveCategory } from "../../server/expenses.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

const BACK = "/expenses/new?restore=1";

export async function action({ request, context }: Route.ActionArgs) {
  const { company } = context.get(requestContext);
  if (!company) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (company.permission === 5) throw data(EXPENSE_MESSAGES.readOnly, { status: 403 });
  const parsed = parseForm(categorySchema, await request.formData());
  if (!parsed.ok) return data({ errors: parsed.errors, name: parsed.values.name ?? "" }, { status: 400 });
  const r = await saveCategory(db(), { companyId: company.id, id: null, name: parsed.data.name, now: new Date() });
  if (!r || !r.ok) return data({ errors: r ? r.errors : { name: EXPENSE_MESSAGES.problem }, name: parsed.data.name }, { status: 400 });
  return redirectWithToast(`${BACK}&category=${r.id}`, { type: "success", text: EXPENSE_MESSAGES.categoryAdded });
}

export function meta() {
  return [{ title: "Nueva categoría" }];
}

export default function NewCategory({ actionData }: Route.ComponentProps) {
  const errors: FieldErrors = actionData?.errors ?? {};
  return (
    <RouteDialog title="Nueva categoría" closeTo={BACK} data="category">
      <AppForm action="/expenses/new/category" className="space-y-3" key={actionData?.name ?? ""} noValidate data-category-form>
        <Field label="Nombre" name="name" error={errors.name}>
          <input id="name" name="name" className="input" maxLength={100} defaultValue={actionData?.name ?? ""} aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? "name-error" : undefined} required autoFocus />
        </Field>
        <div className="flex justify-end gap-2">
          <SubmitButton>Guardar categoría</SubmitButton>
        </div>
      </AppForm>
    </RouteDialog>
  );
}
