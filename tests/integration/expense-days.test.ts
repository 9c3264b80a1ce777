// The company's own expenses added up by day and category, kept by the database (docs/decisions/159):
// the table expense_days, written by deferred triggers of expenses and filled for existing rows by the
// custom migration expense_days_triggers. Checked here, on both databases:
// - expenseDaysSql without a search (the expenses report, the dashboard's daily sums and the month's
//   pie) gives, to the last digit, what it gave when it added up the expenses table on every request
//   — that query is kept below only as the oracle — for colones and dollars at rates of five decimals,
//   half céntimos rounded per expense, a deleted expense, an expense filed under another company's
//   category (counted as before), the last and first days of months and years, for two companies;
// - it follows every change: a new amount, currency or rate, day, category, an expense moved to
//   another company, a soft delete and undelete, a hard delete, several changes in one transaction,
//   a rollback; changes of other columns leave the rows alone, and a day left empty has no row;
// - with a search the report still reads the expenses themselves (the same figures as the oracle);
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql, type SQL } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { expenseCategories, expenses } from "../../db/schema/index.ts";
import { expenseDaysSql, expensesSummary } from "../../db/queries/reports.ts";
import { dailySums, expensesOfMonth } from "../../db/queries/dashboard.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const cat: Record<string, number> = {};
const ids: Record<string, number> = {};

/** expenseDaysSql without a search until decision 159 (commit 86edd0b), verbatim: the oracle. */
function oldExpenseDaysSql(companyId: number, from: SQL, until: SQL): SQL {
  const received = sql`select d.category_id, d.day, d.documents::bigint, d.amount_crc
      from received_expense_days d
     where d.company_id = ${companyId} and d.day >= ${from} and d.day < ${until}
       and d.category_id in (select c.id from expense_categories c where c.company_id = ${companyId})`;
  return sql`select e.category_id, e.spent_on as day, count(*) as expenses, sum(round(e.amount * case when e.currency_id = 1 then e.exchange_rate else 1 end, 2)) as amount
      from expenses e
     where e.company_id = ${companyId} and e.deleted_at is null and e.spent_on >= ${from} and e.spent_on < ${until}
     group by e.spent_on, e.category_id
    union all
    ${received}`;
}

/** The rows of either query as `day category count amount`, sorted. */
async function days(query: SQL): Promise<string[]> {
  const list = await rows<{ category_id: number; day: string; expenses: string; amount: string }>(
    database.db,
    sql`select x.category_id, x.day::text as day, x.expenses::text as expenses, x.amount::text as amount from (${query}) x`,
  );
  return list.map((e) => `${e.day} ${e.category_id} ${e.expenses} ${e.amount}`).sort();
}

/** A Costa Rica midnight (UTC−6). */
const crMidnight = (day: string) => new Date(`${day}T06:00:00Z`);
/** The dashboard's crDate of such a midnight, as db/queries/dashboard.ts writes it. */
const crDate = (at: Date) => sql`(${at.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date`;

const RANGES = [
  ["2025-01-01", "infinity"],
  ["2026-01-01", "2026-02-01"],
  ["2026-01-31", "2026-02-01"],
  ["2026-02-28", "2026-03-02"],
  ["2026-12-31", "2027-01-01"],
];

