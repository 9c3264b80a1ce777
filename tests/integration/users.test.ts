import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { companyUsers, sessions, users } from "../../db/schema/index.ts";
import * as usersRoute from "../../app/routes/users/users.tsx";
import * as userForm from "../../app/routes/users/user-form.tsx";
import * as assign from "../../app/routes/users/assign-company.tsx";
import * as companiesUser from "../../app/routes/users/companies-user.tsx";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import * as selectCompany from "../../app/routes/companies/select-company.tsx";
import { USER_MESSAGES } from "../../app/domain/user-schemas.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { verifyPassword } from "../../app/server/password.server.ts";
import { lookupSession, sessionIdFrom } from "../../app/server/session.server.ts";
import { unlinkCompany } from "../../app/server/users.server.ts";
import postgres from "postgres";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  process.env.SUPER_ADMIN_EMAIL = "root-users@colibri.test";
});
afterAll(() => database.drop());

function toastsOf(b: Browser) {
  const flash = b.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
}

async function adminWithCompany(opts: { email?: string; name?: string } = {}) {
  const admin = await createUser(database.db, { role: "admin", email: opts.email, name: opts.name });
  const home = await createCompany(database.db, { userIds: [admin.id] });
  const b = await signedIn(database.db, admin.id, home.id);
  return { admin, home, b };
}

let seq = 0;
const email = () => `nuevo${++seq}-${process.pid}@example.cr`;

