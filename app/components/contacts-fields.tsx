import type { ContactValues } from "../domain/client-texts.ts";
import { contactErrorKey } from "../domain/client-texts.ts";

/**
 * The Contactos section (spec part 1 §5 Contacts). Rows are flat fields contact_name_N, … and
 * contact_count. Adding and removing rows are submit buttons (intent add-contact /
 * remove-contact-N): the server re-renders the form keeping everything typed, with or without
 * JavaScript. Remove is hidden for the last row; adding past the maximum shows the spec's message.
 */
export function ContactsFields({ contacts, errors, max }: { contacts: ContactValues[]; errors: Record<string, string | undefined>; max: number }) {
  return (
    <section className="card space-y-4" aria-labelledby="card-contactos" data-contacts>
      <div className="flex items-center justify-between">
        <h2 id="card-contactos" className="font-semibold">
          Contactos
        </h2>
        <button type="submit" name="intent" value="add-contact" className="btn btn-outline btn-sm" formNoValidate data-max={max}>
          Agregar contacto
        </button>
      </div>
      {errors.contacts && (
        <p className="field-error" role="alert" data-contacts-error>
          {errors.contacts}
        </p>
      )}
      <input type="hidden" name="contact_count" value={contacts.length} />
      {contacts.map((c, i) => {
        const err = (f: "name" | "email" | "workstation") => errors[contactErrorKey(i, f)];
        const id = (f: string) => `contact_${f}_${i}`;
        return (
          <fieldset key={i} className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-2" data-contact-row={i}>
            <legend className="px-1 text-sm text-slate-600">Contacto {i + 1}</legend>
            <div>
              <label htmlFor={id("name")}>Nombre del contacto</label>
              <input id={id("name")} name={id("name")} className="input mt-1" defaultValue={c.name} maxLength={160} aria-invalid={!!err("name") || undefined} />
              {err("name") && <p className="field-error">{err("name")}</p>}
            </div>
            <div>
              <label htmlFor={id("email")}>Correo del contacto</label>
              <input id={id("email")} name={id("email")} type="email" className="input mt-1" defaultValue={c.email} maxLength={160} aria-invalid={!!err("email") || undefined} />
              {err("email") && <p className="field-error">{err("email")}</p>}
            </div>
            <div>
              <label htmlFor={id("workstation")}>Puesto</label>
              <input id={id("workstation")} name={id("workstation")} className="input mt-1" defaultValue={c.workstation} maxLength={160} />
            </div>
            <div className="flex items-end justify-between gap-2">
              <label className="flex items-center gap-2">
                <input type="checkbox" name={id("copy")} defaultChecked={c.send_copy === "on"} />
                <span>Enviar copia de facturas</span>
              </label>
              {contacts.length > 1 && (
                <button type="submit" name="intent" value={`remove-contact-${i}`} className="btn btn-outline btn-sm" formNoValidate aria-label={`Quitar contacto ${i + 1}`}>
                  Quitar
                </button>
              )}
            </div>
          </fieldset>
        );
      })}
    </section>
  );
}
