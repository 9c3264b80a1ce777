// /config-api/:company_id (admins; plan 5): the integrator API of the company — its API user and
// password (stored hashed; a generated password is shown once), the integrator's consecutive mode,
// the open tokens with 'Revocar', the webhooks (the signing key shown once) and the delivery log
// with 'Reenviar'. Plain forms: everything works without JavaScript.
import { data, Link } from "react-router";
import type { Route } from "./+types/config-api";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from "../../domain/api/webhook-events.ts";
import { formatDateTime } from "../../domain/format.ts";
import { apiConfigState, handleApiConfig, type ApiConfigOutcome } from "../../server/api/config-screen.server.ts";
import { ApiError } from "../../server/api/http.server.ts";
import { requireConfigCompany } from "../../server/config.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { hereOf, tooLarge } from "./sections.server.ts";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id, { admin: true });
  return { company: { id: company.id, name: company.name }, here: hereOf(request), ...(await apiConfigState(db(), company.id, new Date())) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const company = await requireConfigCompany(db(), user, params.company_id, { admin: true });
  if (tooLarge(request, 64 * 1024)) throw data("El formulario es demasiado grande", { status: 413 });
  let outcome: ApiConfigOutcome;
  try {
    outcome = await handleApiConfig(db(), company.id, await request.formData(), new Date());
  } catch (error) {
    if (error instanceof ApiError) throw data(error.detail, { status: error.status });
    throw error;
  }
  if (outcome.kind === "redirect") return redirectWithToast(hereOf(request), { type: "success", text: outcome.message });
  return data(outcome, { status: outcome.status });
}

export function meta() {
  return [{ title: "Configuración API" }];
}

const dt = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : "—");

