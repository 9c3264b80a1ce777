// /config-hacienda/:company_id (admins only): numbering per document type, branch and terminal,
// Hacienda access, the .p12 key with its PIN, 'probar llave' and 'probar acceso'
// (spec part 1 §3 Consecutive/access configuration, §5 Consecutives, §7, §8 Keys/access test).
import { data, Link } from "react-router";
import type { Route } from "./+types/config-hacienda";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { CONFIG_MESSAGES, CONSECUTIVE_TYPES, HACIENDA_ENVIRONMENTS, haciendaConfigSchema } from "../../domain/config-schemas.ts";
import { formValues, parseForm } from "../../domain/forms.ts";
import { requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { haciendaFormState, readKeyUpload, saveHaciendaConfig, testHaciendaAccess, testStoredKey, type AccessTestResult, type KeyTestResult } from "../../server/hacienda-config.server.ts";
import { hereOf, tooLarge } from "./sections.server.ts";

/** Bodies above this are refused unread (the key itself is limited to 100 kB). */
const MAX_BODY = 512 * 1024;

type Result = { keyTest?: KeyTestResult; accessTest?: AccessTestResult };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id, { admin: true });
  const state = await haciendaFormState(db(), company.id);
  return { company: { id: company.id, name: company.name }, here: hereOf(request), ...state, errors: {} as Record<string, string>, message: null as string | null, result: {} as Result, askOtherOwner: false };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id, { admin: true });
  const stored = await haciendaFormState(db(), company.id);
  const base = { company: { id: company.id, name: company.name }, here: hereOf(request), hasPassword: stored.hasPassword, hasPin: stored.hasPin, key: stored.key };
  if (tooLarge(request, MAX_BODY)) {
    return data({ ...base, values: stored.values, errors: { file_key: CONFIG_MESSAGES.keyTooLarge }, message: CONFIG_MESSAGES.keyTooLarge, result: {} as Result, askOtherOwner: false }, { status: 413 });
  }
  const form = await request.formData();
  const values = formValues(form);
  delete values.password;
  delete values.pin;
  const intent = form.get("intent");
  const view = (extra: { errors?: Record<string, string>; message?: string | null; result?: Result; askOtherOwner?: boolean }, status = 200) =>
    data({ ...base, values, errors: extra.errors ?? {}, message: extra.message ?? null, result: extra.result ?? {}, askOtherOwner: extra.askOtherOwner ?? false }, { status });

  if (intent === "test-key") {
    const keyTest = await testStoredKey(db(), company.id, new Date());
    return view({ result: { keyTest } }, keyTest.ok ? 200 : 422);
  }
  if (intent === "test-access") {
    const accessTest = await testHaciendaAccess(db(), company.id);
    return view({ result: { accessTest } }, accessTest.ok ? 200 : 422);
  }

  const parsed = parseForm(haciendaConfigSchema({ hasPassword: stored.hasPassword, hasPin: stored.hasPin }), form);
  const upload = await readKeyUpload(form);
  const errors = { ...(parsed.ok ? {} : parsed.errors), ...(upload.ok ? {} : { file_key: upload.message }) };
  if (!parsed.ok || !upload.ok) return view({ errors, message: "Revisa los datos marcados." }, 400);
  if (!upload.key && !stored.key) return view({ errors: { file_key: CONFIG_MESSAGES.keyRequired }, message: "Revisa los datos marcados." }, 400);
  const saved = await saveHaciendaConfig(db(), company.id, parsed.data, upload.key, new Date(), { otherOwnerConfirmed: form.get("key_other_owner") === "1" });
  if (!saved.ok) return view({ errors: saved.errors, message: "Revisa los datos marcados.", askOtherOwner: !!saved.keyOwnerMismatch }, 400);
  return redirectWithToast(base.here, { type: "success", text: CONFIG_MESSAGES.configSaved });
}

export default function ConfigHacienda({ loaderData, actionData }: Route.ComponentProps) {
  const s = actionData ?? loaderData;
  return <HaciendaForm key={JSON.stringify(s.values) + JSON.stringify(s.errors)} s={s} />;
}

