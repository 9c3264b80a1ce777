// /expenses/categories — the company's expense categories (spec part 2 §3 Expense category, §7
// store/update-expense-category; docs/decisions/150-expenses.md): a dialog over the expenses list,
// a route of its own, with a form to add one and one per category to rename it.
import { data } from "react-router";
import type { Route } from "./+types/categories";
import { categoriesOf } from "../../../db/queries/expenses.ts";
import { AppForm, FormAlert, SubmitButton } from "../../components/form.tsx";
import { RouteDialog } from "../../components/route-dialog.tsx";
import { categorySchema } from "../../domain/expenses.ts";
import { EXPENSE_MESSAGES } from "../../domain/expense-texts.ts";
import { parseForm } from "../../domain/forms.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { saveCategory } from "../../server/expenses.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

const HERE = "/expenses/categories";

function requireWriter(context: Route.LoaderArgs["context"]) {
  const { company } = context.get(requestContext);
  if (!company) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (company.permission === 5) throw data(EXPENSE_MESSAGES.readOnly, { status: 403 });
  return company;
}

export async function loader({ context }: Route.LoaderArgs) {
  const company = requireWriter(context);
  return { categories: await categoriesOf(db(), { companyId: company.id }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const company = requireWriter(context);
  const form = await request.formData();
  const rawId = String(form.get("category_id") ?? "");
  if (rawId && !/^\d{1,9}$/.test(rawId)) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  const id = rawId ? Number(rawId) : null;
  const parsed = parseForm(categorySchema, form);
  if (!parsed.ok) return data({ id, errors: parsed.errors, name: parsed.values.name ?? "" }, { status: 400 });
  const r = await saveCategory(db(), { companyId: company.id, id, name: parsed.data.name, now: new Date() });
  if (!r) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (!r.ok) return data({ id, errors: r.errors, name: parsed.data.name }, { status: 400 });
  return redirectWithToast(HERE, { type: "success", text: r.created ? EXPENSE_MESSAGES.categoryAdded : EXPENSE_MESSAGES.categoryUpdated });
}

export function meta() {
  return [{ title: "Categorías de gastos" }];
}

function CategoryForm({ id, name, error }: { id: number | null; name: string; error?: string }) {
  const field = id ? `name-${id}` : "name-new";
  return (
    <AppForm action={HERE} className="flex flex-wrap items-end gap-2" key={`${id}:${name}`} noValidate data-category-row={id ?? "new"}>
      {id ? <input type="hidden" name="category_id" value={id} /> : null}
      <div className="min-w-0 flex-1">
        <label htmlFor={field} className={id ? "sr-only" : undefined}>
          {id ? `Nombre de la categoría ${name}` : "Nueva categoría"}
        </label>
        <input id={field} name="name" className="input mt-1" maxLength={100} defaultValue={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${field}-error` : undefined} required />
      </div>
      <SubmitButton className={id ? "btn btn-outline" : "btn btn-primary"}>{id ? "Guardar" : "Agregar"}</SubmitButton>
      {error ? (
        <p className="field-error w-full" id={`${field}-error`}>
          {error}
        </p>
      ) : null}
    </AppForm>
  );
}

export default function Categories({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData;
  return (
    <RouteDialog title="Categorías de gastos" closeTo="/expenses" data="categories">
      {failed?.errors._form ? <FormAlert>{failed.errors._form}</FormAlert> : null}
      <CategoryForm id={null} name={failed && failed.id === null ? failed.name : ""} error={failed && failed.id === null ? failed.errors.name : undefined} />
      {loaderData.categories.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">{EXPENSE_MESSAGES.noCategories}</p>
      ) : (
        <ul className="mt-4 space-y-2" data-category-list>
          {loaderData.categories.map((c) => (
            <li key={c.id}>
              <CategoryForm id={c.id} name={failed && failed.id === c.id ? failed.name : c.name} error={failed && failed.id === c.id ? failed.errors.name : undefined} />
            </li>
          ))}
        </ul>
      )}
    </RouteDialog>
  );
}
