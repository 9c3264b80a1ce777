// Cross-tenant checks: a user (even an admin) of company A cannot read or change company B, its
// users or its configuration by editing ids in URLs or forms.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, companyUsers, sessions, users } from "../../db/schema/index.ts";
import * as companiesRoute from "../../app/routes/companies/companies.tsx";
import * as downloadRoute from "../../app/routes/companies/download-all-files.tsx";
import * as companyForm from "../../app/routes/companies/company-form.tsx";
import * as selectCompany from "../../app/routes/companies/select-company.tsx";
import * as logoRoute from "../../app/routes/companies/logo.tsx";
import * as usersRoute from "../../app/routes/users/users.tsx";
import * as userForm from "../../app/routes/users/user-form.tsx";
import * as assign from "../../app/routes/users/assign-company.tsx";
import * as companiesUser from "../../app/routes/users/companies-user.tsx";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

let adminA: Awaited<ReturnType<typeof createUser>>;
let userA: Awaited<ReturnType<typeof createUser>>;
let adminB: Awaited<ReturnType<typeof createUser>>;
let userB: Awaited<ReturnType<typeof createUser>>;
let A: Awaited<ReturnType<typeof createCompany>>;
let B: Awaited<ReturnType<typeof createCompany>>;
let asAdminA: Browser;
let asUserA: Browser;

beforeAll(async () => {
  database = await createTestDatabase();
  adminA = await createUser(database.db, { role: "admin" });
  userA = await createUser(database.db, { createdById: adminA.id });
  adminB = await createUser(database.db, { role: "admin" });
  userB = await createUser(database.db, { createdById: adminB.id });
  A = await createCompany(database.db, { userIds: [adminA.id, userA.id], name: "Tenant A" });
  B = await createCompany(database.db, { userIds: [adminB.id, userB.id], name: "Tenant B" });
  await database.db.update(companies).set({ logo: PNG, logoMime: "image/png" }).where(eq(companies.id, B.id));
  asAdminA = await signedIn(database.db, adminA.id, A.id);
  asUserA = await signedIn(database.db, userA.id, A.id);
});
afterAll(() => database.drop());

const snapshotB = async () => (await database.db.select().from(companies).where(eq(companies.id, B.id)))[0];

const companyFormOf = (c: { identification: string }) => ({
  intent: "save",
  name: "Secuestrada",
  identification_type: "2",
  identification: c.identification,
  email: "x@x.cr",
  phone: "22223333",
  country: "60",
  province: "1",
  canton: "1",
  district: "1",
  other_signs: "x",
  custom_quotation_name: "Cotización",
  currency: "2",
  currency_emit_doc: "0",
  invoice_format: "1",
  permission: "1",
});

describe("company B is invisible to company A's admin", () => {
  it("edit-company/:id of B → 404, and posting to it changes nothing", async () => {
    const before = await snapshotB();
    expect((await call(asAdminA, companyForm.loader, { path: `/edit-company/${B.id}`, params: { id: String(B.id) } })).status).toBe(404);
    const res = await call(asAdminA, companyForm.action, { path: `/edit-company/${B.id}`, params: { id: String(B.id) }, form: companyFormOf(B) });
    expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });

  it("B does not appear in A's lists, and downloading B's files → 404", async () => {
    for (const path of ["/companies", "/all-companies"]) {
      const res = await call(asAdminA, companiesRoute.loader, { path });
      expect(res.data.rows.map((r: { id: number }) => r.id)).not.toContain(B.id);
    }
    expect((await call(asAdminA, downloadRoute.loader, { path: `/download-all-files/${B.id}`, params: { id: String(B.id) } })).status).toBe(404);
  });

  it("posting B's id to select-company is refused and the session keeps company A", async () => {
    await call(asAdminA, selectCompany.action, { path: "/select-company", form: { company_id: String(B.id) } });
    const own = await database.db.select().from(sessions).where(eq(sessions.userId, adminA.id));
    expect(own.every((s) => s.companyId === A.id)).toBe(true);
  });

  it("posting B's id to activate/deactivate or delete → 404 and nothing changes", async () => {
    const before = await snapshotB();
    for (const intent of ["toggle", "delete"]) {
      const res = await call(asAdminA, companiesRoute.action, { path: "/all-companies", form: { intent, company_id: String(B.id), confirm: "yes" } });
      expect(res.status).toBe(404);
    }
    expect(await snapshotB()).toEqual(before);
  });

  it("B's logo → 404", async () => {
    expect((await call(asAdminA, logoRoute.loader, { path: `/company-logo/${B.id}`, params: { id: String(B.id) } })).status).toBe(404);
  });
});

