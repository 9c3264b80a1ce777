// The dashboard's sums by day for the current and previous month and by month before them
// (docs/decisions/159): dailySums adds up the older months in SQL, and dashboardFigures gives
// exactly the figures it gave from one row per kind and day. Checked here, on both databases, with
// the query dailySums ran until then kept below only as the oracle: documents of every kind and state
// and expenses (own, in colones and dollars, and received) over eighteen months, each month with
// something at its first and last Costa Rica instant (UTC−6: 06:00 UTC is midnight), for a month in
// the middle of the year, for March (a February of 28 days before it), and for January (the previous
// month in the previous year).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { documents, expenseCategories, expenses, receivedDocuments } from "../../db/schema/index.ts";
import { expenseDaysSql } from "../../db/queries/reports.ts";
import { dailySums } from "../../db/queries/dashboard.ts";
import { dashboardFigures, type DailySum } from "../../app/domain/dashboard.ts";
import { acceptedColumns, receivedRow } from "../fixtures/receptions.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;

/** Midnight in Costa Rica of a month's first day, as the dashboard's loader computes it. */
const crMonthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1, 6));
const crDate = (at: Date) => sql`(${at.toISOString()}::timestamptz at time zone 'America/Costa_Rica')::date`;

/** dailySums until decision 159 (commit 86edd0b), verbatim: the oracle, one row per kind and day. */
async function oldDailySums(companyId: number, since: Date): Promise<DailySum[]> {
  return rows<DailySum>(
    database.db,
    sql`select kind, to_char(day, 'YYYY-MM-DD') as day, total::text as total from (
          select kind, day, total_crc as total
            from document_days
           where company_id = ${companyId} and day >= ${crDate(since)} and kind in ('fe','te','nc') and not rejected
          union all
          select 'expense', x.day, sum(x.amount)
            from (${expenseDaysSql(companyId, crDate(since), sql`'infinity'::date`)}) x
           group by x.day
        ) s`,
  );
}

const TODAYS = [
  { year: 2026, month: 11 },
  { year: 2026, month: 3 },
  { year: 2027, month: 1 },
];

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  const other = await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" });
  const [category] = await database.db.insert(expenseCategories).values({ companyId, name: "Papelería" }).returning();
  const docs: (typeof documents.$inferInsert)[] = [];
  const own: (typeof expenses.$inferInsert)[] = [];
  let n = 0;
  // From September 2025 to February 2027 (eighteen months: data before every `since` and after every
  // "today"): at each month's first instant in Costa Rica, the instant before it (the previous
  // month's last day), its second day and the middle of the month.
  for (let k = 0; k < 18; k++) {
    const y = 2025 + Math.floor((8 + k) / 12);
    const m = ((8 + k) % 12) + 1;
    const first = new Date(Date.UTC(y, m - 1, 1, 6));
    const lastOfPrevious = new Date(first.getTime() - 1000);
    const middle = new Date(Date.UTC(y, m - 1, 15, 18));
    const second = new Date(Date.UTC(y, m - 1, 2, 12));
    for (const [at, kind, status] of [
      [first, "fe", "aceptado"],
      [lastOfPrevious, "fe", "aceptado"],
      [middle, "te", "aceptado"],
      [first, "nc", "aceptado"],
      [lastOfPrevious, "te", "rechazado"],
      [middle, "nd", "aceptado"],
      [middle, "qt", "no aplica"],
      [second, "fe", "aceptado"],
      [second, "nc", "aceptado"],
    ] as const) {
      n++;
      docs.push({ companyId, kind, status, issuedAt: at, totalComprobante: `${1000 + n * 37}.${String(n * 7919 % 100000).padStart(5, "0")}`, ...(n % 3 === 0 ? { currencyId: 1, exchangeRate: "506.33333" } : {}) });
    }
    docs.push({ companyId: other.id, kind: "fe", status: "aceptado", issuedAt: middle, totalComprobante: "999.00000" });
    const day = (d: Date) => new Date(d.getTime() - 6 * 3600_000).toISOString().slice(0, 10);
    for (const [at, amount] of [[first, "100.00500"], [lastOfPrevious, "250.12345"], [middle, "33.33333"], [second, "12.34500"]] as const) {
      n++;
      own.push({ companyId, spentOn: day(at), categoryId: category.id, description: `Gasto ${n}`, amount, paymentMethodCode: "01", ...(n % 2 === 0 ? { currencyId: 1, exchangeRate: "507.12345" } : {}) });
    }
  }
  await database.db.insert(documents).values(docs);
  await database.db.insert(expenses).values(own);
  // Received documents counted as expenses, on both sides of a month's first Costa Rica instant.
  for (const [i, issuedAt] of [new Date("2026-10-01T05:59:00Z"), new Date("2026-10-01T06:00:00Z"), new Date("2026-12-01T06:00:00Z")].entries()) {
    await database.db.insert(receivedDocuments).values(receivedRow(companyId, i, { issuedAt, total: `${5000 + i}.55500`, ...acceptedColumns, expenseCategoryId: category.id }));
  }
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("the dashboard's older months added up by the database", () => {
  for (const today of TODAYS) {
    it(`gives the figures of the day-by-day rows for ${today.year}-${today.month}`, async () => {
      const since = crMonthStart(today.year, today.month - 6);
      const daysFrom = crMonthStart(today.year, today.month - 1);
      const old = await oldDailySums(companyId, since);
      const sums = await dailySums(database.db, { companyId, since, daysFrom });
      const figures = dashboardFigures(sums, today);
      expect(figures).toEqual(dashboardFigures(old, today));
      // Not trivially: every month shown has incomes and expenses, and the older ones came as months.
      for (const m of figures.months) expect([m.label, m.incomes !== "0.00", m.expenses !== "0.00"]).toEqual([m.label, true, true]);
      expect(figures.salesLastMonth).not.toBe("0.00");
      const firstDay = daysFrom.toISOString().slice(0, 10);
      const older = sums.filter((s) => s.day < firstDay);
      expect(older.length).toBeGreaterThan(0);
      expect(older.every((s) => s.day.endsWith("-01"))).toBe(true);
      expect(new Set(older.map((s) => `${s.kind} ${s.day}`)).size).toBe(older.length);
      // The days from the previous month's first on are the old rows themselves.
      const byKey = (a: DailySum, b: DailySum) => `${a.kind}${a.day}`.localeCompare(`${b.kind}${b.day}`);
      expect(sums.filter((s) => s.day >= firstDay).sort(byKey)).toEqual(old.filter((s) => s.day >= firstDay).sort(byKey));
      expect(sums.length).toBeLessThan(old.length);
    });
  }
});
