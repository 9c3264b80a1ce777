// Student use-cases (school plan; spec part 1 §2.3 Students, §4, §5 Student, §8). Scoped to one company;
// the representative must be a non-provider client of the same company.
import { and, eq } from "drizzle-orm";
import { data } from "react-router";
import type { Db, DbOrTx } from "../../db/client.ts";
import { clientById } from "../../db/queries/clients.ts";
import { studentById } from "../../db/queries/students.ts";
import { students } from "../../db/schema/index.ts";
import { STUDENT_MESSAGES, type StudentInput } from "../domain/student-schemas.ts";
import type { FieldErrors } from "../domain/forms.ts";

export async function requireStudent(db: DbOrTx, companyId: number, studentId: number) {
  const s = await studentById(db, { companyId, studentId });
  if (!s) throw data("No encontrado", { status: 404 });
  return s;
}

async function representativeError(db: DbOrTx, companyId: number, clientId: number): Promise<FieldErrors | null> {
  const c = await clientById(db, { companyId, clientId });
  if (!c || c.provider) return { client_id: "El representante es obligatorio" };
  return null;
}

export async function saveStudent(db: Db, companyId: number, studentId: number | null, input: StudentInput): Promise<{ ok: true; id: number } | { ok: false; errors: FieldErrors }> {
  if (studentId) await requireStudent(db, companyId, studentId);
  const bad = await representativeError(db, companyId, input.client_id);
  if (bad) return { ok: false, errors: bad };
  const row = { name: input.name, surname: input.surname, clientId: input.client_id, identification: input.identification, email: input.email, phone: input.phone };
  if (studentId) {
    await db
      .update(students)
      .set(row)
      .where(and(eq(students.id, studentId), eq(students.companyId, companyId)));
    return { ok: true, id: studentId };
  }
  const [created] = await db
    .insert(students)
    .values({ ...row, companyId })
    .returning({ id: students.id });
  return { ok: true, id: created.id };
}

export async function toggleStudent(db: Db, companyId: number, studentId: number) {
  const s = await requireStudent(db, companyId, studentId);
  await db
    .update(students)
    .set({ active: !s.active })
    .where(and(eq(students.id, studentId), eq(students.companyId, companyId)));
  return { active: !s.active, message: s.active ? STUDENT_MESSAGES.deactivated : STUDENT_MESSAGES.activated };
}

/** Soft delete: the row keeps its history (documents of the school plan may reference it later). */
export async function deleteStudent(db: Db, companyId: number, studentId: number, now: Date) {
  await requireStudent(db, companyId, studentId);
  await db
    .update(students)
    .set({ deletedAt: now, active: false })
    .where(and(eq(students.id, studentId), eq(students.companyId, companyId)));
}
