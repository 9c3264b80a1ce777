import { useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/company-form";
import { companyWithConfiguration } from "../../../db/queries/companies.ts";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { useFieldChecks } from "../../components/form-checks.tsx";
import { LocationFields } from "../../components/location-fields.tsx";
import { unpackChoices } from "../../domain/choices.ts";
import { ACTIVITY_CODE_MESSAGES, isLegacyActivityCode, parseActivityOptions } from "../../domain/activity-codes.ts";
import { companySchema } from "../../domain/company-schemas.ts";
import { ACTIVITY_MESSAGES, COMPANY_MESSAGES, CURRENCY_EMIT_DOC, INVOICE_FORMATS, PLANS, lookupDigits, type Activity } from "../../domain/company-texts.ts";
import { formValues, parseForm } from "../../domain/forms.ts";
import { lookupActivities } from "../../server/activity-lookup.server.ts";
import { companyFormLists, createCompany, readLogo, requireAdmin, requireManageableCompany, updateCompany } from "../../server/companies.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

/** Bodies above this are refused before parsing (the logo itself is limited to 1 MB). */
const MAX_BODY = 3 * 1024 * 1024;

const NEW_DEFAULTS: Record<string, string> = {
  identification_type: "2",
  country: "60",
  province: "1",
  canton: "1",
  district: "1",
  custom_quotation_name: "Cotización",
  currency: "2",
  currency_emit_doc: "0",
  invoice_format: "1",
  permission: "1",
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  requireAdmin(user);
  let values = { ...NEW_DEFAULTS };
  let activities: Activity[] = [];
  let hasLogo = false;
  let hasApiPassword = false;
  let storedActivityCode: string | null = null;
  const id = params.id ? Number(params.id) : null;
  if (id !== null) {
    await requireManageableCompany(db(), user!, id);
    const { company: c, config } = (await companyWithConfiguration(db(), id))!;
    values = {
      name: c.name,
      fantasy_name: c.fantasyName ?? "",
      identification_type: String(c.identificationTypeId),
      identification: c.identification,
      email: c.email,
      phone: c.phone,
      country: String(c.countryId),
      province: String(c.provinceNumber ?? 1),
      canton: String(c.cantonNumber ?? 1),
      district: String(c.districtNumber ?? 1),
      other_signs: c.otherSigns ?? "",
      economic_activity_code: c.economicActivityCode ?? "",
      economic_activity_name: c.economicActivityName ?? "",
      custom_quotation_name: config?.customQuotationName ?? "Cotización",
      currency: String(config?.currencyId ?? 2),
      currency_emit_doc: String(config?.currencyEmitDoc ?? 0),
      invoice_format: c.invoiceFormat,
      permission: String(c.permission),
      username_api: c.usernameApi ?? "",
      database: c.database ?? "",
      no_hacienda: c.noHacienda ? "on" : "",
    };
    // An old-catalogue code is shown in the typed field, not as the only choice (decision 132).
    if (c.economicActivityCode && !isLegacyActivityCode(c.economicActivityCode)) activities = [{ code: c.economicActivityCode, description: c.economicActivityName ?? "", type: "" }];
    hasLogo = !!c.logo;
    hasApiPassword = !!c.passwordApiHash;
    storedActivityCode = c.economicActivityCode;
  }
  const { lists, location } = await companyFormLists(db(), values);
  return { id, values: { ...values, ...location }, lists, activities, hasLogo, hasApiPassword, storedActivityCode, isAdmin: user!.isAdmin, isSuperAdmin: user!.isSuperAdmin, errors: {} as Record<string, string>, message: null as string | null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  requireAdmin(user);
  const id = params.id ? Number(params.id) : null;
  const current = id !== null ? await requireManageableCompany(db(), user!, id) : null;
  const base = { id, hasLogo: !!current?.logo, hasApiPassword: !!current?.passwordApiHash, storedActivityCode: current?.economicActivityCode ?? null, isAdmin: user!.isAdmin, isSuperAdmin: user!.isSuperAdmin };

  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) {
    throw data("El logo no puede pesar más de 1 MB", { status: 413 });
  }
  const form = await request.formData();
  const values = formValues(form);
  delete values.intent;
  let activities = parseActivityOptions(values.activity_options);
  let message: string | null = null;
  const intent = form.get("intent");

  if (intent === "lookup-activity") {
    const found = await lookupActivities(values.identification ?? "");
    message = found.message;
    if (found.ok) {
      activities = found.activities;
      values.economic_activity_code = found.selected;
    }
  }
  const chosen = activities.find((a) => a.code === values.economic_activity_code);
  if (chosen) values.economic_activity_name = chosen.description;

  const { lists, location } = await companyFormLists(db(), values);
  const view = (errors: Record<string, string>, status = 200) =>
    data({ ...base, values: { ...values, ...(intent === "refresh-location" ? location : {}) }, lists, activities, errors, message }, { status });

  if (intent === "refresh-location" || intent === "lookup-activity") return view({});

  const parsed = parseForm(
    companySchema({ creating: id === null, isAdmin: user!.isAdmin, isSuperAdmin: user!.isSuperAdmin, hasApiPassword: base.hasApiPassword, storedActivityCode: base.storedActivityCode }),
    values,
  );
  const logo = await readLogo(form);
  const errors = { ...(parsed.ok ? {} : parsed.errors), ...(logo.ok ? {} : { logo: logo.message }) };
  if (!parsed.ok || !logo.ok) return view(errors, 400);

  const result = id === null ? await createCompany(db(), user!, parsed.data, logo.logo) : await updateCompany(db(), user!, id, parsed.data, logo.logo);
  if (!result.ok) return view(result.errors, 400);
  return redirectWithToast("/all-companies", { type: "success", text: id === null ? COMPANY_MESSAGES.saved : COMPANY_MESSAGES.updated });
}

export default function CompanyForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
  return <CompanyFormView key={JSON.stringify(state.values) + (state.message ?? "")} state={state} />;
}

