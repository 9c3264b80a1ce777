// On PostgreSQL every query with parameters runs as a named prepared statement of its connection
// (db/client.ts preparedOnEachConnection, docs/decisions/179): planned once per connection instead of
// on every run. The embedded database does the same in db/pglite-prepared.ts (its own tests).
import { desc, eq, sql } from "drizzle-orm";
import { integer, pgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../db/client.ts";
import { withCustomPlans } from "../../db/custom-plans.ts";
import { documentList } from "../../db/queries/document-lists.ts";
import { writtenLimit } from "../../db/queries/paging.ts";
import { companies } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";

describe.skipIf(!process.env.DATABASE_URL)("PostgreSQL: queries as prepared statements (decision 179)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  /** One connection, so the session views below see the statements of the queries before them. */
  let one: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    one = await openDatabase({ databaseUrl: database.url!, maxConnections: 1 });
  });

  afterAll(async () => {
    await one?.close();
    await database?.drop();
  });

  const prepared = async () =>
    (await one.db.execute<{ statement: string; calls: string }>(sql`select statement, (generic_plans + custom_plans)::text as calls from pg_prepared_statements`)) as unknown as { statement: string; calls: string }[];

  it("a query built by drizzle is prepared once and run again by name", async () => {
    const query = one.db.select({ id: companies.id, name: companies.name }).from(companies).where(eq(companies.id, -1));
    for (let i = 0; i < 3; i++) expect(await query).toEqual([]);
    const statement = (await prepared()).find((s) => s.statement === query.toSQL().sql);
    expect(statement, "the select is a prepared statement of the connection").toBeDefined();
    expect(Number(statement!.calls)).toBe(3);
  });

  it("a hand-written query with parameters too; a text without parameters still runs several statements", async () => {
    const probe = sql`select ${41}::int + 1 as answer`;
    const [row] = (await one.db.execute<{ answer: number }>(probe)) as unknown as { answer: number }[];
    expect(row.answer).toBe(42);
    expect((await prepared()).some((s) => s.statement === "select $1::int + 1 as answer")).toBe(true);
    await one.db.execute(sql.raw("create temporary table prepared_probe (id int); insert into prepared_probe values (1)"));
    const rows = (await one.db.execute<{ id: number }>(sql`select id from prepared_probe where id = ${1}`)) as unknown as { id: number }[];
    expect(rows).toEqual([{ id: 1 }]);
  });

  it("a report's queries are not prepared: each is planned for its own period and company", async () => {
    const text = "select $1::int * 2 as n";
    const [row] = await withCustomPlans(async () => (await one.db.execute<{ n: number }>(sql`select ${21}::int * 2 as n`)) as unknown as { n: number }[]);
    expect(row.n).toBe(42);
    expect((await prepared()).some((s) => s.statement === text)).toBe(false);
    await one.db.execute(sql`select ${1}::int * 2 as n`);
    expect((await prepared()).some((s) => s.statement === text)).toBe(true);
  });

  it("a list's first page keeps its plan: its LIMIT is written into the statement, not sent as a value (decision 204)", async () => {
    await one.db.execute(sql.raw("create temporary table plan_probe as select g as id, g % 10 as k, g as at from generate_series(1, 100000) g; create index on plan_probe (k, at); analyze plan_probe"));
    const probe = pgTable("plan_probe", { id: integer("id"), k: integer("k"), at: integer("at") });
    const page = (limit: number) => one.db.select({ id: probe.id }).from(probe).where(eq(probe.k, 3)).orderBy(desc(probe.at)).limit(limit);
    for (let i = 0; i < 8; i++) {
      expect(await page(writtenLimit(11))).toHaveLength(11);
      expect(await page(11)).toHaveLength(11);
    }
    const plans = (await one.db.execute(sql`select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements`)) as unknown as { statement: string; generic: number; custom: number }[];
    const written = plans.find((p) => p.statement === page(writtenLimit(11)).toSQL().sql);
    const sent = plans.find((p) => p.statement === page(11).toSQL().sql);
    expect(written?.statement).toMatch(/limit 11$/);
    expect(sent?.statement).toMatch(/limit \$\d+$/);
    // Five plans for its values, then the kept one; with the LIMIT as a value, a plan on every run.
    expect(written!.generic).toBeGreaterThan(0);
    expect(sent).toMatchObject({ generic: 0, custom: 8 });

    // The document lists: the first page with its LIMIT written in and no OFFSET; a later one with both as values.
    await documentList(one.db, { companyId: 1, kinds: ["fe"], page: 1, perPage: 10 });
    await documentList(one.db, { companyId: 1, kinds: ["fe"], page: 3, perPage: 10 });
    const texts = (await prepared()).map((p) => p.statement).filter((t) => t.includes('from "documents"'));
    expect(texts.some((t) => / limit 11\)/.test(t) && !/offset/.test(t))).toBe(true);
    expect(texts.some((t) => / limit \$\d+ offset \$\d+\)/.test(t))).toBe(true);
  });

  it("a statement whose table changed shape is prepared again, and the query answers", async () => {
    const all = () => one.db.execute(sql`select * from prepared_probe where id = ${1}`) as unknown as Promise<Record<string, unknown>[]>;
    expect(await all()).toEqual([{ id: 1 }]);
    await one.db.execute(sql.raw("alter table prepared_probe add column note text default 'nueva'"));
    expect(await all()).toEqual([{ id: 1, note: "nueva" }]);
  });
});
