// The received documents' amount and day as expenses, kept by the database (docs/decisions/194):
// the generated columns received_documents.expense_crc and expense_day, read by expenseDaysSql
// (the expenses report, its Excel file, the dashboard's expense cards) through the covering index
// received_documents_expenses_idx, and the expenses report adding up the year by category and month
// first. Checked here, on PGlite and PostgreSQL:
// - the report's rows, summary, screen page (with its window totals) and Excel batches give the
//   hand-computed figures: own expenses in colones and dollars (one deleted, one of the previous
//   year), received documents of three categories, months and currencies (colones, dollars, euros at
//   a rate of five decimals), a credit note, an applicable expense, a document whose UTC instant is
//   in the next month or year but whose Costa Rica day is not; rejected by the company, rejected by
//   Hacienda, 'no enviado', pending and uncategorised documents, and another company's, do not count;
// - the expenses by day and category as expenseDaysSql gives them (how many, their sum) equal the
//   expenses the view received_expenses gave through the query it replaced (kept below only as the
//   oracle), added up the same way, before and after changing a document's creditable tax, applicable expense, category, acceptance and date,
//   and deleting one; without a search they come from received_expense_days, kept by deferred triggers
//   (decision 156): a transaction rolled back leaves it as it was, and the migration's backfill writes
//   the same rows as the triggers;
// - the dashboard's expense figures (daily sums, the month's pie) equal the oracle's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { expenseCategories, expenses, receivedDocuments } from "../../db/schema/index.ts";
import { expenseDaysSql, expensesRowsSql, expensesSummary, textArray, type ReportQuery } from "../../db/queries/reports.ts";
import { dailySums, expensesOfMonth } from "../../db/queries/dashboard.ts";
import { expensesReport } from "../../app/server/reports/expenses.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { acceptedColumns, receivedRow } from "../fixtures/receptions.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const cat: Record<string, number> = {};
const ids: Record<string, number> = {};

const YEAR = { from: "2026-01-01", to: "2026-12-31" };
const query = (search = "", company = () => companyId): ReportQuery => ({ companyId: company(), range: YEAR, search, filter: null });

/** expenseEntriesSql until decision 194 (commit f3ac926), verbatim: the oracle, through the view. */
function oldEntriesSql(company: number, from: string, until: string) {
  return sql`select e.category_id, e.spent_on as day, round(e.amount * case when e.currency_id = 1 then e.exchange_rate else 1 end, 2) as amount, e.description, e.reference
      from expenses e
     where e.company_id = ${company} and e.deleted_at is null and e.spent_on >= ${from}::date and e.spent_on < ${until}::date
    union all
    select x.expense_category_id, (x.spent_at at time zone 'America/Costa_Rica')::date, round(x.amount_crc, 2), x.description, x.reference
      from received_expenses x
     where x.company_id = ${company} and x.expense_category_id is not null
       and x.spent_at >= (${from}::date)::timestamp at time zone 'America/Costa_Rica' and x.spent_at < (${until}::date)::timestamp at time zone 'America/Costa_Rica'`;
}

/** Each day and category of the range: how many expenses and their sum, as `day category count amount`. */
async function days(of: "old" | "new", company: number, from: string, until: string): Promise<string[]> {
  const inner =
    of === "old"
      ? sql`select x.category_id, x.day, count(*) as expenses, sum(x.amount) as amount from (${oldEntriesSql(company, from, until)}) x group by 1, 2`
      : // A day and category can come from both parts (own and received): added up as the callers do.
        sql`select x.category_id, x.day, sum(x.expenses) as expenses, sum(x.amount) as amount from (${expenseDaysSql(company, sql`${from}::date`, sql`${until}::date`)}) x group by 1, 2`;
  const list = await rows<{ category_id: number; day: string; expenses: string; amount: string }>(
    database.db,
    sql`select x.category_id, x.day::text as day, x.expenses::text as expenses, x.amount::text as amount from (${inner}) x`,
  );
  return list.map((e) => `${e.day} ${e.category_id} ${e.expenses} ${e.amount}`).sort();
}

/** The days expenseDaysSql gives equal the oracle's, for the year and its edges, for both companies. */
async function expectSameEntries() {
  for (const company of [companyId, otherCompanyId]) {
    for (const [from, until] of [
      ["2025-01-01", "2028-01-01"],
      ["2026-01-01", "2027-01-01"],
      ["2026-06-30", "2026-07-01"],
      ["2026-12-31", "infinity"],
    ]) {
      const before = await days("old", company, from, until);
      if (company === companyId && from === "2025-01-01") expect(before.length, `${company} ${from}`).toBeGreaterThan(0);
      expect(await days("new", company, from, until), `${company} ${from}`).toEqual(before);
    }
  }
}

