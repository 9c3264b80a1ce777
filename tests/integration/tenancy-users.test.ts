// Cross-account attempts on every route and action that takes a user id, in one table
// (docs/decisions/120-user-ownership.md). Admin A administers A himself and the users he created
// whose companies are all A's. Every other user — admin B, B's staff (also when linked to one of
// A's companies), a user A created who was later linked to B's company, a user nobody created
// ('S/C') working in A's company, the super-admin — answers 404 to A and nothing changes. Each GET
// row is also run by an account allowed to see that user (its own administrator or the
// super-admin), whose answer must be 200: the refusal comes from the ownership rule, not from a
// wrong URL. The super-admin sees across accounts. A route added later is one row of `attempts`.
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companyUsers, sessions, users } from "../../db/schema/index.ts";
import * as assign from "../../app/routes/users/assign-company.tsx";
import * as companiesUser from "../../app/routes/users/companies-user.tsx";
import * as userForm from "../../app/routes/users/user-form.tsx";
import * as usersRoute from "../../app/routes/users/users.tsx";
import { call, createCompany, createUser, signedIn, type Browser, type CallResult } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

const SUPER = "raiz-cuentas@colibri.test";
let database: Awaited<ReturnType<typeof createTestDatabase>>;

type Row = Awaited<ReturnType<typeof createUser>>;
let S: Row, A: Row, B: Row;
/** A's own staff: linked to A's company, and one not yet assigned. */
let a1: Row, a2: Row;
/** Created by A, later linked (by the super-admin) to B's company too. */
let aForeign: Row;
/** B's staff; bShared is also linked to A's company. */
let b1: Row, bShared: Row;
/** Another administrator linked to A's company (a shared company). */
let coAdmin: Row;
/** Nobody created this user ('S/C'); linked to A's company. */
let noCreator: Row;
let companyA: number, companyA2: number, companyB: number, companyS: number;
let browserOf: Map<number, Browser>;

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.SUPER_ADMIN_EMAIL = SUPER;
  const db = database.db;
  S = await createUser(db, { role: "admin", email: SUPER, name: "Raíz Cuentas" });
  A = await createUser(db, { role: "admin", name: "Admin Ana" });
  B = await createUser(db, { role: "admin", name: "Admin Berta" });
  companyS = (await createCompany(db, { userIds: [S.id], name: "Operadora Raíz" })).id;
  companyA = (await createCompany(db, { userIds: [A.id], name: "Empresa de Ana" })).id;
  companyA2 = (await createCompany(db, { userIds: [A.id], name: "Segunda de Ana" })).id;
  companyB = (await createCompany(db, { userIds: [B.id], name: "Empresa de Berta" })).id;
  a1 = await createUser(db, { createdById: A.id, name: "Ana Staff Uno" });
  a2 = await createUser(db, { createdById: A.id, name: "Ana Staff Dos" });
  aForeign = await createUser(db, { createdById: A.id, name: "Ana Prestada" });
  b1 = await createUser(db, { createdById: B.id, name: "Berta Staff Uno" });
  bShared = await createUser(db, { createdById: B.id, name: "Berta Compartida" });
  coAdmin = await createUser(db, { role: "admin", createdById: S.id, name: "Coadmin Cecilia" });
  noCreator = await createUser(db, { name: "Sin Creador Sergio" });
  await db.insert(companyUsers).values([
    { companyId: companyA, userId: a1.id },
    { companyId: companyA, userId: aForeign.id },
    { companyId: companyB, userId: aForeign.id },
    { companyId: companyB, userId: b1.id },
    { companyId: companyB, userId: bShared.id },
    { companyId: companyA, userId: bShared.id },
    { companyId: companyA, userId: coAdmin.id },
    { companyId: companyA, userId: noCreator.id },
    // B also works in one of A's companies (shared company): A still may not manage B.
    { companyId: companyA2, userId: B.id },
  ]);
  browserOf = new Map([
    [S.id, await signedIn(db, S.id, companyS)],
    [A.id, await signedIn(db, A.id, companyA)],
    [B.id, await signedIn(db, B.id, companyB)],
  ]);
}, 120_000);
afterAll(async () => {
  delete process.env.SUPER_ADMIN_EMAIL;
  await database?.drop();
});

