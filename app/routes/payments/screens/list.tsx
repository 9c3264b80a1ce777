// The payments list and the banks section of /payments (the view of list.server.ts).

import { ConfirmAction } from "../../../components/confirm.tsx";
import { AppForm, Field, SubmitButton } from "../../../components/form.tsx";
import { ListControls, Pagination } from "../../../components/pagination.tsx";
import { truncate } from "../../../domain/format.ts";
import { PAYMENT_MESSAGES } from "../../../domain/payment-texts.ts";
import type { BankFailure, ListScreen } from "./list.server.ts";
import { AppLink } from "../../../components/app-link.tsx";

const invalid = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? true : undefined);
const describedBy = (errors: Record<string, string | undefined>, name: string) => (errors[name] ? `${name}-error` : undefined);

function BanksSection({ d, state }: { d: ListScreen; state?: BankFailure | { intent: string } }) {
  const failed = state?.intent === "bank" ? (state as BankFailure) : undefined;
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
          <AppLink className="btn btn-outline btn-sm" to="/payments?bank=new#banks-title">
            Nuevo banco
          </AppLink>
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
          <AppLink className="btn btn-outline" to="/payments">
            Cancelar
          </AppLink>
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
                <AppLink className="btn btn-outline btn-sm" to={`/payments?bank=${b.id}#banks-title`} aria-label={`Editar ${b.name}`}>
                  Editar
                </AppLink>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function PaymentsList({ d, state }: { d: ListScreen; state?: BankFailure | { intent: string } }) {
  const here = `/payments${d.page > 1 ? `?page=${d.page}` : ""}`;
  const columns = d.plan5 ? 9 : 10;
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
                <th>Recibo electrónico</th>
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
                    <AppLink to={r.document.href}>{r.document.number}</AppLink>
                  </td>
                  <td data-label="Cliente" title={r.clientName}>
                    {r.clientId ? <AppLink to={`/client-detail/${r.clientId}`}>{truncate(r.clientName)}</AppLink> : truncate(r.clientName)}
                  </td>
                  <td data-label="Forma de pago">{r.paymentForm}</td>
                  <td data-label="Monto" className="whitespace-nowrap text-right">
                    {r.amount}
                  </td>
                  <td data-label="Banco">{r.bank}</td>
                  <td data-label="Referencia">{r.reference}</td>
                  <td data-label="Fecha">{r.date}</td>
                  <td data-label="Recibo electrónico" data-receipt>
                    {r.receipt ? (
                      <>
                        <a href={`/document-file/${r.receipt.id}/xml`}>{r.receipt.consecutivo}</a> <span className="chip">{r.receipt.status}</span>
                      </>
                    ) : r.receiptNote ? (
                      <span className="text-sm text-slate-600" title={r.receiptNote}>
                        Sin recibo
                      </span>
                    ) : null}
                  </td>
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