function HaciendaForm({ s }: { s: Route.ComponentProps["loaderData"] }) {
  const { values: v, errors, result } = s;
  const input = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field label={label} name={name} error={errors[name]}>
      <input id={name} name={name} className="input" defaultValue={props.type === "password" ? "" : (v[name] ?? "")} aria-invalid={errors[name] ? true : undefined} {...props} />
    </Field>
  );
  return (
    <AppForm action={s.here} encType="multipart/form-data" className="space-y-4" noValidate>
      {/* Enter saves (the first submit button is the form's default). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="absolute -left-[9999px]" />
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">Configuración Hacienda — {s.company.name}</h1>
        <Link to={`/main-configurations/${s.company.id}`} className="btn btn-outline">
          Configuraciones
        </Link>
      </div>
      <FormAlert>{s.message}</FormAlert>

      <section className="card space-y-4" aria-labelledby="consecutivos-title">
        <h2 id="consecutivos-title" className="font-semibold">
          Consecutivos
        </h2>
        <p className="text-sm text-slate-500">Siguiente número de cada tipo de documento (0 a 9999999999). Si viene de otro proveedor, ponga aquí el número con el que debe continuar.</p>
        <div className="grid gap-4 sm:grid-cols-3">
          {input("branch", "Sucursal", { inputMode: "numeric", required: true, maxLength: 3 })}
          {input("terminal", "Terminal", { inputMode: "numeric", required: true, maxLength: 5 })}
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          {CONSECUTIVE_TYPES.map((t) => (
            <div key={t.field}>{input(t.field, t.label, { inputMode: "numeric", required: true, maxLength: 10 })}</div>
          ))}
        </div>
      </section>

      <section className="card space-y-4" aria-labelledby="acceso-title">
        <h2 id="acceso-title" className="font-semibold">
          Acceso a Hacienda
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {input("username", "Usuario de Hacienda", { required: true, autoComplete: "off" })}
          {input("password", "Contraseña de Hacienda", {
            type: "password",
            autoComplete: "new-password",
            required: !s.hasPassword,
            placeholder: s.hasPassword ? "Dejar en blanco para conservar" : undefined,
          })}
          <Field label="Ambiente" name="environment" error={errors.environment}>
            <select id="environment" name="environment" className="input" defaultValue={v.environment ?? "staging"}>
              {HACIENDA_ENVIRONMENTS.map((e) => (
                <option key={e.value} value={e.value}>
                  {e.label}
                </option>
              ))}
            </select>
          </Field>
          {input("email_rejection", "Correo para rechazos (opcional)", { type: "email" })}
        </div>
      </section>

      <section className="card space-y-4" aria-labelledby="llave-title">
        <h2 id="llave-title" className="font-semibold">
          Llave criptográfica
        </h2>
        {s.key ? (
          <p className="text-sm" data-stored-key>
            Llave guardada: <strong>{s.key.filename}</strong> — cédula {s.key.cedula}, válida del {s.key.notBefore} al {s.key.notAfter}.
          </p>
        ) : (
          <p className="text-sm text-slate-500">No hay llave guardada.</p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Archivo de la llave (.p12)" name="file_key" error={errors.file_key}>
            <input id="file_key" name="file_key" type="file" accept=".p12,application/x-pkcs12" className="input" aria-invalid={errors.file_key ? true : undefined} />
          </Field>
          {s.askOtherOwner && (
            <label className="flex items-start gap-2 text-sm sm:col-span-2">
              <input type="checkbox" name="key_other_owner" value="1" className="mt-1" />
              <span>Usar esta llave de otra cédula</span>
            </label>
          )}
          {/* Keys issued in TRIBU-CR since August 2026 have 14-character complex PINs: not a number pad. */}
          {input("pin", "PIN de la llave", {
            type: "password",
            autoComplete: "new-password",
            required: !s.hasPin,
            placeholder: s.hasPin ? "Dejar en blanco para conservar" : undefined,
          })}
        </div>
      </section>

      <div className="flex flex-wrap items-center justify-end gap-2">
        <SubmitButton name="intent" value="test-key" className="btn btn-outline" formNoValidate>
          probar llave
        </SubmitButton>
        <SubmitButton name="intent" value="test-access" className="btn btn-outline" formNoValidate>
          probar acceso
        </SubmitButton>
        <SubmitButton name="intent" value="save">
          Guardar
        </SubmitButton>
      </div>

      {result.keyTest && (
        <div className={`card text-sm ${result.keyTest.ok ? "" : "text-danger"}`} role={result.keyTest.ok ? "status" : "alert"} data-key-test>
          {result.keyTest.ok ? (
            <dl className="grid grid-cols-[10rem_1fr] gap-1">
              <dt className="font-medium">Titular</dt>
              <dd data-key-subject>{result.keyTest.subject}</dd>
              <dt className="font-medium">Cédula</dt>
              <dd data-key-cedula>{result.keyTest.cedula}</dd>
              <dt className="font-medium">Válida desde</dt>
              <dd>{result.keyTest.notBefore}</dd>
              <dt className="font-medium">Válida hasta</dt>
              <dd>{result.keyTest.notAfter}</dd>
              <dt className="font-medium">Días restantes</dt>
              <dd data-key-days>{result.keyTest.daysLeft}</dd>
            </dl>
          ) : (
            <p>
              <strong>{result.keyTest.message}</strong>
              {result.keyTest.detail ? `: ${result.keyTest.detail}` : ""}
            </p>
          )}
        </div>
      )}
      {result.accessTest && (
        <div className={`card text-sm ${result.accessTest.ok ? "text-green-800" : "text-danger"}`} role={result.accessTest.ok ? "status" : "alert"} data-access-test>
          <strong>{result.accessTest.message}</strong>
          {result.accessTest.detail ? <span className="block text-slate-600">{result.accessTest.detail}</span> : null}
        </div>
      )}
    </AppForm>
  );
}
