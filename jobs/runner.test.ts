import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, passwordResetTokens, sessions } from "../db/schema/index.ts";
import { createCompany, createUser } from "../tests/setup/app.ts";
import { createTestDatabase } from "../tests/setup/db.ts";
import { backoffMs, enqueue, releaseStale, runOne, startRunner, type JobHandler } from "./runner.ts";
import { purgeSessionsTask } from "./tasks/purge-sessions.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe("jobs runner", () => {
  it("runs a due job once and marks it done", async () => {
    const seen: unknown[] = [];
    const handlers: Record<string, JobHandler> = { echo: async (p) => void seen.push(p) };
    await enqueue(database.db, "echo", { n: 1 });
    expect(await runOne(database.db, handlers, "w1", () => new Date())).toBe(true);
    expect(await runOne(database.db, handlers, "w1", () => new Date())).toBe(false);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("retries a failing job with backoff, then gives up after maxAttempts", async () => {
    let calls = 0;
    const handlers: Record<string, JobHandler> = { flaky: async () => void (calls++, (() => { throw new Error("caído"); })()) };
    await enqueue(database.db, "flaky", {}, { maxAttempts: 2, uniqueKey: "flaky-1" });
    let now = new Date();
    expect(await runOne(database.db, handlers, "w", () => now)).toBe(true);
    const [afterFirst] = await database.db.select().from(jobs).where(eq(jobs.type, "flaky"));
    expect(afterFirst.status).toBe("pending");
    expect(afterFirst.lastError).toBe("caído");
    expect(afterFirst.runAt.getTime()).toBe(now.getTime() + backoffMs(1));
    expect(await runOne(database.db, handlers, "w", () => now)).toBe(false); // not due yet
    now = new Date(now.getTime() + backoffMs(1) + 1);
    expect(await runOne(database.db, handlers, "w", () => now)).toBe(true);
    const [afterSecond] = await database.db.select().from(jobs).where(eq(jobs.type, "flaky"));
    expect(afterSecond.status).toBe("failed");
    expect(calls).toBe(2);
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(2)).toBe(120_000);
    expect(backoffMs(20)).toBe(3_600_000);
  });

  it("one pending job per unique key", async () => {
    await enqueue(database.db, "echo", {}, { uniqueKey: "only-once" });
    await enqueue(database.db, "echo", {}, { uniqueKey: "only-once" });
    const rows = await database.db.select().from(jobs).where(eq(jobs.uniqueKey, "only-once"));
    expect(rows).toHaveLength(1);
  });

  it("jobs left running by a crashed process are released", async () => {
    await enqueue(database.db, "stale", {});
    const [job] = await database.db.select().from(jobs).where(eq(jobs.type, "stale"));
    await database.db.update(jobs).set({ status: "running", lockedAt: new Date(Date.now() - 3600_000) }).where(eq(jobs.id, job.id));
    await releaseStale(database.db, new Date());
    const [after] = await database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(after.status).toBe("pending");
  });

  // On PostgreSQL the workers hold separate pooled connections, so SKIP LOCKED is exercised for real.
  it("concurrent workers never take the same job (FOR UPDATE SKIP LOCKED)", async () => {
    const N = 40;
    for (let i = 0; i < N; i++) await enqueue(database.db, "count", { i });
    const done: number[] = [];
    const handlers: Record<string, JobHandler> = {
      count: async (p) => {
        await new Promise((r) => setTimeout(r, 2));
        done.push(p.i as number);
      },
    };
    const worker = async (id: string) => {
      while (await runOne(database.db, handlers, id, () => new Date()));
    };
    await Promise.all([worker("a"), worker("b"), worker("c")]);
    expect(done.sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i));
  });
});

describe("purge task", () => {
  it("deletes expired sessions and used or expired reset tokens, keeps live ones", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const now = new Date();
    await database.db.insert(sessions).values([
      { id: "expired", userId: user.id, expiresAt: new Date(now.getTime() - 1000) },
      { id: "live", userId: user.id, expiresAt: new Date(now.getTime() + 3600_000) },
      { id: "replaced-recently", userId: user.id, expiresAt: new Date(now.getTime() + 3600_000), closedAt: now, closedReason: "replaced" },
    ]);
    await database.db.insert(passwordResetTokens).values([
      { userId: user.id, tokenHash: "a".repeat(64), expiresAt: new Date(now.getTime() - 1) },
      { userId: user.id, tokenHash: "b".repeat(64), expiresAt: new Date(now.getTime() + 60_000), usedAt: now },
      { userId: user.id, tokenHash: "c".repeat(64), expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    await purgeSessionsTask({}, { db: database.db, now: () => now });
    const left = (await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).map((r) => r.id).sort();
    expect(left).toEqual(["live", "replaced-recently"]);
    const tokens = await database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(tokens.map((t) => t.tokenHash[0])).toEqual(["c"]);
  });

  it("beats its heartbeat at every look for jobs and after every job (the jobs container's health check)", async () => {
    let beats = 0;
    const ran: number[] = [];
    await enqueue(database.db, "beat-echo", { n: 7 });
    const runner = startRunner(database.db, { handlers: { "beat-echo": async (p) => void ran.push(Number(p.n)) }, schedules: [], pollMs: 20, heartbeat: () => beats++ });
    try {
      // Waits (no time assertion) until the runner has looked twice after running the job.
      for (let i = 0; i < 1000 && !(ran.length === 1 && beats >= 3); i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await runner.stop();
    }
    expect(ran).toEqual([7]);
    expect(beats).toBeGreaterThanOrEqual(3);
  });
});
