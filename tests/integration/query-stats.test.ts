// The development-only query counter (issue 16, db/query-stats.ts): every drizzle query counts,
// each request keeps its own count even when requests overlap, and the header says it.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentQueryStats, installQueryStats, queryStatsInstalled, serverTiming, withQueryStats, type QueryStats } from "../../db/query-stats.ts";
import { companies } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const fresh = (): QueryStats => ({ queries: 0, ms: 0 });

describe("query counter", () => {
  it("is off until installed (production pays nothing), then counts every query of the process", async () => {
    expect(queryStatsInstalled()).toBe(false);
    const totals = installQueryStats();
    expect(installQueryStats()).toBe(totals); // installed once
    const before = totals.queries;
    await database.db.select({ id: companies.id }).from(companies).limit(1);
    await database.db.execute(sql`select 1`);
    await database.db.transaction(async (tx) => {
      await tx.select({ id: companies.id }).from(companies).limit(1);
    });
    expect(totals.queries - before).toBe(3);
    expect(totals.ms).toBeGreaterThan(0);
  });

  it("each request counts its own queries, also when requests overlap", async () => {
    installQueryStats();
    const a = fresh();
    const b = fresh();
    const q = () => database.db.select({ id: companies.id }).from(companies).limit(1);
    await Promise.all([
      withQueryStats(a, async () => {
        await q();
        await new Promise((r) => setTimeout(r, 20));
        await Promise.all([q(), q()]);
        expect(currentQueryStats()).toBe(a);
      }),
      withQueryStats(b, async () => {
        await q();
        await new Promise((r) => setTimeout(r, 5));
        await q();
      }),
    ]);
    expect(a.queries).toBe(3);
    expect(b.queries).toBe(2);
    expect(currentQueryStats()).toBeUndefined();
    // A failing query counts too.
    const c = fresh();
    // (drizzle queries are lazy: awaited inside the request, as loaders do)
    await expect(withQueryStats(c, async () => await database.db.execute(sql`select * from no_such_table`))).rejects.toThrow();
    expect(c.queries).toBe(1);
  });

  it("Server-Timing says how many queries and how long", () => {
    expect(serverTiming({ queries: 3, ms: 1.234 })).toBe('db;desc="3 consultas";dur=1.2');
    expect(serverTiming({ queries: 0, ms: 0 }, 5.55)).toBe('db;desc="0 consultas";dur=0.0, app;dur=5.5');
  });
});
