// /message-receptors/process — the 'update acceptance' dialog over the list (spec part 2 §2, §3
// Reception form, §4; issue 12 item 3): one pending document (?id=, shows its file name) or the
// ticked ones (?ids=…, from the list's 'Procesar múltiples' form). The decision goes to one use-case
// (processReceptions); back to the list with 'Actualizada correctamente'. Plan 5: 403.
import { data } from "react-router";
import type { Route } from "./+types/process-dialog";
import { categoriesOf, pendingReceptions, receptionOf, receptionSettingsOf } from "../../../db/queries/receptions.ts";
import { DecisionFields } from "../../components/reception-forms.tsx";
import { RouteDialog } from "../../components/route-dialog.tsx";
import { AppForm, FormAlert, SubmitButton } from "../../components/form.tsx";
import { formatDate, formatMoney, truncate } from "../../domain/format.ts";
import { formValues, parseForm } from "../../domain/forms.ts";
import { ACCEPTANCE_OPTIONS, categorySchema, currencySymbol, decisionOf, processSchema, RECEPTION_MESSAGES, receptionNumber, TAX_CONDITIONS } from "../../domain/receptions.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { processReceptions, type ProcessOutcome } from "../../server/receptions/process.server.ts";
import { createCategory } from "../../server/receptions/upload.server.ts";
import { listUrl, requireWriter } from "./upload-route.server.ts";
import { ReceptionError } from "./reception-error.tsx";
import { Link } from "react-router";

const idOf = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = requireWriter(context);
  const params = new URL(request.url).searchParams;
  const database = db();
  const single = params.has("id");
  const ids = single ? [idOf(params.get("id"))] : params.getAll("ids").map(idOf);
  if (single && !(await receptionOf(database, { companyId: company.id, id: ids[0]! }))) throw data(RECEPTION_MESSAGES.notFound, { status: 404 });
  const [docs, categories, settings] = await Promise.all([pendingReceptions(database, { companyId: company.id, ids }), categoriesOf(database, company.id), receptionSettingsOf(database, company.id)]);
  const first = single ? await receptionOf(database, { companyId: company.id, id: ids[0]! }) : undefined;
  return {
    single,
    back: listUrl(request),
    lists: { categories, taxConditions: TAX_CONDITIONS, acceptance: ACCEPTANCE_OPTIONS },
    defaults: {
      message: "1",
      message_detail: "",
      expense_category: String(first?.expenseCategoryId ?? settings?.expenseCategoryId ?? ""),
      tax_condition: first?.taxCondition ?? settings?.taxCondition ?? "01",
      tax_credit: "",
      applicable_expense: "",
    } as Record<string, string>,
    docs: docs.map((d) => ({
      id: d.id,
      number: receptionNumber(d.clave),
      issuer: d.issuerName,
      date: formatDate(d.issuedAt),
      total: formatMoney(d.total, currencySymbol(d.currency)),
      filename: d.uploadFilename ?? `${d.clave}.xml`,
    })),
  };
}

type ActionState = { errors: Record<string, string>; values: Record<string, string>; outcomes: ProcessOutcome[]; notice?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const { company, user } = requireWriter(context);
  const form = await request.formData();
  if (form.get("intent") === "category") {
    // 'Nueva': the category is added and the dialog shows again with what was chosen, the new category selected.
    const values = formValues(form);
    const named = parseForm(categorySchema, form);
    if (!named.ok) return data<ActionState>({ errors: named.errors, values, outcomes: [] }, { status: 400 });
    const created = await createCategory(db(), company.id, named.data.new_category_name);
    if (!created.ok) return data<ActionState>({ errors: { new_category_name: created.message }, values, outcomes: [] }, { status: 400 });
    delete values.new_category_name;
    return data<ActionState>({ errors: {}, values: { ...values, expense_category: String(created.id) }, outcomes: [], notice: RECEPTION_MESSAGES.categoryCreated });
  }
  const parsed = parseForm(processSchema, { ...formValues(form), accept_multiples: form.getAll("accept_multiples").filter((v): v is string => typeof v === "string") });
  const values = formValues(form);
  if (!parsed.ok) return data<ActionState>({ errors: parsed.errors, values, outcomes: [] }, { status: 400 });
  const ids = (parsed.data.type_update_doc === "single" ? [parsed.data.id] : parsed.data.accept_multiples).map(idOf);
  const decision = decisionOf(parsed.data)!;
  const r = await processReceptions(db(), { companyId: company.id, userId: user.id, ids, decision, now: new Date() });
  if (!r.ok) {
    if (r.notFound) throw data(RECEPTION_MESSAGES.notFound, { status: 404 });
    return data<ActionState>({ errors: r.errors, values, outcomes: [] }, { status: 400 });
  }
  if (r.outcomes.every((o) => o.ok)) {
    const waiting = r.outcomes.some((o) => o.status === "esperando");
    return redirectWithToast(listUrl(request), { type: "success", text: waiting ? `${RECEPTION_MESSAGES.processed}. ${RECEPTION_MESSAGES.waitingIssuer}` : RECEPTION_MESSAGES.processed });
  }
  return data<ActionState>({ errors: {}, values, outcomes: r.outcomes }, { status: r.outcomes.some((o) => o.ok) ? 200 : 400 });
}

