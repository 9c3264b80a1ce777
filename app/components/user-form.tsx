import { Link } from "react-router";
import { AppForm, Field, SubmitButton } from "./form.tsx";

/** The new/edit user form: the /add-user and /edit-user pages, and the dialog over /users. */
export function UserFormCard({ creating, values, errors, action }: { creating: boolean; values: Record<string, string>; errors: Record<string, string>; action?: string }) {
  return (
    <div className="card mx-auto w-full max-w-lg">
      <h1 className="text-lg font-semibold">{creating ? "Nuevo Usuario" : "Editar Usuario"}</h1>
      <AppForm key={JSON.stringify(values)} action={action} className="mt-4 space-y-4" noValidate>
        <Field label="Nombre" name="name" error={errors.name}>
          <input id="name" name="name" className="input" required maxLength={120} defaultValue={values.name ?? ""} aria-invalid={!!errors.name || undefined} />
        </Field>
        <Field label="Email" name="email" error={errors.email}>
          <input id="email" name="email" type="email" className="input" required minLength={4} defaultValue={values.email ?? ""} aria-invalid={!!errors.email || undefined} />
        </Field>
        <Field label={creating ? "Contraseña" : "Contraseña (dejar en blanco para conservarla)"} name="password" error={errors.password}>
          <input id="password" name="password" type="password" className="input" required={creating} minLength={6} maxLength={30} autoComplete="new-password" aria-invalid={!!errors.password || undefined} />
        </Field>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="admin" defaultChecked={values.admin === "on"} />
          <span>Administrador</span>
        </label>
        <div className="flex justify-end gap-2">
          <Link to="/users" className="btn btn-outline">
            Cancelar
          </Link>
          <SubmitButton>Guardar</SubmitButton>
        </div>
      </AppForm>
    </div>
  );
}