/** expenseDaysSql, the dashboard's expense rows and the month's pie equal the oracle's, for both companies. */
async function expectSameAsBefore() {
  for (const company of [companyId, otherCompanyId]) {
    for (const [from, until] of RANGES) {
      const range = [sql`${from}::date`, sql`${until}::date`] as const;
      expect(await days(expenseDaysSql(company, ...range)), `${company} ${from} ${until}`).toEqual(await days(oldExpenseDaysSql(company, ...range)));
    }
    // The dashboard's expense half of dailySums until decision 159, with every row a day.
    const since = crMidnight("2025-12-01");
    const old = await rows<{ day: string; total: string }>(
      database.db,
      sql`select to_char(x.day, 'YYYY-MM-DD') as day, sum(x.amount)::text as total from (${oldExpenseDaysSql(company, crDate(since), sql`'infinity'::date`)}) x group by x.day`,
    );
    const daily = (await dailySums(database.db, { companyId: company, since, daysFrom: since })).filter((d) => d.kind === "expense").map((d) => ({ day: d.day, total: d.total }));
    const byDay = (a: { day: string }, b: { day: string }) => a.day.localeCompare(b.day);
    expect(daily.sort(byDay), `${company} dashboard`).toEqual(old.sort(byDay));
    // The month's pie (expensesOfMonth until decision 159, over the oracle).
    for (const month of ["2026-01-01", "2026-02-01", "2026-12-01"]) {
      const from = crMidnight(month);
      const oldPie = await rows<{ name: string; total: string }>(
        database.db,
        sql`select c.name, sum(x.amount)::text as total
              from (${oldExpenseDaysSql(company, crDate(from), sql`(${crDate(from)} + interval '1 month')::date`)}) x
              join expense_categories c on c.id = x.category_id and c.company_id = ${company}
             group by c.name order by sum(x.amount) desc, c.name limit 10`,
      );
      expect(await expensesOfMonth(database.db, { companyId: company, from }), `${company} ${month} pie`).toEqual(oldPie);
    }
  }
}

async function dayRows() {
  return rows<Record<string, unknown>>(
    database.db,
    sql`select company_id, day::text as day, category_id, expenses, amount_crc::text as amount_crc from expense_days order by company_id, day, category_id`,
  );
}

const own = (name: string, spentOn: string, category: string, amount: string, dollars?: string, more: Partial<typeof expenses.$inferInsert> = {}) => ({
  companyId,
  spentOn,
  categoryId: cat[category],
  description: name,
  amount,
  currencyId: dollars ? 1 : 2,
  exchangeRate: dollars ?? "1",
  paymentMethodCode: "01",
  ...more,
});

async function spend(...args: Parameters<typeof own>) {
  const [row] = await database.db.insert(expenses).values(own(...args)).returning({ id: expenses.id });
  ids[args[0]] = row.id;
}

