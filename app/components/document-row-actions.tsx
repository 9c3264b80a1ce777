// Row actions of a document list (part 2 lists; part 1 client detail tabs): Pagar, Recordatorio de
// pago (due or overdue unpaid invoices, with how many were sent), credit and debit notes, Clonar and
// Hacer recurrente (invoices). Links: they work without JavaScript (the reminder opens its form on
// the detail page).

import { AppLink } from "./app-link.tsx";

/** `back`: where the payment form returns to (app/domain/payments.ts paymentReturn). */
export function DocumentRowActions({ type, id, pay, reminder, back }: { type: string; id: number; pay: boolean; reminder: number | null; back: string }) {
  return (
    <div className="flex flex-wrap gap-1">
      {pay && (
        <AppLink className="btn btn-outline btn-sm" to={`/payments?document_id=${id}&volver=${encodeURIComponent(back)}`} data-pay>
          Pagar
        </AppLink>
      )}
      {reminder !== null && (
        <AppLink className="btn btn-outline btn-sm" to={`/detail/invoice/${id}?recordatorio=1`} data-reminder-link>
          Recordatorio de pago ({reminder})
        </AppLink>
      )}
      <AppLink className="btn btn-outline btn-sm" to={`/new-note/nc/${type}/${id}`}>
        Nota de crédito
      </AppLink>
      <AppLink className="btn btn-outline btn-sm" to={`/new-note/nd/${type}/${id}`}>
        Nota de débito
      </AppLink>
      <AppLink className="btn btn-outline btn-sm" to={`/new-clone/${type}/${id}`}>
        Clonar
      </AppLink>
      {type === "invoice" && (
        <AppLink className="btn btn-outline btn-sm" to={`/new-recurring/invoice/${id}`}>
          Hacer recurrente
        </AppLink>
      )}
    </div>
  );
}
