// The embedded database's queries as named prepared statements (db/pglite-prepared.ts,
// docs/decisions/196): the same rows, errors and locking as PGlite's own `query`, each SQL text
// parsed once, a bounded number of statements kept, and a statement whose table changed shape
// prepared again. Always on PGlite (its own in-memory database), whatever DATABASE_URL says.
import { PGlite, parse, protocol } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, migrateDatabase, type Database } from "../../db/client.ts";
import { withCustomPlans } from "../../db/custom-plans.ts";
import { parseResult, preparedStatements } from "../../db/pglite-prepared.ts";
import { currencies } from "../../db/schema/index.ts";

let pg: PGlite;
const prepared = () => pg.query<{ name: string; statement: string }>("select name, statement from pg_prepared_statements order by name");

beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
  await pg.exec(`create table t (id serial primary key, name text unique not null, ok boolean, data jsonb, at timestamptz, amount numeric(18,5), bytes bytea, tags text[])`);
});
afterAll(async () => {
  await pg.close();
});

describe("PGlite queries as prepared statements", () => {
  it("give the rows PGlite's own query gives, for every kind of value and both row modes", async () => {
    const client = preparedStatements(pg);
    const values = ["uno", true, { a: [1, "b"] }, "2026-11-25T10:00:00.000Z", "12.34567", new Uint8Array([0, 1, 255]), ["x", "y z"]];
    const insert = "insert into t (name, ok, data, at, amount, bytes, tags) values ($1, $2, $3, $4, $5, $6, $7) returning id";
    await client.query(insert, values);
    await pg.query(insert, ["dos", null, null, null, null, null, null]);
    const select = "select * from t where name = any($1) order by id";
    for (const rowMode of ["object", "array"] as const) {
      const options = { rowMode, parsers: { 1184: (v: string) => v } };
      const ours = await client.query(select, [["uno", "dos"]], options);
      const theirs = await pg.query(select, [["uno", "dos"]], options);
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.fields).toEqual(theirs.fields);
      expect(ours.rows).toHaveLength(2);
    }
    const update = await client.query("update t set ok = $1 where name = $2", [false, "dos"]);
    expect(update.affectedRows).toBe(1);
  });

  it("read a statement's answer exactly as PGlite's parseResults does", async () => {
    const s = protocol.serialize;
    const messagesOf = async (text: string) => {
      const parts = [s.parse({ text }), s.bind({ values: [] }), s.describe({ type: "P" }), s.execute({}), s.sync()];
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
      return (await pg.execProtocol(all)).messages;
    };
    const statements = [
      "select * from t order by id",
      "select 1 as a, 'x' as a, null::int as b, '__proto__' as \"__proto__\", now() as at, '2026-01-02'::date as d, 1.5::numeric as n, '{1,2}'::int[] as arr",
      "select * from t where false",
      "update t set ok = ok where true",
      "insert into t (name) values ('tres') returning id, name",
      "delete from t where name = 'tres'",
      "create temporary table tmp_parse (a int)",
    ];
    for (const text of statements) {
      const messages = await messagesOf(text);
      for (const options of [undefined, { rowMode: "array" as const }, { rowMode: "object" as const, parsers: { 1184: (v: string) => `at ${v}`, 1700: (v: string) => Number(v) } }]) {
        const ours = parseResult(messages, pg.parsers, options);
        const theirs = parse.parseResults(messages, pg.parsers, options)[0];
        expect(ours, text).toStrictEqual(theirs);
      }
    }
    expect(parseResult([], pg.parsers, undefined)).toStrictEqual(parse.parseResults([], pg.parsers, undefined)[0]);
  });

  it("parse each SQL text once: later runs reuse the named statement", async () => {
    const client = preparedStatements(pg);
    const before = (await prepared()).rows.length;
    for (let i = 0; i < 3; i++) expect((await client.query<{ n: number }>("select $1::int + 1 as n", [i])).rows).toEqual([{ n: i + 1 }]);
    const after = (await prepared()).rows;
    expect(after.length).toBe(before + 1);
    expect(after.filter((s) => s.statement === "select $1::int + 1 as n")).toHaveLength(1);
  });

  it("leave a report's queries unprepared, planned for their own values (decision 179)", async () => {
    const client = preparedStatements(pg);
    const text = "select $1::int * 2 as n";
    const n = await withCustomPlans(async () => (await client.query<{ n: number }>(text, [21])).rows[0].n);
    expect(n).toBe(42);
    expect((await prepared()).rows.some((s) => s.statement === text)).toBe(false);
    await client.query(text, [1]);
    expect((await prepared()).rows.some((s) => s.statement === text)).toBe(true);
  });

  it("keep at most the given number of statements, closing the least recently used", async () => {
    const client = preparedStatements(pg, 3);
    const before = (await prepared()).rows.length;
    for (let i = 0; i < 5; i++) await client.query(`select ${i} as n`);
    expect((await prepared()).rows.length).toBe(before + 3);
    expect((await client.query<{ n: number }>("select 0 as n")).rows).toEqual([{ n: 0 }]);
  });

  it("report a database error as PGlite does, cache nothing broken, and go on working", async () => {
    const client = preparedStatements(pg);
    const error = await client.query("insert into t (name) values ($1)", ["uno"]).catch((e: unknown) => e as { code?: string; query?: string; params?: unknown[] });
    expect(error).toMatchObject({ code: "23505", query: "insert into t (name) values ($1)", params: ["uno"] });
    await expect(client.query("selec 1")).rejects.toMatchObject({ code: "42601" });
    await expect(client.query("selec 1")).rejects.toMatchObject({ code: "42601" });
    expect((await client.query<{ n: number }>("select count(*)::int as n from t")).rows).toEqual([{ n: 2 }]);
  });

  it("prepare a statement again when its table changed shape", async () => {
    const client = preparedStatements(pg);
    await pg.exec("create table shape (a int); insert into shape values (1)");
    expect((await client.query("select * from shape")).rows).toEqual([{ a: 1 }]);
    await pg.exec("alter table shape add column b int default 2");
    expect((await client.query("select * from shape")).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it("through drizzle: a transaction rolls back, and a query from outside waits for it to end", async () => {
    const db = drizzle(preparedStatements(pg) as unknown as PGlite);
    await pg.exec("create table counter (id int primary key, n int not null); insert into counter values (1, 0)");
    const counter = sql`counter`;
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update ${counter} set n = n + 1 where id = 1`);
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    const read = async () => ((await db.execute<{ n: number }>(sql`select n from ${counter} where id = 1`)).rows[0] as { n: number }).n;
    expect(await read()).toBe(0);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.execute(sql`update ${counter} set n = 5 where id = 1`);
      await held;
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = read();
    release();
    await tx;
    expect(await outside).toBe(5);
  });
});

describe("the embedded database of the app", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrateDatabase(database);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("runs drizzle's queries as prepared statements", async () => {
    for (let i = 0; i < 2; i++) await database.db.select({ id: currencies.id, probe: sql<number>`1`.as("prepared_probe") }).from(currencies).where(eq(currencies.id, 1));
    const statements = await database.pglite!.query<{ statement: string }>("select statement from pg_prepared_statements where statement like '%prepared_probe%'");
    expect(statements.rows).toHaveLength(1);
  });
});