const change = (name: string, set: Partial<typeof expenses.$inferInsert>) => database.db.update(expenses).set(set).where(eq(expenses.id, ids[name]));

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  for (const [name, company] of [["Papelería", companyId], ["Transporte", companyId], ["Otra", otherCompanyId]] as const) {
    const [c] = await database.db.insert(expenseCategories).values({ companyId: company, name }).returning();
    cat[name] = c.id;
  }
  // Two half céntimos on one day: 0.01 each once rounded per expense, 0.02 together (not 0.01).
  await spend("halfA", "2026-01-31", "Papelería", "0.00500");
  await spend("halfB", "2026-01-31", "Papelería", "0.00500");
  await spend("paper", "2026-01-31", "Papelería", "12345.67499");
  // 100.12345 $ × 505.27 = 50,589.3755… → 50,589.38.
  await spend("flight", "2026-02-28", "Transporte", "100.12345", "505.27000");
  await spend("flightBack", "2026-03-01", "Transporte", "10.00001", "506.33333");
  await spend("newYear", "2026-01-01", "Transporte", "777.00000");
  await spend("yearEnd", "2025-12-31", "Papelería", "999.99500");
  await spend("december", "2026-12-31", "Papelería", "10.00000", "510.50000");
  await spend("deleted", "2026-01-31", "Papelería", "5000.00000", undefined, { deletedAt: new Date() });
  // Filed under another company's category (the app never does): counted by its company as before.
  await spend("foreign", "2026-02-28", "Otra", "300.00000");
  await spend("theirs", "2026-02-28", "Otra", "4444.44444", undefined, { companyId: otherCompanyId });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("own expenses added up by day, kept by the database", () => {
  it("one row per company, day and category with the live expenses' count and their sum in colones, each rounded", async () => {
    const ofCompany = (await dayRows()).filter((r) => r.company_id === companyId);
    expect(ofCompany).toContainEqual({ company_id: companyId, day: "2026-01-31", category_id: cat["Papelería"], expenses: 3, amount_crc: "12345.69" });
    expect(ofCompany).toContainEqual({ company_id: companyId, day: "2026-02-28", category_id: cat["Transporte"], expenses: 1, amount_crc: "50589.38" });
    expect(ofCompany).toContainEqual({ company_id: companyId, day: "2026-02-28", category_id: cat.Otra, expenses: 1, amount_crc: "300.00" });
    expect(ofCompany).toHaveLength(7);
    await expectSameAsBefore();
  });

  it("follows every change of an expense, commits only, and drops a day left empty", async () => {
    await change("paper", { amount: "12345.67500" });
    await change("flight", { exchangeRate: "505.27001" });
    await change("flightBack", { currencyId: 2, exchangeRate: "1" });
    await change("newYear", { currencyId: 1, exchangeRate: "507.12345" });
    await expectSameAsBefore();
    await change("halfA", { spentOn: "2026-02-01" });
    await change("december", { categoryId: cat.Transporte });
    await change("foreign", { companyId: otherCompanyId });
    await expectSameAsBefore();
    // Soft delete and undelete.
    await change("yearEnd", { deletedAt: new Date(), deletedBy: 1 });
    expect((await dayRows()).filter((r) => r.day === "2025-12-31")).toEqual([]);
    await change("deleted", { deletedAt: null });
    await expectSameAsBefore();
    // A hard delete.
    await database.db.delete(expenses).where(eq(expenses.id, ids.halfB));
    await expectSameAsBefore();
    // Other columns leave the rows alone (nor does a deleted expense's deletion date).
    const before = await dayRows();
    await change("paper", { description: "Resmas", reference: "F-1" });
    await change("yearEnd", { deletedAt: new Date(Date.now() + 1000) });
    expect(await dayRows()).toEqual(before);
    // Several changes in one transaction: one added, changed twice and moved; one added and deleted;
    // one deleted and undeleted with a new amount; one hard deleted after a change.
    await database.db.transaction(async (tx) => {
      const [a] = await tx.insert(expenses).values(own("many", "2026-01-15", "Papelería", "100.00000")).returning({ id: expenses.id });
      await tx.update(expenses).set({ amount: "200.00500" }).where(eq(expenses.id, a.id));
      await tx.update(expenses).set({ spentOn: "2026-01-16", currencyId: 1, exchangeRate: "500.00000" }).where(eq(expenses.id, a.id));
      const [b] = await tx.insert(expenses).values(own("gone", "2026-01-15", "Papelería", "1.00000")).returning({ id: expenses.id });
      await tx.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, b.id));
      await tx.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, ids.paper));
      await tx.update(expenses).set({ deletedAt: null, amount: "12345.67000" }).where(eq(expenses.id, ids.paper));
      await tx.update(expenses).set({ amount: "1.00000" }).where(eq(expenses.id, ids.flight));
      await tx.delete(expenses).where(eq(expenses.id, ids.flight));
    });
    await expectSameAsBefore();
    // A transaction rolled back leaves nothing.
    const committed = await dayRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(expenses).values(own("never", "2026-01-20", "Papelería", "9.00000"));
        await tx.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, ids.newYear));
        await tx.update(expenses).set({ amount: "1.00000" }).where(eq(expenses.id, ids.december));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await dayRows()).toEqual(committed);
    await expectSameAsBefore();
  });

  it("with a search the report reads the expenses themselves, as before", async () => {
    const q = { companyId, range: { from: "2026-01-01", to: "2026-12-31" }, search: "resmas", filter: null };
    const summary = await expensesSummary(database.db, q);
    expect(summary).toMatchObject({ expenses: 1, categories: 1, total: "12345.67" });
    const none = await expensesSummary(database.db, { ...q, search: "nada así" });
    expect(none).toMatchObject({ expenses: 0, total: "0.00" });
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await dayRows()).length).toBeGreaterThan(5);
    await expectBackfillRewrites(database.db, { migration: "expense_days_triggers", table: "expense_days", source: "expenses", read: dayRows });
    await expectSameAsBefore();
  });
});
