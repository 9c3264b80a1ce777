import { data, Link } from "react-router";
import type { Route } from "./+types/taxes";
import { taxTypesPage } from "../../../db/queries/items.ts";
import { AppForm, Field } from "../../components/form.tsx";
import { companyIdParam } from "../../domain/access.ts";
import { Pagination } from "../../components/pagination.tsx";
import { formValues, parseForm } from "../../domain/forms.ts";
import { formatRate, TAX_MESSAGES, taxSchema } from "../../domain/item-schemas.ts";
import { lastPage } from "../../domain/pagination.ts";
import { ADMIN_ONLY } from "../../server/companies.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { requireTaxCompany, saveTaxType, VAT_CODES, VAT_OPTIONS } from "../../server/taxes.server.ts";

const PER_PAGE = 10;

async function load(request: Request, context: Route.LoaderArgs["context"], companyId: number | null) {
  const { user } = context.get(requestContext);
  if (!user) throw data("No encontrado", { status: 404 });
  const company = await requireTaxCompany(db(), user, companyId);
  const req = await listRequest(request, context, "/taxes");
  const { rows, total } = await taxTypesPage(db(), { companyId: company.id, page: req.page, perPage: PER_PAGE });
  return {
    company: { id: company.id, name: company.name },
    rows: rows.map((r) => ({ id: r.id, name: r.name, rate: formatRate(r.rate), vatCode: r.vatCode })),
    page: req.page,
    lastPage: lastPage(total, PER_PAGE),
    isAdmin: user.isAdmin,
    vatOptions: VAT_OPTIONS,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return { ...(await load(request, context, companyIdParam(params.company_id))), open: null as string | null, values: {} as Record<string, string>, errors: {} as Record<string, string> };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const companyId = companyIdParam(params.company_id);
  if (!user) throw data("No encontrado", { status: 404 });
  const company = await requireTaxCompany(db(), user, companyId);
  if (!user.isAdmin) throw data(ADMIN_ONLY, { status: 403 });
  const form = await request.formData();
  const values = formValues(form);
  const id = values.tax_id ? Number(values.tax_id) : null;
  const parsed = parseForm(taxSchema(VAT_CODES), values);
  if (!parsed.ok) {
    return data({ ...(await load(request, context, companyId)), open: id === null ? "new" : String(id), values, errors: parsed.errors }, { status: 400 });
  }
  const ok = await saveTaxType(db(), { companyId: company.id, id }, parsed.data);
  return redirectWithToast(`/taxes/${company.id}`, ok ? { type: "success", text: TAX_MESSAGES.saved } : { type: "error", text: TAX_MESSAGES.problem });
}

type Row = { id: number; name: string; rate: string; vatCode: string };

export default function Taxes({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  const { rows, isAdmin, company, page } = state;
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Lista de IVA</h1>
        {isAdmin && <TaxDialog label="Nuevo IVA" title="Nuevo IVA" state={state} row={null} companyId={company.id} buttonClass="btn btn-primary" />}
      </div>
      <p className="mb-2 text-sm text-slate-600">{company.name}</p>
      <div className="overflow-x-auto">
        <table className="table" data-taxes>
          <thead>
            <tr>
              <th>Nombre</th>
              <th>Tarifa %</th>
              <th>Código de tarifa</th>
              {isAdmin && <th>Acciones</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={isAdmin ? 4 : 3} className="text-center text-slate-500">
                  {TAX_MESSAGES.empty}
                </td>
              </tr>
            )}
            {rows.map((r) => (
              <tr key={r.id} data-tax-id={r.id}>
                <td>{r.name}</td>
                <td>{r.rate}</td>
                <td>{r.vatCode}</td>
                {isAdmin && (
                  <td>
                    <TaxDialog label="Editar" title="Editar IVA" state={state} row={r} companyId={company.id} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} lastPage={state.lastPage} />
    </div>
  );
}

/** A dialog that works without JavaScript (<details>), reopened with the values and 'invalido' on errors. */
function TaxDialog({
  label,
  title,
  state,
  row,
  companyId,
  buttonClass = "btn btn-outline btn-sm",
}: {
  companyId: number;
  label: string;
  title: string;
  state: { open: string | null; values: Record<string, string>; errors: Record<string, string>; vatOptions: { code: string; name: string }[] };
  row: Row | null;
  buttonClass?: string;
}) {
  const key = row ? String(row.id) : "new";
  const reopened = state.open === key;
  const v = reopened ? state.values : row ? { name: row.name, rate: row.rate, vat_code: row.vatCode } : { name: "", rate: "", vat_code: "08" };
  const errors = reopened ? state.errors : {};
  const prefix = `tax-${key}`;
  return (
    <details className="confirm inline-block" open={reopened || undefined}>
      <summary className={buttonClass} role="button">
        {label}
      </summary>
      <div className="confirm-panel">
        <div className="card w-full max-w-md" role="dialog" aria-modal="true" aria-label={title}>
          <h2 className="text-lg font-semibold">{title}</h2>
          {Object.keys(errors).length > 0 && (
            <p className="mt-2 rounded-md bg-danger/10 p-2 text-sm text-danger" role="alert">
              {TAX_MESSAGES.invalid}
            </p>
          )}
          <AppForm className="mt-4 space-y-3" noValidate>
            {row && <input type="hidden" name="tax_id" value={row.id} />}
            <Field label="Nombre" name={`${prefix}-name`} error={errors.name}>
              <input id={`${prefix}-name`} name="name" className="input" defaultValue={v.name ?? ""} maxLength={60} required />
            </Field>
            <Field label="Tarifa %" name={`${prefix}-rate`} error={errors.rate}>
              <input id={`${prefix}-rate`} name="rate" className="input" inputMode="decimal" defaultValue={v.rate ?? ""} required />
            </Field>
            <Field label="Código de tarifa (CodigoTarifaIVA)" name={`${prefix}-vat`} error={errors.vat_code}>
              <select id={`${prefix}-vat`} name="vat_code" className="input" defaultValue={v.vat_code ?? "08"}>
                {state.vatOptions.map((o) => (
                  <option key={o.code} value={o.code}>
                    {o.code} - {o.name}
                  </option>
                ))}
              </select>
            </Field>
            <div className="flex justify-end gap-2">
              <Link to={`/taxes/${companyId}`} className="btn btn-outline">
                Cancelar
              </Link>
              <button type="submit" name="intent" value="save" className="btn btn-primary">
                Guardar
              </button>
            </div>
          </AppForm>
        </div>
      </div>
    </details>
  );
}
