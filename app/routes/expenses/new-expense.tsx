// /expenses/new — 'Nuevo gasto' (spec part 2 "Expenses", §5, §8; docs/decisions/150-expenses.md): a
// dialog over the expenses list, a route of its own. Date, description, amount (2 decimals),
// currency and exchange rate, reference, category (with 'Nueva': the /expenses/new/category dialog),
// payment method (Hacienda's list and the company's own), one receipt (a photo or a PDF).
// 'Nueva' is a submission: the typed values (and the chosen file, kept as an upload) wait in the
// session while the category dialog is open and come back with the new category chosen. A failed
// save shows the messages next to the fields with everything typed, the file included.
import { data, Link, Outlet, redirect } from "react-router";
import type { Route } from "./+types/new-expense";
import { categoryOf, pendingAttachmentOf } from "../../../db/queries/expenses.ts";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { useFieldChecks } from "../../components/form-checks.tsx";
import { RouteDialog } from "../../components/route-dialog.tsx";
import { expenseSchema } from "../../domain/expenses.ts";
import { ATTACHMENT_MAX_BYTES, EXPENSE_MESSAGES } from "../../domain/expense-texts.ts";
import { formValues, parseForm, type FieldErrors } from "../../domain/forms.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { peekDraft, stashDraft, takeDraft } from "../../server/draft-stash.server.ts";
import { storeAttachment } from "../../server/expense-files.server.ts";
import { expenseFormState, recordExpense } from "../../server/expenses.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

const FORM_PATH = "/expenses/new";

function requireWriter(context: Route.LoaderArgs["context"]) {
  const { company, user, sessionId } = context.get(requestContext);
  if (!company || !user || !sessionId) throw data(EXPENSE_MESSAGES.notFound, { status: 404 });
  if (company.permission === 5) throw data(EXPENSE_MESSAGES.readOnly, { status: 403 });
  return { company, user, sessionId };
}

/** The kept receipt of these values, when it is still the company's and unused. */
async function keptAttachment(companyId: number, values: Record<string, string>) {
  const raw = values.attachment_id ?? "";
  if (!/^\d{1,9}$/.test(raw)) return null;
  const row = await pendingAttachmentOf(db(), { companyId, id: Number(raw) });
  return row ? { id: row.id, name: row.originalName } : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company, sessionId } = requireWriter(context);
  const url = new URL(request.url);
  const state = await expenseFormState(db(), { companyId: company.id, now: new Date() });
  // Back from the category dialog (restore), or the dialog is open over this form (peek).
  const kept = url.pathname !== FORM_PATH ? await peekDraft(db(), sessionId, FORM_PATH) : url.searchParams.get("restore") ? await takeDraft(db(), sessionId, FORM_PATH) : null;
  const values = { ...state.defaults, ...(kept ?? {}) };
  const chosen = url.searchParams.get("category");
  if (chosen && /^\d{1,9}$/.test(chosen) && (await categoryOf(db(), { companyId: company.id, id: Number(chosen) }))) values.category_id = chosen;
  const attachment = await keptAttachment(company.id, values);
  if (!attachment) values.attachment_id = "";
  return { ...state, values, attachment, maxMb: Math.round(ATTACHMENT_MAX_BYTES / (1024 * 1024)) };
}

type ActionState = { errors: FieldErrors; values: Record<string, string>; attachment: { id: number; name: string } | null };

export async function action({ request, context }: Route.ActionArgs) {
  const { company, user, sessionId } = requireWriter(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const values = formValues(form);
  delete values.intent;
  const errors: FieldErrors = {};

  // The receipt: a new file replaces the kept one; 'Quitar' drops it.
  const files = form.getAll("attachment").filter((f): f is File => typeof f !== "string" && f.size > 0);
  if (intent === "remove-attachment") values.attachment_id = "";
  else if (files.length > 1) errors.attachment = EXPENSE_MESSAGES.fileOne;
  else if (files.length === 1) {
    const stored = await storeAttachment(db(), { companyId: company.id, userId: user.id, file: files[0], now: new Date() });
    if (stored.ok) values.attachment_id = String(stored.id);
    else errors.attachment = stored.message;
  }
  const attachment = await keptAttachment(company.id, values);
  if (!attachment) values.attachment_id = "";

  if (intent === "new-category") {
    // A refused file is said here, before leaving for the category dialog.
    if (errors.attachment) return data<ActionState>({ errors, values, attachment }, { status: 400 });
    await stashDraft(db(), sessionId, FORM_PATH, values);
    return redirect(`${FORM_PATH}/category`);
  }
  if (intent === "remove-attachment") return data<ActionState>({ errors: {}, values, attachment: null });

  const parsed = parseForm(expenseSchema, values);
  if (!parsed.ok || errors.attachment) return data<ActionState>({ errors: { ...(parsed.ok ? {} : parsed.errors), ...errors }, values, attachment }, { status: 400 });
  const r = await recordExpense(db(), { companyId: company.id, userId: user.id, expense: parsed.data, now: new Date() });
  if (!r.ok) return data<ActionState>({ errors: r.errors, values, attachment: r.errors.attachment ? null : attachment }, { status: 400 });
  return redirectWithToast("/expenses", { type: "success", text: EXPENSE_MESSAGES.recorded });
}

export function meta() {
  return [{ title: "Nuevo gasto" }];
}

const invalid = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? true : undefined);
const describedBy = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? `${name}-error` : undefined);