describe("company B's users are invisible to company A's admin", () => {
  it("not in the list; edit-user and companies-user → 404", async () => {
    const list = await call(asAdminA, usersRoute.loader, { path: "/users?perPage=100" });
    const ids = list.data.rows.map((r: { id: number }) => r.id);
    expect(ids).toContain(userA.id);
    expect(ids).not.toContain(userB.id);
    expect(ids).not.toContain(adminB.id);
    expect((await call(asAdminA, userForm.loader, { path: `/edit-user/${userB.id}`, params: { user_id: String(userB.id) } })).status).toBe(404);
    expect((await call(asAdminA, companiesUser.loader, { path: `/companies-user/${userB.id}`, params: { user_id: String(userB.id) } })).status).toBe(404);
  });

  it("editing, deleting, assigning or unlinking B's user → 404 and nothing changes", async () => {
    const [before] = await database.db.select().from(users).where(eq(users.id, userB.id));
    const edit = await call(asAdminA, userForm.action, { path: `/edit-user/${userB.id}`, params: { user_id: String(userB.id) }, form: { name: "Robado", email: "robado@x.cr", password: "secreto1", admin: "on" } });
    expect(edit.status).toBe(404);
    const del = await call(asAdminA, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: String(userB.id), confirm: "yes" } });
    expect(del.status).toBe(404);
    const unlink = await call(asAdminA, companiesUser.action, { path: `/companies-user/${userB.id}`, params: { user_id: String(userB.id) }, form: { intent: "unlink", company_id: String(B.id), confirm: "yes" } });
    expect(unlink.status).toBe(404);
    // Assigning A's user to B, or B's user to A.
    expect((await call(asAdminA, assign.action, { path: "/assign-company", form: { user_id: String(userA.id), company_id: String(B.id) } })).status).toBe(404);
    expect((await call(asAdminA, assign.action, { path: "/assign-company", form: { user_id: String(userB.id), company_id: String(A.id) } })).status).toBe(404);
    const [after] = await database.db.select().from(users).where(eq(users.id, userB.id));
    expect(after).toEqual(before);
    const linksB = await database.db.select().from(companyUsers).where(eq(companyUsers.companyId, B.id));
    expect(linksB.map((l) => l.userId).sort()).toEqual([adminB.id, userB.id].sort());
    const linksA = await database.db.select().from(companyUsers).where(eq(companyUsers.companyId, A.id));
    expect(linksA.map((l) => l.userId).sort()).toEqual([adminA.id, userA.id].sort());
  });

  it("A's user once also linked to B is no longer A's to manage: companies-user answers 404, revealing nothing of B (docs/decisions/120)", async () => {
    await database.db.insert(companyUsers).values({ companyId: B.id, userId: userA.id });
    const res = await call(asAdminA, companiesUser.loader, { path: `/companies-user/${userA.id}`, params: { user_id: String(userA.id) } });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.data)).not.toContain(B.name);
    await database.db.delete(companyUsers).where(eq(companyUsers.userId, userA.id)).execute();
    await database.db.insert(companyUsers).values({ companyId: A.id, userId: userA.id });
  });
});

describe("non-admins cannot reach admin actions", () => {
  it("POST as a non-admin is refused (403) and nothing changes", async () => {
    const before = (await database.db.select().from(companies).where(eq(companies.id, A.id)))[0];
    const attempts = [
      call(asUserA, companiesRoute.action, { path: "/companies", form: { intent: "toggle", company_id: String(A.id), confirm: "yes" } }),
      call(asUserA, companiesRoute.action, { path: "/companies", form: { intent: "delete", company_id: String(A.id), confirm: "yes" } }),
      call(asUserA, companyForm.action, { path: `/edit-company/${A.id}`, params: { id: String(A.id) }, form: companyFormOf(A) }),
      call(asUserA, companyForm.action, { path: "/new-company", form: { ...companyFormOf({ identification: "3101999999" }), economic_activity_code: "6201.0" } }),
      call(asUserA, usersRoute.action, { path: "/users", form: { intent: "delete", user_id: String(adminA.id), confirm: "yes" } }),
      call(asUserA, userForm.action, { path: `/edit-user/${userA.id}`, params: { user_id: String(userA.id) }, form: { name: "Yo admin", email: userA.email, admin: "on" } }),
      call(asUserA, assign.action, { path: "/assign-company", form: { user_id: String(userA.id), company_id: String(A.id) } }),
      call(asUserA, companiesUser.action, { path: `/companies-user/${adminA.id}`, params: { user_id: String(adminA.id) }, form: { intent: "unlink", company_id: String(A.id), confirm: "yes" } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(403);
    expect((await database.db.select().from(companies).where(eq(companies.id, A.id)))[0]).toEqual(before);
    expect((await database.db.select().from(users).where(eq(users.id, userA.id)))[0].role).toBe("user");
    expect(await database.db.select().from(companies).where(eq(companies.identification, "3101999999"))).toHaveLength(0);
    expect((await database.db.select().from(users).where(eq(users.id, adminA.id)))[0].deletedAt).toBeNull();
  });

  it("GET of admin screens as a non-admin → 403", async () => {
    expect((await call(asUserA, companyForm.loader, { path: `/edit-company/${A.id}`, params: { id: String(A.id) } })).status).toBe(403);
    expect((await call(asUserA, usersRoute.loader, { path: "/users" })).status).toBe(403);
    expect((await call(asUserA, assign.loader, { path: "/assign-company" })).status).toBe(403);
  });
});