describe("user form", () => {
  it("requires name, e-mail and password on creation with Spanish messages, keeping what was typed (not the password)", async () => {
    const { b } = await adminWithCompany();
    const res = await call(b, userForm.action, { path: "/add-user", form: { name: "", email: "", password: "" } });
    expect(res.status).toBe(400);
    expect(res.data.errors).toEqual({ name: "El nombre es obligatorio", email: "El correo es obligatorio", password: "La contraseña es obligatoria" });
    const bad = await call(b, userForm.action, { path: "/add-user", form: { name: "Ana", email: "a@b", password: "12345" } });
    expect(bad.data.errors.email).toBe("El correo debe tener al menos 4 caracteres");
    expect(bad.data.errors.password).toBe("La contraseña debe tener entre 6 y 30 caracteres");
    expect(bad.data.values).toMatchObject({ name: "Ana", email: "a@b", password: "" });
    const invalid = await call(b, userForm.action, { path: "/add-user", form: { name: "Ana", email: "no-es-correo", password: "a".repeat(31) } });
    expect(invalid.data.errors.email).toBe("Ingresa un correo válido");
    expect(invalid.data.errors.password).toBe("La contraseña debe tener entre 6 y 30 caracteres");
  });

  it("creates a user (hashed password, creator recorded, role) and returns to /users", async () => {
    const { admin, b } = await adminWithCompany();
    const address = email();
    const res = await call(b, userForm.action, { path: "/add-user", form: { name: "Ana Mora", email: address, password: "secreto1", admin: "on" } });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/users");
    expect(toastsOf(b)).toEqual([{ type: "success", text: USER_MESSAGES.saved }]);
    const [row] = await database.db.select().from(users).where(eq(users.email, address));
    expect(row).toMatchObject({ name: "Ana Mora", role: "admin", createdById: admin.id });
    expect(await verifyPassword("secreto1", row.passwordHash)).toBe(true);
    const dup = await call(b, userForm.action, { path: "/add-user", form: { name: "Otra", email: address.toUpperCase(), password: "secreto1" } });
    expect(dup.status).toBe(400);
    expect(dup.data.errors.email).toBe(USER_MESSAGES.duplicateEmail);
  });

  it("edits a user; the password is optional on edit and kept when blank", async () => {
    const { admin, b } = await adminWithCompany();
    const u = await createUser(database.db, { createdById: admin.id });
    const page = await call(b, userForm.loader, { path: `/edit-user/${u.id}`, params: { user_id: String(u.id) } });
    expect(page.data.values).toMatchObject({ name: u.name, email: u.email });
    const res = await call(b, userForm.action, { path: `/edit-user/${u.id}`, params: { user_id: String(u.id) }, form: { name: "Renombrado", email: u.email, password: "" } });
    expect(res.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "success", text: USER_MESSAGES.updated }]);
    const [row] = await database.db.select().from(users).where(eq(users.id, u.id));
    expect(row.name).toBe("Renombrado");
    expect(await verifyPassword(u.password, row.passwordHash)).toBe(true);
    const short = await call(b, userForm.action, { path: `/edit-user/${u.id}`, params: { user_id: String(u.id) }, form: { name: "X", email: u.email, password: "123" } });
    expect(short.data.errors.password).toBe("La contraseña debe tener entre 6 y 30 caracteres");
    await call(b, userForm.action, { path: `/edit-user/${u.id}`, params: { user_id: String(u.id) }, form: { name: "X", email: u.email, password: "nueva-clave" } });
    expect(await verifyPassword("nueva-clave", (await database.db.select().from(users).where(eq(users.id, u.id)))[0].passwordHash)).toBe(true);
  });

  it("a password set by an admin ends that user's open sessions; a change without password does not; the admin's own browser stays signed in", async () => {
    const { admin, home, b } = await adminWithCompany();
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert(companyUsers).values({ companyId: home.id, userId: u.id });
    const theirs = await signedIn(database.db, u.id, home.id);
    const path = `/edit-user/${u.id}`;
    await call(b, userForm.action, { path, params: { user_id: String(u.id) }, form: { name: "Solo Nombre", email: u.email, password: "" } });
    expect((await call(theirs, dashboard.loader, { path: "/dashboard" })).status).toBe(200);
    await call(b, userForm.action, { path, params: { user_id: String(u.id) }, form: { name: "Solo Nombre", email: u.email, password: "clave-puesta-1" } });
    const after = await call(theirs, dashboard.loader, { path: "/dashboard" });
    expect(after.status).toBe(302);
    expect(after.location).toBe("/login");

    // His own password: the browser he changed it from stays signed in.
    const own = await call(b, userForm.action, { path: `/edit-user/${admin.id}`, params: { user_id: String(admin.id) }, form: { name: admin.name, email: admin.email, password: "mi-clave-nueva", admin: "on" } });
    expect(own.status).toBe(302);
    expect((await call(b, dashboard.loader, { path: "/dashboard" })).status).toBe(200);
  });

  it("non-admins get 403 and nothing changes", async () => {
    const plain = await createUser(database.db);
    const home = await createCompany(database.db, { userIds: [plain.id] });
    const b = await signedIn(database.db, plain.id, home.id);
    expect((await call(b, usersRoute.loader, { path: "/users" })).status).toBe(403);
    const address = email();
    expect((await call(b, userForm.action, { path: "/add-user", form: { name: "X", email: address, password: "secreto1" } })).status).toBe(403);
    expect(await database.db.select().from(users).where(eq(users.email, address))).toHaveLength(0);
  });
});

