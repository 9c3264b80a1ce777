// Start-up on a fresh PostgreSQL database (issue 10 point 6; docs/decisions/112): processes that
// start together migrate and seed one after another under an advisory lock. Three real OS processes
// (tests/fixtures/migrate-worker.ts) are released at the same instant on an empty database; without
// the lock they collide ("duplicate key … pg_type" / "pg_namespace"). The real web server and jobs
// process started together are in tests/integration/http-server.test.ts.
// PGlite has no such race: one process owns its data folder (lockDataDir, tested in
// recurring-processes.test.ts), so this file runs on PostgreSQL only.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { adminUrl } from "../setup/global.ts";

const repo = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const WAIT_MS = 45_000;
const running = new Set<ChildProcessWithoutNullStreams>();

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

function startWorker(url: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/migrate-worker.ts", url], { cwd: repo, env: process.env });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (d: string) => (stdout += d));
  child.stderr.on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((r) =>
    child.on("close", (code) => {
      running.delete(child);
      r(code);
    }),
  );
  const until = (what: string, test: () => boolean) =>
    new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`${what}: nothing within ${WAIT_MS} ms (pid ${child.pid})\n${stdout}\n${stderr}`)), WAIT_MS);
      const check = () => {
        if (test()) {
          clearTimeout(timer);
          ok();
        }
      };
      child.stdout.on("data", check);
      check();
    });
  return {
    ready: () => until("@ready", () => stdout.includes("@ready")),
    go: () => child.stdin.write("go\n"),
    result: async () => ({ code: await exited, done: stdout.includes("@done"), stderr: stderr.trim() }),
  };
}

describe.skipIf(!process.env.DATABASE_URL)("start-up on an empty PostgreSQL database (three processes at once)", () => {
  it(
    "every process comes up, the migrations are applied once and the reference data seeded once",
    async () => {
      const base = process.env.DATABASE_URL!;
      const name = `colibri_startup_${randomBytes(4).toString("hex")}`;
      const admin = postgres(adminUrl(base), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = adminUrl(base, name);
      try {
        const workers = [startWorker(url), startWorker(url), startWorker(url)];
        await Promise.all(workers.map((w) => w.ready()));
        for (const w of workers) w.go();
        const results = await Promise.all(workers.map((w) => w.result()));
        expect(results).toEqual([
          { code: 0, done: true, stderr: "" },
          { code: 0, done: true, stderr: "" },
          { code: 0, done: true, stderr: "" },
        ]);

        const journal = JSON.parse(fs.readFileSync(resolve(repo, "db/migrations/meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
        const db = postgres(url, { max: 1, onnotice: () => {} });
        try {
          const applied = await db<{ n: number; distinct: number }[]>`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`;
          expect(applied[0]).toEqual({ n: journal.entries.length, distinct: journal.entries.length });
          const provinces = await db<{ n: number }[]>`select count(*)::int as n from provinces`;
          expect(provinces[0].n).toBe(7);
        } finally {
          await db.end();
        }
      } finally {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    120_000,
  );
});
