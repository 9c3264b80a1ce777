import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { AppForm, Field, FormAlert, SubmitButton } from "./form.tsx";
import { ITEM_MESSAGES } from "../domain/item-texts.ts";
import { useFieldChecks } from "./form-checks.tsx";
import type { CabysResult } from "../server/cabys.server.ts";
import type { ItemFormState } from "../server/items.server.ts";

/** A key that resets the uncontrolled inputs whenever the server sends a new state. */
export const itemFormKey = (s: ItemFormState) => JSON.stringify(s.values) + (s.cabysMessage ?? "") + s.cabysResults.length + JSON.stringify(s.errors);

type Found = CabysResult & { taxTypeId?: number | null };

/**
 * The item form (spec part 1 §2.3 Items): the /new-item and /edit-item/:id pages, and the dialog over
 * /items. Every button is a plain submit (intent save, cabys-search, cabys-pick:CODE) so it works
 * without JavaScript; with JavaScript the CABYS search runs in place through /cabys-search and
 * choosing a code selects the tax type of its rate.
 */
export function ItemFormView({ state, action, closeTo = "/items", dialog = false }: { state: ItemFormState; action?: string; closeTo?: string; dialog?: boolean }) {
  const { id, values, lists } = state;
  // The schema the server parses the item with, checked as the fields are left (decisions 166, 155).
  const check = useFieldChecks("item", lists, { serverErrors: state.errors });
  const errors = check.errors;
  const title = id === null ? "Nuevo artículo" : "Editar artículo";
  const [cabysCode, setCabysCode] = useState(values.cabys_code ?? "");
  const [taxType, setTaxType] = useState(values.tax_type ?? "");
  const [query, setQuery] = useState(values.cabys_q ?? "");
  const [results, setResults] = useState<Found[]>(state.cabysResults);
  const [message, setMessage] = useState<string | null>(state.cabysMessage);
  const [chosen, setChosen] = useState(state.cabys);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Only the latest search's answer is shown: a typed search still waiting is dropped by the button or
  // Enter, and an answer that arrives after a code was picked (or after a newer search) is ignored.
  const asked = useRef(0);
  const drop = () => {
    clearTimeout(timer.current);
    return ++asked.current;
  };

  async function search(q: string) {
    const mine = drop();
    if (!q.trim()) {
      setResults([]);
      return;
    }
    try {
      const res = await fetch(`/cabys-search?q=${encodeURIComponent(q)}`, { headers: { accept: "application/json" } });
      const body = (await res.json()) as { data: Found[]; message: string | null };
      if (mine !== asked.current) return;
      setResults(body.data);
      setMessage(body.message);
    } catch {
      if (mine === asked.current) setMessage(ITEM_MESSAGES.cabysOffline);
    }
  }

  function pick(r: Found) {
    drop();
    setCabysCode(r.code);
    setChosen({ description: r.description, taxRate: r.taxRate });
    const tax = r.taxTypeId ? String(r.taxTypeId) : undefined;
    if (tax) setTaxType(tax);
    setMessage(tax ? ITEM_MESSAGES.cabysChosen : ITEM_MESSAGES.cabysChosenNoTax);
    setResults([]);
  }

  const text = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field label={label} name={name} error={errors[name]}>
      <input id={name} name={name} className="input" defaultValue={values[name] ?? ""} aria-invalid={!!errors[name] || undefined} {...props} />
    </Field>
  );

  const form = (
    <AppForm action={action} className="space-y-4" data-item-form={dialog ? "dialog" : "page"} {...check.formProps}>
      {/* Enter in a field saves (the first submit button is the form's default). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="absolute -left-[9999px]" />
      <div className="flex items-center justify-between">
        {dialog ? <h2 className="text-lg font-semibold">{title}</h2> : <h1 className="text-lg font-semibold">{title}</h1>}
        <Link to={closeTo} className="btn btn-outline">
          {dialog ? "Cerrar" : "Volver"}
        </Link>
      </div>
      <FormAlert>{(check.hasErrors || Object.keys(state.errors).length > 0) && (state.errors._form ?? "Revisa los datos marcados.")}</FormAlert>
      <section className="card space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {text("code", "Código", { required: true, maxLength: 20 })}
          {text("name", "Nombre", { required: true, maxLength: 200 })}
        </div>
        <Field label="Descripción" name="description" error={errors.description}>
          <textarea id="description" name="description" className="input" rows={2} maxLength={500} defaultValue={values.description ?? ""} aria-invalid={!!errors.description || undefined} />
        </Field>

        <div className="space-y-2 rounded-md border border-slate-200 p-3" data-cabys>
          <Field label="Código CABYS" name="cabys_code" error={errors.cabys_code}>
            <input
              id="cabys_code"
              name="cabys_code"
              className="input"
              inputMode="numeric"
              pattern="\d{13}"
              maxLength={13}
              placeholder="13 dígitos"
              value={cabysCode}
              onChange={(e) => {
                setCabysCode(e.target.value);
                setChosen(null);
              }}
              aria-invalid={!!errors.cabys_code || undefined}
            />
          </Field>
          {chosen && (
            <p className="text-sm text-slate-600" data-cabys-chosen>
              {chosen.description} — IVA {chosen.taxRate}%
            </p>
          )}
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex-1">
              <span className="sr-only">Buscar en el catálogo CABYS</span>
              <input
                name="cabys_q"
                type="search"
                className="input"
                placeholder="Buscar CABYS por código o descripción"
                aria-label="Buscar CABYS por código o descripción"
                value={query}
                onChange={(e) => {
                  const q = e.target.value;
                  setQuery(q);
                  drop();
                  timer.current = setTimeout(() => void search(q), 250);
                }}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    void search(query);
                  }
                }}
              />
            </label>
            <button
              type="submit"
              name="intent"
              value="cabys-search"
              className="btn btn-outline"
              formNoValidate
              onClick={(e) => {
                e.preventDefault();
                void search(query);
              }}
            >
              Buscar CABYS
            </button>
          </div>
          {message && (
            <p className="text-sm" role="status" data-cabys-message>
              {message}
            </p>
          )}
          {results.length > 0 && (
            <ul className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200" data-cabys-results>
              {results.map((r) => (
                <li key={r.code}>
                  <button
                    type="submit"
                    name="intent"
                    value={`cabys-pick:${r.code}`}
                    formNoValidate
                    className="w-full px-3 py-2 text-left text-sm hover:bg-slate-50"
                    onClick={(e) => {
                      e.preventDefault();
                      pick(r);
                    }}
                  >
                    <span className="font-mono">{r.code}</span> {r.description} <span className="text-slate-500">({r.taxRate}%)</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Categoría" name="category" error={errors.category}>
            <select id="category" name="category" className="input" defaultValue={values.category}>
              {lists.categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Unidad" name="unit" error={errors.unit}>
            <select id="unit" name="unit" className="input" defaultValue={values.unit}>
              {lists.units.map((u) => (
                <option key={u.symbol} value={u.symbol}>
                  {u.symbol} - {u.description}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Tipo de impuesto" name="tax_type" error={errors.tax_type}>
            <select id="tax_type" name="tax_type" className="input" value={taxType} onChange={(e) => setTaxType(e.target.value)}>
              <option value="">Seleccione</option>
              {lists.taxTypes.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.rate}%)
                </option>
              ))}
            </select>
          </Field>
          <Field label="Moneda" name="currency" error={errors.currency}>
            <select id="currency" name="currency" className="input" defaultValue={values.currency}>
              {lists.currencies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.symbol})
                </option>
              ))}
            </select>
          </Field>
          {text("price", "Precio", { required: true, inputMode: "decimal", pattern: "\\d+([.,]\\d{1,2})?" })}
        </div>
      </section>
      <div className="flex justify-end gap-2">
        <Link to={closeTo} className="btn btn-outline">
          Cancelar
        </Link>
        <SubmitButton name="intent" value="save">
          Guardar
        </SubmitButton>
      </div>
    </AppForm>
  );
  if (!dialog) return form;
  // Over the list: a panel rendered by the server (?new=1, ?edit=ID), so it works without JavaScript.
  return (
    <div className="fixed inset-0 z-40 overflow-y-auto bg-slate-900/45 p-4" role="dialog" aria-modal="true" aria-label={title} data-item-dialog>
      <div className="mx-auto max-w-3xl rounded-lg bg-slate-100 p-4 shadow-xl">{form}</div>
    </div>
  );
}
