// Users an administrator may see and manage (spec part 1 §2.3 Users, §6): the super-admin sees every
// user; an admin sees users linked to at least one of the admin's companies, or created by the admin.
import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../client.ts";
import { companies, companyUsers, users } from "../schema/index.ts";

export interface Viewer {
  id: number;
  isSuperAdmin: boolean;
}

const creator = alias(users, "creator");

/** The condition "users.id is visible to the viewer" (always excludes deleted users). */
export function visibleUsers(db: DbOrTx, viewer: Viewer): SQL {
  if (viewer.isSuperAdmin) return isNull(users.deletedAt);
  const viewerCompanies = db
    .select({ id: companyUsers.companyId })
    .from(companyUsers)
    .innerJoin(companies, eq(companies.id, companyUsers.companyId))
    .where(and(eq(companyUsers.userId, viewer.id), isNull(companies.deletedAt)));
  const colleagues = db.select({ id: companyUsers.userId }).from(companyUsers).where(inArray(companyUsers.companyId, viewerCompanies));
  return and(isNull(users.deletedAt), or(eq(users.id, viewer.id), eq(users.createdById, viewer.id), inArray(users.id, colleagues)))!;
}

export async function usersPage(db: DbOrTx, opts: { viewer: Viewer; search: string; page: number; perPage: number }) {
  const term = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => "\\" + c)}%` : null;
  const where = and(visibleUsers(db, opts.viewer), term ? or(ilike(users.name, term), ilike(users.email, term)) : undefined);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(users).where(where);
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, administrator: creator.name })
    .from(users)
    .leftJoin(creator, eq(creator.id, users.createdById))
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(opts.perPage)
    .offset((opts.page - 1) * opts.perPage);
  return { rows, total: Number(total) };
}

/** One user if visible to the viewer. */
export async function visibleUser(db: DbOrTx, viewer: Viewer, userId: number) {
  if (!Number.isInteger(userId) || userId <= 0) return undefined;
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdById: users.createdById })
    .from(users)
    .where(and(eq(users.id, userId), visibleUsers(db, viewer)));
  return row;
}

/** Users the viewer may assign companies to (for the assign-company picker). */
export async function assignableUsers(db: DbOrTx, viewer: Viewer) {
  return db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(visibleUsers(db, viewer)).orderBy(asc(users.name)).limit(1000);
}

export async function userByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select({ id: users.id, deletedAt: users.deletedAt }).from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row;
}
