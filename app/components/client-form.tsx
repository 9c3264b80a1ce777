import { useEffect, useState } from "react";
import { Link } from "react-router";
import { AppForm, Field, SubmitButton } from "./form.tsx";
import { ContactsFields } from "./contacts-fields.tsx";
import { unpackChoices } from "../domain/choices.ts";
import { activityLookupCheck, clientFormObject, HOME_COUNTRY, maxContacts, type ClientFormMode, type ContactValues } from "../domain/client-texts.ts";
import { useFieldChecks } from "./form-checks.tsx";
import { ACTIVITY_CODE_MESSAGES, ACTIVITY_MESSAGES, isLegacyActivityCode, type Activity, type ActivityLookup } from "../domain/activity-codes.ts";

interface Place {
  number: number;
  name: string;
}
const unpackPlaces = (packed: string): Place[] => unpackChoices(packed).map((c) => ({ number: c.id, name: c.name }));

export interface ClientFormViewState {
  mode: ClientFormMode;
  id: number | null;
  provider: boolean;
  values: Record<string, string | undefined>;
  contacts: ContactValues[];
  activities: Activity[];
  /** Each list packed as one string (app/domain/choices.ts): a place's id is its number, an identification type's name is 'code name', a barrio's id only its position (it is chosen by name). */
  lists: {
    identificationTypes: string;
    countries: string;
    provinces: string;
    cantons: string;
    districts: string;
    barrios: string;
  };
  errors: Record<string, string | undefined>;
  message: string | null;
  /** The stored client's activity code (an old-catalogue code it already has is accepted unchanged). */
  storedActivityCode?: string | null;
}

/**
 * The client/provider form, sections Detalle, Ubicación, Contactos (spec part 1 §2.3). Every
 * button is a plain submit (intent …) so the form works without JavaScript; with JavaScript the
 * location cascade reloads its lists in place and location fields follow the country at once.
 */
/** Contact rows are flat fields (contact_name_0…): the schema's contacts.N.field is that field. */
const CONTACT_FIELD: Record<string, string> = { name: "name", email: "email", workstation: "workstation", send_copy: "copy" };
function clientFieldName(key: string): string {
  const m = /^contacts\.(\d+)\.(\w+)$/.exec(key);
  return m ? `contact_${CONTACT_FIELD[m[2]] ?? m[2]}_${m[1]}` : key === "_form" ? "" : key;
}
const clientPathName = (path: PropertyKey[]) => clientFieldName(path.map(String).join("."));