export function meta() {
  return [{ title: "Procesar documentos recibidos" }];
}

export default function ProcessDialog({ loaderData: d, actionData }: Route.ComponentProps) {
  const state = actionData as ActionState | undefined;
  const values = { ...d.defaults, ...(state?.values ?? {}) };
  const errors = state?.errors ?? {};
  const byId = new Map(d.docs.map((x) => [x.id, x]));
  return (
    <RouteDialog title={d.single ? "Procesar documento" : "Procesar múltiples"} closeTo={d.back} wide data="reception-process">
      {d.docs.length === 0 ? (
        <div className="space-y-3">
          <FormAlert>{d.single ? RECEPTION_MESSAGES.notPending : RECEPTION_MESSAGES.selectRows}</FormAlert>
          <Link className="btn btn-outline" to={d.back}>
            Volver
          </Link>
        </div>
      ) : (
        <AppForm className="space-y-3" key={JSON.stringify([values, d.lists.categories.length])} noValidate data-reception-form data-process-form>
          <input type="hidden" name="type_update_doc" value={d.single ? "single" : "multiple"} />
          {d.single ? <input type="hidden" name="id" value={d.docs[0]!.id} /> : d.docs.map((x) => <input key={x.id} type="hidden" name="accept_multiples" value={x.id} />)}
          {d.single ? (
            <p className="text-sm" data-process-file>
              Archivo: <span className="font-medium">{d.docs[0]!.filename}</span> — {truncate(d.docs[0]!.issuer, 40)}, {d.docs[0]!.number}, {d.docs[0]!.total}
            </p>
          ) : (
            <ul className="max-h-40 overflow-y-auto rounded-md border border-slate-200 p-2 text-sm" data-process-docs>
              {d.docs.map((x) => (
                <li key={x.id}>
                  {x.number} — {truncate(x.issuer, 40)} ({x.date}) {x.total}
                </li>
              ))}
            </ul>
          )}
          {state?.notice ? (
            <p className="rounded-md bg-primary/10 p-3 text-sm" role="status">
              {state.notice}
            </p>
          ) : null}
          {errors._form ? <FormAlert>{errors._form}</FormAlert> : null}
          {state?.outcomes.length ? (
            <ul className="space-y-1 rounded-md border border-slate-200 p-3 text-sm" data-process-outcomes>
              {state.outcomes.map((o) => (
                <li key={o.id} data-outcome={o.ok ? "ok" : "refused"}>
                  <span className={o.ok ? "text-primary-dark" : "text-danger"}>{o.ok ? "✓" : "✗"} </span>
                  <span className="font-medium">{byId.get(o.id)?.number ?? o.id}:</span> {o.message}
                </li>
              ))}
            </ul>
          ) : null}
          <button type="submit" className="hidden" tabIndex={-1} aria-hidden="true" />
          <DecisionFields lists={d.lists} values={values} errors={errors} withAmountsHint={d.single ? "Vacíos: el impuesto acreditable y el gasto se calculan del comprobante según la condición de impuesto." : "Con varios documentos deje los montos vacíos: se calculan de cada comprobante."} />
          <div className="flex flex-wrap justify-end gap-2">
            <Link className="btn btn-outline" to={d.back}>
              Cancelar
            </Link>
            <SubmitButton>Procesar</SubmitButton>
          </div>
        </AppForm>
      )}
    </RouteDialog>
  );
}

export const ErrorBoundary = ReceptionError;