type ViewState = Omit<Route.ComponentProps["loaderData"], "values"> & { values: Record<string, string | undefined> };

function CompanyFormView({ state }: { state: ViewState }) {
  const { id, values, lists, isSuperAdmin, hasLogo, hasApiPassword, storedActivityCode } = state;
  const creating = id === null;
  // The schema the server parses the company with, checked as the fields are left (decisions 166, 155).
  const check = useFieldChecks("company", { creating, isAdmin: state.isAdmin, isSuperAdmin, hasApiPassword, storedActivityCode }, { serverErrors: state.errors });
  const errors = check.errors;
  const [activities, setActivities] = useState<Activity[]>(state.activities);
  const [activity, setActivity] = useState(values.economic_activity_code ?? "");
  const [message, setMessage] = useState<string | null>(state.message);
  const [busy, setBusy] = useState(false);
  const activityName = activities.find((a) => a.code === activity)?.description ?? values.economic_activity_name ?? "";

  async function lookup(identification: string) {
    if (busy || !lookupDigits(identification)) return;
    setBusy(true);
    try {
      const res = await fetch(`/activity-lookup?identificacion=${encodeURIComponent(identification)}`, { headers: { accept: "application/json" } });
      const found = (await res.json()) as { ok: boolean; activities: Activity[]; selected?: string; message: string };
      setMessage(found.message);
      if (found.ok) {
        setActivities(found.activities);
        setActivity(found.selected ?? found.activities[0]?.code ?? "");
      }
    } catch {
      setMessage(ACTIVITY_MESSAGES.network);
    } finally {
      setBusy(false);
    }
  }

  const text = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field label={label} name={name} error={errors[name]}>
      <input id={name} name={name} className="input" defaultValue={values[name] ?? ""} aria-invalid={!!errors[name] || undefined} {...props} />
    </Field>
  );

  return (
    <AppForm encType="multipart/form-data" className="space-y-4" {...check.formProps}>
      {/* Enter in a field saves (the first submit button is the form's default). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="absolute -left-[9999px]" />
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">{creating ? "Nueva Compañia" : "Editar Compañia"}</h1>
        <Link to="/all-companies" className="btn btn-outline">
          Volver
        </Link>
      </div>
      <FormAlert>{(check.hasErrors || Object.keys(state.errors).length > 0) && "Revisa los datos marcados."}</FormAlert>

      <section className="card space-y-4" aria-labelledby="card-detalle">
        <h2 id="card-detalle" className="font-semibold">
          Detalle
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("name", "Nombre", { required: true, maxLength: 160 })}
          {text("fantasy_name", "Nombre comercial", { maxLength: 160 })}
          <Field label="Tipo de identificación" name="identification_type" error={errors.identification_type}>
            <select id="identification_type" name="identification_type" className="input" defaultValue={values.identification_type} required>
              {lists.identificationTypes.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.code} {t.name}
                </option>
              ))}
            </select>
          </Field>
          {text("identification", "Identificación", {
            required: true,
            minLength: 9,
            maxLength: 12,
            pattern: "[0-9A-Z]{9,12}",
            onBlur: (e) => {
              if (creating && !activity) void lookup(e.currentTarget.value);
            },
          })}
          {text("email", "Email", { type: "email", required: true })}
          {text("phone", "Teléfono", { inputMode: "numeric", pattern: "\\d+", required: true })}
        </div>
        <div className="space-y-2" data-activity>
          <Field label="Actividad económica" name="economic_activity_code" error={errors.economic_activity_code}>
            {activities.length > 0 ? (
              <select id="economic_activity_code" name="economic_activity_code" className="input" value={activity} onChange={(e) => setActivity(e.target.value)}>
                {activities.map((a) => (
                  <option key={a.code} value={a.code}>
                    {a.code} - {a.description}
                    {a.type === "P" ? " (principal)" : ""}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id="economic_activity_code"
                name="economic_activity_code"
                className="input"
                inputMode="decimal"
                pattern="\d{4}\.\d"
                maxLength={6}
                placeholder="Código CIIU 4, p. ej. 6201.0"
                value={activity}
                onChange={(e) => setActivity(e.target.value)}
              />
            )}
          </Field>
          {/* A stored code of the catalogue before TRIBU-CR that the migration could not convert (decision 132). */}
          {isLegacyActivityCode(activity) && (
            <p className="rounded-md bg-warning/10 p-3 text-sm" role="alert" data-activity-legacy>
              {ACTIVITY_CODE_MESSAGES.legacyCompany(activity)}
            </p>
          )}
          <input type="hidden" name="activity_options" value={JSON.stringify(activities)} />
          {activities.length > 0 ? (
            <input type="hidden" name="economic_activity_name" value={activityName} />
          ) : (
            text("economic_activity_name", "Descripción de la actividad", { maxLength: 250 })
          )}
          <div className="flex items-center gap-3">
            <button
              type="submit"
              name="intent"
              value="lookup-activity"
              className="btn btn-outline btn-sm"
              formNoValidate
              disabled={busy}
              onClick={(e) => {
                const input = e.currentTarget.form?.elements.namedItem("identification") as HTMLInputElement | null;
                if (input) {
                  e.preventDefault();
                  void lookup(input.value);
                }
              }}
            >
              Buscar actividad
            </button>
            {message && (
              <span className="text-sm" role="status" data-activity-message>
                {message}
              </span>
            )}
          </div>
        </div>
      </section>

      <section className="card space-y-4" aria-labelledby="card-ubicacion">
        <h2 id="card-ubicacion" className="font-semibold">
          Ubicación
        </h2>
        <Field label="País" name="country" error={errors.country}>
          <select id="country" name="country" className="input" defaultValue={values.country}>
            {unpackChoices(lists.countries).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <LocationFields provinces={lists.provinces} cantons={lists.cantons} districts={lists.districts} values={values} errors={errors} />
        <Field label="Otras señas" name="other_signs" error={errors.other_signs}>
          <textarea id="other_signs" name="other_signs" className="input" rows={2} maxLength={250} defaultValue={values.other_signs ?? ""} aria-invalid={!!errors.other_signs || undefined} />
        </Field>
      </section>

      <section className="card space-y-4" aria-labelledby="card-preferencias">
        <h2 id="card-preferencias" className="font-semibold">
          Preferencias
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Logo" name="logo" error={errors.logo}>
            <input id="logo" name="logo" type="file" className="input" accept="image/png,image/jpeg,image/webp,image/gif" />
            {hasLogo && id !== null && <img src={`/company-logo/${id}`} alt="Logo actual" className="mt-2 h-16" />}
          </Field>
          {text("custom_quotation_name", "Nombre de la cotización", { required: true, maxLength: 60 })}
          <Field label="Moneda" name="currency" error={errors.currency}>
            <select id="currency" name="currency" className="input" defaultValue={values.currency}>
              {lists.currencies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.symbol})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Moneda de emisión de documentos" name="currency_emit_doc" error={errors.currency_emit_doc}>
            <select id="currency_emit_doc" name="currency_emit_doc" className="input" defaultValue={values.currency_emit_doc}>
              {CURRENCY_EMIT_DOC.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Formato de factura" name="invoice_format" error={errors.invoice_format}>
            <select id="invoice_format" name="invoice_format" className="input" defaultValue={values.invoice_format}>
              {INVOICE_FORMATS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Plan" name="permission" error={errors.permission}>
            <select id="permission" name="permission" className="input" defaultValue={values.permission}>
              {PLANS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </Field>
          <div className="contents" data-plan-api>
            {text("username_api", "Usuario API (plan 5)", { maxLength: 100 })}
            {text("password_api", "Contraseña API (plan 5)", {
              type: "password",
              defaultValue: "",
              autoComplete: "new-password",
              placeholder: hasApiPassword ? "Dejar en blanco para conservarla" : undefined,
            })}
          </div>
          {isSuperAdmin && (
            <Field label="Base de datos" name="database" error={errors.database}>
              {creating ? (
                <input id="database" className="input" readOnly value="Se asigna automáticamente" aria-readonly="true" />
              ) : (
                <input id="database" name="database" className="input" defaultValue={values.database ?? ""} maxLength={100} />
              )}
            </Field>
          )}
          <label className="flex items-center gap-2">
            <input type="checkbox" name="no_hacienda" defaultChecked={values.no_hacienda === "on"} />
            <span>No enviar a Hacienda</span>
          </label>
        </div>
      </section>

      <div className="flex justify-end gap-2">
        <Link to="/all-companies" className="btn btn-outline">
          Cancelar
        </Link>
        <SubmitButton name="intent" value="save">
          Guardar
        </SubmitButton>
      </div>
    </AppForm>
  );
}
