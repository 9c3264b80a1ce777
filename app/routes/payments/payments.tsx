// /payments (spec part 2 "Payments, banks, reminders"; docs/decisions/095-payments.md).
// - Without parameters: the paged, searchable list of the company's payments (number, invoice,
//   client, payment method, amount, bank or 'S/B', reference, date, delete with a confirmation) and
//   the company's banks (new and edit: ?bank=new, ?bank=ID).
// - ?document_id=ID[&volver=PATH]: the payment registration form for one document (the 'Pagar'
//   action of the lists, the detail viewer and the client detail). After saving it goes back to
//   `volver` (a whitelist: app/domain/payments.ts paymentReturn) with the toast.
// Plan 5 (read-only) sees the list only: no form, no actions; the server answers 403 to its posts.
import { useMemo } from "react";
import { data, isRouteErrorResponse, Link, useRouteError } from "react-router";
import type { Route } from "./+types/payments";
import { bankOf, banksOf, fold, paymentsPage } from "../../../db/queries/payments.ts";
import { detailTypeOf } from "../../../db/queries/document-lists.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { useFieldChecks } from "../../components/form-checks.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { formatMoney, truncate } from "../../domain/format.ts";
import { parseForm } from "../../domain/forms.ts";
import { lastPage } from "../../domain/pagination.ts";
import { bankSchema, formatDay, PAYMENT_MESSAGES, paymentReturn, paymentSchema } from "../../domain/payments.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { deletePayment, PAYMENT_FORM_CODES, paymentFormName, paymentFormsMatching, paymentFormState, recordPayment, saveBank, symbolOf } from "../../server/payments.server.ts";


function requireSession(context: Route.LoaderArgs["context"]) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  return { company, user };
}

const idParam = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0);

