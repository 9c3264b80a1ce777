// The live expenses counted by the database, as the clients (docs/decisions/200): the table
// expense_counts, written by deferred triggers of expenses and filled for existing rows by the custom
// migration expense_counts_triggers. Checked here, on both databases:
// - its rows equal a count of the live expenses (deleted_at null) by company, through an expense's
//   life: created, deleted and restored, moved to another company (the app never does, SQL can),
//   removed, several changes in one transaction, a rollback; other columns leave it alone;
// - the expenses list without a search takes its total from these rows (with the page's rows, or
//   alone for a page past the end), while a search still counts its matches; another company's
//   expenses never count;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { expenseCategories, expenses } from "../../db/schema/index.ts";
import { expensesPage } from "../../db/queries/expenses.ts";
import { COUNT_AHEAD } from "../../db/queries/document-lists.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const category: Record<number, number> = {};
const ids: Record<string, number> = {};

const countRows = () => rows<Record<string, unknown>>(database.db, sql`select company_id, expenses from expense_counts order by company_id`);

/** The oracle: the live expenses counted from the expenses themselves. */
const counted = () => rows<Record<string, unknown>>(database.db, sql`select company_id, count(*)::int as expenses from expenses where deleted_at is null group by 1 order by 1`);

async function expectCounted() {
  expect(await countRows()).toEqual(await counted());
}

const expense = (description: string, over: Partial<typeof expenses.$inferInsert> = {}) => {
  const company = over.companyId ?? companyId;
  return { companyId: company, spentOn: "2026-03-10", categoryId: category[company], description, amount: "1000.00000", currencyId: 2, exchangeRate: "1", paymentMethodCode: "01", ...over };
};

async function spend(description: string, over: Partial<typeof expenses.$inferInsert> = {}) {
  const [row] = await database.db.insert(expenses).values(expense(description, over)).returning({ id: expenses.id });
  ids[description] = row.id;
}

const change = (description: string, set: Partial<typeof expenses.$inferInsert>) => database.db.update(expenses).set(set).where(eq(expenses.id, ids[description]));

const liveOf = async (company: number) => (await rows<{ n: number }>(database.db, sql`select count(*)::int as n from expenses where company_id = ${company} and deleted_at is null`))[0].n;

