// The shared document form (spec part 2 "Shared document form"): client, sale condition, payment
// methods, currency, lines with exonerations, reference, note, terms and totals. Rendered by
// routes/documents/document-form.tsx and, with the recurrence block, by recurring-form.tsx (which
// keeps that block out of the other screens' JavaScript). Works without JavaScript: "Agregar
// línea", "Quitar" and "Recalcular" are submit buttons whose answer re-renders what was typed;
// with JavaScript the totals follow what is typed (live-totals.ts).
import { Fragment, lazy, useState, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { EditableReference } from "./document-source.tsx";
import { AppForm, Field, FormAlert, SubmitButton } from "./form.tsx";
import { creditTermOptions, FORM_KINDS, FORM_UNITS, hasExoneration, lineFieldName, MAX_PAYMENTS, QUICK_ADD_RETURNS, quickAddReturn, studentChoice, type FormLine } from "../domain/document-form.ts";
import { formatMoney } from "../domain/format-money.ts";
import { useLiveTotals } from "./live-totals.ts";
import type { DocumentFormState } from "../server/document-form.server.ts";

// The parts of the form most pages do not show — 'Buscar cliente' and the item search (a large
// catalogue or the point of sale) and the ticket just printed — are loaded by the browser only when
// the page shows them; the server renders them whole either way (docs/decisions/155).
const ClientSearch = lazy(() => import("./document-form-extras.tsx").then((m) => ({ default: m.ClientSearch })));
const PosSearch = lazy(() => import("./document-form-extras.tsx").then((m) => ({ default: m.PosSearch })));
const PrintedTicket = lazy(() => import("./document-form-extras.tsx").then((m) => ({ default: m.PrintedTicket })));

const UNIT_OPTIONS = FORM_UNITS.map(([symbol, description]) => ({ value: symbol, label: `${symbol} — ${description}` }));

/**
 * `facts` and `references`: a prefilled screen's header facts and locked references (notes, clones,
 * purchase invoices, quotations, recurring screens), passed by their own route modules so that
 * /new-invoice and /new-ticket do not load them; `recurrenceBlock` likewise (docs/decisions/096).
 */
export function DocumentFormView({ state, recurrenceBlock, facts, references }: { state: DocumentFormState; recurrenceBlock?: ReactNode; facts?: ReactNode; references?: ReactNode }) {
  const { kind, form, lists, errors, general, message, source, recurrence } = state;
  const live = useLiveTotals(state.totals);
  const totals = live.totals;
  const symbol = form.currency === "USD" ? "$" : "₡";
  const [saleCondition, setSaleCondition] = useState(form.saleCondition);
  // Quick-add: on the plain new-document screens, a new client comes back selected.
  const { pathname } = useLocation();
  const quickAdd = source?.clientLocked ? null : quickAddReturn(pathname);
  const clientOptions = lists.clients.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name} ({c.identification})
    </option>
  ));
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">{source?.title ?? FORM_KINDS[kind].title}</h1>
        <Link to={source?.listPath ?? FORM_KINDS[kind].listPath} className="btn btn-outline">
          Volver
        </Link>
      </div>
      {facts}
      {state.printed && <PrintedTicket printed={state.printed} />}
      <AppForm className="space-y-4" noValidate {...live.form}>
        {/* Enter in a text box submits the first button: make it a harmless recalculation. */}
        <button type="submit" name="intent" value="recalc" hidden tabIndex={-1} aria-hidden="true" />
        {general.length > 0 && (
          <FormAlert>
            {general.map((g) => (
              <span key={g} className="block">
                {g}
              </span>
            ))}
          </FormAlert>
        )}
        {message && <p className="rounded-md bg-warning/10 p-3 text-sm" role="status">{message}</p>}
        <section className="card grid gap-4 md:grid-cols-3">
          <Field label={source?.clientLabel ?? "Cliente"} name="client_id" error={errors.clientId}>
            {/* A note's client is the source document's: shown, not posted (the server fixes it). */}
            <select id="client_id" name={source?.clientLocked ? undefined : "client_id"} disabled={source?.clientLocked} className="input" defaultValue={form.clientId} aria-invalid={!!errors.clientId || undefined}>
              {FORM_KINDS[kind].clients !== "customers-and-generic" && <option value="">Seleccione un cliente</option>}
              {lists.students ? (
                <>
                  <optgroup label="Estudiantes">
                    {lists.students.map((st) => (
                      <option key={st.id} value={studentChoice(st.id)}>
                        {st.name} (representante: {st.representative})
                      </option>
                    ))}
                  </optgroup>
                  <optgroup label="Clientes">{clientOptions}</optgroup>
                </>
              ) : (
                clientOptions
              )}
            </select>
            {lists.clientSearch && !source?.clientLocked && <ClientSearch search={lists.clientSearch} />}
            {quickAdd && (
              <span className="mt-1 flex gap-3 text-sm">
                <button type="submit" name="intent" value="quick-add" formNoValidate className="text-primary underline" data-quick-add>
                  {QUICK_ADD_RETURNS[quickAdd].provider ? "Nuevo proveedor" : "Nuevo cliente"}
                </button>
                {lists.students && (
                  <button type="submit" name="intent" value="quick-add-student" formNoValidate className="text-primary underline">
                    Nuevo estudiante
                  </button>
                )}
              </span>
            )}
          </Field>
          <div data-other-of>
            <Field label="Condición de venta" name="sale_condition" error={errors.saleCondition}>
              <select id="sale_condition" name="sale_condition" className="input" value={saleCondition} onChange={(e) => setSaleCondition(e.target.value)}>
                {lists.saleConditions.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <OtherField label="Otra condición de venta (si es Otros)" name="sale_condition_other" value={form.saleConditionOther} error={errors.saleConditionOther} />
          </div>
          {kind === "fe" && !recurrence && (
            <label className="flex items-center gap-2 md:col-span-3">
              <input type="checkbox" name="remember_payment" defaultChecked={form.remindPayment} /> Enviar recordatorio de pago (un día después del vencimiento, si no está pagada)
            </label>
          )}
          {kind === "te" && (
            <fieldset className="space-y-2 md:col-span-3">
              <label className="flex items-center gap-2">
                <input type="checkbox" name="international" defaultChecked={form.international} /> Cliente internacional
              </label>
              {errors.internationalClient && <p className="field-error">{errors.internationalClient}</p>}
              <div className="grid gap-4 md:grid-cols-2">
                <Field label="Nombre del cliente internacional" name="international_name">
                  <input id="international_name" name="international_name" className="input" maxLength={100} defaultValue={form.internationalName} />
                </Field>
                <Field label="Identificación del cliente internacional" name="international_cedula">
                  <input id="international_cedula" name="international_cedula" className="input" maxLength={20} defaultValue={form.internationalCedula} />
                </Field>
              </div>
            </fieldset>
          )}
          {/* Only for credit: without JavaScript it appears on the next re-render (Recalcular or Guardar). */}
          {saleCondition === "02" && (
            <div className="space-y-2">
              <Field label="Plazo de crédito" name="credit_days" error={errors.creditDays}>
                <select id="credit_days" name="credit_days" className="input" defaultValue={form.creditDays} aria-invalid={!!errors.creditDays || undefined}>
                  <option value="">Seleccione</option>
                  {creditTermOptions(lists.creditTerms, form.creditDays).map((t) => (
                    <option key={t.value} value={t.value}>
                      {t.label}
                    </option>
                  ))}
                </select>
              </Field>
              <details open={!!state.newTerm} className="text-sm">
                <summary className="cursor-pointer">Nuevo plazo</summary>
                <div className="mt-2 grid grid-cols-2 gap-2">
                  <Field label="Nombre" name="new_term_name" error={errors.newTermName}>
                    <input id="new_term_name" name="new_term_name" className="input" maxLength={60} defaultValue={state.newTerm?.name} aria-invalid={!!errors.newTermName || undefined} />
                  </Field>
                  <Field label="Días" name="new_term_days" error={errors.newTermDays}>
                    <input id="new_term_days" name="new_term_days" className="input" inputMode="numeric" defaultValue={state.newTerm?.days} aria-invalid={!!errors.newTermDays || undefined} />
                  </Field>
                </div>
                <button type="submit" name="intent" value="add-term" className="btn btn-outline btn-sm mt-2" formNoValidate>
                  Agregar plazo
                </button>
              </details>
            </div>
          )}
          <Field label="Moneda" name="currency">
            <select id="currency" name="currency" className="input" defaultValue={form.currency}>
              <option value="CRC">Colones (₡)</option>
              <option value="USD">Dólares ($)</option>
            </select>
          </Field>
          <Field label="Tipo de cambio (dólares)" name="exchange_rate" error={errors.exchangeRate}>
            <input id="exchange_rate" name="exchange_rate" className="input" inputMode="decimal" defaultValue={form.exchangeRate} aria-invalid={!!errors.exchangeRate || undefined} />
          </Field>
        </section>

        {recurrenceBlock}

        <section className="card space-y-2" aria-label="Medios de pago">
          <h2 className="font-semibold">Medios de pago</h2>
          {errors.payments && <p className="field-error">{errors.payments}</p>}
          {form.payments.map((pay, i) => (
            <div key={i} className="flex flex-wrap items-end gap-2" data-other-of>
              <Field label={`Medio de pago ${i + 1}`} name={`payments[${i}].code`}>
                <select id={`payments[${i}].code`} name={`payments[${i}].code`} className="input" defaultValue={pay.code}>
                  {lists.paymentMethods.map(([code, name]) => (
                    <option key={code} value={code}>
                      {name}
                    </option>
                  ))}
                </select>
              </Field>
              <OtherField label={`Otro medio de pago ${i + 1} (si es Otros)`} name={`payments[${i}].other`} value={pay.other} error={errors[`payments.${i}.other`]} />
              <Field label={`Monto ${i + 1}${form.payments.length === 1 ? " (opcional: todo el total)" : ""}`} name={`payments[${i}].amount`}>
                <input id={`payments[${i}].amount`} name={`payments[${i}].amount`} className="input" inputMode="decimal" defaultValue={pay.amount} />
              </Field>
              {form.payments.length > 1 && (
                <button type="submit" name="intent" value={`remove-payment:${i}`} className="btn btn-outline" aria-label={`Quitar medio de pago ${i + 1}`}>
                  Quitar
                </button>
              )}
            </div>
          ))}
          {form.payments.length < MAX_PAYMENTS && (
            <button type="submit" name="intent" value="add-payment" className="btn btn-outline">
              Agregar medio de pago
            </button>
          )}
        </section>

        {state.pos && <PosSearch pos={state.pos} symbol={symbol} pointOfSale={lists.modePos} />}

        <section className="card space-y-3">
          <h2 className="font-semibold">Artículos</h2>
          {errors.lines && <p className="field-error">{errors.lines}</p>}
          <div className="overflow-x-auto">
            <table className="table w-full" data-lines>
              <thead>
                <tr>
                  <th>Artículo</th>
                  <th>Código</th>
                  <th>CABYS</th>
                  <th>Descripción</th>
                  <th>Unidad</th>
                  <th>Cantidad</th>
                  <th>Precio</th>
                  <th>Descuento %</th>
                  <th>Impuesto</th>
                  <th>
                    <span className="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {form.lines.map((line, i) => (
                  <Fragment key={i}>
                    <LineRow index={i} line={line} state={state} />
                    <ExonerationRow index={i} line={line} state={state} />
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value="add-line" className="btn btn-outline">
              Agregar línea
            </button>
            <button type="submit" name="intent" value="recalc" className="btn btn-outline">
              Recalcular
            </button>
          </div>
          <dl className="ml-auto grid max-w-xs grid-cols-2 gap-1 text-sm" aria-label="Totales">
            <dt>Subtotal</dt>
            <dd className="text-right">{totals ? formatMoney(totals.subtotal, symbol) : "—"}</dd>
            <dt>Descuento</dt>
            <dd className="text-right">{totals ? formatMoney(totals.discount, symbol) : "—"}</dd>
            <dt>Impuesto</dt>
            <dd className="text-right">{totals ? formatMoney(totals.tax, symbol) : "—"}</dd>
            {totals && Number(totals.exonerated) > 0 && (
              <>
                <dt>Exonerado</dt>
                <dd className="text-right" data-testid="document-exonerated">
                  {formatMoney(totals.exonerated, symbol)}
                </dd>
              </>
            )}
            <dt className="font-semibold">Total</dt>
            <dd className="text-right font-semibold" data-testid="document-total">
              {totals ? formatMoney(totals.total, symbol) : "—"}
            </dd>
          </dl>
          {!!totals?.warnings.length && (
            <ul className="rounded-md bg-warning/10 p-3 text-sm" role="status" data-totals-warnings>
              {totals.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </section>

        {references}
        {state.reference && (
          <section className="card">
            <details open={!!(state.reference.number || state.reference.reason || Object.keys(errors).some((k) => k.startsWith("references")))} data-optional-reference>
              <summary className="cursor-pointer font-semibold">Documento de referencia</summary>
              <p className="mt-2 text-sm text-slate-600">Opcional: el documento al que se refiere este comprobante.</p>
              <div className="mt-2">
                <EditableReference r={state.reference} errors={errors} />
              </div>
            </details>
          </section>
        )}
        {!source && (kind === "fe" || kind === "te") && (
          <section className="card">
            <details open={!!(form.contingencyNumber || form.contingencyDate || errors.contingency)} data-contingency>
              <summary className="cursor-pointer font-semibold">Contingencia</summary>
              <p className="mt-2 text-sm text-slate-600">Si este documento sustituye un comprobante provisional emitido en contingencia (sin sistema o sin internet), indique su número y fecha.</p>
              <div className="mt-2 grid gap-4 md:grid-cols-2">
                <Field label="Número del comprobante provisional" name="contingency_number">
                  <input id="contingency_number" name="contingency_number" className="input" maxLength={50} defaultValue={form.contingencyNumber} />
                </Field>
                <Field label="Fecha del comprobante provisional" name="contingency_date">
                  <input id="contingency_date" name="contingency_date" type="date" className="input" defaultValue={form.contingencyDate} />
                </Field>
              </div>
              {errors.contingency && <p className="field-error">{errors.contingency}</p>}
            </details>
          </section>
        )}

        <section className="card space-y-3">
          <Field label="Correos a notificar" name="emails" error={errors.emails}>
            <input id="emails" name="emails" className="input" maxLength={1000} defaultValue={form.emails} placeholder="correo@ejemplo.com, otro@ejemplo.com" aria-invalid={!!errors.emails || undefined} />
          </Field>
          <Field label="Nota" name="note" error={errors.note}>
            <textarea id="note" name="note" className="input" rows={2} maxLength={1000} defaultValue={form.note} />
          </Field>
          {lists.terms.length > 0 && (
            <Field label="Términos y condiciones" name="term_id" error={errors.termId} className="mt-3">
              <select id="term_id" name="term_id" className="input" defaultValue={form.termId}>
                <option value="">Sin términos</option>
                {lists.terms.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </section>

        <div className="flex justify-end gap-2">
          {kind === "te" && !source && (
            <SubmitButton name="intent" value="save-print" className="btn btn-outline">
              Guardar e imprimir
            </SubmitButton>
          )}
          {kind === "qt" && (
            <SubmitButton name="intent" value="save-email" className="btn btn-outline">
              Guardar y Enviar por correo
            </SubmitButton>
          )}
          <SubmitButton name="intent" value="save">
            Guardar
          </SubmitButton>
        </div>
      </AppForm>
    </div>
  );
}

/**
 * The description Hacienda requires with code 99 'Otros' (sale condition, payment method), next to
 * its select. CSS (app.css, [data-other]) shows it only while 'Otros' is chosen, with or without
 * JavaScript; the server requires it only then.
 */
function OtherField({ label, name, value, error }: { label: string; name: string; value: string; error?: string }) {
  return (
    <div data-other>
      <Field label={label} name={name} error={error}>
        <input id={name} name={name} className="input" maxLength={100} defaultValue={value} aria-invalid={!!error || undefined} />
      </Field>
    </div>
  );
}

function LineRow({ index, line, state }: { index: number; line: FormLine; state: DocumentFormState }) {
  const { lists, errors } = state;
  const err = (f: string) => errors[`lines.${index}.${f}`];
  const n = (f: Parameters<typeof lineFieldName>[1]) => lineFieldName(index, f);
  const cell = (f: Parameters<typeof lineFieldName>[1], errKey: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <td>
      <input id={n(f)} name={n(f)} className="input" aria-label={`${label} (línea ${index + 1})`} defaultValue={line[f]} aria-invalid={!!err(errKey) || undefined} {...props} />
      {err(errKey) && <p className="field-error">{err(errKey)}</p>}
    </td>
  );
  const hasUnit = UNIT_OPTIONS.some((u) => u.value === line.unit);
  return (
    <tr>
      <td>
        <input type="hidden" name={n("picked")} value={line.picked} />
        <select id={n("itemId")} name={n("itemId")} className="input" aria-label={`Artículo (línea ${index + 1})`} defaultValue={line.itemId} aria-invalid={!!err("itemId") || undefined}>
          <option value="">Entrada libre</option>
          {lists.items.map((it) => (
            <option key={it.id} value={it.id}>
              {it.code} — {it.name}
            </option>
          ))}
        </select>
        {err("itemId") && <p className="field-error">{err("itemId")}</p>}
      </td>
      {cell("code", "code", "Código", { maxLength: 20 })}
      {cell("cabys", "cabys", "CABYS", { maxLength: 13, inputMode: "numeric" })}
      {cell("description", "description", "Descripción", { maxLength: 200 })}
      <td>
        <select id={n("unit")} name={n("unit")} className="input" aria-label={`Unidad (línea ${index + 1})`} defaultValue={line.unit}>
          {!hasUnit && line.unit && <option value={line.unit}>{line.unit}</option>}
          {UNIT_OPTIONS.map((u) => (
            <option key={u.value} value={u.value}>
              {u.label}
            </option>
          ))}
        </select>
      </td>
      {cell("quantity", "quantity", "Cantidad", { inputMode: "decimal" })}
      {cell("price", "unitPrice", "Precio", { inputMode: "decimal" })}
      {cell("discount", "discountPercent", "Descuento", { inputMode: "decimal" })}
      <td>
        <select id={n("taxTypeId")} name={n("taxTypeId")} className="input" aria-label={`Impuesto (línea ${index + 1})`} defaultValue={line.taxTypeId} aria-invalid={!!err("tax") || undefined}>
          <option value="">Seleccione</option>
          {lists.taxTypes.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        {err("tax") && <p className="field-error">{err("tax")}</p>}
      </td>
      <td>
        <button type="submit" name="intent" value={`remove-line:${index}`} className="btn btn-outline" aria-label={`Quitar línea ${index + 1}`}>
          Quitar
        </button>
      </td>
    </tr>
  );
}

/**
 * The exoneration of a row (part 2 §3 Item row, §5): a disclosure under the row, open when the row
 * has one or an error; it works without JavaScript. It applies only to a tax rate above 0 (the
 * server says so otherwise).
 */
function ExonerationRow({ index, line, state }: { index: number; line: FormLine; state: DocumentFormState }) {
  const errs = Object.entries(state.errors)
    .filter(([k]) => k.startsWith(`lines.${index}.exoneration`))
    .map(([, m]) => m);
  const n = (f: Parameters<typeof lineFieldName>[1]) => lineFieldName(index, f);
  const label = (text: string) => `${text} (línea ${index + 1})`;
  const input = (f: Parameters<typeof lineFieldName>[1], text: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label className="text-sm">
      {text}
      <input id={n(f)} name={n(f)} className="input mt-1" aria-label={label(text)} defaultValue={line[f]} {...props} />
    </label>
  );
  const select = (f: Parameters<typeof lineFieldName>[1], text: string, options: ReadonlyArray<[string, string]>) => (
    <label className="text-sm">
      {text}
      <select id={n(f)} name={n(f)} className="input mt-1" aria-label={label(text)} defaultValue={line[f]}>
        <option value="">Seleccione</option>
        {options.map(([code, name]) => (
          <option key={code} value={code}>
            {code} — {name}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <tr data-exoneration-row={index}>
      <td colSpan={10}>
        <details open={hasExoneration(line) || errs.length > 0}>
          <summary className="cursor-pointer text-sm">{label("Exoneración")}</summary>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {select("exType", "Tipo de exoneración", state.lists.exonerationTypes)}
            {input("exTypeOther", "Otro tipo (si es 99)", { maxLength: 100 })}
            {input("exNumber", "Número de exoneración", { maxLength: 40 })}
            {select("exInstitution", "Institución", state.lists.exonerationInstitutions)}
            {input("exInstitutionOther", "Otra institución (si es 99)", { maxLength: 100 })}
            {input("exDate", "Fecha de emisión", { type: "date" })}
            {input("exArticle", "Artículo", { inputMode: "numeric", maxLength: 6 })}
            {input("exInciso", "Inciso", { inputMode: "numeric", maxLength: 6 })}
            {input("exPercent", "Porcentaje exonerado", { inputMode: "decimal", maxLength: 5 })}
          </div>
          {errs.map((m) => (
            <p key={m} className="field-error">
              {m}
            </p>
          ))}
        </details>
      </td>
    </tr>
  );
}
