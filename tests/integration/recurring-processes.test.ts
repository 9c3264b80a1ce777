// Recurring invoices across real OS processes (issue 5 item 5; decision 072): two job processes on
// one PostgreSQL database issue each period exactly once, and a process killed with SIGKILL inside
// its transaction leaves nothing behind. The workers are tests/fixtures/recurring-worker.ts.
// recurring.test.ts covers the same rules inside one process, on both databases.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq, inArray } from "drizzle-orm";
import { rows, sql } from "../../db/client.ts";
import { documents, jobs as jobsTable, recurringDocuments } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { createRecurring } from "../../app/server/recurring.server.ts";
import { enqueue } from "../../jobs/runner.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";

const repo = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
/** How long a worker may take to start or answer before the test fails saying which and why. */
const WAIT_MS = 45_000;
const TEST_MS = 120_000;

const running = new Set<ChildProcessWithoutNullStreams>();

interface Worker {
  pid: number;
  child: ChildProcessWithoutNullStreams;
  /** The rest of the worker's first "@<name> …" line on stdout; fails if it exits first or is too slow. */
  line(name: string): Promise<string>;
  /** How it ended (exit code or signal); fails if it is still running after WAIT_MS. */
  ended(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** `node --import tsx` (not the tsx wrapper, which runs node as a grandchild): its pid is the worker's. */
function startWorker(...args: string[]): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/recurring-worker.ts", ...args], { cwd: repo, env: process.env });
  running.add(child);
  let stdout = "";
  let stderr = "";
  let end: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (d: string) => (stdout += d));
  child.stderr.on("data", (d: string) => (stderr += d));
  child.on("close", (code, signal) => {
    end = { code, signal };
    running.delete(child);
  });
  const state = () => `worker ${args[0]} (pid ${child.pid})\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
  const waitFor = <T>(what: string, found: () => T | undefined, failOnEnd: boolean) =>
    new Promise<T>((resolvePromise, reject) => {
      const check = () => {
        const value = found();
        if (value !== undefined) {
          done();
          resolvePromise(value);
        } else if (end && failOnEnd) {
          done();
          reject(new Error(`${what}: the worker ended (${JSON.stringify(end)}) first. ${state()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what}: nothing within ${WAIT_MS} ms. ${state()}`));
      }, WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        child.stdout.off("data", check);
        child.off("close", check);
      };
      child.stdout.on("data", check);
      child.on("close", check);
      check();
    });
  return {
    pid: child.pid!,
    child,
    line: (name) =>
      waitFor(
        `waiting for "@${name}"`,
        () => {
          const m = stdout.match(new RegExp(`^@${name}(?: (.*))?$`, "m"));
          return m ? (m[1] ?? "") : undefined;
        },
        true,
      ),
    ended: () => waitFor("waiting for the worker to end", () => end, false),
    stderr: () => stderr,
  };
}

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

describe.skipIf(!process.env.DATABASE_URL)("recurring invoices (PostgreSQL: two OS processes)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let url: string;
  const schemaSet = testSchemaSet();

  beforeAll(async () => {
    database = await createTestDatabase();
    if (!database.url) throw new Error("createTestDatabase gave no URL on PostgreSQL");
    url = database.url;
  }, 60_000);
  afterAll(async () => database?.drop());

  const companyDocuments = (companyId: number) => database.db.select().from(documents).where(eq(documents.companyId, companyId)).orderBy(asc(documents.number));
  const rowOf = async (id: number) => (await database.db.select().from(recurringDocuments).where(eq(recurringDocuments.id, id)))[0];
  /** The queue holds only recurring jobs due an hour before `now`: each runOne claims one of them. */
  const queueRecurringJobs = async (now: Date, keys: string[]) => {
    await database.db.delete(jobsTable);
    for (const uniqueKey of keys) await enqueue(database.db, "recurring", {}, { runAt: new Date(now.getTime() - 3600_000), uniqueKey });
  };
  const ready = (workers: Worker[]) => Promise.all(workers.map((w) => w.line("ready")));
  const go = (workers: Worker[]) => {
    for (const w of workers) w.child.stdin.write("go\n");
  };
  /** What each worker's runOne answered (it claims and runs one job with the real handlers). */
  const results = (workers: Worker[]) => Promise.all(workers.map(async (w) => JSON.parse(await w.line("result")) as { claimed: boolean }));
  /** Sessions of this database waiting on a row lock (PostgreSQL's own view of who is blocked). */
  const lockWaiters = async () =>
    (await rows<{ n: number }>(database.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0].n;
  /** Polls PostgreSQL (nothing to await for this) until `n` sessions wait on a lock, for at most WAIT_MS. */
  const untilLockWaiters = async (n: number, workers: Worker[]) => {
    const deadline = Date.now() + WAIT_MS;
    while ((await lockWaiters()) < n) {
      if (Date.now() > deadline) throw new Error(`${n} worker(s) never waited on the held rows; stderr: ${workers.map((w) => w.stderr()).join("\n")}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it(
    "two job processes at once: each due template issues one invoice, numbers consecutive, next send date advanced once",
    async () => {
      const now = new Date("2027-03-15T15:00:00Z"); // 09:00 on 15 March in Costa Rica
      const { company, user, client } = await issuingCompany(database.db);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "2027-03-15", cycle: "monthly", now, schemaSet });
        if (!r.ok) throw new Error(JSON.stringify(r.errors));
        ids.push(r.id);
      }
      await queueRecurringJobs(now, ["process-a", "process-b"]);

      const workers = [startWorker("run", url, now.toISOString()), startWorker("run", url, now.toISOString())];
      await ready(workers);
      // The test holds every template's row, so the race is certain: both processes, each inside its
      // recurring job, wait on the same periods; then the rows are released and they compete for them.
      await database.db.transaction(async (tx) => {
        await tx.select({ id: recurringDocuments.id }).from(recurringDocuments).where(inArray(recurringDocuments.id, ids)).for("update");
        go(workers);
        await untilLockWaiters(2, workers);
      });
      expect(await results(workers), "each process claims one of the two recurring jobs").toEqual([{ claimed: true }, { claimed: true }]);
      const recurringJobs = await database.db.select().from(jobsTable).where(eq(jobsTable.type, "recurring"));
      expect(recurringJobs.map((j) => ({ status: j.status, attempts: j.attempts, lastError: j.lastError }))).toEqual([
        { status: "done", attempts: 1, lastError: null },
        { status: "done", attempts: 1, lastError: null },
      ]);

      const docs = await companyDocuments(company.id);
      expect(docs.map((d) => d.recurringId).sort((x, y) => x! - y!), "one invoice per template").toEqual(ids);
      expect(docs.map((d) => d.number)).toEqual([1, 2, 3, 4, 5, 6]);
      for (const d of docs) {
        expect(d).toMatchObject({ kind: "fe", status: "por enviar", recurringPeriod: "2027-03-15" });
        expect(d.consecutivo?.slice(-10)).toBe(String(d.number).padStart(10, "0"));
      }
      for (const id of ids) expect(await rowOf(id)).toMatchObject({ lastSentDate: "2027-03-15", nextSendDate: "2027-04-15", lastError: null });
    },
    TEST_MS,
  );

  it(
    "a process killed (SIGKILL) inside its transaction issues nothing and moves nothing; the next run issues the period once",
    async () => {
      const now = new Date("2027-02-10T15:00:00Z");
      const { company, user, client } = await issuingCompany(database.db);
      const rec = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "2027-02-10", cycle: "monthly", now, schemaSet });
      if (!rec.ok) throw new Error(JSON.stringify(rec.errors));

      const crashing = startWorker("crash", url, now.toISOString());
      // Issued and the date advanced, not committed: the worker waits inside the transaction.
      expect(await crashing.line("in-transaction")).toBe(String(rec.id));
      crashing.child.kill("SIGKILL");
      expect(await crashing.ended()).toEqual({ code: null, signal: "SIGKILL" });
      expect(await companyDocuments(company.id)).toEqual([]);
      expect(await rowOf(rec.id)).toMatchObject({ nextSendDate: "2027-02-10", lastSentDate: null, lastError: null });

      // The next jobs pass (another process) waits for PostgreSQL to roll the dead one back, then issues.
      await queueRecurringJobs(now, ["after-crash"]);
      const retry = [startWorker("run", url, now.toISOString())];
      await ready(retry);
      go(retry);
      expect(await results(retry)).toEqual([{ claimed: true }]);
      const docs = await companyDocuments(company.id);
      expect(docs).toHaveLength(1);
      expect(docs[0]).toMatchObject({ recurringId: rec.id, recurringPeriod: "2027-02-10", number: 1 });
      expect(docs[0].consecutivo?.slice(-10)).toBe("0000000001");
      expect(await rowOf(rec.id)).toMatchObject({ lastSentDate: "2027-02-10", nextSendDate: "2027-03-10" });
    },
    TEST_MS,
  );
});

describe.skipIf(!!process.env.DATABASE_URL)("embedded database (PGlite: one process per data folder)", () => {
  let dir: string | undefined;
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "a second process cannot open the data folder while the first holds it; once the first is killed, another can",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "colibri-lock-"));
      const first = startWorker("hold-embedded", dir);
      await first.line("holding");
      const second = startWorker("hold-embedded", dir);
      expect(await second.ended()).toEqual({ code: 1, signal: null });
      expect(second.stderr()).toContain(`La base de datos embebida en ${dir} ya está en uso por el proceso ${first.pid}.`);

      // A lock left by a killed process (its pid is gone) does not block the next start.
      first.child.kill("SIGKILL");
      await first.ended();
      const third = startWorker("hold-embedded", dir);
      await third.line("holding");
      third.child.kill("SIGKILL");
      await third.ended();
    },
    TEST_MS,
  );
});