const page = (over: Partial<Parameters<typeof expensesPage>[1]> = {}) => expensesPage(database.db, { companyId, search: "", page: 1, perPage: 2, ...over });

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  for (const company of [companyId, otherCompanyId]) {
    const [c] = await database.db.insert(expenseCategories).values({ companyId: company, name: "Papelería" }).returning();
    category[company] = c.id;
  }
  for (const name of ["Resmas", "Tóner", "Taxi", "Almuerzo", "Café"]) await spend(name);
  await spend("Borrado", { deletedAt: new Date() });
  await spend("Suyo", { companyId: otherCompanyId });
  await spend("Suyo también", { companyId: otherCompanyId });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("live expenses counted by the database", () => {
  it("one row per company; deleted expenses left out", async () => {
    expect(await countRows()).toEqual([
      { company_id: companyId, expenses: 5 },
      { company_id: otherCompanyId, expenses: 2 },
    ]);
    await expectCounted();
  });

  it("follows an expense's life, commits only, and drops a company left without expenses", async () => {
    // Deleted, then restored; moved to another company; removed.
    await change("Resmas", { deletedAt: new Date(), deletedBy: 1 });
    await expectCounted();
    await change("Resmas", { deletedAt: null, deletedBy: null });
    await expectCounted();
    await change("Taxi", { companyId: otherCompanyId, categoryId: category[otherCompanyId] });
    await database.db.delete(expenses).where(eq(expenses.id, ids.Borrado));
    await database.db.delete(expenses).where(eq(expenses.id, ids.Almuerzo));
    await expectCounted();
    // The other company's last live expenses gone: no row for it.
    await change("Suyo", { deletedAt: new Date() });
    await change("Suyo también", { deletedAt: new Date() });
    await database.db.delete(expenses).where(eq(expenses.id, ids.Taxi));
    expect((await countRows()).some((r) => r.company_id === otherCompanyId)).toBe(false);
    await expectCounted();
    // Other columns leave the rows alone (nor does a deleted expense's deletion date).
    const before = await countRows();
    await change("Tóner", { description: "Tóner negro", amount: "2000.00000", spentOn: "2026-03-11", reference: "F-1" });
    await change("Suyo", { deletedAt: new Date(Date.now() + 1000) });
    expect(await countRows()).toEqual(before);
    // Several changes in one transaction: one added and deleted, one added and moved, one deleted and
    // restored, one restored in the other company.
    await database.db.transaction(async (tx) => {
      const [a] = await tx.insert(expenses).values(expense("Ida")).returning({ id: expenses.id });
      await tx.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, a.id));
      const [b] = await tx.insert(expenses).values(expense("Vuelta")).returning({ id: expenses.id });
      await tx.update(expenses).set({ companyId: otherCompanyId, categoryId: category[otherCompanyId] }).where(eq(expenses.id, b.id));
      await tx.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, ids.Café));
      await tx.update(expenses).set({ deletedAt: null }).where(eq(expenses.id, ids.Café));
      await tx.update(expenses).set({ deletedAt: null }).where(eq(expenses.id, ids.Suyo));
    });
    expect(await countRows()).toEqual([
      { company_id: companyId, expenses: 3 },
      { company_id: otherCompanyId, expenses: 2 },
    ]);
    await expectCounted();
    const committed = await countRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(expenses).values(expense("Nunca"));
        await tx.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, ids.Resmas));
        await tx.delete(expenses).where(eq(expenses.id, ids.Tóner));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await countRows()).toEqual(committed);
  });

  it("the list without a search takes its total from these rows; a search counts its matches; another company's never count", async () => {
    await spend("Resmas carta");
    const live = await liveOf(companyId);
    expect(live).toBeGreaterThan(2);
    expect(await liveOf(otherCompanyId)).toBeGreaterThan(0);
    expect(await page()).toMatchObject({ total: live, totalCapped: false });
    // The rows are what the list reads: a wrong row shows in the total without a search only.
    await database.db.execute(sql`update expense_counts set expenses = expenses + 30 where company_id = ${companyId}`);
    try {
      const first = await page();
      expect(first.rows).toHaveLength(2);
      expect(first).toMatchObject({ total: live + 30, totalCapped: false });
      // The first page's rows carry it; a page past the end, with no row to carry it, reads it alone.
      expect(await page({ page: 99 })).toMatchObject({ rows: [], total: live + 30 });
      // A search counts what it matches (and the other company's "Suyo" is not among them).
      expect(await page({ search: "resmas", perPage: 1 })).toMatchObject({ total: 2 });
      expect(await page({ search: "suyo", perPage: 1 })).toMatchObject({ rows: [], total: 0 });
      // Still capped as before: COUNT_AHEAD rows past the page at most, then "more".
      await database.db.execute(sql`update expense_counts set expenses = expenses + ${2 * COUNT_AHEAD} where company_id = ${companyId}`);
      expect(await page()).toMatchObject({ total: 2 + COUNT_AHEAD, totalCapped: true });
    } finally {
      await database.db.execute(sql`update expense_counts set expenses = ${live} where company_id = ${companyId}`);
    }
    expect(await page()).toMatchObject({ total: live });
    // A company without live expenses has no row: its list is empty with a total of 0.
    await database.db.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.companyId, otherCompanyId));
    expect(await expensesPage(database.db, { companyId: otherCompanyId, search: "", page: 1, perPage: 2 })).toMatchObject({ rows: [], total: 0 });
    expect(await expensesPage(database.db, { companyId: otherCompanyId, search: "", page: 3, perPage: 2 })).toMatchObject({ rows: [], total: 0 });
    await database.db.update(expenses).set({ deletedAt: null }).where(eq(expenses.companyId, otherCompanyId));
    await expectCounted();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await countRows()).length).toBe(2);
    await expectBackfillRewrites(database.db, { migration: "expense_counts_triggers", table: "expense_counts", source: "expenses", read: countRows });
    await expectCounted();
  });
});
