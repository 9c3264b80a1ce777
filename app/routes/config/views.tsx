// The configuration forms, shared by their own screens and by the tabbed configuration screen.
// Plain POST forms (no JavaScript needed); with JavaScript the template preview follows typing.
import { useState } from "react";
import { Link } from "react-router";
import { AppForm, Field, SubmitButton } from "../../components/form.tsx";
import { PRINT_FORMATS } from "../../domain/print-formats.ts";
import { CURRENCY_OPTIONS, EMIT_CURRENCY_OPTIONS, ENCRYPTIONS, EMAIL_PROTOCOLS, PLACEHOLDERS, SAMPLE_VALUES, renderTemplate } from "../../domain/config-schemas.ts";
import { TAX_CONDITIONS } from "../../domain/receptions.ts";

export interface SectionState {
  section: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  message: string | null;
  ok: boolean;
}

/** The submitted state when it belongs to this section, else none. */
export const stateFor = (state: SectionState | undefined | null, section: string) => (state && state.section === section ? state : undefined);

function FormMessage({ state }: { state?: SectionState }) {
  if (!state?.message) return null;
  return (
    <p className={`rounded-md p-3 text-sm ${state.ok ? "bg-green-50 text-green-800" : "bg-danger/10 text-danger"}`} role={state.ok ? "status" : "alert"} data-form-message>
      {state.message}
    </p>
  );
}

const inv = (errors: Record<string, string>, name: string) => (errors[name] ? true : undefined);

function TextInput({ name, label, values, errors, ...props }: { name: string; label: string; values: Record<string, string>; errors: Record<string, string> } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = props.id ?? name;
  return (
    <Field label={label} name={id}>
      <input id={id} name={name} className="input" defaultValue={values[name] ?? ""} aria-invalid={inv(errors, name)} {...props} />
    </Field>
  );
}