/** The form's own URL (it posts back to itself, so a failed submission shows the same page). */
const payUrl = (documentId: number | string, volver: string) => `/payments?document_id=${documentId}&volver=${encodeURIComponent(volver)}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = requireSession(context);
  const url = new URL(request.url);
  const plan5 = company.permission === 5;
  const database = db();

  if (url.searchParams.has("document_id")) {
    if (plan5) throw data(PAYMENT_MESSAGES.readOnly, { status: 403 });
    const state = await paymentFormState(database, { companyId: company.id, documentId: idParam(url.searchParams.get("document_id")), now: new Date() });
    if (!state) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
    const volver = paymentReturn(url.searchParams.get("volver"));
    return { mode: "pay" as const, ...state, volver, action: payUrl(state.document.id, volver) };
  }

  const req = await listRequest(request, context, "/payments");
  const query = { companyId: company.id, search: req.search, formCodes: paymentFormsMatching(req.search, fold), perPage: req.perPage };
  let { rows, total } = await paymentsPage(database, { ...query, page: req.page });
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total } = await paymentsPage(database, { ...query, page: req.page }));
  }
  const rawBank = url.searchParams.get("bank");
  const editing = !plan5 && rawBank && rawBank !== "new" ? await bankOf(database, { companyId: company.id, id: idParam(rawBank) }) : null;
  if (!plan5 && rawBank && rawBank !== "new" && !editing) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  return {
    mode: "list" as const,
    plan5,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    rows: rows.map((r) => {
      const client = (r.clientSnapshot ?? {}) as { name?: string; generic?: boolean };
      return {
        id: r.id,
        document: { id: r.documentId, number: r.documentNumber, href: `/detail/${detailTypeOf(r.documentKind)}/${r.documentId}` },
        clientId: client.generic ? null : r.clientId,
        clientName: client.name ?? "",
        paymentForm: paymentFormName(r.paymentForm),
        amount: formatMoney(r.amount, symbolOf(r.currencyId)),
        bank: r.bankName ?? PAYMENT_MESSAGES.noBank,
        reference: r.reference ?? "",
        date: formatDay(r.paidOn),
      };
    }),
    banks: await banksOf(database, { companyId: company.id }),
    bankForm: plan5 ? null : editing ? { id: editing.id, name: editing.name } : rawBank === "new" ? { id: null, name: "" } : null,
  };
}

type ActionState = { intent: "pay" | "bank"; errors: Record<string, string>; values: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  const { company, user } = requireSession(context);
  if (company.permission === 5) throw data(PAYMENT_MESSAGES.readOnly, { status: 403 });
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const database = db();

  if (intent === "pay") {
    const back = paymentReturn(form.get("volver"));
    const parsed = parseForm(paymentSchema({ paymentForms: PAYMENT_FORM_CODES }), form);
    if (!parsed.ok) {
      if (parsed.errors.document_id) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
      return data<ActionState>({ intent: "pay", errors: parsed.errors, values: parsed.values }, { status: 400 });
    }
    const r = await recordPayment(database, { companyId: company.id, userId: user.id, payment: parsed.data });
    if (r.ok) return redirectWithToast(back, { type: "success", text: PAYMENT_MESSAGES.recorded });
    if (r.reason === "not-found") throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
    const values = Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "_csrf"));
    return data<ActionState>({ intent: "pay", errors: r.errors, values }, { status: 400 });
  }

  if (intent === "delete") {
    const back = paymentReturn(form.get("back"));
    if (form.get("confirm") === "cancel") return redirectWithToast(back, { type: "info", text: PAYMENT_MESSAGES.cancelled });
    const done = await deletePayment(database, { companyId: company.id, userId: user.id, id: idParam(String(form.get("payment_id") ?? "")), now: new Date() });
    if (!done) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
    return redirectWithToast(back, { type: "success", text: PAYMENT_MESSAGES.deleted });
  }

  if (intent === "bank") {
    const parsed = parseForm(bankSchema, form);
    const rawId = String(form.get("bank_id") ?? "");
    const id = rawId ? idParam(rawId) : null;
    if (id === 0) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
    if (!parsed.ok) return data<ActionState>({ intent: "bank", errors: parsed.errors, values: parsed.values }, { status: 400 });
    const r = await saveBank(database, { companyId: company.id, id, name: parsed.data.name, now: new Date() });
    if (!r) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
    if (!r.ok) return data<ActionState>({ intent: "bank", errors: r.errors, values: { name: parsed.data.name, bank_id: rawId } }, { status: 400 });
    return redirectWithToast("/payments", { type: "success", text: r.created ? PAYMENT_MESSAGES.bankAdded : PAYMENT_MESSAGES.bankUpdated });
  }

  return redirectWithToast("/payments", { type: "error", text: PAYMENT_MESSAGES.problem });
}

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: d?.mode === "pay" ? `Registrar pago — ${d.document.label}` : "Pagos" }];
}

const invalid = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? true : undefined);
const describedBy = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? `${name}-error` : undefined);

function PaymentForm({ d, state }: { d: Extract<Route.ComponentProps["loaderData"], { mode: "pay" }>; state?: ActionState }) {
  const v = state?.intent === "pay" ? { ...d.defaults, ...state.values } : d.defaults;
  const serverErrors = state?.intent === "pay" ? state.errors : null;
  // The same schema the action parses with, checked as the fields are left (decision 166).
  const schema = useMemo(() => paymentSchema({ paymentForms: d.paymentForms.map((p) => p.code) }), [d.paymentForms]);
  const check = useFieldChecks(schema, { serverErrors, saveIntents: ["pay"] });
  const errors = check.errors;
  const doc = d.document;
  return (
    <div className="card mx-auto max-w-2xl space-y-4" data-payment-form>
      <h1 className="text-lg font-semibold">Registrar pago</h1>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3" data-payment-document>
        <div>
          <dt className="text-slate-600">Documento</dt>
          <dd className="font-medium">{doc.label}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-slate-600">Cliente</dt>
          <dd>{doc.client}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Total</dt>
          <dd data-payment-total>{doc.total}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Pagado</dt>
          <dd data-payment-paid>{doc.paid}</dd>
        </div>
        {doc.credited && (
          <div>
            <dt className="text-slate-600">Notas de crédito</dt>
            <dd data-payment-credited>{doc.credited}</dd>
          </div>
        )}
        {doc.debited && (
          <div>
            <dt className="text-slate-600">Notas de débito</dt>
            <dd data-payment-debited>{doc.debited}</dd>
          </div>
        )}
        <div>
          <dt className="text-slate-600">Saldo pendiente</dt>
          <dd className="font-semibold" data-payment-due>
            {doc.due}
          </dd>
        </div>
      </dl>
      {d.blocked ? (
        <>
          <FormAlert>{d.blocked}</FormAlert>
          <Link className="btn btn-outline" to={d.volver}>
            Volver
          </Link>
        </>
      ) : (
        <AppForm action={d.action} className="space-y-3" key={JSON.stringify(v)} {...check.formProps}>
          <input type="hidden" name="intent" value="pay" />
          <input type="hidden" name="document_id" value={doc.id} />
          <input type="hidden" name="volver" value={d.volver} />
          {errors._form ? <FormAlert>{errors._form}</FormAlert> : null}
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Monto" name="amount" error={errors.amount}>
              <input id="amount" name="amount" className="input" inputMode="decimal" autoComplete="off" defaultValue={v.amount} aria-invalid={invalid(errors, "amount")} aria-describedby={describedBy(errors, "amount")} required />
            </Field>
            <Field label="Moneda" name="currency_id" error={errors.currency_id}>
              <select id="currency_id" name="currency_id" className="input" defaultValue={String(doc.currencyId)} aria-invalid={invalid(errors, "currency_id")} aria-describedby={describedBy(errors, "currency_id")}>
                <option value={String(doc.currencyId)}>{doc.currencyName}</option>
              </select>
            </Field>
            <Field label="Forma de pago" name="payment_form" error={errors.payment_form}>
              <select id="payment_form" name="payment_form" className="input" defaultValue={v.payment_form} aria-invalid={invalid(errors, "payment_form")} aria-describedby={describedBy(errors, "payment_form")}>
                {d.paymentForms.map((p) => (
                  <option key={p.code} value={p.code}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Fecha" name="date" error={errors.date}>
              <input id="date" name="date" type="date" className="input" defaultValue={v.date} aria-invalid={invalid(errors, "date")} aria-describedby={describedBy(errors, "date")} required />
            </Field>
            <Field label="Banco" name="bank_id" error={errors.bank_id}>
              <select id="bank_id" name="bank_id" className="input" defaultValue={v.bank_id} aria-invalid={invalid(errors, "bank_id")} aria-describedby={describedBy(errors, "bank_id")}>
                <option value="">{PAYMENT_MESSAGES.noBank}</option>
                {d.banks.map((b) => (
                  <option key={b.id} value={String(b.id)}>
                    {b.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Referencia" name="reference" error={errors.reference}>
              <input id="reference" name="reference" className="input" maxLength={100} defaultValue={v.reference} aria-invalid={invalid(errors, "reference")} aria-describedby={describedBy(errors, "reference")} />
            </Field>
            <Field label="Descripción" name="description" error={errors.description} className="sm:col-span-2">
              <input id="description" name="description" className="input" maxLength={250} defaultValue={v.description} aria-invalid={invalid(errors, "description")} aria-describedby={describedBy(errors, "description")} required />
            </Field>
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <Link className="btn btn-outline" to={d.volver}>
              Cancelar
            </Link>
            <SubmitButton>Registrar pago</SubmitButton>
          </div>
        </AppForm>
      )}
    </div>
  );
}

function BanksSection({ d, state }: { d: Extract<Route.ComponentProps["loaderData"], { mode: "list" }>; state?: ActionState }) {
  const failed = state?.intent === "bank" ? state : undefined;
  // A failed submission shows the form again with what was typed, even if the URL had no ?bank.
  const form = failed ? { id: failed.values.bank_id ? Number(failed.values.bank_id) : null, name: failed.values.name ?? "" } : d.bankForm;
  const errors = failed?.errors ?? {};
  return (
    <section className="card space-y-3" aria-labelledby="banks-title" data-banks>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="banks-title" className="font-semibold">
          Bancos
        </h2>
        {!d.plan5 && !form && (
          <Link className="btn btn-outline btn-sm" to="/payments?bank=new#banks-title">
            Nuevo banco
          </Link>
        )}
      </div>
      {form && (
        <AppForm action={form.id ? `/payments?bank=${form.id}` : "/payments?bank=new"} className="flex flex-wrap items-end gap-2" key={JSON.stringify(form)} noValidate data-bank-form>
          <input type="hidden" name="intent" value="bank" />
          {form.id ? <input type="hidden" name="bank_id" value={form.id} /> : null}
          <Field label={form.id ? "Editar banco" : "Nuevo banco"} name="name" error={errors.name}>
            <input id="name" name="name" className="input w-64" maxLength={100} defaultValue={form.name} aria-invalid={invalid(errors, "name")} aria-describedby={describedBy(errors, "name")} required />
          </Field>
          <SubmitButton className="btn btn-primary">Guardar</SubmitButton>
          <Link className="btn btn-outline" to="/payments">
            Cancelar
          </Link>
        </AppForm>
      )}
      {d.banks.length === 0 ? (
        <p className="text-slate-500">{PAYMENT_MESSAGES.noBanks}</p>
      ) : (
        <ul className="divide-y divide-slate-200" data-bank-list>
          {d.banks.map((b) => (
            <li key={b.id} className="flex items-center justify-between gap-2 py-2">
              <span>{b.name}</span>
              {!d.plan5 && (
                <Link className="btn btn-outline btn-sm" to={`/payments?bank=${b.id}#banks-title`} aria-label={`Editar ${b.name}`}>
                  Editar
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData as ActionState | undefined;
  if (loaderData.mode === "pay") return <PaymentForm d={loaderData} state={state} />;
  const d = loaderData;
  const here = `/payments${d.page > 1 ? `?page=${d.page}` : ""}`;
  const columns = d.plan5 ? 8 : 9;
  return (
    <div className="space-y-4">
      <div className="card">
        <h1 className="mb-4 text-lg font-semibold">Pagos</h1>
        <ListControls search={d.search} perPage={d.perPage} />
        <div className="overflow-x-auto">
          <table className="table" data-payments data-stack>
            <thead>
              <tr>
                <th>Número</th>
                <th>Factura</th>
                <th>Cliente</th>
                <th>Forma de pago</th>
                <th>Monto</th>
                <th>Banco</th>
                <th>Referencia</th>
                <th>Fecha</th>
                {!d.plan5 && <th>Acciones</th>}
              </tr>
            </thead>
            <tbody>
              {d.rows.length === 0 && (
                <tr>
                  <td colSpan={columns} className="text-center text-slate-500" data-empty>
                    {PAYMENT_MESSAGES.empty}
                  </td>
                </tr>
              )}
              {d.rows.map((r) => (
                <tr key={r.id} data-payment-id={r.id}>
                  <td data-label="Número">{r.id}</td>
                  <td data-label="Factura" className="break-all">
                    <Link to={r.document.href}>{r.document.number}</Link>
                  </td>
                  <td data-label="Cliente" title={r.clientName}>
                    {r.clientId ? <Link to={`/client-detail/${r.clientId}`}>{truncate(r.clientName)}</Link> : truncate(r.clientName)}
                  </td>
                  <td data-label="Forma de pago">{r.paymentForm}</td>
                  <td data-label="Monto" className="whitespace-nowrap text-right">
                    {r.amount}
                  </td>
                  <td data-label="Banco">{r.bank}</td>
                  <td data-label="Referencia">{r.reference}</td>
                  <td data-label="Fecha">{r.date}</td>
                  {!d.plan5 && (
                    <td data-label="Acciones">
                      <ConfirmAction
                        label="Eliminar"
                        title="Eliminar pago"
                        message={PAYMENT_MESSAGES.confirmDelete}
                        intent="delete"
                        action="/payments"
                        fields={{ payment_id: r.id, back: here }}
                        confirmLabel="Sí, eliminar"
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination page={d.page} lastPage={d.lastPage} />
      </div>
      <BanksSection d={d} state={state} />
    </div>
  );
}

/** Not this company's document or payment (404), or a read-only plan (403): the plain message inside the layout. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : PAYMENT_MESSAGES.problem;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
