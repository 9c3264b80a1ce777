// The actions of one quotation (list, client detail tab, detail viewer): edit, convert to invoice
// (confirmed; once converted, a link to the invoice), clone and delete (confirmed). The confirmed
// ones post to /quotations with where to come back to; the confirm step is a <details> panel, so it
// works the same with JavaScript off.

import { QUOTATION_MESSAGES } from "../domain/quotations.ts";
import { ConfirmAction } from "./confirm.tsx";
import { AppLink } from "./app-link.tsx";

export function QuotationActions({ id, invoiceId, back, name, only }: { id: number; invoiceId: number | null; back: string; name: string; only?: "convert" }) {
  const convert = invoiceId ? (
    <AppLink className="btn btn-outline btn-sm" to={`/detail/invoice/${invoiceId}`} data-converted>
      Ver factura
    </AppLink>
  ) : (
    <ConfirmAction
      label="Convertir a factura"
      title="Convertir a factura"
      message={QUOTATION_MESSAGES.confirmConvert}
      intent="convert"
      action="/quotations"
      fields={{ quotation_id: id, back }}
      confirmLabel="Sí, convertir"
    />
  );
  if (only === "convert") return convert;
  return (
    <div className="flex flex-wrap gap-1" data-quotation-actions={id}>
      <AppLink className="btn btn-outline btn-sm" to={`/edit-quotation/quotation/${id}`}>
        Editar
      </AppLink>
      {convert}
      <AppLink className="btn btn-outline btn-sm" to={`/new-clone/quotation/${id}`}>
        Clonar
      </AppLink>
      <ConfirmAction
        label="Eliminar"
        title={`Eliminar ${name}`}
        message={QUOTATION_MESSAGES.confirmDelete}
        intent="delete"
        action="/quotations"
        fields={{ quotation_id: id, back }}
        confirmLabel="Sí, eliminar"
      />
    </div>
  );
}
