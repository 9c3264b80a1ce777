import { afterAll, beforeAll, expect, it } from "vitest";
import * as users from "../../app/routes/users/users.tsx";
import { call, createCompany, createUser, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it("a list remembers its page and page size per section; a new search starts on page 1", async () => {
  const admin = await createUser(database.db, { role: "admin" });
  const company = await createCompany(database.db, { userIds: [admin.id] });
  for (let i = 0; i < 25; i++) {
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert((await import("../../db/schema/index.ts")).companyUsers).values({ companyId: company.id, userId: u.id });
  }
  const b = await signedIn(database.db, admin.id, company.id);
  const second = await call(b, users.loader, { path: "/users?page=2&perPage=10" });
  expect(second.data.page).toBe(2);
  const back = await call(b, users.loader, { path: "/users" });
  expect(back.data.page).toBe(2);
  expect(back.data.perPage).toBe(10);
  const searched = await call(b, users.loader, { path: "/users?search=Usuario" });
  expect(searched.data.page).toBe(1);
});

it("a new page size starts on page 1", async () => {
  const admin = await createUser(database.db, { role: "admin" });
  const company = await createCompany(database.db, { userIds: [admin.id] });
  for (let i = 0; i < 12; i++) {
    const u = await createUser(database.db, { createdById: admin.id });
    await database.db.insert((await import("../../db/schema/index.ts")).companyUsers).values({ companyId: company.id, userId: u.id });
  }
  const b = await signedIn(database.db, admin.id, company.id);
  expect((await call(b, users.loader, { path: "/users?page=2" })).data.page).toBe(2);
  const bigger = await call(b, users.loader, { path: "/users?perPage=20" });
  expect(bigger.data.page).toBe(1);
  expect(bigger.data.perPage).toBe(20);
});