describe("users list and visibility", () => {
  it("an admin sees himself and the users he created, with the creator name; not a colleague nobody created (docs/decisions/120)", async () => {
    const { admin, home, b } = await adminWithCompany({ name: "Admin Visible" });
    const colleague = await createUser(database.db, { name: "Colega Sin Creador" });
    await database.db.insert(companyUsers).values({ companyId: home.id, userId: colleague.id });
    const created = await createUser(database.db, { name: "Creado Por Admin", createdById: admin.id });
    await database.db.insert(companyUsers).values({ companyId: home.id, userId: created.id });
    const stranger = await createUser(database.db, { name: "Extraño Total" });
    await createCompany(database.db, { userIds: [stranger.id] });
    const res = await call(b, usersRoute.loader, { path: "/users?perPage=100" });
    const byName = Object.fromEntries(res.data.rows.map((r: { name: string; administrator: string | null }) => [r.name, r.administrator]));
    expect(byName).toEqual({ "Admin Visible": null, "Creado Por Admin": "Admin Visible" });
    const search = await call(b, usersRoute.loader, { path: "/users?search=creado" });
    expect(search.data.rows.map((r: { name: string }) => r.name)).toEqual(["Creado Por Admin"]);
    for (const other of [stranger, colleague]) {
      expect((await call(b, userForm.loader, { path: `/edit-user/${other.id}`, params: { user_id: String(other.id) } })).status).toBe(404);
      expect((await call(b, companiesUser.loader, { path: `/companies-user/${other.id}`, params: { user_id: String(other.id) } })).status).toBe(404);
    }
  });

  it("the super-admin sees every user", async () => {
    const root = await adminWithCompany({ email: "root-users@colibri.test" });
    const stranger = await createUser(database.db, { name: "Lejano Visible" });
    const res = await call(root.b, usersRoute.loader, { path: "/users?search=Lejano" });
    expect(res.data.rows.map((r: { id: number }) => r.id)).toEqual([stranger.id]);
    // Without a search, its pages count every live user.
    const live = await database.db.$count(users, isNull(users.deletedAt));
    expect(live).toBeGreaterThan(10); // more than a page: the count is read
    expect((await call(root.b, usersRoute.loader, { path: "/users?perPage=10&page=1" })).data.total).toBe(live);
  });
});

describe("users list pages", () => {
  it("without a search, each page and the total count only the users the viewer may see", async () => {
    const { admin, home, b } = await adminWithCompany({ name: "Admin Paginas" });
    for (let i = 0; i < 11; i++) {
      const u = await createUser(database.db, { name: `Paginado ${String(i).padStart(2, "0")}`, createdById: admin.id });
      await database.db.insert(companyUsers).values({ companyId: home.id, userId: u.id });
    }
    // Created by him but linked to a company of another account: not his to see, nor to count.
    const shared = await createUser(database.db, { name: "Paginado Compartido", createdById: admin.id });
    const foreign = await createCompany(database.db, { userIds: [shared.id] });
    expect(foreign.id).toBeGreaterThan(0);
    await createUser(database.db, { name: "Paginado Ajeno" });
    const first = await call(b, usersRoute.loader, { path: "/users?perPage=10&page=1" });
    expect(first.data).toMatchObject({ total: 12, lastPage: 2 });
    expect(first.data.rows).toHaveLength(10);
    const second = await call(b, usersRoute.loader, { path: "/users?perPage=10&page=2" });
    expect(second.data.rows.map((r: { name: string }) => r.name)).toEqual(["Paginado 09", "Paginado 10"]);
  });
});

describe("deleting a user", () => {
  it("asks first, is soft, and ends the user's sessions", async () => {
    const { admin, home, b } = await adminWithCompany();
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert(companyUsers).values({ companyId: home.id, userId: u.id });
    const theirs = await signedIn(database.db, u.id, home.id);
    const cancel = await call(b, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: String(u.id), confirm: "cancel" } });
    expect(cancel.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "info", text: "Acción cancelada" }]);
    expect((await database.db.select().from(users).where(eq(users.id, u.id)))[0].deletedAt).toBeNull();
    await call(b, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: String(u.id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "success", text: USER_MESSAGES.deleted }]);
    expect((await database.db.select().from(users).where(eq(users.id, u.id)))[0].deletedAt).not.toBeNull();
    const open = await database.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(open.every((s) => s.closedAt)).toBe(true);
    const page = await call(theirs, dashboard.loader, { path: "/dashboard" });
    expect(page.status).toBe(302);
    expect(page.location).toBe("/login");
  });

  it("refuses to delete yourself or a user outside your companies", async () => {
    const { admin, b } = await adminWithCompany();
    await call(b, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: String(admin.id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "error", text: USER_MESSAGES.cannotDeleteSelf }]);
    const stranger = await createUser(database.db);
    const res = await call(b, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: String(stranger.id), confirm: "yes" } });
    expect(res.status).toBe(404);
    expect((await database.db.select().from(users).where(eq(users.id, stranger.id)))[0].deletedAt).toBeNull();
  });
});

