// The super-admin is fixed by configuration (SUPER_ADMIN_EMAIL) and by the account that already holds
// that address: nobody becomes super-admin by taking the address, whether on his own account, on a
// user he administers or on a new user (issue 10 point 3, docs/decisions/120-user-ownership.md).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.ts";
import * as companiesRoute from "../../app/routes/companies/companies.tsx";
import * as userForm from "../../app/routes/users/user-form.tsx";
import { USER_MESSAGES } from "../../app/domain/user-schemas.ts";
import { call, createCompany, createUser, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

const SUPER = "jefe-supremo@colibri.test";
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  process.env.SUPER_ADMIN_EMAIL = SUPER;
});
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  await database?.drop();
});

const row = async (id: number) => (await database.db.select().from(users).where(eq(users.id, id)))[0];
const holders = async () => database.db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, SUPER));

async function adminWithCompany() {
  const admin = await createUser(database.db, { role: "admin", name: "Admin Ambicioso" });
  const home = await createCompany(database.db, { userIds: [admin.id] });
  const other = await createCompany(database.db, { name: "Empresa Ajena Intocable" });
  return { admin, home, other, b: await signedIn(database.db, admin.id, home.id) };
}

describe("nobody takes the super-admin's address (while no account holds it)", () => {
  it("an admin changing his own e-mail to SUPER_ADMIN_EMAIL (any case) is refused on the field; nothing changes; he still sees only his companies", async () => {
    const { admin, other, b } = await adminWithCompany();
    const before = await row(admin.id);
    for (const email of [SUPER, SUPER.toUpperCase(), ` ${SUPER} `]) {
      const res = await call(b, userForm.action, { path: `/edit-user/${admin.id}`, params: { user_id: String(admin.id) }, form: { name: "Nuevo Nombre", email, password: "otra-clave-1" } });
      expect(res.status).toBe(400);
      expect(res.data.errors).toEqual({ email: USER_MESSAGES.reservedEmail });
      expect(res.data.values).toMatchObject({ name: "Nuevo Nombre", email: email.trim() });
    }
    expect(await row(admin.id)).toEqual(before);
    expect(await holders()).toEqual([]);
    const all = await call(b, companiesRoute.loader, { path: "/all-companies?perPage=100" });
    expect(all.data.rows.map((r: { id: number }) => r.id)).not.toContain(other.id);
    expect(all.data.isSuperAdmin).toBe(false);
  });

  it("an admin giving the address to a user he administers is refused", async () => {
    const { admin, b } = await adminWithCompany();
    const staff = await createUser(database.db, { createdById: admin.id });
    const before = await row(staff.id);
    const res = await call(b, userForm.action, { path: `/edit-user/${staff.id}`, params: { user_id: String(staff.id) }, form: { name: staff.name, email: SUPER } });
    expect(res.status).toBe(400);
    expect(res.data.errors.email).toBe(USER_MESSAGES.reservedEmail);
    expect(await row(staff.id)).toEqual(before);
  });

  it("an admin creating a user with the address is refused and no user is created", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, userForm.action, { path: "/add-user", form: { name: "Falso Jefe", email: SUPER.toUpperCase(), password: "secreto1", admin: "on" } });
    expect(res.status).toBe(400);
    expect(res.data.errors.email).toBe(USER_MESSAGES.reservedEmail);
    expect(await holders()).toEqual([]);
  });
});

describe("the account that holds the address keeps it", () => {
  it("the super-admin edits his own name without losing the address; nobody else can take it", async () => {
    const root = await createUser(database.db, { role: "admin", email: SUPER, name: "Jefe Supremo" });
    const home = await createCompany(database.db, { userIds: [root.id] });
    const b = await signedIn(database.db, root.id, home.id);
    const res = await call(b, userForm.action, { path: `/edit-user/${root.id}`, params: { user_id: String(root.id) }, form: { name: "Jefe Renombrado", email: SUPER, admin: "on" } });
    expect(res.status).toBe(302);
    expect((await row(root.id)).name).toBe("Jefe Renombrado");
    const { b: other } = await adminWithCompany();
    const taken = await call(other, userForm.action, { path: "/add-user", form: { name: "Otro", email: SUPER, password: "secreto1" } });
    expect(taken.status).toBe(400);
    expect(await holders()).toEqual([{ id: root.id }]);
  });
});
