// /expenses/payment-methods — the company's own payment methods for expenses (spec part 2 §3 Payment
// method: name and code, "custom ones editable"; §7 store/update-payment-method;
// docs/decisions/150-expenses.md): a dialog over the expenses list, a route of its own. Hacienda's
// methods (Efectivo, Tarjeta…) are listed and always offered; the company's own are added and edited.
import { data } from "react-router";
import type { Route } from "./+types/payment-methods";
import { paymentMethodsOf } from "../../../db/queries/expenses.ts";
import { AppForm, SubmitButton } from "../../components/form.tsx";
import { RouteDialog } from "../../components/route-dialog.tsx";
import { paymentMethodSchema } from "../../domain/expenses.ts";
import { EXPENSE_MESSAGES } from "../../domain/expense-texts.ts";
import { parseForm, type FieldErrors } from "../../domain/forms.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { savePaymentMethod, STANDARD_PAYMENT_METHODS } from "../../server/expenses.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

const HERE = "/expenses/payment-methods";

function requireWriter(context: Route.LoaderArgs["context"]) {
  const { company } = context.get(requestContext);
  if (!company) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (company.permission === 5) throw data(EXPENSE_MESSAGES.readOnly, { status: 403 });
  return company;
}

export async function loader({ context }: Route.LoaderArgs) {
  const company = requireWriter(context);
  return { standard: STANDARD_PAYMENT_METHODS.map((p) => p.name), custom: await paymentMethodsOf(db(), { companyId: company.id }) };
}

type Failed = { id: number | null; errors: FieldErrors; name: string; code: string };

export async function action({ request, context }: Route.ActionArgs) {
  const company = requireWriter(context);
  const form = await request.formData();
  const rawId = String(form.get("method_id") ?? "");
  if (rawId && !/^\d{1,9}$/.test(rawId)) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  const id = rawId ? Number(rawId) : null;
  const parsed = parseForm(paymentMethodSchema, form);
  if (!parsed.ok) return data<Failed>({ id, errors: parsed.errors, name: parsed.values.name ?? "", code: parsed.values.code ?? "" }, { status: 400 });
  const r = await savePaymentMethod(db(), { companyId: company.id, id, name: parsed.data.name, code: parsed.data.code, now: new Date() });
  if (!r) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (!r.ok) return data<Failed>({ id, errors: r.errors, name: parsed.data.name, code: parsed.data.code }, { status: 400 });
  return redirectWithToast(HERE, { type: "success", text: r.created ? EXPENSE_MESSAGES.methodAdded : EXPENSE_MESSAGES.methodUpdated });
}

export function meta() {
  return [{ title: "Métodos de pago" }];
}

function MethodForm({ id, name, code, errors }: { id: number | null; name: string; code: string; errors: FieldErrors }) {
  const f = id ? `${id}` : "new";
  return (
    <AppForm action={HERE} className="flex flex-wrap items-end gap-2" key={`${id}:${name}:${code}`} noValidate data-method-row={id ?? "new"}>
      {id ? <input type="hidden" name="method_id" value={id} /> : null}
      <div className="min-w-0 flex-1">
        <label htmlFor={`method-name-${f}`}>{id ? "Nombre" : "Nuevo método de pago"}</label>
        <input id={`method-name-${f}`} name="name" className="input mt-1" maxLength={100} defaultValue={name} aria-invalid={errors.name ? true : undefined} aria-describedby={errors.name ? `method-name-${f}-error` : undefined} required />
      </div>
      <div className="w-28">
        <label htmlFor={`method-code-${f}`}>Código</label>
        <input id={`method-code-${f}`} name="code" className="input mt-1" maxLength={20} defaultValue={code} aria-invalid={errors.code ? true : undefined} />
      </div>
      <SubmitButton className={id ? "btn btn-outline" : "btn btn-primary"}>{id ? "Guardar" : "Agregar"}</SubmitButton>
      {errors.name || errors.code ? (
        <p className="field-error w-full" id={`method-name-${f}-error`}>
          {errors.name ?? errors.code}
        </p>
      ) : null}
    </AppForm>
  );
}

export default function PaymentMethods({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData as Failed | undefined;
  const mine = (id: number | null) => (failed && failed.id === id ? failed : undefined);
  return (
    <RouteDialog title="Métodos de pago" closeTo="/expenses" wide data="payment-methods">
      <p className="text-sm text-slate-600">De Hacienda (siempre disponibles): {loaderData.standard.join(", ")}.</p>
      <div className="mt-4">
        <MethodForm id={null} name={mine(null)?.name ?? ""} code={mine(null)?.code ?? ""} errors={mine(null)?.errors ?? {}} />
      </div>
      {loaderData.custom.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">{EXPENSE_MESSAGES.noMethods}</p>
      ) : (
        <ul className="mt-4 space-y-2" data-method-list>
          {loaderData.custom.map((m) => (
            <li key={m.id}>
              <MethodForm id={m.id} name={mine(m.id)?.name ?? m.name} code={mine(m.id)?.code ?? m.code ?? ""} errors={mine(m.id)?.errors ?? {}} />
            </li>
          ))}
        </ul>
      )}
    </RouteDialog>
  );
}
