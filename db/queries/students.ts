// Students of a company (school plan), each with a representative client. Filtered by company.
import { and, asc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { clients, students } from "../schema/index.ts";

export async function studentsPage(db: DbOrTx, opts: { companyId: number; search: string; page: number; perPage: number }) {
  const term = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => "\\" + c)}%` : null;
  const where = and(
    eq(students.companyId, opts.companyId),
    isNull(students.deletedAt),
    term ? or(ilike(students.name, term), ilike(students.surname, term), ilike(students.identification, term), ilike(students.email, term), ilike(clients.name, term)) : undefined,
  );
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: sql<number>`count(*)::int` }).from(students).innerJoin(clients, eq(clients.id, students.clientId)).where(where),
    db
      .select({
        id: students.id,
        name: students.name,
        surname: students.surname,
        identification: students.identification,
        email: students.email,
        phone: students.phone,
        active: students.active,
        clientId: students.clientId,
        representative: clients.name,
      })
      .from(students)
      .innerJoin(clients, eq(clients.id, students.clientId))
      .where(where)
      .orderBy(asc(students.name), asc(students.surname), asc(students.id))
      .limit(opts.perPage)
      .offset((opts.page - 1) * opts.perPage),
  ]);
  return { rows, total: Number(total) };
}

export async function studentById(db: DbOrTx, opts: { companyId: number; studentId: number }) {
  if (!Number.isInteger(opts.studentId) || opts.studentId <= 0) return undefined;
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.id, opts.studentId), eq(students.companyId, opts.companyId), isNull(students.deletedAt)));
  return row;
}
