// /new-invoice (optional ?client_id=) and /new-ticket: the shared document form. Also the prefilled
// screens (document-source.server.ts): /new-quotation, /edit-quotation/quotation/:id,
// /new-note/:note_type/:document_type/:document_id,
// /new-clone/:document_type/:document_id (?replace=1 for a rejected document) and /new-simple. Works without
// JavaScript: "Agregar línea", "Quitar" and "Recalcular" are submit buttons (name="intent") whose
// answer re-renders the form with everything typed and the totals recomputed on the server.
import { useState } from "react";
import { data, isRouteErrorResponse, Link, useRouteError } from "react-router";
import type { Route } from "./+types/document-form";
import { ReferenceBlock, SourceFacts } from "../../components/document-source.tsx";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { SOURCE_MESSAGES, sourceRequestOf } from "../../domain/document-source.ts";
import { FORM_KINDS, lineFieldName, MAX_PAYMENTS, type FormKind, type FormLine } from "../../domain/document-form.ts";
import { formValues } from "../../domain/forms.ts";
import { formatMoney } from "../../domain/format.ts";
import { paymentMethods, saleConditions, unitsOfMeasure } from "../../../db/seed/reference-data.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { newDocumentForm, submitDocumentForm, type DocumentFormState } from "../../server/document-form.server.ts";
import { sourcedDocumentForm, submitSourcedForm } from "../../server/document-source.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

/** Bodies above this are refused before parsing (200 lines of text fit easily). */
const MAX_BODY = 512 * 1024;

function kindOf(request: Request): FormKind {
  return new URL(request.url).pathname.startsWith("/new-ticket") ? "te" : "fe";
}

function requireSession(context: Route.LoaderArgs["context"]) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data("No encontrado", { status: 404 });
  return { company, user };
}

/** The prefilled screen a URL asks for (null: /new-invoice, /new-ticket); a wrong type is 404. */
function sourceOf(request: Request, params: Record<string, string | undefined>) {
  const req = sourceRequestOf(new URL(request.url), params);
  if (req === "invalid") throw data(SOURCE_MESSAGES.invalidKind, { status: 404 });
  return req;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { company } = requireSession(context);
  const source = sourceOf(request, params);
  if (source) {
    const state = await sourcedDocumentForm(db(), { companyId: company.id, request: source, now: new Date() });
    if (!state) throw data(SOURCE_MESSAGES.notFound, { status: 404 });
    return state;
  }
  const kind = kindOf(request);
  const clientId = new URL(request.url).searchParams.get("client_id");
  return newDocumentForm(db(), { companyId: company.id, kind, clientId: kind === "fe" ? clientId : null });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { company, user } = requireSession(context);
  const source = sourceOf(request, params);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) throw data("La solicitud es demasiado grande", { status: 413 });
  const form = await request.formData();
  const values = formValues(form);
  const intent = String(form.get("intent") ?? "save");
  const result = source
    ? await submitSourcedForm(db(), { companyId: company.id, userId: user.id, request: source, values, intent, now: new Date() })
    : await submitDocumentForm(db(), { companyId: company.id, userId: user.id, kind: kindOf(request), values, intent, now: new Date() });
  if (!result) throw data(SOURCE_MESSAGES.notFound, { status: 404 });
  if (result.ok) return redirectWithToast(result.redirectTo, { type: result.warning ? "error" : "success", text: result.message });
  return data(result.state, { status: result.status });
}

export default function DocumentForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  return <DocumentFormView key={JSON.stringify(state.form) + JSON.stringify(state.errors)} state={state} />;
}

const UNIT_OPTIONS = unitsOfMeasure.map((u) => ({ value: u.symbol, label: `${u.symbol} — ${u.description}` }));

function DocumentFormView({ state }: { state: DocumentFormState }) {
  const { kind, form, lists, errors, general, totals, message, source } = state;
  const symbol = form.currency === "USD" ? "$" : "₡";
  const [saleCondition, setSaleCondition] = useState(form.saleCondition);
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">{source?.title ?? FORM_KINDS[kind].title}</h1>
        <Link to={FORM_KINDS[kind].listPath} className="btn btn-outline">
          Volver
        </Link>
      </div>
      {source && <SourceFacts view={source} />}
      <AppForm className="space-y-4" noValidate>
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
              {lists.clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.identification})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Condición de venta" name="sale_condition" error={errors.saleCondition}>
            <select id="sale_condition" name="sale_condition" className="input" value={saleCondition} onChange={(e) => setSaleCondition(e.target.value)}>
              {saleConditions
                .filter((s) => !s.repOnly)
                .map((s) => (
                  <option key={s.code} value={s.code}>
                    {s.name}
                  </option>
                ))}
            </select>
          </Field>
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
            <Field label="Plazo de crédito (días)" name="credit_days" error={errors.creditDays}>
              <input id="credit_days" name="credit_days" className="input" inputMode="numeric" defaultValue={form.creditDays} aria-invalid={!!errors.creditDays || undefined} />
            </Field>
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

        <section className="card space-y-2" aria-label="Medios de pago">
          <h2 className="font-semibold">Medios de pago</h2>
          {errors.payments && <p className="field-error">{errors.payments}</p>}
          {form.payments.map((pay, i) => (
            <div key={i} className="flex flex-wrap items-end gap-2">
              <Field label={`Medio de pago ${i + 1}`} name={`payments[${i}].code`}>
                <select id={`payments[${i}].code`} name={`payments[${i}].code`} className="input" defaultValue={pay.code}>
                  {paymentMethods.map((p) => (
                    <option key={p.code} value={p.code}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </Field>
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

        <section className="card space-y-3">
          <h2 className="font-semibold">Artículos</h2>
          {errors.lines && <p className="field-error">{errors.lines}</p>}
          <div className="overflow-x-auto">
            <table className="table w-full">
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
                  <LineRow key={i} index={i} line={line} state={state} />
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
            <dt className="font-semibold">Total</dt>
            <dd className="text-right font-semibold" data-testid="document-total">
              {totals ? formatMoney(totals.total, symbol) : "—"}
            </dd>
          </dl>
        </section>

        {source && <ReferenceBlock view={source} errors={errors} />}

        <section className="card space-y-3">
          <Field label="Correos a notificar" name="emails" error={errors.emails}>
            <input id="emails" name="emails" className="input" maxLength={1000} defaultValue={form.emails} placeholder="correo@ejemplo.com, otro@ejemplo.com" aria-invalid={!!errors.emails || undefined} />
          </Field>
          <Field label="Nota" name="note" error={errors.note}>
            <textarea id="note" name="note" className="input" rows={2} maxLength={1000} defaultValue={form.note} />
          </Field>
        </section>

        <div className="flex justify-end gap-2">
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

/** A wrong type ('El tipo de documento a crear es invalido') or a document not found, inside the layout. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : SOURCE_MESSAGES.notFound;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
