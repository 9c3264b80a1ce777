import { useEffect, useRef, useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/item-form";
import { cabysByCode } from "../../../db/queries/cabys.ts";
import { itemById } from "../../../db/queries/items.ts";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { formValues, parseForm } from "../../domain/forms.ts";
import { formatRate, ITEM_MESSAGES, itemSchema } from "../../domain/item-schemas.ts";
import { searchCabysCatalogue, type CabysResult } from "../../server/cabys.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { itemFormLists, matchingTaxType, saveItem, schemaOptions, type ItemFormLists } from "../../server/items.server.ts";

const NEW_DEFAULTS: Record<string, string> = { category: "1", unit: "Unid", currency: "2", price: "" };

function requireCompany(context: Route.LoaderArgs["context"]) {
  const { company } = context.get(requestContext);
  if (!company) throw data("No encontrado", { status: 404 });
  return company;
}

async function loadItem(companyId: number, rawId: string | undefined) {
  if (rawId === undefined) return null;
  const item = await itemById(db(), { companyId, id: Number(rawId) });
  if (!item) throw data("No encontrado", { status: 404 });
  return item;
}

async function cabysLabel(code: string | undefined) {
  if (!code || !/^\d{13}$/.test(code)) return null;
  const row = await cabysByCode(db(), code);
  return row ? { description: row.description, taxRate: formatRate(row.taxRate) } : null;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const company = requireCompany(context);
  const item = await loadItem(company.id, params.id);
  const lists = await itemFormLists(db(), company.id);
  const values: Record<string, string> = item
    ? {
        code: item.code,
        cabys_code: item.cabysCode ?? "",
        name: item.name,
        description: item.description,
        category: String(item.categoryId),
        unit: item.unitCode,
        tax_type: String(item.taxTypeId),
        currency: String(item.currencyId),
        price: formatPrice(item.price),
      }
    : { ...NEW_DEFAULTS, tax_type: String(lists.taxTypes[0]?.id ?? "") };
  return {
    id: item?.id ?? null,
    values,
    lists,
    errors: {} as Record<string, string>,
    cabysResults: [] as CabysResult[],
    cabysMessage: null as string | null,
    cabys: await cabysLabel(values.cabys_code),
  };
}

/** "1500.00000" → "1500.00" for the input (prices have at most 2 decimals). */
function formatPrice(price: string): string {
  const [i, f = ""] = price.split(".");
  return `${i}.${f.padEnd(2, "0").slice(0, 2)}`;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const company = requireCompany(context);
  const item = await loadItem(company.id, params.id);
  const id = item?.id ?? null;
  const form = await request.formData();
  const values = formValues(form);
  const intent = String(values.intent ?? "save");
  delete values.intent;
  const lists = await itemFormLists(db(), company.id);
  let cabysResults: CabysResult[] = [];
  let cabysMessage: string | null = null;

  if (intent === "cabys-search") {
    const found = await searchCabysCatalogue(db(), values.cabys_q ?? "");
    cabysResults = found.results;
    cabysMessage = found.message ?? null;
  } else if (intent.startsWith("cabys-pick:")) {
    const code = intent.slice("cabys-pick:".length);
    const row = /^\d{13}$/.test(code) ? await cabysByCode(db(), code) : undefined;
    if (row) {
      values.cabys_code = code;
      const tax = matchingTaxType(lists, String(row.taxRate));
      if (tax) values.tax_type = String(tax.id);
      cabysMessage = tax ? ITEM_MESSAGES.cabysChosen : ITEM_MESSAGES.cabysChosenNoTax;
    } else cabysMessage = ITEM_MESSAGES.cabysNotFound;
  }
  const view = async (errors: Record<string, string>, status = 200) =>
    data({ id, values, lists, errors, cabysResults, cabysMessage, cabys: await cabysLabel(values.cabys_code) }, { status });
  if (intent !== "save") return view({});

  const parsed = parseForm(itemSchema(schemaOptions(lists)), values);
  if (!parsed.ok) return view(parsed.errors, 400);
  const result = await saveItem(db(), { companyId: company.id, id }, parsed.data);
  if (!result.ok) return view(result.errors, 400);
  return redirectWithToast("/items", { type: "success", text: id === null ? ITEM_MESSAGES.saved : ITEM_MESSAGES.updated });
}

export default function ItemForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  return <ItemFormView key={JSON.stringify(state.values) + (state.cabysMessage ?? "") + state.cabysResults.length} state={state} />;
}

type ViewState = {
  id: number | null;
  values: Record<string, string | undefined>;
  lists: ItemFormLists;
  errors: Record<string, string>;
  cabysResults: CabysResult[];
  cabysMessage: string | null;
  cabys: { description: string; taxRate: string } | null;
};

type Found = CabysResult & { taxTypeId?: number | null };

export function ItemFormView({ state, action }: { state: ViewState; action?: string }) {
  const { id, values, lists, errors } = state;
  const [cabysCode, setCabysCode] = useState(values.cabys_code ?? "");
  const [taxType, setTaxType] = useState(values.tax_type ?? "");
  const [query, setQuery] = useState(values.cabys_q ?? "");
  const [results, setResults] = useState<Found[]>(state.cabysResults);
  const [message, setMessage] = useState<string | null>(state.cabysMessage);
  const [chosen, setChosen] = useState(state.cabys);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function search(q: string) {
    if (!q.trim()) {
      setResults([]);
      return;
    }
    try {
      const res = await fetch(`/cabys-search?q=${encodeURIComponent(q)}`, { headers: { accept: "application/json" } });
      const body = (await res.json()) as { data: Found[]; message: string | null };
      setResults(body.data);
      setMessage(body.message);
    } catch {
      setMessage(ITEM_MESSAGES.cabysOffline);
    }
  }

  function pick(r: Found) {
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

  return (
    <AppForm action={action} className="space-y-4" noValidate data-item-form>
      {/* Enter in a field saves (the first submit button is the form's default). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" style={{ position: "absolute", left: "-9999px" }} />
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">{id === null ? "Nuevo artículo" : "Editar artículo"}</h1>
        <Link to="/items" className="btn btn-outline">
          Volver
        </Link>
      </div>
      <FormAlert>{Object.keys(errors).length > 0 && (errors._form ?? "Revisa los datos marcados.")}</FormAlert>
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
                  clearTimeout(timer.current);
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
        <Link to="/items" className="btn btn-outline">
          Cancelar
        </Link>
        <SubmitButton name="intent" value="save">
          Guardar
        </SubmitButton>
      </div>
    </AppForm>
  );
}