/** Every user row, every link and every session: nothing a refused attempt may change. */
async function snapshot() {
  const db = database.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    links: await db.select().from(companyUsers).orderBy(asc(companyUsers.companyId), asc(companyUsers.userId)),
    sessions: await db.select({ id: sessions.id, closedAt: sessions.closedAt }).from(sessions).orderBy(asc(sessions.id)),
  };
}

const uid = (u: Row) => String(u.id);

/**
 * Targets A must not reach, each with an account that may (its administrator, or only the
 * super-admin). Functions: the rows exist only once beforeAll has run.
 */
const TARGETS: { label: string; user: () => Row; allowed: () => Row }[] = [
  { label: "another administrator (B), also working in a company of A", user: () => B, allowed: () => B },
  { label: "B's staff", user: () => b1, allowed: () => B },
  // Linked to a company of A as well: B may not manage him either (he would reach A's company).
  { label: "B's staff also linked to A's company", user: () => bShared, allowed: () => S },
  { label: "a user A created, later linked to B's company", user: () => aForeign, allowed: () => S },
  { label: "another administrator linked to A's company", user: () => coAdmin, allowed: () => S },
  { label: "a user nobody created ('S/C') in A's company", user: () => noCreator, allowed: () => S },
  { label: "the super-admin", user: () => S, allowed: () => S },
];
const targets = () => TARGETS.map((t) => ({ label: t.label, user: t.user(), allowed: t.allowed() }));

type Attempt = { name: string; get: boolean; run: (b: Browser, target: Row) => Promise<CallResult> };

/** Every route and action that takes a user id. */
const attempts: Attempt[] = [
  { name: "GET /edit-user/:id", get: true, run: (b, t) => call(b, userForm.loader, { path: `/edit-user/${t.id}`, params: { user_id: uid(t) } }) },
  { name: "GET /users?edit=:id (the dialog)", get: true, run: (b, t) => call(b, usersRoute.loader, { path: `/users?edit=${t.id}` }) },
  { name: "GET /companies-user/:id", get: true, run: (b, t) => call(b, companiesUser.loader, { path: `/companies-user/${t.id}`, params: { user_id: uid(t) } }) },
  { name: "GET /assign-company?user_id=:id", get: true, run: (b, t) => call(b, assign.loader, { path: `/assign-company?user_id=${t.id}` }) },
  {
    name: "POST /edit-user/:id (rename, e-mail, set a password)",
    get: false,
    run: (b, t) => call(b, userForm.action, { path: `/edit-user/${t.id}`, params: { user_id: uid(t) }, form: { name: "Tomada", email: `tomada-${t.id}@evil.example`, password: "clave-tomada-1", admin: "on" } }),
  },
  { name: "POST /users (delete)", get: false, run: (b, t) => call(b, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: uid(t), confirm: "yes" } }) },
  {
    name: "POST /companies-user/:id (unlink A's company)",
    get: false,
    run: (b, t) => call(b, companiesUser.action, { path: `/companies-user/${t.id}`, params: { user_id: uid(t) }, form: { intent: "unlink", company_id: String(companyA), confirm: "yes" } }),
  },
  {
    name: "POST /companies-user/:id (unlink the target's own company)",
    get: false,
    run: (b, t) => call(b, companiesUser.action, { path: `/companies-user/${t.id}`, params: { user_id: uid(t) }, form: { intent: "unlink", company_id: String(companyB), confirm: "yes" } }),
  },
  { name: "POST /assign-company (user id)", get: false, run: (b, t) => call(b, assign.action, { path: "/assign-company", form: { user_id: uid(t), company_id: String(companyA2) } }) },
];