export default function ConfigApi({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const shown = actionData as Extract<ApiConfigOutcome, { kind: "shown" }> | undefined;
  const credErrors = shown?.section === "credentials" ? shown.errors : {};
  const credValues = shown?.section === "credentials" ? shown.values : null;
  const hookErrors = shown?.section === "webhook" ? shown.errors : {};
  const hookValues = shown?.section === "webhook" ? shown.values : {};
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">API — {d.company.name}</h1>
        <div className="flex gap-2">
          <a href="/api/docs" className="btn btn-outline">
            Referencia de la API
          </a>
          <Link to={`/main-configurations/${d.company.id}`} className="btn btn-outline">
            Volver
          </Link>
        </div>
      </div>
      {!d.plan5 && <FormAlert>La API está disponible solo para compañías del plan 5 (API).</FormAlert>}
      {shown?.secret && (
        <div className="card space-y-2 border-2 border-primary" role="status" data-secret>
          <p className="font-semibold">{shown.message}</p>
          <p>
            {shown.secret.label}: <code className="select-all break-all text-base">{shown.secret.value}</code>
          </p>
        </div>
      )}

      <section className="card space-y-3" aria-labelledby="cred-title">
        <h2 id="cred-title" className="font-semibold">
          Credenciales
        </h2>
        <p className="text-slate-600">
          El integrador obtiene su token con este usuario y contraseña (POST /api/v1/auth/token). La contraseña se guarda cifrada (hash) y no se puede volver a ver; al cambiarla se cierran los
          tokens obtenidos con la anterior. {d.credentials.hasPassword ? "Ya hay una contraseña definida." : "Aún no hay contraseña."}
        </p>
        <AppForm className="grid gap-3 md:grid-cols-2" action={d.here}>
          <Field label="Usuario API" name="username_api" error={credErrors.username_api}>
            <input id="username_api" name="username_api" className="input" maxLength={100} defaultValue={credValues?.username_api ?? d.credentials.username_api} autoComplete="off" />
          </Field>
          <Field label="Nueva contraseña API (dejar en blanco para conservar)" name="password_api" error={credErrors.password_api}>
            <input id="password_api" name="password_api" type="password" className="input" maxLength={30} autoComplete="new-password" />
          </Field>
          <label className="flex items-center gap-2 md:col-span-2">
            <input type="checkbox" name="modo_consecutive_api" defaultChecked={credValues ? credValues.modo_consecutive_api === "on" : d.credentials.modo_consecutive_api} />
            El integrador indica el consecutivo de cada documento (modo_consecutive_api)
          </label>
          <div className="flex gap-2 md:col-span-2">
            <SubmitButton name="intent" value="credentials">
              Guardar
            </SubmitButton>
            <SubmitButton name="intent" value="generate" className="btn btn-outline">
              Generar contraseña
            </SubmitButton>
          </div>
        </AppForm>
      </section>

      <section className="card space-y-3" aria-labelledby="tokens-title">
        <h2 id="tokens-title" className="font-semibold">
          Tokens abiertos
        </h2>
        <table className="table" data-api-tokens>
          <thead>
            <tr>
              <th>Obtenido por</th>
              <th>Creado</th>
              <th>Último uso</th>
              <th>IP</th>
              <th>Vence</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {d.sessions.length === 0 && (
              <tr>
                <td colSpan={6} className="text-center text-slate-500">
                  No hay tokens abiertos
                </td>
              </tr>
            )}
            {d.sessions.map((s) => (
              <tr key={s.id}>
                <td>{s.label}</td>
                <td>{dt(s.createdAt)}</td>
                <td>{dt(s.lastSeenAt)}</td>
                <td>{s.ip ?? ""}</td>
                <td>{dt(s.expiresAt)}</td>
                <td>
                  <AppForm action={d.here}>
                    <button type="submit" name="intent" value={`revoke:${s.id}`} className="btn btn-outline btn-sm">
                      Revocar
                    </button>
                  </AppForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card space-y-3" aria-labelledby="hooks-title">
        <h2 id="hooks-title" className="font-semibold">
          Webhooks
        </h2>
        <table className="table" data-webhooks>
          <thead>
            <tr>
              <th>URL</th>
              <th>Eventos</th>
              <th>Creado</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {d.webhooks.length === 0 && (
              <tr>
                <td colSpan={4} className="text-center text-slate-500">
                  No hay webhooks
                </td>
              </tr>
            )}
            {d.webhooks.map((w) => (
              <tr key={w.id}>
                <td className="break-all">
                  {w.url}
                  {w.description ? <div className="text-slate-500">{w.description}</div> : null}
                </td>
                <td>{w.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(", ")}</td>
                <td>{dt(w.createdAt)}</td>
                <td>
                  <AppForm action={d.here}>
                    <button type="submit" name="intent" value={`delete-webhook:${w.id}`} className="btn btn-outline btn-sm">
                      Eliminar
                    </button>
                  </AppForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <AppForm className="grid gap-3 md:grid-cols-2" action={d.here}>
          <Field label="URL" name="url" error={hookErrors.url}>
            <input id="url" name="url" className="input" type="url" maxLength={500} defaultValue={hookValues.url ?? ""} placeholder="https://" />
          </Field>
          <Field label="Descripción" name="description" error={hookErrors.description}>
            <input id="description" name="description" className="input" maxLength={200} defaultValue={hookValues.description ?? ""} />
          </Field>
          <fieldset className="md:col-span-2">
            <legend>Eventos (ninguno marcado: todos)</legend>
            {WEBHOOK_EVENTS.map((e) => (
              <label key={e} className="mr-4 inline-flex items-center gap-2">
                <input type="checkbox" name="events" value={e} />
                {WEBHOOK_EVENT_LABELS[e]}
              </label>
            ))}
          </fieldset>
          <div className="md:col-span-2">
            <SubmitButton name="intent" value="webhook">
              Registrar webhook
            </SubmitButton>
          </div>
        </AppForm>
      </section>

      <section className="card space-y-3" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title" className="font-semibold">
          Entregas de webhooks
        </h2>
        <div className="overflow-x-auto">
          <table className="table" data-deliveries>
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Evento</th>
                <th>Documento</th>
                <th>URL</th>
                <th>Estado</th>
                <th>Intentos</th>
                <th>Última respuesta</th>
                <th>Acciones</th>
              </tr>
            </thead>
            <tbody>
              {d.deliveries.length === 0 && (
                <tr>
                  <td colSpan={8} className="text-center text-slate-500">
                    No hay entregas
                  </td>
                </tr>
              )}
              {d.deliveries.map((x) => (
                <tr key={x.id} data-delivery-id={x.id}>
                  <td>{dt(x.createdAt)}</td>
                  <td>{WEBHOOK_EVENT_LABELS[x.eventType]}</td>
                  <td>{x.documentId ?? ""}</td>
                  <td className="break-all">{x.url}</td>
                  <td>
                    <span className={x.status === "entregado" ? "chip chip-on" : x.status === "fallido" ? "chip chip-off" : "chip"}>{x.status}</span>
                  </td>
                  <td>{x.attempts}</td>
                  <td>{x.lastError ?? (x.lastStatus ? String(x.lastStatus) : "")}</td>
                  <td>
                    <AppForm action={d.here}>
                      <button type="submit" name="intent" value={`resend:${x.id}`} className="btn btn-outline btn-sm">
                        Reenviar
                      </button>
                    </AppForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
