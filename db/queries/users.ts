// Users an administrator may see and manage (spec part 1 §2.3 Users, §6;
// docs/decisions/120-user-ownership.md). This file holds the one rule every user screen and action
// goes through: the super-admin sees every user; any other administrator sees himself and the users
// he administers (he created them) whose companies are all his own companies. Never another
// account's administrator or staff, never a user of a company he is not linked to, never the
// super-admin account.
import { and, asc, count, eq, ilike, isNull, ne, notExists, notInArray, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../client.ts";
import { companyUsers, users } from "../schema/index.ts";
import { type BuiltList, builtPageWithTotal, pageWithTotal, writtenLimit } from "./paging.ts";

export interface Viewer {
  id: number;
  isSuperAdmin: boolean;
  /** SUPER_ADMIN_EMAIL (lower case, '' when unset): that account is never another admin's user. */
  superAdminEmail: string;
}

const creator = alias(users, "creator");

/**
 * The condition "users.id is administered by the viewer" (always excludes deleted users): the viewer
 * himself, or a user he created who is linked to no company the viewer is not linked to (archived
 * companies included: their links stay). The super-admin: every user.
 */
export function visibleUsers(db: DbOrTx, viewer: Viewer | { id: Placeholder; isSuperAdmin: boolean; superAdminEmail: Placeholder | "" }): SQL {
  if (viewer.isSuperAdmin) return isNull(users.deletedAt);
  const viewerCompanies = db.select({ id: companyUsers.companyId }).from(companyUsers).where(eq(companyUsers.userId, viewer.id));
  const foreignLink = db
    .select({ one: sql`1` })
    .from(companyUsers)
    .where(and(eq(companyUsers.userId, users.id), notInArray(companyUsers.companyId, viewerCompanies)));
  const administered = and(
    eq(users.createdById, viewer.id),
    notExists(foreignLink),
    viewer.superAdminEmail ? ne(sql`lower(${users.email})`, viewer.superAdminEmail) : undefined,
  );
  return and(isNull(users.deletedAt), or(eq(users.id, viewer.id), administered))!;
}

export async function usersPage(db: DbOrTx, opts: { viewer: Viewer; search: string; page: number; perPage: number }) {
  const term = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => "\\" + c)}%` : null;
  if (!term) {
    // The page without a search, built once (built-once.ts).
    const kind = opts.viewer.isSuperAdmin ? "all" : opts.viewer.superAdminEmail ? "administered" : "administered_any";
    return builtPageWithTotal(db, `users_${kind}`, opts, plainUsers(db, opts.viewer), { viewerId: opts.viewer.id, superAdminEmail: opts.viewer.superAdminEmail });
  }
  const where = and(visibleUsers(db, opts.viewer), or(ilike(users.name, term), ilike(users.email, term)));
  return pageWithTotal({
    ...opts,
    rows: (limit, offset) => usersQuery(db, where).limit(writtenLimit(limit)).offset(offset),
    count: () => db.$count(users, where),
  });
}

const usersQuery = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, administrator: creator.name })
    .from(users)
    .leftJoin(creator, eq(creator.id, users.createdById))
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .$dynamic();

/** The users page without a search and its count, with the viewer as parameters, for each kind of viewer (`users_${kind}`). */
function plainUsers(db: DbOrTx, viewer: Viewer): BuiltList<Awaited<ReturnType<typeof usersQuery>>[number]> {
  const where = () => visibleUsers(db, { id: sql.placeholder("viewerId"), isSuperAdmin: viewer.isSuperAdmin, superAdminEmail: viewer.superAdminEmail ? sql.placeholder("superAdminEmail") : "" });
  return {
    page: (w) => usersQuery(db, where()).limit(w.limit).offset(w.offset!).prepare("users_page"),
    total: () => db.select({ n: count() }).from(users).where(where()).prepare("users_count"),
  };
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
