// A list counts its rows only when they do not fit on the page (docs/decisions/197): the page is
// read with one row more, and when that row is absent the total is the rows before the page plus
// the rows on it. Totals, last page and query counts on a list of 12 across pages of 10.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installQueryStats } from "../../db/query-stats.ts";
import { counted } from "../setup/query-count.ts";
import { pageWithTotal } from "../../db/queries/paging.ts";
import * as companiesRoute from "../../app/routes/companies/companies.tsx";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;


beforeAll(async () => {
  database = await createTestDatabase();
  installQueryStats();
  const u = await createUser(database.db, { role: "admin" });
  const first = await createCompany(database.db, { name: "Empresa 01", userIds: [u.id] });
  for (let i = 2; i <= 12; i++) await createCompany(database.db, { name: `Empresa ${String(i).padStart(2, "0")}`, userIds: [u.id] });
  b = await signedIn(database.db, u.id, first.id);
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

type ListData = { rows: { name: string }[]; total: number; lastPage: number; page: number };

describe("a list's total", () => {
  it("a first page with more rows after it: the rows, then the count", async () => {
    await call(b, companiesRoute.loader, { path: "/companies?page=1&perPage=10" }); // remembers the page
    const { result, queries } = await counted(() => call(b, companiesRoute.loader, { path: "/companies?page=1&perPage=10" }));
    const data = result.data as ListData;
    expect(data.rows.map((r) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Empresa ${String(i + 1).padStart(2, "0")}`));
    expect([data.total, data.lastPage]).toEqual([12, 2]);
    expect(queries).toBe(3);
  });

  it("the last page: its rows give the total, no count", async () => {
    await call(b, companiesRoute.loader, { path: "/companies?page=2&perPage=10" });
    const { result, queries } = await counted(() => call(b, companiesRoute.loader, { path: "/companies?page=2&perPage=10" }));
    const data = result.data as ListData;
    expect(data.rows.map((r) => r.name)).toEqual(["Empresa 11", "Empresa 12"]);
    expect([data.total, data.lastPage]).toEqual([12, 2]);
    expect(queries).toBe(2);
  });

  it("a page past the end: no rows, and the count still gives the total", async () => {
    const data = (await call(b, companiesRoute.loader, { path: "/companies?page=5&perPage=10" })).data as ListData;
    expect(data.rows).toEqual([]);
    expect([data.total, data.lastPage]).toEqual([12, 2]);
  });

  it("a page exactly full: the extra row is not shown and the count runs", async () => {
    const data = (await call(b, companiesRoute.loader, { path: "/companies?page=1&perPage=10&search=Empresa" })).data as ListData;
    expect(data.rows).toHaveLength(10);
    expect(data.total).toBe(12);
  });
});

describe("pageWithTotal", () => {
  const list = Array.from({ length: 20 }, (_, i) => i + 1);
  const read = (n: number) => ({
    rows: async (limit: number, offset: number) => list.slice(0, n).slice(offset, offset + limit),
    count: async () => n,
  });
  it("counts only when a row is left after the page, or the page is past the end", async () => {
    expect(await pageWithTotal({ page: 1, perPage: 10, ...read(0) })).toEqual({ rows: [], total: 0, counted: false });
    expect(await pageWithTotal({ page: 1, perPage: 10, ...read(10) })).toEqual({ rows: list.slice(0, 10), total: 10, counted: false });
    expect(await pageWithTotal({ page: 1, perPage: 10, ...read(11) })).toEqual({ rows: list.slice(0, 10), total: 11, counted: true });
    expect(await pageWithTotal({ page: 2, perPage: 10, ...read(20) })).toEqual({ rows: list.slice(10, 20), total: 20, counted: false });
    expect(await pageWithTotal({ page: 2, perPage: 10, ...read(13) })).toEqual({ rows: list.slice(10, 13), total: 13, counted: false });
    expect(await pageWithTotal({ page: 3, perPage: 10, ...read(13) })).toEqual({ rows: [], total: 13, counted: true });
  });
});