describe("assigning and unlinking companies", () => {
  it("offers only the admin's companies not yet assigned, assigns, returns to all-companies", async () => {
    const { admin, home, b } = await adminWithCompany();
    const second = await createCompany(database.db, { userIds: [admin.id], name: "Segunda Asignable" });
    const foreign = await createCompany(database.db, { name: "Ajena No Asignable" });
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert(companyUsers).values({ companyId: home.id, userId: u.id });
    const page = await call(b, assign.loader, { path: `/assign-company?user_id=${u.id}` });
    expect(page.data.chosen.id).toBe(u.id);
    expect(page.data.companies.map((c: { id: number }) => c.id)).toEqual([second.id]);
    const missing = await call(b, assign.action, { path: "/assign-company", form: { user_id: String(u.id), company_id: "" } });
    expect(missing.status).toBe(400);
    expect(missing.data.errors.company_id).toBe("Selecciona una compañia");
    const ok = await call(b, assign.action, { path: "/assign-company", form: { user_id: String(u.id), company_id: String(second.id) } });
    expect(ok.location).toBe("/all-companies");
    expect(toastsOf(b)).toEqual([{ type: "success", text: USER_MESSAGES.assigned }]);
    const refused = await call(b, assign.action, { path: "/assign-company", form: { user_id: String(u.id), company_id: String(foreign.id) } });
    expect(refused.status).toBe(404);
    const links = await database.db.select().from(companyUsers).where(eq(companyUsers.userId, u.id));
    expect(links.map((l) => l.companyId).sort()).toEqual([home.id, second.id].sort());
  });

  it("lists a user's companies, pages only above 10, and unlinks after confirmation", async () => {
    const { admin, home, b } = await adminWithCompany();
    const second = await createCompany(database.db, { userIds: [admin.id], name: "Segunda Del Admin" });
    const foreign = await createCompany(database.db, { name: "Ajena Al Admin" });
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert(companyUsers).values([
      { companyId: home.id, userId: u.id },
      { companyId: second.id, userId: u.id },
    ]);
    const res = await call(b, companiesUser.loader, { path: `/companies-user/${u.id}`, params: { user_id: String(u.id) } });
    expect(res.data.rows.map((r: { id: number }) => r.id).sort()).toEqual([home.id, second.id].sort());
    expect(res.data.lastPage).toBe(1);
    const cancel = await call(b, companiesUser.action, { path: `/companies-user/${u.id}`, params: { user_id: String(u.id) }, form: { intent: "unlink", company_id: String(home.id), confirm: "cancel" } });
    expect(cancel.status).toBe(302);
    expect(toastsOf(b)).toEqual([{ type: "info", text: "Acción cancelada" }]);
    await call(b, companiesUser.action, { path: `/companies-user/${u.id}`, params: { user_id: String(u.id) }, form: { intent: "unlink", company_id: String(home.id), confirm: "yes" } });
    expect(toastsOf(b)).toEqual([{ type: "success", text: USER_MESSAGES.unlinked }]);
    const links = await database.db.select().from(companyUsers).where(eq(companyUsers.userId, u.id));
    expect(links.map((l) => l.companyId)).toEqual([second.id]);
    // A company of another tenant is refused.
    const refused = await call(b, companiesUser.action, { path: `/companies-user/${u.id}`, params: { user_id: String(u.id) }, form: { intent: "unlink", company_id: String(foreign.id), confirm: "yes" } });
    expect(refused.status).toBe(404);
    expect(await database.db.select().from(companyUsers).where(and(eq(companyUsers.userId, u.id), eq(companyUsers.companyId, second.id)))).toHaveLength(1);
  });

  it("pages a user's companies only above 10 entries", async () => {
    const { admin, b } = await adminWithCompany();
    const u = await createUser(database.db, { createdById: admin.id });
    for (let i = 0; i < 11; i++) await createCompany(database.db, { userIds: [admin.id, u.id] });
    const res = await call(b, companiesUser.loader, { path: `/companies-user/${u.id}`, params: { user_id: String(u.id) } });
    expect(res.data.total).toBe(11);
    expect(res.data.rows).toHaveLength(10);
    expect(res.data.lastPage).toBe(2);
  });
});