function Select({ name, label, values, errors, options, id }: { name: string; label: string; values: Record<string, string>; errors: Record<string, string>; options: readonly { value: string; label: string }[]; id?: string }) {
  const key = id ?? name;
  return (
    <Field label={label} name={key}>
      <select id={key} name={name} className="input" defaultValue={values[name] ?? ""} aria-invalid={inv(errors, name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

// ---- Generales ------------------------------------------------------------------------------------

export function GeneralForm({ action, values, state }: { action: string; values: Record<string, string>; state?: SectionState }) {
  const v = state?.values ?? values;
  const errors = state?.errors ?? {};
  return (
    <AppForm action={action} className="card space-y-4" key={JSON.stringify(v)} aria-labelledby="generales-title" noValidate>
      <h2 id="generales-title" className="font-semibold">
        Configuraciones generales
      </h2>
      <input type="hidden" name="section" value="generals" />
      <FormMessage state={state} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput name="custom_quotation_name" label="Nombre de la cotización" values={v} errors={errors} required maxLength={60} />
        <Select name="currency" label="Moneda" values={v} errors={errors} options={CURRENCY_OPTIONS} />
        <Select
          name="mode_pos"
          label="Modo punto de venta (búsqueda de productos al emitir)"
          values={v}
          errors={errors}
          options={[
            { value: "0", label: "No" },
            { value: "1", label: "Sí" },
          ]}
        />
        <Select name="currency_emit_doc" label="Moneda de emisión de documentos" values={v} errors={errors} options={EMIT_CURRENCY_OPTIONS} />
        <Select name="print_format" label="Formato de impresión (tiquetes e Imprimir)" values={v} errors={errors} options={PRINT_FORMATS} />
      </div>
      <div className="text-right">
        <SubmitButton>Guardar</SubmitButton>
      </div>
    </AppForm>
  );
}

// ---- Servidor Email ---------------------------------------------------------------------------------

const passwordHint = (stored: boolean) => (stored ? "Dejar en blanco para conservar" : undefined);

export function EmailForms({
  action,
  outgoing,
  reception,
  state,
}: {
  action: string;
  outgoing: { values: Record<string, string>; hasPassword: boolean };
  reception: {
    values: Record<string, string>;
    hasPassword: boolean;
    categories?: { id: number; name: string }[];
    mailbox?: { lastRunAt: string | null; lastError: string | null; read: number; ingested: number; withoutDocument: number } | null;
  };
  state?: SectionState;
}) {
  const out = stateFor(state, "email-outgoing");
  const rec = stateFor(state, "email-reception");
  const test = stateFor(state, "email-test");
  const ov = out?.values ?? outgoing.values;
  const oe = out?.errors ?? {};
  const rv = rec?.values ?? reception.values;
  const re = rec?.errors ?? {};
  return (
    <div className="space-y-4">
      <AppForm action={action} className="card space-y-4" key={"o" + JSON.stringify(ov)} aria-labelledby="smtp-title" noValidate>
        <h2 id="smtp-title" className="font-semibold">
          Servidor de correo saliente
        </h2>
        <input type="hidden" name="section" value="email-outgoing" />
        <FormMessage state={out} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Select name="protocol" id="out_protocol" label="Protocolo" values={ov} errors={oe} options={EMAIL_PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() }))} />
          <Select name="encryption" id="out_encryption" label="Cifrado" values={ov} errors={oe} options={ENCRYPTIONS} />
          <TextInput name="host" id="out_host" label="Servidor (host)" values={ov} errors={oe} required />
          <TextInput name="port" id="out_port" label="Puerto" values={ov} errors={oe} required inputMode="numeric" />
          <TextInput name="username" id="out_username" label="Usuario" values={ov} errors={oe} required autoComplete="off" />
          <TextInput
            name="password"
            id="out_password"
            label="Contraseña"
            values={{}}
            errors={oe}
            type="password"
            autoComplete="new-password"
            placeholder={passwordHint(outgoing.hasPassword)}
            required={!outgoing.hasPassword}
          />
          <TextInput name="from_email" id="out_from_email" label="Correo del remitente" values={ov} errors={oe} required type="email" />
          <TextInput name="from_name" id="out_from_name" label="Nombre del remitente" values={ov} errors={oe} required />
        </div>
        <div className="text-right">
          <SubmitButton>Guardar</SubmitButton>
        </div>
      </AppForm>

      <AppForm action={action} className="card space-y-3" aria-labelledby="test-title" noValidate>
        <h2 id="test-title" className="font-semibold">
          Correo de prueba
        </h2>
        <p className="text-sm text-slate-500">Se envía con la configuración guardada del servidor de correo saliente.</p>
        <input type="hidden" name="section" value="email-test" />
        <FormMessage state={test} />
        <div className="flex flex-wrap items-end gap-2">
          <TextInput name="test_to" label="Enviar a" values={test?.values ?? {}} errors={test?.errors ?? {}} type="email" required />
          <SubmitButton className="btn btn-outline">enviar correo de prueba</SubmitButton>
        </div>
      </AppForm>

      <AppForm action={action} className="card space-y-4" key={"r" + JSON.stringify(rv)} aria-labelledby="reception-title" noValidate>
        <h2 id="reception-title" className="font-semibold">
          Configuración recepción de email
        </h2>
        <input type="hidden" name="section" value="email-reception" />
        <FormMessage state={rec} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput name="host" id="rec_host" label="Servidor de recepción (host)" values={rv} errors={re} required />
          <TextInput name="port" id="rec_port" label="Puerto de recepción" values={rv} errors={re} required inputMode="numeric" />
          <TextInput name="username" id="rec_username" label="Usuario de recepción" values={rv} errors={re} required autoComplete="off" />
          <TextInput
            name="password"
            id="rec_password"
            label="Contraseña de recepción"
            values={{}}
            errors={re}
            type="password"
            autoComplete="new-password"
            placeholder={passwordHint(reception.hasPassword)}
            required={!reception.hasPassword}
          />
          <Select name="encryption" id="rec_encryption" label="Cifrado de recepción" values={rv} errors={re} options={ENCRYPTIONS} />
          <Select
            name="default_tax_condition"
            id="rec_default_tax_condition"
            label="Condición de impuesto de los documentos recibidos"
            values={rv}
            errors={re}
            options={TAX_CONDITIONS.map((t) => ({ value: t.value, label: `${t.value} — ${t.label}` }))}
          />
          <Select
            name="default_expense_category"
            id="rec_default_expense_category"
            label="Categoría de gasto de los documentos recibidos"
            values={rv}
            errors={re}
            options={[{ value: "", label: "Sin categoría" }, ...(reception.categories ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
          />
        </div>
        <p className="text-sm text-slate-500">
          Colibrí lee este buzón cada 5 minutos: los XML de comprobantes (y los .zip) que lleguen a nombre de la empresa quedan en Documentos recibidos como pendientes, con esta condición de impuesto y categoría.
        </p>
        {reception.mailbox ? (
          <p className="text-sm" data-mailbox-status>
            {reception.mailbox.lastError
              ? `Última lectura con error: ${reception.mailbox.lastError}`
              : `Última lectura: ${reception.mailbox.lastRunAt ?? "—"}. Mensajes leídos: ${reception.mailbox.read}; documentos recibidos: ${reception.mailbox.ingested}; mensajes sin comprobante: ${reception.mailbox.withoutDocument}.`}
          </p>
        ) : null}
        <div className="text-right">
          <SubmitButton>Guardar recepción</SubmitButton>
        </div>
      </AppForm>
    </div>
  );
}

// ---- Plantilas Email --------------------------------------------------------------------------------

export interface TemplateRow {
  id: number;
  type: string;
  name: string;
  subject: string;
  body: string;
}

export function TemplatesView({ action, linkBase, templates, selectedId, state }: { action: string; linkBase: (id: number) => string; templates: TemplateRow[]; selectedId: number | null; state?: SectionState }) {
  const selected = templates.find((t) => t.id === selectedId) ?? templates[0];
  return (
    <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
      <nav className="card space-y-1 p-3" aria-label="Plantillas">
        {templates.map((t) => (
          <Link key={t.id} to={linkBase(t.id)} aria-current={t.id === selected?.id ? "page" : undefined} className={`block rounded px-2 py-1 text-sm no-underline ${t.id === selected?.id ? "bg-primary/10 font-semibold" : ""}`}>
            {t.name}
          </Link>
        ))}
        {templates.length === 0 && <p className="text-sm text-slate-500">No hay plantillas</p>}
      </nav>
      {selected && <TemplateForm key={selected.id + JSON.stringify(state?.values ?? {})} action={action} template={selected} state={state} />}
    </div>
  );
}

function TemplateForm({ action, template, state }: { action: string; template: TemplateRow; state?: SectionState }) {
  const [subject, setSubject] = useState(state?.values.subject ?? template.subject);
  const [body, setBody] = useState(state?.values.body ?? template.body);
  const errors = state?.errors ?? {};
  return (
    <div className="space-y-4">
      <AppForm action={action} className="card space-y-4" aria-labelledby="template-title" noValidate>
        <h2 id="template-title" className="font-semibold">
          Plantilla: {template.name}
        </h2>
        <input type="hidden" name="section" value="template" />
        <input type="hidden" name="id" value={template.id} />
        <FormMessage state={state} />
        <Field label="Asunto" name="subject">
          <input id="subject" name="subject" className="input" value={subject} onChange={(e) => setSubject(e.target.value)} aria-invalid={inv(errors, "subject")} maxLength={200} required />
        </Field>
        <Field label="Cuerpo" name="body">
          <textarea id="body" name="body" className="input" rows={9} value={body} onChange={(e) => setBody(e.target.value)} aria-invalid={inv(errors, "body")} required />
        </Field>
        <div className="text-sm" data-placeholders>
          <p className="font-medium">Variables disponibles:</p>
          <ul className="mt-1 grid gap-x-4 sm:grid-cols-2">
            {PLACEHOLDERS.map((p) => (
              <li key={p.key}>
                <code>{`{${p.key}}`}</code> — {p.label}
              </li>
            ))}
          </ul>
        </div>
        <div className="text-right">
          <SubmitButton>Guardar</SubmitButton>
        </div>
      </AppForm>
      <section className="card space-y-2" aria-labelledby="preview-title" data-preview>
        <h3 id="preview-title" className="font-semibold">
          Vista previa (valores de ejemplo)
        </h3>
        <p className="text-sm">
          <span className="font-medium">Asunto:</span> <span data-preview-subject>{renderTemplate(subject, SAMPLE_VALUES)}</span>
        </p>
        <pre className="whitespace-pre-wrap font-sans text-sm" data-preview-body>
          {renderTemplate(body, SAMPLE_VALUES)}
        </pre>
      </section>
    </div>
  );
}

// ---- Terminos y Condiciones ------------------------------------------------------------------------

export interface TermRow {
  id: number;
  name: string;
  body: string;
}

export function TermsView({ action, linkBase, terms, selected, state }: { action: string; linkBase: (id: number | "new") => string; terms: TermRow[]; selected: number | "new" | null; state?: SectionState }) {
  const current = selected === "new" ? null : (terms.find((t) => t.id === selected) ?? terms[0] ?? null);
  const v = state?.values ?? (current ? { name: current.name, body: current.body } : { name: "", body: "" });
  const errors = state?.errors ?? {};
  return (
    <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
      <nav className="card space-y-1 p-3" aria-label="Términos">
        {terms.map((t) => (
          <Link key={t.id} to={linkBase(t.id)} aria-current={t.id === current?.id ? "page" : undefined} className={`block rounded px-2 py-1 text-sm no-underline ${t.id === current?.id ? "bg-primary/10 font-semibold" : ""}`}>
            {t.name}
          </Link>
        ))}
        <Link to={linkBase("new")} className="btn btn-outline btn-sm mt-2 w-full">
          Nuevo término
        </Link>
      </nav>
      <AppForm action={action} className="card space-y-4" key={String(current?.id ?? "new") + JSON.stringify(v)} aria-labelledby="term-title" noValidate>
        <h2 id="term-title" className="font-semibold">
          {current ? `Término: ${current.name}` : "Nuevo término"}
        </h2>
        <input type="hidden" name="section" value="term" />
        <input type="hidden" name="id" value={current?.id ?? ""} />
        <FormMessage state={state} />
        <TextInput name="name" label="Nombre" values={v} errors={errors} required maxLength={120} />
        <Field label="Términos y condiciones" name="term_body">
          <textarea id="term_body" name="body" className="input" rows={10} defaultValue={v.body ?? ""} aria-invalid={inv(errors, "body")} required />
        </Field>
        <div className="text-right">
          <SubmitButton>Guardar</SubmitButton>
        </div>
      </AppForm>
    </div>
  );
}
