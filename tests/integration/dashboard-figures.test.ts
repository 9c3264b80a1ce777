// The dashboard's sums kept in memory with the version of the company's figures (docs/decisions/200,
// 202). Checked here, on both databases:
// - the version (figures_versions) moves when a change of documents, expenses, received expenses,
//   expense categories or received documents waiting for acceptance commits, for the company it
//   belongs to only, and not when other columns change or a transaction is rolled back;
// - monthFigures gives the figures of what dailySums, expensesOfMonth and pendingDeadlines read, reads
//   nothing while the version it is given has not moved, reads again after any such change and on
//   another day, and keeps each company and each database apart.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { documents, expenseCategories, expenses, figuresVersions, pendingReceptions, receivedExpenseDays } from "../../db/schema/index.ts";
import { rows } from "../../db/client.ts";
import { dailySums, expensesOfMonth } from "../../db/queries/dashboard.ts";
import { pendingDeadlines } from "../../db/queries/receptions.ts";
import { addDays } from "../../app/domain/document-status.ts";
import { DEADLINE_WARNING_DAYS } from "../../app/domain/reception-deadline.ts";
import { monthFigures } from "../../app/server/dashboard-figures.server.ts";
import { dashboardFigures } from "../../app/domain/dashboard.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { counted } from "../setup/query-count.ts";
import { installQueryStats } from "../../db/query-stats.ts";

type Database = Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
let companyId: number;
let otherCompanyId: number;
let categoryId: number;
let invoiceId: number;

/** Costa Rica midnight (UTC−6) of a day. */
const crMidnight = (day: string) => new Date(`${day}T06:00:00Z`);
const day = "2026-11-20";

/** The version of the company's dashboard figures, as the session's lookup reads it (0 before any change). */
async function figuresVersion(db: Database["db"], company: number): Promise<number> {
  const [row] = await rows<{ version: string }>(db, sql`select version::text as version from figures_versions where company_id = ${company}`);
  return row ? Number(row.version) : 0;
}

/** The dashboard's figures of `at` for the company, at its version now. */
const figuresOf = async (db: Database["db"], company: number, at = day) => monthFigures(db, { companyId: company, version: await figuresVersion(db, company), day: at });

const issue = (db: Database["db"], company: number, total: string, over: Partial<typeof documents.$inferInsert> = {}) =>
  db
    .insert(documents)
    .values({ companyId: company, kind: "fe", status: "aceptado", issuedAt: new Date("2026-11-20T15:00:00Z"), totalComprobante: total, ...over })
    .returning({ id: documents.id });

const spend = (amount: string) =>
  database.db
    .insert(expenses)
    .values({ companyId, spentOn: "2026-11-10", categoryId, description: "Papel", amount, currencyId: 2, exchangeRate: "1", paymentMethodCode: "01" })
    .returning({ id: expenses.id });

/** Expects `change` to move the company's version (and not the other company's) when `moves`. */
async function expectMoves(moves: boolean, change: () => Promise<unknown>) {
  const [mine, other] = [await figuresVersion(database.db, companyId), await figuresVersion(database.db, otherCompanyId)];
  await change();
  expect(await figuresVersion(database.db, companyId) > mine).toBe(moves);
  expect(await figuresVersion(database.db, otherCompanyId)).toBe(other);
}

/** November 20th 2026's figures from what the dashboard's queries read now, straight. */
async function readNow(db: Database["db"], company: number) {
  return {
    figures: dashboardFigures(await dailySums(db, { companyId: company, since: crMidnight("2026-05-01"), daysFrom: crMidnight("2026-10-01") }), { year: 2026, month: 11 }),
    expenses: await expensesOfMonth(db, { companyId: company, from: crMidnight("2026-11-01") }),
    deadlines: await pendingDeadlines(db, { companyId: company, today: day, urgentUntil: addDays(day, DEADLINE_WARNING_DAYS) }),
  };
}
const shown = ({ figures, expenses, deadlines }: { figures: unknown; expenses: unknown; deadlines: unknown }) => ({ figures, expenses, deadlines });

