// Reports plan their queries for their own period and company (db/custom-plans.ts,
// docs/decisions/179): on both databases the pages' queries are prepared statements, and a report's
// are not, neither its screen nor its Excel file. Checked on the one connection the app uses here,
// in the database's own list of the connection's prepared statements.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase, type Database } from "../../db/client.ts";
import * as invoices from "../../app/routes/documents/documents-list.tsx";
import * as itemsReport from "../../app/routes/reports/report-items.tsx";
import * as reportExcel from "../../app/routes/reports/report-excel.tsx";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
/** The app's database for these tests: one connection (PostgreSQL), so its statements are all in one list. */
let one: Database;
let b: Browser;

beforeAll(async () => {
  database = await createTestDatabase();
  one = database.url ? await openDatabase({ databaseUrl: database.url, maxConnections: 1 }) : database;
  setDatabase(one);
  const u = await createUser(one.db, { role: "admin" });
  const company = await createCompany(one.db, { userIds: [u.id] });
  b = await signedIn(one.db, u.id, company.id);
}, 60_000);

afterAll(async () => {
  if (one !== database) await one.close();
  await database?.drop();
});

const statements = async () => {
  const rows = (await one.db.execute<{ statement: string }>(sql`select statement from pg_prepared_statements`)) as unknown as { statement: string }[] | { rows: { statement: string }[] };
  return (Array.isArray(rows) ? rows : rows.rows).map((r) => r.statement);
};

describe("query plans of pages and reports (decision 179)", () => {
  it("a list's queries are prepared statements; the items report's, screen and Excel, are not", async () => {
    expect((await call(b, invoices.loader, { path: "/invoices" })).status).toBe(200);
    const afterList = await statements();
    expect(afterList.some((s) => s.includes('from "documents"')), "the list's query is prepared").toBe(true);

    const screen = await call(b, itemsReport.loader, { path: "/report-items?desde=01-10-2026&hasta=31-10-2026" });
    expect(screen.status).toBe(200);
    const excel = await call(b, reportExcel.loader, { path: "/report-items/excel?desde=01-10-2026&hasta=31-10-2026" });
    expect(excel.status).toBe(200);
    // The workbook is written while it is read: read it to the end.
    expect((await excel.response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const added = (await statements()).filter((s) => !afterList.includes(s));
    // The items report reads the CABYS catalogue's names; nothing else the test ran does.
    expect(added.filter((s) => s.includes("cabys_codes"))).toEqual([]);
  });
});