/** The report's rows as category name → twelve months and total. */
async function reportRows(search = "") {
  const list = await rows<{ name: string; months: unknown; total: string }>(database.db, expensesRowsSql(query(search)));
  return Object.fromEntries(list.map((r) => [r.name, { months: textArray(r.months), total: r.total }]));
}

const months = (set: Record<number, string>) => Array.from({ length: 12 }, (_, i) => set[i + 1] ?? "0.00");

/** A received document as the intake stores it, with these columns. */
async function receive(name: string, over: Partial<typeof receivedDocuments.$inferInsert>, accepted: Partial<typeof receivedDocuments.$inferInsert> | null = {}) {
  const [row] = await database.db
    .insert(receivedDocuments)
    .values(receivedRow(companyId, Object.keys(ids).length, { issuedAt: new Date("2026-05-10T15:00:00Z"), ...over }))
    .returning({ id: receivedDocuments.id });
  ids[name] = row.id;
  if (accepted) await change(name, { ...acceptedColumns, ...accepted });
}

const change = (name: string, set: Partial<typeof receivedDocuments.$inferInsert>) => database.db.update(receivedDocuments).set(set).where(eq(receivedDocuments.id, ids[name]));

beforeAll(async () => {
  database = await createTestDatabase();
  const a = await issuingCompany(database.db);
  const b = await issuingCompany(database.db, { name: "Otra Compañía S.A." });
  companyId = a.company.id;
  otherCompanyId = b.company.id;
  for (const name of ["Papelería", "Transporte", "Alquiler"]) {
    const [c] = await database.db.insert(expenseCategories).values({ companyId, name }).returning();
    cat[name] = c.id;
  }
  const [otherCategory] = await database.db.insert(expenseCategories).values({ companyId: otherCompanyId, name: "Papelería" }).returning();
  cat.other = otherCategory.id;

  // The company's own expenses.
  const own = (spentOn: string, categoryId: number, description: string, amount: string, dollars?: string, more: Partial<typeof expenses.$inferInsert> = {}) => ({
    companyId,
    spentOn,
    categoryId,
    description,
    amount,
    currencyId: dollars ? 1 : 2,
    exchangeRate: dollars ?? "1",
    paymentMethodCode: "01",
    ...more,
  });
  await database.db.insert(expenses).values([
    own("2026-01-15", cat["Papelería"], "Resmas de papel", "12345.67000"),
    own("2026-03-31", cat["Transporte"], "Pasajes de avión", "100.12345", "505.27000", { reference: "VUELO-77" }),
    own("2026-12-31", cat["Papelería"], "Tóner", "10.00000", "510.50000"),
    own("2026-05-05", cat["Alquiler"], "Borrado", "999.00000", undefined, { deletedAt: new Date() }),
    own("2025-12-31", cat["Alquiler"], "Año anterior", "777.00000"),
    { ...own("2026-02-02", cat.other, "De la otra", "4444.00000"), companyId: otherCompanyId },
  ]);

  // Received documents: colones with creditable tax, dollars with an applicable expense (partly
  // accepted), a credit note, euros at a rate of five decimals whose UTC instant is July but its
  // Costa Rica day June 30, half a céntimo on December 31 (its UTC instant already 2027), and one
  // whose Costa Rica day is still 2025.
  await receive("rent", { issuedAt: new Date("2026-02-10T15:00:00Z"), total: "113000.00000", issuerName: "Inmobiliaria Sol S.A." }, { creditableTax: "13000", expenseCategoryId: cat["Alquiler"] });
  await receive("taxi", { issuedAt: new Date("2026-03-15T15:00:00Z"), currency: "USD", exchangeRate: "507.12345", total: "226.00000" }, { message: 2, applicableExpense: "200", expenseCategoryId: cat["Transporte"] });
  await receive("rentCredit", { kind: "NC", issuedAt: new Date("2026-02-20T15:00:00Z"), total: "11300.00000", issuerName: "Inmobiliaria Sol S.A." }, { creditableTax: "1300", expenseCategoryId: cat["Alquiler"] });
  await receive("euros", { issuedAt: new Date("2026-07-01T05:30:00Z"), currency: "EUR", exchangeRate: "583.33333", total: "33.33000", issuerName: "Papeles de Europa" }, { expenseCategoryId: cat["Papelería"] });
  await receive("lastDay", { issuedAt: new Date("2027-01-01T05:59:00Z"), total: "5000.55500" }, { expenseCategoryId: cat["Papelería"] });
  await receive("previousYear", { issuedAt: new Date("2026-01-01T05:00:00Z"), total: "8888.00000" }, { expenseCategoryId: cat["Papelería"] });
  // Documents that are not expenses.
  await receive("companyRejected", { total: "50000.00000" }, { message: 3, expenseCategoryId: cat["Alquiler"] });
  await receive("haciendaRejected", { total: "60000.00000" }, { status: "rechazado", expenseCategoryId: cat["Alquiler"] });
  await receive("notSent", { total: "70000.00000" }, { status: "no enviado", expenseCategoryId: cat["Alquiler"] });
  await receive("pending", { total: "80000.00000", expenseCategoryId: cat["Alquiler"] }, null);
  await receive("uncategorised", { total: "90000.00000" }, { expenseCategoryId: null });
  await receive("other", { companyId: otherCompanyId, total: "3000.00000" }, { expenseCategoryId: cat.other });
  // A category of another company on this company's document (never made by the app): not an expense of either.
  await receive("foreignCategory", { total: "1234.00000" }, { expenseCategoryId: cat.other });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

// Hand-computed: Papelería January 12,345.67; June 33.33 € × 583.33333 = 19,442.4998889 → 19,442.50;
// December 10 $ × 510.50 = 5,105.00 and 5,000.555 → 5,000.56. Transporte March 100.12345 $ × 505.27
// = 50,589.3755… → 50,589.38 and 200 $ × 507.12345 = 101,424.69. Alquiler February 113,000 − 13,000
// and the credit note −(11,300 − 1,300): 90,000.00.
const EXPECTED = {
  Alquiler: { months: months({ 2: "90000.00" }), total: "90000.00" },
  Papelería: { months: months({ 1: "12345.67", 6: "19442.50", 12: "10105.56" }), total: "41893.73" },
  Transporte: { months: months({ 3: "152014.07" }), total: "152014.07" },
};
const EXPECTED_SUMMARY = { expenses: 8, categories: 3, total: "283907.80", months: months({ 1: "12345.67", 2: "90000.00", 3: "152014.07", 6: "19442.50", 12: "10105.56" }) };

describe("received documents as expenses, kept by the database", () => {
  it("stores each received document's amount in colones and Costa Rica day", async () => {
    const stored = await rows<{ id: number; expense_crc: string; expense_day: string }>(
      database.db,
      sql`select id, expense_crc::text as expense_crc, expense_day::text as expense_day from received_documents where id in (${sql.join([ids.euros, ids.lastDay, ids.rentCredit, ids.taxi].map((id) => sql`${id}`), sql`, `)}) order by id`,
    );
    expect(stored).toEqual([
      { id: ids.taxi, expense_crc: "101424.69", expense_day: "2026-03-15" },
      { id: ids.rentCredit, expense_crc: "-10000.00", expense_day: "2026-02-20" },
      { id: ids.euros, expense_crc: "19442.50", expense_day: "2026-06-30" },
      { id: ids.lastDay, expense_crc: "5000.56", expense_day: "2026-12-31" },
    ]);
  });

  it("the expenses report gives the hand-computed figures: rows, summary, the screen's page and the Excel batches", async () => {
    expect(await reportRows()).toEqual(EXPECTED);
    expect(await expensesSummary(database.db, query())).toEqual(EXPECTED_SUMMARY);
    const screen = await expensesReport.main!.pageWithSummary!(database.db, query(), { offset: 0, limit: 50 });
    expect(screen.rows.map((r) => [r.name, r.months, r.total])).toEqual(Object.entries(EXPECTED).map(([name, r]) => [name, r.months, r.total]));
    expect(screen.summary.footer).toEqual(["Total", ...EXPECTED_SUMMARY.months, EXPECTED_SUMMARY.total]);
    expect(screen.summary.groups[0].items.map((i) => i.value)).toEqual([8, 3, "283907.80"]);
    const excel: string[] = [];
    for await (const batch of expensesReport.main!.batches(database.db, query())) excel.push(...batch.map((r) => `${r.name} ${r.months.join(" ")} ${r.total}`));
    expect(excel).toEqual(Object.entries(EXPECTED).map(([name, r]) => `${name} ${r.months.join(" ")} ${r.total}`));
    // The other company sees only its own.
    expect(await expensesSummary(database.db, query("", () => otherCompanyId))).toEqual({ expenses: 2, categories: 1, total: "7444.00", months: months({ 2: "4444.00", 5: "3000.00" }) });
  });

  it("searches by category, description and reference as before", async () => {
    expect(await reportRows("papeleria")).toEqual({ Papelería: EXPECTED["Papelería"] });
    expect(await reportRows("EUROPA")).toEqual({ Papelería: { months: months({ 6: "19442.50" }), total: "19442.50" } });
    expect(await reportRows("vuelo-77")).toEqual({ Transporte: { months: months({ 3: "50589.38" }), total: "50589.38" } });
    expect(await reportRows(`0010000101${String(2).padStart(10, "0")}`)).toEqual({ Transporte: { months: months({ 3: "101424.69" }), total: "101424.69" } });
    expect(await expensesSummary(database.db, query("sol"))).toEqual({ expenses: 2, categories: 1, total: "90000.00", months: months({ 2: "90000.00" }) });
    expect(await reportRows("nada parecido")).toEqual({});
  });

  it("gives the same expenses as the view received_expenses through the old query, after every change", async () => {
    await expectSameEntries();
    await change("rent", { creditableTax: "12999.995" });
    await change("taxi", { applicableExpense: "199.99999" });
    await change("rentCredit", { expenseCategoryId: cat["Transporte"] });
    await change("euros", { issuedAt: new Date("2026-07-01T06:00:00Z") });
    await change("companyRejected", { message: 1 });
    await change("haciendaRejected", { status: "aceptado" });
    await change("lastDay", { status: "rechazado" });
    await change("pending", { message: 2, status: "aceptado", applicableExpense: "123.45678" });
    await expectSameEntries();
    // Alquiler: 113,000 − 12,999.995 = 100,000.005 → 100,000.01; May the three now accepted: 50,000 + 60,000
    // + 123.45678 → 123.46. Transporte: 199.99999 $ × 507.12345 = 101,424.684928… → 101,424.68, and the
    // credit note moved there. Papelería: the euros now on July 1 in Costa Rica, December 31 rejected.
    expect(await reportRows()).toEqual({
      Alquiler: { months: months({ 2: "100000.01", 5: "110123.46" }), total: "210123.47" },
      Papelería: { months: months({ 1: "12345.67", 7: "19442.50", 12: "5105.00" }), total: "36893.17" },
      Transporte: { months: months({ 2: "-10000.00", 3: "152014.06" }), total: "142014.06" },
    });
  });

  it("the dashboard's expense figures equal the oracle's", async () => {
    const since = new Date("2026-01-01T06:00:00Z");
    const old = await rows<{ day: string; total: string }>(
      database.db,
      sql`select to_char(x.day, 'YYYY-MM-DD') as day, sum(x.amount)::text as total from (${oldEntriesSql(companyId, "2026-01-01", "infinity")}) x group by 1 order by 1`,
    );
    const daily = (await dailySums(database.db, { companyId, since, daysFrom: since })).filter((d) => d.kind === "expense").map((d) => ({ day: d.day, total: d.total }));
    expect(daily.sort((a, b) => a.day.localeCompare(b.day))).toEqual(old);
    expect(await expensesOfMonth(database.db, { companyId, from: new Date("2026-02-01T06:00:00Z") })).toEqual([
      { name: "Alquiler", total: "100000.01" },
      { name: "Transporte", total: "-10000.00" },
    ]);
  });

  it("the days added up by the database follow a deletion and commits only; the migration's backfill writes the same rows as the triggers", async () => {
    const dayRows = () =>
      rows<Record<string, unknown>>(
        database.db,
        sql`select company_id, day::text as day, category_id, documents, amount_crc::text as amount_crc from received_expense_days order by company_id, day, category_id`,
      );
    await database.db.delete(receivedDocuments).where(eq(receivedDocuments.id, ids.rent));
    await expectSameEntries();
    const committed = await dayRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(receivedDocuments).set({ status: "rechazado" }).where(eq(receivedDocuments.id, ids.taxi));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await dayRows()).toEqual(committed);
    expect(committed.length).toBeGreaterThan(5);
    await expectBackfillRewrites(database.db, { migration: "received_expense_days_triggers", table: "received_expense_days", source: "received_documents", read: dayRows });
    await expectSameEntries();
  });
});