describe("user dialog over the list", () => {
  it("?edit=ID opens the form with the user's data; another tenant's user is 404", async () => {
    const admin = await createUser(database.db, { role: "admin" });
    const company = await createCompany(database.db, { userIds: [admin.id] });
    const mine = await createUser(database.db, { createdById: admin.id, name: "Lucía Propia" });
    await database.db.insert(companyUsers).values({ companyId: company.id, userId: mine.id });
    const stranger = await createUser(database.db, { name: "Ajeno" });
    await createCompany(database.db, { userIds: [stranger.id] });
    const b = await signedIn(database.db, admin.id, company.id);
    const ok = await call(b, usersRoute.loader, { path: `/users?edit=${mine.id}` });
    expect(ok.data.dialog).toEqual({ id: mine.id, values: { name: "Lucía Propia", email: mine.email, admin: "" } });
    const fresh = await call(b, usersRoute.loader, { path: "/users?new=1" });
    expect(fresh.data.dialog).toEqual({ id: null, values: {} });
    const other = await call(b, usersRoute.loader, { path: `/users?edit=${stranger.id}` });
    expect(other.status).toBe(404);
  });
});

describe("unlinking a user and switching company (a removed user keeps no company)", () => {
  /** The company of the browser's session as the next request sees it (the lookup every request runs). */
  async function companyOn(b: Browser) {
    const id = sessionIdFrom(new Request("http://x/", { headers: { cookie: `colibri_session=${b.cookies.get("colibri_session")}` } }));
    const lookup = await lookupSession(database.db, id, new Date());
    return lookup.state === "active" ? (lookup.company?.id ?? null) : "signed out";
  }
  /** An admin, a user of his linked to two of his companies and signed in to the first. */
  async function linkedUser() {
    const { admin, home, b: adminBrowser } = await adminWithCompany();
    const second = await createCompany(database.db, { userIds: [admin.id], name: `Segunda ${++seq}` });
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert(companyUsers).values([
      { companyId: home.id, userId: u.id },
      { companyId: second.id, userId: u.id },
    ]);
    const b = await signedIn(database.db, u.id, home.id);
    const actor = { id: admin.id, isAdmin: true, isSuperAdmin: false };
    return { admin, actor, adminBrowser, home, second, u, b };
  }
  const switchTo = (b: Browser, companyId: number) => call(b, selectCompany.action, { path: "/select-company", form: { company_id: String(companyId) } });

  it("a user unlinked from the company his session is in is no longer in it on his next request", async () => {
    const { adminBrowser, home, u, b } = await linkedUser();
    expect(await companyOn(b)).toBe(home.id);
    await call(adminBrowser, companiesUser.action, { path: `/companies-user/${u.id}`, params: { user_id: String(u.id) }, form: { intent: "unlink", company_id: String(home.id), confirm: "yes" } });
    expect(toastsOf(adminBrowser)).toEqual([{ type: "success", text: USER_MESSAGES.unlinked }]);
    expect(await companyOn(b)).toBeNull();
  });

  it("a switch to a company the user is not (or no longer) linked to changes nothing and answers 'Ocurrio un error'", async () => {
    const { actor, home, second, u, b } = await linkedUser();
    const foreign = await createCompany(database.db, { name: "Ajena Al Usuario" });
    await unlinkCompany(database.db, actor, u.id, second.id);
    for (const target of [foreign.id, second.id, 0]) {
      const res = await switchTo(b, target);
      expect([res.status, res.location]).toEqual([302, "/companies"]);
      expect(toastsOf(b)).toEqual([{ type: "error", text: "Ocurrio un error" }]);
      expect(await companyOn(b)).toBe(home.id);
    }
    expect((await database.db.select({ d: users.defaultCompanyId }).from(users).where(eq(users.id, u.id)))[0].d).toBeNull();
  });

  // The race: the switch reads the membership, the unlink commits, the switch writes. Each database
  // gets the interleaving its own way; either way the user must not end up in the second company.
  it.runIf(!!process.env.DATABASE_URL)("PostgreSQL: an unlink that commits while a switch to that company is under way leaves the user out of it", async () => {
    const { actor, home, second, u, b } = await linkedUser();
    const [session] = await database.db.select({ id: sessions.id }).from(sessions).where(and(eq(sessions.userId, u.id), isNull(sessions.closedAt)));
    // A second connection holds the session's row, so the switch's write waits: it lands after the
    // unlink has committed, as in the race. The holder changes nothing.
    const pool = postgres(database.url!, { max: 2, onnotice: () => {} });
    const holder = await pool.reserve();
    // The admin's unlink on connections of its own (the app's pool could queue it behind the switch).
    const admins = await openDatabase({ databaseUrl: database.url!, maxConnections: 2 });
    // Read outside the holder's transaction (pg_stat_activity is a snapshot within one).
    const lockWaits = async () => (await pool`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0].n as number;
    /** Until `done()` or `n` statements wait on a lock (5 s at most). */
    const until = async (done: () => boolean, n: number) => {
      for (let i = 0; i < 200 && !done() && (await lockWaits()) < n; i++) await new Promise((r) => setTimeout(r, 25));
    };
    try {
      await holder`begin`;
      await holder`select 1 from sessions where id = ${session.id} for update`;
      let switchDone = false;
      const switched = switchTo(b, second.id).finally(() => (switchDone = true));
      await until(() => switchDone, 1);
      expect(switchDone).toBe(false); // the switch is waiting for the row
      let unlinkDone = false;
      const unlink = unlinkCompany(admins.db, actor, u.id, second.id).finally(() => (unlinkDone = true));
      // The unlink either commits at once or waits for the switch; then the row is let go.
      await until(() => unlinkDone, 2);
      await holder`commit`;
      expect((await unlink).ok).toBe(true);
      await switched;
    } finally {
      holder.release();
      await pool.end({ timeout: 5 });
      await admins.close();
    }
    expect(await companyOn(b)).not.toBe(second.id);
    expect(await database.db.select().from(companyUsers).where(and(eq(companyUsers.userId, u.id), eq(companyUsers.companyId, second.id)))).toEqual([]);
    expect([home.id, null]).toContain(await companyOn(b));
  });

  it.skipIf(!!process.env.DATABASE_URL)("embedded database: an unlink that commits right after the switch's first statement on the membership leaves the user out of it", async () => {
    const { actor, second, u, b } = await linkedUser();
    // PGlite is one connection, but requests interleave between their statements: the unlink is run
    // right after the switch's first statement that reads the membership of that company.
    const client = (database.db as unknown as { $client: { query: (text: string, params?: unknown[], options?: unknown) => Promise<unknown> } }).$client;
    const query = client.query;
    let fired = false;
    client.query = async (text, params, options) => {
      const result = await query.call(client, text, params, options);
      if (!fired && text.includes('"company_users"') && params?.some((p) => String(p) === String(second.id))) {
        fired = true;
        expect((await unlinkCompany(database.db, actor, u.id, second.id)).ok).toBe(true);
      }
      return result;
    };
    try {
      await switchTo(b, second.id);
    } finally {
      client.query = query;
    }
    expect(fired).toBe(true);
    expect(await companyOn(b)).not.toBe(second.id);
  });
});