export default function NewExpense({ loaderData: d, actionData }: Route.ComponentProps) {
  const state = actionData as ActionState | undefined;
  const v = state ? { ...d.values, ...state.values } : d.values;
  // The schema the action parses with, checked as the fields are left (decisions 166, 155); 'Nueva'
  // (category) and 'Quitar' (the receipt) are not saves and leave unchecked.
  const check = useFieldChecks("expense", undefined, { serverErrors: (state?.errors ?? null) as Record<string, string> | null });
  const errors = check.errors;
  const attachment = state ? state.attachment : d.attachment;
  return (
    <RouteDialog title="Nuevo gasto" closeTo="/expenses" wide data="expense">
      <AppForm action={FORM_PATH} encType="multipart/form-data" className="space-y-3" key={JSON.stringify(v)} data-expense-form {...check.formProps}>
        {/* Enter in a field saves (the first submit button of the form), never opens the category dialog. */}
        <button type="submit" name="intent" value="save" hidden tabIndex={-1} aria-hidden="true" />
        {errors._form ? <FormAlert>{errors._form}</FormAlert> : null}
        <div className="grid gap-3 sm:grid-cols-2" data-currency-of>
          <Field label="Fecha" name="date" error={errors.date}>
            <input id="date" name="date" type="date" className="input" defaultValue={v.date} aria-invalid={invalid(errors, "date")} aria-describedby={describedBy(errors, "date")} required />
          </Field>
          <Field label="Referencia" name="reference" error={errors.reference}>
            <input id="reference" name="reference" className="input" maxLength={100} defaultValue={v.reference} aria-invalid={invalid(errors, "reference")} aria-describedby={describedBy(errors, "reference")} />
          </Field>
          <Field label="Descripción" name="description" error={errors.description} className="sm:col-span-2">
            <input id="description" name="description" className="input" maxLength={250} defaultValue={v.description} aria-invalid={invalid(errors, "description")} aria-describedby={describedBy(errors, "description")} required />
          </Field>
          <Field label="Monto" name="amount" error={errors.amount}>
            <input id="amount" name="amount" className="input" inputMode="decimal" autoComplete="off" defaultValue={v.amount} aria-invalid={invalid(errors, "amount")} aria-describedby={describedBy(errors, "amount")} required />
          </Field>
          <Field label="Moneda" name="currency_id" error={errors.currency_id}>
            <select id="currency_id" name="currency_id" className="input" defaultValue={v.currency_id} aria-invalid={invalid(errors, "currency_id")} aria-describedby={describedBy(errors, "currency_id")}>
              <option value="2">Colones (₡)</option>
              <option value="1">Dólares ($)</option>
            </select>
          </Field>
          <div data-exchange-rate className="sm:col-span-2">
            <Field label="Tipo de cambio (colones por dólar)" name="exchange_rate" error={errors.exchange_rate}>
              <input id="exchange_rate" name="exchange_rate" className="input" inputMode="decimal" autoComplete="off" defaultValue={v.exchange_rate} aria-invalid={invalid(errors, "exchange_rate")} aria-describedby={describedBy(errors, "exchange_rate")} />
            </Field>
            {d.rateNote ? <p className="mt-1 text-xs text-warning">{d.rateNote}</p> : null}
          </div>
          <Field label="Categoría" name="category_id" error={errors.category_id}>
            <div className="flex gap-2">
              <select id="category_id" name="category_id" className="input" defaultValue={v.category_id} aria-invalid={invalid(errors, "category_id")} aria-describedby={describedBy(errors, "category_id")}>
                <option value="">Seleccione una categoría</option>
                {d.categories.map((c) => (
                  <option key={c.id} value={String(c.id)}>
                    {c.name}
                  </option>
                ))}
              </select>
              <button type="submit" name="intent" value="new-category" className="btn btn-outline" formNoValidate data-new-category>
                Nueva
              </button>
            </div>
          </Field>
          <Field label="Método de pago" name="payment_method" error={errors.payment_method}>
            <select id="payment_method" name="payment_method" className="input" defaultValue={v.payment_method} aria-invalid={invalid(errors, "payment_method")} aria-describedby={describedBy(errors, "payment_method")}>
              {d.paymentMethods.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.name}
                </option>
              ))}
            </select>
          </Field>
          <div className="sm:col-span-2">
            <Field label="Adjunto (foto o PDF del comprobante)" name="attachment" error={errors.attachment}>
              <input id="attachment" name="attachment" type="file" accept="image/jpeg,image/png,image/gif,image/webp,application/pdf" className="input" aria-invalid={invalid(errors, "attachment")} aria-describedby={describedBy(errors, "attachment")} />
            </Field>
            <p className="mt-1 text-xs text-slate-500">Un archivo, máximo {d.maxMb} MB.</p>
            {attachment ? (
              <p className="mt-2 flex flex-wrap items-center gap-2 text-sm" data-kept-attachment>
                <input type="hidden" name="attachment_id" value={attachment.id} />
                <span>
                  Archivo adjunto: <strong>{attachment.name}</strong> (se guardará con el gasto; elegir otro lo reemplaza)
                </span>
                <button type="submit" name="intent" value="remove-attachment" className="btn btn-outline btn-sm" formNoValidate>
                  Quitar
                </button>
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Link className="btn btn-outline" to="/expenses">
            Cancelar
          </Link>
          <SubmitButton name="intent" value="save">
            Guardar
          </SubmitButton>
        </div>
      </AppForm>
      <Outlet />
    </RouteDialog>
  );
}
