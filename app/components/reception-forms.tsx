// The reception forms (spec part 2 §2 "Received documents", §3 Reception form, §5): the upload form
// ('Subir Nuevo XML' dialog and /new-message-receptor) and the decision fields it shares with the
// 'update acceptance' dialog. Plain forms: everything works without JavaScript. The amounts show
// only when the document is not rejected and the tax condition is not proportionality — by CSS
// (app.css, [data-reception-form]), so also without JavaScript.
import { useState } from "react";
import { Link } from "react-router";
import { MAX_UPLOAD_REQUEST_BYTES, RECEPTION_MESSAGES } from "../domain/receptions.ts";
import { AppForm, Field, FormAlert, SubmitButton } from "./form.tsx";

export interface DecisionLists {
  categories: { id: number; name: string }[];
  taxConditions: readonly { value: string; label: string }[];
  acceptance: readonly { value: string; label: string }[];
}

export interface FileOutcomeView {
  name: string;
  from?: string;
  ok: boolean;
  message: string;
}

const invalid = (errors: Record<string, string>, name: string) => (errors[name] ? true : undefined);
const describedBy = (errors: Record<string, string>, name: string) => (errors[name] ? `${name}-error` : undefined);

/** Condition, detail, expense category (with 'Nueva'), tax condition and the two amounts. */
export function DecisionFields({ lists, values, errors, withAmountsHint }: { lists: DecisionLists; values: Record<string, string>; errors: Record<string, string>; withAmountsHint?: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Condición de aceptación" name="message" error={errors.message}>
        <select id="message" name="message" className="input" defaultValue={values.message ?? "1"} aria-invalid={invalid(errors, "message")} aria-describedby={describedBy(errors, "message")}>
          {lists.acceptance.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Condición de impuesto" name="tax_condition" error={errors.tax_condition}>
        <select id="tax_condition" name="tax_condition" className="input" defaultValue={values.tax_condition ?? "01"} aria-invalid={invalid(errors, "tax_condition")} aria-describedby={describedBy(errors, "tax_condition")}>
          {lists.taxConditions.map((t) => (
            <option key={t.value} value={t.value}>
              {t.value} — {t.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Detalle" name="message_detail" error={errors.message_detail} className="sm:col-span-2">
        <textarea
          id="message_detail"
          name="message_detail"
          className="input"
          rows={2}
          maxLength={160}
          defaultValue={values.message_detail ?? ""}
          aria-invalid={invalid(errors, "message_detail")}
          aria-describedby={describedBy(errors, "message_detail") ?? "message_detail-hint"}
        />
        <p id="message_detail-hint" className="mt-1 text-xs text-slate-500">
          Obligatorio si el documento se acepta parcialmente o se rechaza (máximo 160 caracteres).
        </p>
      </Field>
      <Field label="Categoría de gasto" name="expense_category" error={errors.expense_category} className="sm:col-span-2">
        <div className="flex flex-wrap items-start gap-2">
          <select id="expense_category" name="expense_category" className="input w-64" defaultValue={values.expense_category ?? ""} aria-invalid={invalid(errors, "expense_category")} aria-describedby={describedBy(errors, "expense_category")}>
            <option value="">Seleccione…</option>
            {lists.categories.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
          <details className="new-category" open={!!errors.new_category_name || undefined}>
            <summary className="btn btn-outline btn-sm" role="button">
              Nueva
            </summary>
            <div className="mt-2 flex flex-wrap items-end gap-2" data-new-category>
              <Field label="Nombre de la categoría" name="new_category_name" error={errors.new_category_name}>
                <input id="new_category_name" name="new_category_name" className="input w-56" maxLength={100} defaultValue={values.new_category_name ?? ""} aria-invalid={invalid(errors, "new_category_name")} aria-describedby={describedBy(errors, "new_category_name")} />
              </Field>
              <button type="submit" name="intent" value="category" className="btn btn-outline btn-sm" formNoValidate>
                Agregar categoría
              </button>
            </div>
          </details>
        </div>
      </Field>
      <div className="grid gap-3 sm:col-span-2 sm:grid-cols-2" data-amounts>
        <Field label="Impuesto acreditable" name="tax_credit" error={errors.tax_credit}>
          <input id="tax_credit" name="tax_credit" className="input" inputMode="decimal" autoComplete="off" defaultValue={values.tax_credit ?? ""} aria-invalid={invalid(errors, "tax_credit")} aria-describedby={describedBy(errors, "tax_credit")} />
        </Field>
        <Field label="Gasto aplicable" name="applicable_expense" error={errors.applicable_expense}>
          <input
            id="applicable_expense"
            name="applicable_expense"
            className="input"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={values.applicable_expense ?? ""}
            aria-invalid={invalid(errors, "applicable_expense")}
            aria-describedby={describedBy(errors, "applicable_expense")}
          />
        </Field>
        {withAmountsHint ? <p className="text-xs text-slate-500 sm:col-span-2">{withAmountsHint}</p> : null}
      </div>
    </div>
  );
}

/** What happened to each file of an upload: received, or refused and why. */
export function FileOutcomes({ outcomes }: { outcomes: FileOutcomeView[] }) {
  if (!outcomes.length) return null;
  return (
    <ul className="space-y-1 rounded-md border border-slate-200 p-3 text-sm" data-upload-outcomes aria-label="Resultado por archivo">
      {outcomes.map((o, i) => (
        <li key={i} data-outcome={o.ok ? "ok" : "refused"}>
          <span className={o.ok ? "font-medium text-primary-dark" : "font-medium text-danger"}>{o.ok ? "✓" : "✗"} </span>
          <span className="font-medium">{o.from ? `${o.from} › ${o.name}` : o.name}:</span> {o.message}
        </li>
      ))}
    </ul>
  );
}

export interface UploadFormProps {
  cancel: string;
  lists: DecisionLists;
  values: Record<string, string>;
  errors: Record<string, string>;
  kept: { token: string; names: string[] } | null;
  outcomes: FileOutcomeView[];
  notice?: string;
}

/** 'Subir Nuevo XML': the XML (several, or a .zip, in one go) and the decision to take. */
export function UploadForm(p: UploadFormProps) {
  // With JavaScript a file over the limit is refused before it is sent; without, the server refuses it.
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const errors = tooLarge ? { ...p.errors, xml_file: tooLarge } : p.errors;
  const checkSize = (e: React.FormEvent<HTMLFormElement>) => {
    const input = e.currentTarget.elements.namedItem("xml_file") as HTMLInputElement | null;
    const size = [...(input?.files ?? [])].reduce((sum, f) => sum + f.size, 0);
    if (size > MAX_UPLOAD_REQUEST_BYTES) {
      e.preventDefault();
      setTooLarge(RECEPTION_MESSAGES.requestTooLarge(Math.round(MAX_UPLOAD_REQUEST_BYTES / 1024 / 1024)));
    } else setTooLarge(null);
  };
  return (
    <AppForm encType="multipart/form-data" className="space-y-3" key={JSON.stringify([p.values, p.kept?.token, p.lists.categories.length])} noValidate data-reception-form data-upload-form onSubmit={checkSize}>
      {/* Enter in a field submits the upload, not the 'Nueva' category button that comes first. */}
      <button type="submit" className="hidden" tabIndex={-1} aria-hidden="true" />
      {p.notice ? (
        <p className="rounded-md bg-primary/10 p-3 text-sm" role="status">
          {p.notice}
        </p>
      ) : null}
      {errors._form ? <FormAlert>{errors._form}</FormAlert> : null}
      <FileOutcomes outcomes={p.outcomes} />
      <Field label="Archivo XML" name="xml_file" error={errors.xml_file}>
        <input id="xml_file" name="xml_file" type="file" className="input" accept=".xml,.zip,application/xml,text/xml,application/zip" multiple aria-invalid={invalid(errors, "xml_file")} aria-describedby={describedBy(errors, "xml_file") ?? "xml_file-hint"} />
        <p id="xml_file-hint" className="mt-1 text-xs text-slate-500">
          El XML de la factura del proveedor. Puede agregar la respuesta de Hacienda (MensajeHacienda) o subir varios XML o un .zip a la vez.
        </p>
        {p.kept ? (
          <p className="mt-1 text-sm" data-kept-files>
            Archivo elegido: {p.kept.names.join(", ")} (se conserva; elija otro solo si quiere cambiarlo).
            <input type="hidden" name="kept_files" value={p.kept.token} />
          </p>
        ) : null}
      </Field>
      <DecisionFields lists={p.lists} values={p.values} errors={errors} withAmountsHint="Con varios archivos o un .zip deje los montos vacíos: se calculan de cada comprobante." />
      <div className="flex flex-wrap justify-end gap-2">
        <Link className="btn btn-outline" to={p.cancel}>
          Cancelar
        </Link>
        <SubmitButton>Subir</SubmitButton>
      </div>
    </AppForm>
  );
}
