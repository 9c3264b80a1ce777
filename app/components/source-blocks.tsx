// The parts a prefilled document form adds (notes, clones, replacements, purchase invoices,
// quotations, recurring screens): the header facts and the reference block. A locked reference is
// shown as text only; nothing of it is posted except the note's reason (the server rebuilds the rest
// from the stored document). Only those screens' route modules load this (docs/decisions/096).
import type { ReferenceView, SourceView } from "../domain/document-source.ts";
import { EditableReference } from "./document-source.tsx";
import { Field } from "./form.tsx";

export function SourceFacts({ view }: { view: SourceView }) {
  if (!view.facts.length && !view.notice) return null;
  return (
    <>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-source-facts>
        {view.facts.map((f) => (
          <div key={f.label} className="flex gap-1">
            <dt className="text-slate-600">{f.label}:</dt>
            <dd className="font-medium break-all" data-fact={f.label}>
              {f.value}
            </dd>
          </div>
        ))}
      </dl>
      {view.notice && (
        <p className="rounded-md bg-warning/10 p-3 text-sm" role="status" data-source-notice>
          {view.notice}
        </p>
      )}
    </>
  );
}

export function ReferenceBlock({ view, errors }: { view: SourceView; errors: Record<string, string> }) {
  if (!view.references.length) return null;
  return (
    <section className="card space-y-3" aria-label="Documento de referencia">
      <h2 className="font-semibold">Documento de referencia</h2>
      {errors.references && <p className="field-error">{errors.references}</p>}
      {view.references.some((r) => r.hint) && <p className="text-sm text-slate-600" data-reference-hint>{view.references.find((r) => r.hint)!.hint}</p>}
      {view.references.map((r, i) => (r.mode === "editable" ? <EditableReference key={i} r={r} errors={errors} /> : <LockedReference key={i} index={i} r={r} errors={errors} />))}
    </section>
  );
}

function LockedReference({ r, index, errors }: { r: ReferenceView; index: number; errors: Record<string, string> }) {
  return (
    <div className="space-y-2" data-reference={index} data-locked>
      <dl className="grid gap-2 text-sm md:grid-cols-2">
        <div>
          <dt className="text-slate-600">Tipo de documento</dt>
          <dd data-reference-field="docType">
            {r.docType} — {r.docTypeLabel}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Clave</dt>
          <dd className="break-all" data-reference-field="number">
            {r.number}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Fecha de emisión</dt>
          <dd data-reference-field="date">{r.date}</dd>
        </div>
        {r.mode === "reason" && r.codeOptions ? null : (
          <div>
            <dt className="text-slate-600">Código de referencia</dt>
            <dd data-reference-field="code">
              {r.code} — {r.codeLabel}
            </dd>
          </div>
        )}
        {r.mode === "locked" && (
          <div className="md:col-span-2">
            <dt className="text-slate-600">Razón</dt>
            <dd data-reference-field="reason">{r.reason}</dd>
          </div>
        )}
      </dl>
      {r.mode === "reason" && r.codeOptions && (
        <Field label="Código de referencia" name="reference_code" error={errors[`references.${index}.code`]}>
          <select id="reference_code" name="reference_code" className="input" defaultValue={r.code} aria-invalid={!!errors[`references.${index}.code`] || undefined}>
            {r.codeOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-600">01 si la nota anula todo el documento; 02 «Corrige monto» si cambia solo una parte (una devolución parcial, un descuento posterior).</p>
        </Field>
      )}
      {r.mode === "reason" && (
        <Field label="Razón" name="reference_reason" error={errors[`references.${index}`]}>
          <input id="reference_reason" name="reference_reason" className="input" maxLength={180} defaultValue={r.reason} aria-invalid={!!errors[`references.${index}`] || undefined} />
        </Field>
      )}
    </div>
  );
}