describe("an administrator reaches only the users he administers", () => {
  for (const attempt of attempts) {
    for (const { label, user, allowed } of TARGETS) {
      it(`${attempt.name} — ${label}: 404 for A, nothing changed${attempt.get ? "; 200 for an account that may" : ""}`, async () => {
        const t = user();
        const before = await snapshot();
        const res = await attempt.run(browserOf.get(A.id)!, t);
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.data ?? null)).not.toContain(t.email);
        expect(await snapshot()).toEqual(before);
        if (attempt.get) {
          const theirs = await attempt.run(browserOf.get(allowed().id)!, t);
          expect(theirs.status).toBe(200);
        }
      });
    }
  }

  it("A's own users and A himself: every GET answers 200", async () => {
    for (const attempt of attempts.filter((a) => a.get)) {
      for (const mine of [A, a1, a2]) {
        const res = await attempt.run(browserOf.get(A.id)!, mine);
        expect(res.status, `${attempt.name} for ${mine.name}`).toBe(200);
      }
    }
  });

  it("/users lists A, A's staff and nothing else; a search never finds another account's user", async () => {
    const b = browserOf.get(A.id)!;
    const list = await call(b, usersRoute.loader, { path: "/users?perPage=100" });
    expect(list.data.rows.map((r: { id: number }) => r.id).sort((x: number, y: number) => x - y)).toEqual([A.id, a1.id, a2.id].sort((x, y) => x - y));
    expect(list.data.rows.find((r: { id: number }) => r.id === a1.id).administrator).toBe("Admin Ana");
    for (const t of targets()) {
      const found = await call(b, usersRoute.loader, { path: `/users?search=${encodeURIComponent(t.user.name)}` });
      expect(found.data.rows, t.label).toEqual([]);
      const byEmail = await call(b, usersRoute.loader, { path: `/users?search=${encodeURIComponent(t.user.email)}` });
      expect(byEmail.data.rows, t.label).toEqual([]);
    }
  });

  it("/assign-company offers only A's users, and refuses a company of another account for A's own user", async () => {
    const b = browserOf.get(A.id)!;
    const page = await call(b, assign.loader, { path: "/assign-company" });
    expect(page.data.users.map((u: { id: number }) => u.id).sort((x: number, y: number) => x - y)).toEqual([A.id, a1.id, a2.id].sort((x, y) => x - y));
    const before = await snapshot();
    for (const company of [companyB, companyS]) {
      const res = await call(b, assign.action, { path: "/assign-company", form: { user_id: uid(a2), company_id: String(company) } });
      expect(res.status).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("B sees B and B's staff, not the one also working in A's company, and none of A's users", async () => {
    const list = await call(browserOf.get(B.id)!, usersRoute.loader, { path: "/users?perPage=100" });
    expect(list.data.rows.map((r: { id: number }) => r.id).sort((x: number, y: number) => x - y)).toEqual([B.id, b1.id].sort((x, y) => x - y));
    for (const other of [A, a1, a2, bShared]) {
      expect((await call(browserOf.get(B.id)!, userForm.loader, { path: `/edit-user/${other.id}`, params: { user_id: uid(other) } })).status).toBe(404);
    }
  });

  it("a user A adds belongs to A: A sees and edits him, B does not", async () => {
    const b = browserOf.get(A.id)!;
    const email = `nuevo-de-ana-${process.pid}@example.cr`;
    const res = await call(b, userForm.action, { path: "/add-user", form: { name: "Nuevo De Ana", email, password: "secreto1" } });
    expect(res.status).toBe(302);
    const [row] = await database.db.select().from(users).where(eq(users.email, email));
    expect(row.createdById).toBe(A.id);
    expect((await call(b, userForm.loader, { path: `/edit-user/${row.id}`, params: { user_id: String(row.id) } })).status).toBe(200);
    expect((await call(browserOf.get(B.id)!, userForm.loader, { path: `/edit-user/${row.id}`, params: { user_id: String(row.id) } })).status).toBe(404);
  });
});

describe("the super-admin sees across accounts", () => {
  it("lists every user with the administrator name or 'S/C', and opens any of them", async () => {
    const b = browserOf.get(S.id)!;
    const list = await call(b, usersRoute.loader, { path: "/users?perPage=100" });
    const byId = new Map(list.data.rows.map((r: { id: number; administrator: string | null }) => [r.id, r.administrator]));
    for (const u of [A, B, a1, a2, aForeign, b1, bShared, coAdmin, noCreator, S]) expect(byId.has(u.id), u.name).toBe(true);
    expect(byId.get(b1.id)).toBe("Admin Berta");
    expect(byId.get(noCreator.id)).toBeNull();
    for (const u of [A, b1, aForeign, noCreator]) {
      expect((await call(b, userForm.loader, { path: `/edit-user/${u.id}`, params: { user_id: uid(u) } })).status).toBe(200);
      const companies = await call(b, companiesUser.loader, { path: `/companies-user/${u.id}`, params: { user_id: uid(u) } });
      expect(companies.status).toBe(200);
    }
    const foreign = await call(b, companiesUser.loader, { path: `/companies-user/${aForeign.id}`, params: { user_id: uid(aForeign) } });
    expect(foreign.data.rows.map((r: { id: number }) => r.id).sort((x: number, y: number) => x - y)).toEqual([companyA, companyB].sort((x, y) => x - y));
  });
});
