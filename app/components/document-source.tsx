// An editable document reference: the purchase invoice's own and the optional one of a new invoice
// or ticket. The prefilled screens' header facts and locked references are in source-blocks.tsx.
import type { ReferenceView } from "../domain/document-source.ts";
import { Field } from "./form.tsx";

/** An editable reference (the purchase invoice's own, always the first one; the optional one of a new invoice or ticket). */
export function EditableReference({ r, errors }: { r: ReferenceView; errors: Record<string, string> }) {
  return (
    <div className="space-y-2" data-reference={0}>
      {errors["references.0"] && <p className="field-error">{errors["references.0"]}</p>}
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Tipo de documento de referencia" name="reference_doc_type" error={errors["references.0.docType"]}>
          <select id="reference_doc_type" name="reference_doc_type" className="input" defaultValue={r.docType}>
            {(r.docTypeOptions ?? []).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Número del documento de referencia" name="reference_number">
          <input id="reference_number" name="reference_number" className="input" maxLength={50} defaultValue={r.number} />
        </Field>
        <Field label="Fecha del documento de referencia" name="reference_date" error={errors["references.0.date"]}>
          <input id="reference_date" name="reference_date" type="date" className="input" defaultValue={r.date} />
        </Field>
        <Field label="Código de referencia" name="reference_code" error={errors["references.0.code"]}>
          <select id="reference_code" name="reference_code" className="input" defaultValue={r.code}>
            {(r.codeOptions ?? []).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Razón" name="reference_reason" className="md:col-span-2">
          <input id="reference_reason" name="reference_reason" className="input" maxLength={180} defaultValue={r.reason} />
        </Field>
      </div>
    </div>
  );
}
