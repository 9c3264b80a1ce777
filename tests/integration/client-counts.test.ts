// The live clients counted by the database (docs/decisions/200): the table client_counts, written by
// deferred triggers of clients and filled for existing rows by the custom migration
// client_counts_triggers. Checked here, on both databases:
// - its rows equal a count of the live clients (deleted_at null) by company, provider and active,
//   through a client's life: created, deactivated, turned provider, deleted and restored, moved to
//   another company, removed, several changes in one transaction, a rollback;
// - a clients or providers list without a search takes its total from these rows, with or without
//   the active filter, while a search still counts its matches;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { clients } from "../../db/schema/index.ts";
import { clientsPage } from "../../db/queries/clients.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};

const countRows = () => rows<Record<string, unknown>>(database.db, sql`select company_id, provider, active, clients from client_counts order by company_id, provider, active`);

/** The oracle: the live clients counted from the clients themselves (the generic ones included, as the lists show them). */
const counted = () =>
  rows<Record<string, unknown>>(
    database.db,
    sql`select company_id, provider, active, count(*)::int as clients from clients where deleted_at is null group by 1, 2, 3 order by 1, 2, 3`,
  );

async function expectCounted() {
  expect(await countRows()).toEqual(await counted());
}

async function addClient(name: string, over: Partial<typeof clients.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(clients)
    .values({ companyId, name, identificationTypeId: 1, identification: "109870654", email: "c@example.cr", phone: "88887777", address: "San José", ...over })
    .returning({ id: clients.id });
  ids[name] = row.id;
}

const page = (over: Partial<Parameters<typeof clientsPage>[1]> = {}) => clientsPage(database.db, { companyId, provider: false, search: "", page: 1, perPage: 2, ...over });

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  for (const name of ["Ana", "Bruno", "Carla", "Diego"]) await addClient(name);
  await addClient("Inactivo", { active: false });
  await addClient("Proveedor", { provider: true });
  await addClient("Borrado", { deletedAt: new Date() });
  await addClient("Otro", { companyId: otherCompanyId });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("live clients counted by the database", () => {
  it("one row per company, provider and active; deleted clients left out", async () => {
    const mine = (await countRows()).filter((r) => r.company_id === companyId);
    expect(mine).toEqual(
      expect.arrayContaining([
        { company_id: companyId, provider: false, active: false, clients: 1 },
        { company_id: companyId, provider: true, active: true, clients: 1 },
      ]),
    );
    await expectCounted();
  });

  it("follows a client's life, commits only, and drops a group left empty", async () => {
    await database.db.update(clients).set({ active: false }).where(eq(clients.id, ids.Ana));
    await database.db.update(clients).set({ provider: true }).where(eq(clients.id, ids.Bruno));
    await expectCounted();
    // Deleted, then restored; moved to another company; removed.
    await database.db.update(clients).set({ deletedAt: new Date() }).where(eq(clients.id, ids.Carla));
    await expectCounted();
    await database.db.update(clients).set({ deletedAt: null }).where(eq(clients.id, ids.Carla));
    await database.db.update(clients).set({ companyId: otherCompanyId }).where(eq(clients.id, ids.Diego));
    await database.db.delete(clients).where(eq(clients.id, ids.Borrado));
    await expectCounted();
    // The last provider of the company gone: no row for it.
    await database.db.update(clients).set({ deletedAt: new Date() }).where(eq(clients.id, ids.Proveedor));
    await database.db.update(clients).set({ provider: false }).where(eq(clients.id, ids.Bruno));
    expect((await countRows()).some((r) => r.company_id === companyId && r.provider === true)).toBe(false);
    await expectCounted();
    // Changes of other columns leave the rows alone.
    const before = await countRows();
    await database.db.update(clients).set({ name: "Ana María", email: "ana@example.cr" }).where(eq(clients.id, ids.Ana));
    expect(await countRows()).toEqual(before);
    // Several changes in one transaction, and a rollback.
    await database.db.transaction(async (tx) => {
      const [x] = await tx.insert(clients).values({ companyId, name: "Eva", identificationTypeId: 1, identification: "1", email: "e@example.cr", phone: "1", address: "x" }).returning({ id: clients.id });
      await tx.update(clients).set({ active: false }).where(eq(clients.id, x.id));
      await tx.update(clients).set({ active: true }).where(eq(clients.id, ids.Ana));
    });
    await expectCounted();
    const committed = await countRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(clients).values({ companyId, name: "Nunca", identificationTypeId: 1, identification: "2", email: "n@example.cr", phone: "1", address: "x" });
        await tx.update(clients).set({ deletedAt: new Date() }).where(eq(clients.id, ids.Bruno));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await countRows()).toEqual(committed);
  });

  it("a list without a search takes its total from these rows; a search counts its matches", async () => {
    const live = await rows<{ all: number; active: number }>(
      database.db,
      sql`select count(*)::int as all, (count(*) filter (where active))::int as active from clients where company_id = ${companyId} and not provider and deleted_at is null`,
    );
    expect(live[0].all).toBeGreaterThan(2);
    expect(await page()).toMatchObject({ total: live[0].all });
    expect(await page({ active: true })).toMatchObject({ total: live[0].active });
    // The rows are what the list reads: a wrong row shows in the total without a search only.
    await database.db.execute(sql`update client_counts set clients = clients + 30 where company_id = ${companyId} and not provider and active`);
    try {
      expect(await page()).toMatchObject({ total: live[0].all + 30 });
      expect(await page({ active: true })).toMatchObject({ total: live[0].active + 30 });
      // The first page's rows carry it; a page past the end, with no row to carry it, reads it alone.
      expect(await page({ page: 99 })).toMatchObject({ rows: [], total: live[0].all + 30 });
      await addClient("Ana Lucía");
      expect(await page({ search: "ana", perPage: 1 })).toMatchObject({ total: 2 });
    } finally {
      await database.db.execute(sql`update client_counts set clients = clients - 30 where company_id = ${companyId} and not provider and active`);
    }
    await expectCounted();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await countRows()).length).toBeGreaterThan(2);
    await expectBackfillRewrites(database.db, { migration: "client_counts_triggers", table: "client_counts", source: "clients", read: countRows });
    await expectCounted();
  });
});
