// User use-cases (spec part 1 §2.3 Users, §5 User/Assign, §6). Admins manage the users they can see
// (db/queries/users.ts visibleUsers); deleting is soft and ends the user's sessions.
import { and, eq, isNull, ne } from "drizzle-orm";
import { data } from "react-router";
import type { Db } from "../../db/client.ts";
import { manageableCompany } from "../../db/queries/companies.ts";
import { userByEmail, visibleUser, type Viewer } from "../../db/queries/users.ts";
import { companyUsers, sessions, users } from "../../db/schema/index.ts";
import type { FieldErrors } from "../domain/forms.ts";
import { USER_MESSAGES, type UserInput } from "../domain/user-schemas.ts";
import type { CurrentUser } from "./context.ts";
import { env } from "./env.server.ts";
import { hashPassword } from "./password.server.ts";

type Actor = Pick<CurrentUser, "id" | "isAdmin" | "isSuperAdmin">;

/** The acting admin as the ownership rule sees him (db/queries/users.ts visibleUsers). */
export const viewerOf = (actor: Actor): Viewer => ({ id: actor.id, isSuperAdmin: actor.isSuperAdmin, superAdminEmail: env().superAdminEmail });

export function requireUserAdmin(user: CurrentUser | undefined): CurrentUser {
  if (!user?.isAdmin) throw data(USER_MESSAGES.adminOnly, { status: 403 });
  return user;
}

/**
 * The user if the admin administers them (docs/decisions/120-user-ownership.md), else 404: another
 * account's users do not exist for him. Every route and action that takes a user id calls this.
 */
export async function requireManageableUser(db: Db, actor: Actor, userId: number) {
  requireUserAdmin(actor as CurrentUser);
  const row = await visibleUser(db, viewerOf(actor), userId);
  if (!row) throw data("No encontrado", { status: 404 });
  return row;
}

type SaveResult = { ok: true; id: number } | { ok: false; errors: FieldErrors };

/**
 * The super-admin is the account that holds SUPER_ADMIN_EMAIL: nobody takes that address through
 * the application (a new user, or an account whose address is another one today).
 */
function takesSuperAdminEmail(email: string, current: string | null): boolean {
  const reserved = env().superAdminEmail;
  return !!reserved && email.toLowerCase() === reserved && current?.toLowerCase() !== reserved;
}

export async function createUser(db: Db, actor: Actor, input: UserInput): Promise<SaveResult> {
  requireUserAdmin(actor as CurrentUser);
  if (takesSuperAdminEmail(input.email, null)) return { ok: false, errors: { email: USER_MESSAGES.reservedEmail } };
  if (await userByEmail(db, input.email)) return { ok: false, errors: { email: USER_MESSAGES.duplicateEmail } };
  const [row] = await db
    .insert(users)
    .values({ name: input.name, email: input.email, passwordHash: await hashPassword(input.password!), role: input.admin ? "admin" : "user", createdById: actor.id })
    .returning({ id: users.id });
  return { ok: true, id: row.id };
}

/**
 * Saves the user form. A new password ends every open session of that user (his browsers must sign
 * in with it), except `keepSessionId`: the session of an admin changing his own password.
 */
export async function updateUser(db: Db, actor: Actor, userId: number, input: UserInput, opts: { keepSessionId?: string; now?: Date } = {}): Promise<SaveResult> {
  const target = await requireManageableUser(db, actor, userId);
  if (takesSuperAdminEmail(input.email, target.email)) return { ok: false, errors: { email: USER_MESSAGES.reservedEmail } };
  const other = await userByEmail(db, input.email);
  if (other && other.id !== userId) return { ok: false, errors: { email: USER_MESSAGES.duplicateEmail } };
  // An admin cannot take away their own admin role (they would lock themselves out of this screen).
  const role = userId === actor.id ? "admin" : input.admin ? "admin" : "user";
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ name: input.name, email: input.email, role, ...(passwordHash ? { passwordHash } : {}) })
      .where(eq(users.id, userId));
    if (passwordHash) {
      const open = and(eq(sessions.userId, userId), isNull(sessions.closedAt), opts.keepSessionId ? ne(sessions.id, opts.keepSessionId) : undefined);
      await tx.update(sessions).set({ closedAt: opts.now ?? new Date(), closedReason: "password" }).where(open);
    }
  });
  return { ok: true, id: userId };
}

/** Soft delete: `deleted_at` set, every open session of the user closed. */
export async function deleteUser(db: Db, actor: Actor, userId: number, now: Date): Promise<{ ok: boolean; message: string }> {
  if (userId === actor.id) return { ok: false, message: USER_MESSAGES.cannotDeleteSelf };
  await requireManageableUser(db, actor, userId);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ deletedAt: now }).where(eq(users.id, userId));
    await tx.update(sessions).set({ closedAt: now, closedReason: "user-deleted" }).where(and(eq(sessions.userId, userId), isNull(sessions.closedAt)));
  });
  return { ok: true, message: USER_MESSAGES.deleted };
}

/** Links a visible user to a company the admin may manage. */
export async function assignCompany(db: Db, actor: Actor, userId: number, companyId: number): Promise<{ ok: boolean; message: string }> {
  await requireManageableUser(db, actor, userId);
  const company = await manageableCompany(db, { userId: actor.id, isSuperAdmin: actor.isSuperAdmin, companyId });
  if (!company) throw data("No encontrado", { status: 404 });
  const inserted = await db.insert(companyUsers).values({ companyId, userId }).onConflictDoNothing().returning({ userId: companyUsers.userId });
  return inserted.length ? { ok: true, message: USER_MESSAGES.assigned } : { ok: false, message: USER_MESSAGES.problem };
}

/**
 * Unlinks a user from a company the admin may manage. Open sessions of that user working in the
 * company move to the user's next company (or to none: they sign in again).
 */
export async function unlinkCompany(db: Db, actor: Actor, userId: number, companyId: number): Promise<{ ok: boolean; message: string }> {
  await requireManageableUser(db, actor, userId);
  const company = await manageableCompany(db, { userId: actor.id, isSuperAdmin: actor.isSuperAdmin, companyId });
  if (!company) throw data("No encontrado", { status: 404 });
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(companyUsers)
      .where(and(eq(companyUsers.userId, userId), eq(companyUsers.companyId, companyId)))
      .returning({ userId: companyUsers.userId });
    if (!removed.length) return { ok: false, message: USER_MESSAGES.problem };
    await tx.update(sessions).set({ companyId: null }).where(and(eq(sessions.userId, userId), eq(sessions.companyId, companyId), isNull(sessions.closedAt)));
    await tx.update(users).set({ defaultCompanyId: null }).where(and(eq(users.id, userId), eq(users.defaultCompanyId, companyId)));
    return { ok: true, message: USER_MESSAGES.unlinked };
  });
}

/** The user to edit (or none, to create), checked against what the admin may manage. */
export async function userFormData(db: Db, admin: Parameters<typeof requireManageableUser>[1], userId: number | null) {
  if (userId === null) return { id: null, values: {} as Record<string, string> };
  const row = await requireManageableUser(db, admin, userId);
  return { id: row.id, values: { name: row.name, email: row.email, admin: row.role === "admin" ? "on" : "" } as Record<string, string> };
}
