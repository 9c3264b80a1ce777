import { data, Link, useLocation } from "react-router";
import type { Route } from "./+types/students";
import { representativeOptions } from "../../../db/queries/clients.ts";
import { clientBalances } from "../../../db/queries/clients.ts";
import { studentsPage } from "../../../db/queries/students.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { AppForm, Field, SubmitButton } from "../../components/form.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { formatMoney, truncate } from "../../domain/format.ts";
import { QUICK_ADD_RETURNS, quickAddReturn, studentChoice } from "../../domain/document-form.ts";
import { formValues, parseForm } from "../../domain/forms.ts";
import { lastPage } from "../../domain/pagination.ts";
import { STUDENT_MESSAGES, studentSchema } from "../../domain/student-schemas.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";
import { deleteStudent, requireStudent, saveStudent, toggleStudent } from "../../server/students.server.ts";
import { AppLink } from "../../components/app-link.tsx";

const positiveId = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null);

/** 'Nuevo estudiante' from a document form (`?volver=/new-invoice`): back to it with the student chosen. */
function studentReturn(request: Request): string | null {
  const volver = quickAddReturn(new URL(request.url).searchParams.get("volver"));
  return volver && !QUICK_ADD_RETURNS[volver].provider ? volver : null;
}

interface StudentFormState {
  id: number | null;
  values: Record<string, string>;
  errors: Record<string, string>;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const companyId = company!.id;
  const url = new URL(request.url);
  const req = await listRequest(request, context, "/students");
  const { rows, total } = await studentsPage(db(), { companyId, ...req });
  const balances = await clientBalances(db(), { companyId, clientIds: [...new Set(rows.map((r) => r.clientId))] });
  let form: StudentFormState | null = null;
  const editId = positiveId(url.searchParams.get("edit"));
  if (editId) {
    const s = await requireStudent(db(), companyId, editId);
    form = { id: s.id, values: { name: s.name, surname: s.surname, client_id: String(s.clientId), identification: s.identification ?? "", email: s.email ?? "", phone: s.phone ?? "" }, errors: {} };
  } else if (url.searchParams.get("new")) form = { id: null, values: {}, errors: {} };
  const representatives = form ? await representativeOptions(db(), { companyId, includeId: Number(form.values.client_id) || null }) : [];
  return {
    rows: rows.map((r) => ({ ...r, balance: balances.get(r.clientId) ?? "0" })),
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    readOnly: company!.permission === 5,
    form,
    representatives,
    volver: studentReturn(request),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { company } = context.get(requestContext);
  const companyId = company!.id;
  const url = new URL(request.url);
  const form = await request.formData();
  if (form.get("confirm") === "cancel") return redirectWithToast("/students", { type: "info", text: STUDENT_MESSAGES.cancelled });
  const intent = String(form.get("intent") ?? "save");
  const studentId = Number(form.get("student_id"));
  if (intent === "toggle") {
    const r = await toggleStudent(db(), companyId, studentId);
    return redirectWithToast("/students", { type: "success", text: r.message });
  }
  if (intent === "delete") {
    await deleteStudent(db(), companyId, studentId, new Date());
    return redirectWithToast("/students", { type: "success", text: STUDENT_MESSAGES.deleted });
  }
  const editId = positiveId(url.searchParams.get("edit"));
  const values = formValues(form);
  delete values.intent;
  const parsed = parseForm(studentSchema, values);
  const view = async (errors: Record<string, string>) =>
    data(
      { form: { id: editId, values, errors } as StudentFormState, representatives: await representativeOptions(db(), { companyId, includeId: Number(values.client_id) || null }) },
      { status: 400 },
    );
  if (!parsed.ok) return view(parsed.errors);
  const saved = await saveStudent(db(), companyId, editId, parsed.data);
  if (!saved.ok) return view(saved.errors);
  const volver = editId ? null : studentReturn(request);
  if (volver) return redirectWithToast(`${volver}?id=${encodeURIComponent(studentChoice(saved.id))}&restore=1`, { type: "success", text: STUDENT_MESSAGES.saved });
  return redirectWithToast("/students", { type: "success", text: editId ? STUDENT_MESSAGES.updated : STUDENT_MESSAGES.saved });
}

export default function Students({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, page, perPage, search, readOnly } = loaderData;
  const { search: qs } = useLocation();
  const form = actionData?.form ?? loaderData.form;
  const representatives = actionData?.representatives ?? loaderData.representatives;
  const withParam = (k: string, v: string | number) => {
    const p = new URLSearchParams(qs);
    p.delete("new");
    p.delete("edit");
    p.set(k, String(v));
    return `/students?${p.toString()}`;
  };
  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Estudiantes</h1>
        {!readOnly && (
          <Link to={withParam("new", 1)} className="btn btn-primary">
            Nuevo estudiante
          </Link>
        )}
      </div>
      <ListControls search={search} perPage={perPage} />
      <div className="overflow-x-auto">
        <table className="table" data-students>
          <thead>
            <tr>
              <th>#</th>
              <th>Nombre</th>
              <th>Apellido</th>
              <th>Representante</th>
              <th>Email</th>
              <th>Identificación</th>
              <th>Teléfono</th>
              <th>Balance</th>
              <th>Status</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={10} className="text-center text-slate-500">
                  {STUDENT_MESSAGES.empty}
                </td>
              </tr>
            )}
            {rows.map((s, i) => (
              <tr key={s.id} data-student-id={s.id}>
                <td>{(page - 1) * perPage + i + 1}</td>
                <td title={s.name}>{truncate(s.name)}</td>
                <td title={s.surname}>{truncate(s.surname)}</td>
                <td title={s.representative}>
                  <AppLink to={`/client-detail/${s.clientId}`}>{truncate(s.representative)}</AppLink>
                </td>
                <td title={s.email ?? ""}>{truncate(s.email)}</td>
                <td>{s.identification}</td>
                <td>{s.phone}</td>
                <td>{formatMoney(s.balance, "₡")}</td>
                <td>
                  <span className={`chip ${s.active ? "chip-on" : "chip-off"}`}>{s.active ? "Activo" : "Inactivo"}</span>
                </td>
                <td>
                  <div className="flex flex-wrap gap-1">
                    <Link className="btn btn-outline btn-sm" to={withParam("edit", s.id)}>
                      Editar
                    </Link>
                    <ConfirmAction
                      label={s.active ? "Desactivar" : "Activar"}
                      title="Activar/Desactivar Estudiante"
                      message={STUDENT_MESSAGES.confirmToggle}
                      intent="toggle"
                      fields={{ student_id: s.id }}
                      action="/students"
                    />
                    <ConfirmAction label="Eliminar" title="Eliminar Estudiante" message={STUDENT_MESSAGES.confirmDelete} intent="delete" fields={{ student_id: s.id }} action="/students" />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} lastPage={loaderData.lastPage} />
      {form && (
        <div className="fixed inset-0 z-40 flex items-center justify-center overflow-y-auto bg-slate-900/45 p-4">
          <div className="card w-full max-w-xl" role="dialog" aria-modal="true" aria-label={form.id ? STUDENT_MESSAGES.editTitle : STUDENT_MESSAGES.newTitle} data-student-dialog>
            <AppForm key={JSON.stringify(form)} action={form.id ? `/students?edit=${form.id}` : loaderData.volver ? `/students?new=1&volver=${encodeURIComponent(loaderData.volver)}` : "/students?new=1"} className="space-y-4" noValidate>
              <h2 className="text-lg font-semibold">{form.id ? STUDENT_MESSAGES.editTitle : STUDENT_MESSAGES.newTitle}</h2>
              <div className="grid gap-4 sm:grid-cols-2">
                {(
                  [
                    ["name", "Nombre"],
                    ["surname", "Apellido"],
                  ] as const
                ).map(([name, label]) => (
                  <Field key={name} label={label} name={name} error={form.errors[name]}>
                    <input id={name} name={name} className="input" defaultValue={form.values[name] ?? ""} required maxLength={160} aria-invalid={!!form.errors[name] || undefined} />
                  </Field>
                ))}
                <Field label="Representante" name="client_id" error={form.errors.client_id} className="sm:col-span-2">
                  <select id="client_id" name="client_id" className="input" defaultValue={form.values.client_id ?? ""} required aria-invalid={!!form.errors.client_id || undefined}>
                    <option value="">Seleccione un representante</option>
                    {representatives.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.name} ({r.identification})
                      </option>
                    ))}
                  </select>
                </Field>
                <Field label="Identificación" name="identification" error={form.errors.identification}>
                  <input id="identification" name="identification" className="input" inputMode="numeric" defaultValue={form.values.identification ?? ""} maxLength={20} />
                </Field>
                <Field label="Email" name="email" error={form.errors.email}>
                  <input id="email" name="email" type="email" className="input" defaultValue={form.values.email ?? ""} maxLength={160} />
                </Field>
                <Field label="Teléfono" name="phone" error={form.errors.phone}>
                  <input id="phone" name="phone" className="input" inputMode="numeric" defaultValue={form.values.phone ?? ""} maxLength={20} />
                </Field>
              </div>
              <div className="flex justify-end gap-2">
                <Link to={loaderData.volver && !form.id ? `${loaderData.volver}?restore=1` : "/students"} className="btn btn-outline">
                  Cancelar
                </Link>
                <SubmitButton name="intent" value="save">
                  Guardar
                </SubmitButton>
              </div>
            </AppForm>
          </div>
        </div>
      )}
    </div>
  );
}
