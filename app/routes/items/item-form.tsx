import { data } from "react-router";
import type { Route } from "./+types/item-form";
import { ItemFormView, itemFormKey } from "../../components/item-form.tsx";
import { ITEM_MESSAGES } from "../../domain/item-texts.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { handleItemForm, itemFormState } from "../../server/items.server.ts";

// The standalone pages /new-item and /edit-item/:id; they return to the list after saving.

function requireCompany(context: Route.LoaderArgs["context"]) {
  const { company } = context.get(requestContext);
  if (!company) throw data("No encontrado", { status: 404 });
  return company;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const company = requireCompany(context);
  return itemFormState(db(), { companyId: company.id, itemId: params.id });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const company = requireCompany(context);
  const outcome = await handleItemForm(db(), { companyId: company.id, itemId: params.id, form: await request.formData() });
  if (outcome.kind === "saved") return redirectWithToast("/items", { type: "success", text: outcome.created ? ITEM_MESSAGES.saved : ITEM_MESSAGES.updated });
  return data(outcome.state, { status: outcome.status });
}

export default function ItemForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  return <ItemFormView key={itemFormKey(state)} state={state} />;
}
