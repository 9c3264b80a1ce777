// The payment registration form (/payments?document_id=ID): the document, its total, what was paid,
// its credit and debit notes and what is due; the form checked as it is filled (decision 166).
import { Link } from "react-router";
import { AppForm, Field, FormAlert, SubmitButton } from "../../../components/form.tsx";
import { useFieldChecks } from "../../../components/form-checks.tsx";
import { PAYMENT_MESSAGES } from "../../../domain/payment-texts.ts";
import type { PayFailure, PayScreen } from "./pay.server.ts";

const invalid = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? true : undefined);
const describedBy = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? `${name}-error` : undefined);

export function PaymentForm({ d, state }: { d: PayScreen; state?: PayFailure | { intent: string } }) {
  const v = state?.intent === "pay" ? { ...d.defaults, ...(state as PayFailure).values } : d.defaults;
  const serverErrors = state?.intent === "pay" ? (state as PayFailure).errors : null;
  // The same schema the action parses with, checked as the fields are left (decisions 166, 155).
  const check = useFieldChecks("payment", { paymentForms: d.paymentForms.map((p) => p.code) }, { serverErrors, saveIntents: ["pay"] });
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
          {d.repNotice && (
            <p className="rounded-md bg-warning/10 p-3 text-sm" role="status" data-rep-notice>
              {d.repNotice}
            </p>
          )}
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