beforeAll(async () => {
  installQueryStats();
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  [{ id: categoryId }] = await database.db.insert(expenseCategories).values({ companyId, name: "Papelería" }).returning();
  [{ id: invoiceId }] = await issue(database.db, companyId, "1000.00000");
  await issue(database.db, otherCompanyId, "50.00000");
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("the version of a company's dashboard figures", () => {
  it("moves with every change the sums are read from, for its company only, once committed", async () => {
    await expectMoves(true, () => issue(database.db, companyId, "10.00000"));
    await expectMoves(true, () => database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, invoiceId)));
    await expectMoves(true, () => database.db.update(documents).set({ totalComprobante: "2000.00000" }).where(eq(documents.id, invoiceId)));
    const [{ id: expenseId }] = await spend("25.00000");
    await expectMoves(true, () => database.db.update(expenses).set({ deletedAt: new Date() }).where(eq(expenses.id, expenseId)));
    await expectMoves(true, () => database.db.insert(receivedExpenseDays).values({ companyId, day: "2026-11-11", categoryId, documents: 1, amountCrc: "30.00" }));
    await expectMoves(true, () => database.db.update(expenseCategories).set({ name: "Papelería y útiles" }).where(eq(expenseCategories.id, categoryId)));
    await expectMoves(true, () => database.db.insert(pendingReceptions).values({ companyId, rejectDeadline: "2026-11-30", documents: 2 }));
    // Columns the sums do not read, and a rollback, leave it.
    await expectMoves(false, () => database.db.update(documents).set({ emailError: "buzón lleno", paymentAmount: "5.00000" }).where(eq(documents.id, invoiceId)));
    await expectMoves(false, () =>
      database.db
        .transaction(async (tx) => {
          await issue(tx as unknown as Database["db"], companyId, "99.00000");
          throw new Error("rolled back");
        })
        .catch(() => undefined),
    );
  });
});

describe("the dashboard's figures kept in memory", () => {
  it("reads nothing until the figures change, then reads them again", async () => {
    const version = await figuresVersion(database.db, companyId);
    const first = await counted(() => monthFigures(database.db, { companyId, version, day }));
    expect(first.queries).toBe(3);
    expect(shown(first.result)).toEqual(await readNow(database.db, companyId));
    const again = await counted(() => monthFigures(database.db, { companyId, version, day }));
    expect(again.queries).toBe(0);
    expect(again.result.figures).toBe(first.result.figures);
    // A new invoice, a new expense and a received document waiting show on the next view.
    await issue(database.db, companyId, "500.00000");
    await spend("70.00000");
    await database.db
      .insert(pendingReceptions)
      .values({ companyId, rejectDeadline: "2026-11-22", documents: 1 })
      .onConflictDoUpdate({ target: [pendingReceptions.companyId, pendingReceptions.rejectDeadline], set: { documents: sql`${pendingReceptions.documents} + 1` } });
    const after = await counted(() => figuresOf(database.db, companyId));
    expect(after.queries).toBe(4);
    expect(shown(after.result)).toEqual(await readNow(database.db, companyId));
    expect(after.result.figures.invoices).not.toBe(first.result.figures.invoices);
    expect(after.result.expenses).not.toEqual(first.result.expenses);
    expect(after.result.deadlines.urgent).toBe(first.result.deadlines.urgent + 1);
    // Another day is read again; another month shows its own figures.
    const december = await counted(() => figuresOf(database.db, companyId, "2026-12-01"));
    expect(december.queries).toBe(4);
    expect(december.result.expenses).toEqual([]);
    expect(december.result.figures.salesLastMonth).toBe(after.result.figures.salesThisMonth);
  });

  it("keeps each company and each database apart", async () => {
    const mine = await figuresOf(database.db, companyId);
    const other = await figuresOf(database.db, otherCompanyId);
    expect(shown(other)).toEqual(await readNow(database.db, otherCompanyId));
    expect(other.figures).not.toEqual(mine.figures);
    // A second database whose company has the same id and version reads its own figures.
    const second = await createTestDatabase();
    try {
      const user = await createUser(second.db);
      const twin = (await createCompany(second.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
      await issue(second.db, twin, "7.00000");
      // The same company id at the same version as the figures kept for the first database.
      expect(twin).toBe(companyId);
      const version = await figuresVersion(database.db, companyId);
      await second.db.insert(figuresVersions).values({ companyId: twin, version }).onConflictDoUpdate({ target: figuresVersions.companyId, set: { version } });
      const own = await monthFigures(second.db, { companyId: twin, version, day });
      expect(shown(own)).toEqual(await readNow(second.db, twin));
      expect(own.figures.invoices).toBe("7.00");
    } finally {
      await second.drop();
    }
  });
});