export function ClientForm({ state, action, cancelTo, title }: { state: ClientFormViewState; action: string; cancelTo: string; title: string }) {
  const { mode, values, lists } = state;
  // The schema the server parses the client with, checked as the fields are left (decisions 166, 155).
  const check = useFieldChecks("client", { mode, provider: !!state.provider, storedActivityCode: state.storedActivityCode }, {
    serverErrors: state.errors as Record<string, string>,
    prepare: (v) => clientFormObject(v as Record<string, string>),
    nameOf: clientPathName,
    keyToName: clientFieldName,
  });
  const errors = check.errors;
  const [country, setCountry] = useState(values.country ?? String(HOME_COUNTRY));
  const home = country === String(HOME_COUNTRY);
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const text = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field label={label} name={name} error={errors[name]}>
      <input id={name} name={name} className="input" defaultValue={values[name] ?? ""} aria-invalid={!!errors[name] || undefined} {...props} />
    </Field>
  );
  const form = (
    <AppForm action={action} className="space-y-4" data-client-form={mode} {...check.formProps}>
      {/* Enter in a field saves (the first submit button is the form's default). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="absolute -left-[9999px]" />
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">{title}</h1>
        <Link to={cancelTo} className="btn btn-outline">
          {mode === "dialog" ? "Cerrar" : "Volver"}
        </Link>
      </div>
      {check.hasErrors && (
        <p className="rounded-md bg-danger/10 p-3 text-sm text-danger" role="alert">
          Revisa los datos marcados.
        </p>
      )}
      {mode === "detail" && values.found_company_name && <input type="hidden" name="found_company_name" value={values.found_company_name} />}

      <section className="card space-y-4" aria-labelledby="card-detalle">
        <h2 id="card-detalle" className="font-semibold">
          Detalle
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("name", "Nombre", { required: true, maxLength: 160 })}
          {text("comercial_name", "Nombre comercial", { maxLength: 160 })}
          <Field label="Tipo de identificación" name="identification_type" error={errors.identification_type}>
            <select id="identification_type" name="identification_type" className="input" defaultValue={values.identification_type} required>
              {unpackChoices(lists.identificationTypes).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </Field>
          {text("identification", "Identificación", { required: true, pattern: "[0-9A-Z]{9,12}", maxLength: 12 })}
          {text("email", "Email", { type: "email", required: true, maxLength: 160 })}
          {text("phone", "Teléfono", { inputMode: "numeric", pattern: "\\d+", required: true, maxLength: 20 })}
        </div>
        {mode === "detail" ? <ActivityHidden state={{ ...state, errors: check.errors }} /> : <ActivityFields state={{ ...state, errors: check.errors }} />}
      </section>

      <section className="card space-y-4" aria-labelledby="card-ubicacion">
        <h2 id="card-ubicacion" className="font-semibold">
          Ubicación
        </h2>
        <Field label="País" name="country" error={errors.country}>
          <select id="country" name="country" className="input" value={country} onChange={(e) => setCountry(e.target.value)}>
            {unpackChoices(lists.countries).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        {!home && !scripted && (
          <button type="submit" name="intent" value="refresh-location" className="btn btn-outline btn-sm" formNoValidate>
            Actualizar ubicación
          </button>
        )}
        {home && <ClientLocation lists={lists} values={values} errors={errors} withBarrio={mode !== "new"} />}
        <Field label="Dirección" name="address" error={errors.address}>
          <textarea id="address" name="address" className="input" rows={2} maxLength={250} defaultValue={values.address ?? ""} aria-invalid={!!errors.address || undefined} />
        </Field>
      </section>

      <ContactsFields contacts={state.contacts} errors={errors} max={maxContacts(mode)} />

      <div className="flex justify-end gap-2">
        <Link to={cancelTo} className="btn btn-outline">
          Cancelar
        </Link>
        <SubmitButton name="intent" value="save">
          Guardar
        </SubmitButton>
      </div>
    </AppForm>
  );
  if (mode !== "dialog") return form;
  return (
    <div className="fixed inset-0 z-40 overflow-y-auto bg-slate-100 p-4" role="dialog" aria-modal="true" aria-label={title} data-client-dialog>
      <div className="mx-auto max-w-4xl">{form}</div>
    </div>
  );
}

function ActivityHidden({ state }: { state: ClientFormViewState }) {
  return (
    <>
      <input type="hidden" name="economic_activity_code" value={state.values.economic_activity_code ?? ""} />
      <input type="hidden" name="economic_activity_name" value={state.values.economic_activity_name ?? ""} />
      {state.errors.economic_activity_code && <p className="field-error">{state.errors.economic_activity_code}</p>}
    </>
  );
}

/**
 * Economic activity: a list after a lookup (principal preselected), otherwise a typed code.
 * "Buscar actividad" is a submit (intent lookupIntent) that the server answers by re-rendering the
 * form with everything typed. With JavaScript, inside a form that has the identification fields (the
 * client dialog and /new-client), it looks up through /activity-lookup and fills the list in place.
 */
export function ActivityFields({
  state,
  lookupIntent = "lookup-activity",
}: {
  state: Pick<ClientFormViewState, "activities" | "values" | "errors" | "message">;
  lookupIntent?: string;
}) {
  const { values, errors } = state;
  const [activities, setActivities] = useState(state.activities);
  const [activity, setActivity] = useState(values.economic_activity_code ?? "");
  const [message, setMessage] = useState(state.message);
  const [foundName, setFoundName] = useState(values.found_company_name ?? "");
  const [busy, setBusy] = useState(false);
  const activityName = activities.find((a) => a.code === activity)?.description ?? values.economic_activity_name ?? "";

  async function lookupInPlace(e: React.MouseEvent<HTMLButtonElement>) {
    const fields = e.currentTarget.form?.elements;
    const type = fields?.namedItem("identification_type");
    const identification = fields?.namedItem("identification");
    // Without the identification fields in this form (the detail's activity panel) the server looks it up.
    if (!(type instanceof HTMLSelectElement) || !(identification instanceof HTMLInputElement)) return;
    e.preventDefault();
    if (busy) return;
    const problem = activityLookupCheck(type.value, identification.value);
    if (problem) {
      setMessage(problem);
      return;
    }
    setBusy(true);
    try {
      const res = await fetch(`/activity-lookup?identificacion=${encodeURIComponent(identification.value)}`, { headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const found = (await res.json()) as ActivityLookup;
      setMessage(found.message);
      if (found.ok) {
        setActivities(found.activities);
        setActivity(found.selected);
        if (found.name) setFoundName(found.name);
      }
    } catch {
      setMessage(ACTIVITY_MESSAGES.network);
    } finally {
      setBusy(false);
    }
  }

  return (
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
            aria-invalid={!!errors.economic_activity_code || undefined}
          />
        )}
      </Field>
      {/* A stored code of the catalogue before TRIBU-CR that the migration could not convert (decision 132). */}
      {isLegacyActivityCode(activity) && (
        <p className="rounded-md bg-warning/10 p-3 text-sm" role="alert" data-activity-legacy>
          {ACTIVITY_CODE_MESSAGES.legacyClient(activity)}
        </p>
      )}
      <input type="hidden" name="activity_options" value={JSON.stringify(activities)} />
      {foundName && <input type="hidden" name="found_company_name" value={foundName} />}
      {activities.length > 0 ? (
        <input type="hidden" name="economic_activity_name" value={activityName} />
      ) : (
        <Field label="Descripción de la actividad" name="economic_activity_name" error={errors.economic_activity_name}>
          <input id="economic_activity_name" name="economic_activity_name" className="input" defaultValue={values.economic_activity_name ?? ""} maxLength={250} />
        </Field>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" name="intent" value={lookupIntent} className="btn btn-outline btn-sm" formNoValidate disabled={busy} onClick={(e) => void lookupInPlace(e)}>
          Buscar actividad
        </button>
        {message && (
          <span className="text-sm" role="status" data-activity-message>
            {message}
          </span>
        )}
      </div>
    </div>
  );
}

/** Province → canton → district (→ barrio) cascade, first option selected (spec part 1 §4). */
function ClientLocation({
  lists,
  values,
  errors,
  withBarrio,
}: {
  lists: ClientFormViewState["lists"];
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
  withBarrio: boolean;
}) {
  const [province, setProvince] = useState(values.province || "1");
  const [canton, setCanton] = useState(values.canton || "1");
  const [district, setDistrict] = useState(values.district || "1");
  const [barrio, setBarrio] = useState(values.barrio ?? "");
  const [cantons, setCantons] = useState(() => unpackPlaces(lists.cantons));
  const [districts, setDistricts] = useState(() => unpackPlaces(lists.districts));
  const [barrios, setBarrios] = useState(() => unpackChoices(lists.barrios));
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);

  async function load(p: string, c?: string) {
    const res = await fetch(`/locations?province=${encodeURIComponent(p)}${c ? `&canton=${encodeURIComponent(c)}` : ""}`, { headers: { accept: "application/json" } });
    if (!res.ok) return null;
    return (await res.json()) as { cantons: Place[]; districts: Place[] };
  }
  async function loadBarrios(p: string, c: string, d: string) {
    if (!withBarrio) return;
    const res = await fetch(`/locations?province=${encodeURIComponent(p)}&canton=${encodeURIComponent(c)}&district=${encodeURIComponent(d)}`, { headers: { accept: "application/json" } });
    const list = res.ok ? ((await res.json()) as { barrios: { id: number; name: string }[] }).barrios : [];
    setBarrios(list);
    setBarrio(list[0]?.name ?? "");
  }
  async function onProvince(p: string) {
    setProvince(p);
    const first = await load(p);
    const c = String(first?.cantons[0]?.number ?? "");
    setCantons(first?.cantons ?? []);
    setCanton(c);
    const second = c ? await load(p, c) : null;
    const d = String(second?.districts[0]?.number ?? "");
    setDistricts(second?.districts ?? []);
    setDistrict(d);
    if (c && d) await loadBarrios(p, c, d);
  }
  async function onCanton(c: string) {
    setCanton(c);
    const next = await load(province, c);
    const d = String(next?.districts[0]?.number ?? "");
    setDistricts(next?.districts ?? []);
    setDistrict(d);
    if (d) await loadBarrios(province, c, d);
  }
  async function onDistrict(d: string) {
    setDistrict(d);
    await loadBarrios(province, canton, d);
  }

  const select = (name: string, label: string, value: string, onChange: (v: string) => void, options: { value: string; label: string }[]) => (
    <Field label={label} name={name} error={errors[name]}>
      <select id={name} name={name} className="input" value={value} onChange={(e) => void onChange(e.target.value)} aria-invalid={!!errors[name] || undefined}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
  const places = (list: Place[]) => list.map((p) => ({ value: String(p.number), label: p.name }));
  return (
    <div className="grid gap-4 sm:grid-cols-2" data-location>
      {select("province", "Provincia", province, onProvince, places(unpackPlaces(lists.provinces)))}
      {select("canton", "Cantón", canton, onCanton, places(cantons))}
      {select("district", "Distrito", district, onDistrict, places(districts))}
      {withBarrio &&
        select(
          "barrio",
          "Barrio",
          barrio,
          setBarrio,
          barrios.map((b) => ({ value: b.name, label: b.name })),
        )}
      {!scripted && (
        <div className="sm:col-span-2">
          <button type="submit" name="intent" value="refresh-location" className="btn btn-outline btn-sm" formNoValidate>
            Actualizar ubicación
          </button>
        </div>
      )}
    </div>
  );
}
