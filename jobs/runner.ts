// The jobs runner: a jobs table claimed with FOR UPDATE SKIP LOCKED (safe with several processes),
// retries with exponential backoff, node-cron schedules that enqueue work, graceful shutdown.
import { and, asc, eq, lte, sql } from "drizzle-orm";
import cron from "node-cron";
import os from "node:os";
import type { Db, DbOrTx } from "../db/client.ts";
import { jobs } from "../db/schema/index.ts";

export interface JobContext {
  db: Db;
  now: () => Date;
}

export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

export interface Schedule {
  /** cron expression (node-cron, with seconds optional) */
  cron: string;
  type: string;
  payload?: Record<string, unknown>;
}

export async function enqueue(db: DbOrTx, type: string, payload: Record<string, unknown> = {}, opts: { runAt?: Date; uniqueKey?: string; maxAttempts?: number } = {}) {
  await db
    .insert(jobs)
    .values({ type, payload, runAt: opts.runAt ?? new Date(), uniqueKey: opts.uniqueKey ?? null, maxAttempts: opts.maxAttempts ?? 5 })
    .onConflictDoNothing();
}

/** Backoff after the n-th failed attempt: 30 s, 2 min, 8 min, … capped at 1 h. */
export function backoffMs(attempt: number): number {
  return Math.min(3600_000, 30_000 * 4 ** Math.max(0, attempt - 1));
}

/** Claims one due job: FOR UPDATE SKIP LOCKED so two workers never take the same row. */
export async function claimJob(db: Db, workerId: string, now: Date) {
  return db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.status, "pending"), lte(jobs.runAt, now)))
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!job) return undefined;
    await tx
      .update(jobs)
      .set({ status: "running", lockedAt: now, lockedBy: workerId, attempts: sql`${jobs.attempts} + 1` })
      .where(eq(jobs.id, job.id));
    return { ...job, attempts: job.attempts + 1 };
  });
}

export async function runOne(db: Db, handlers: Record<string, JobHandler>, workerId: string, now: () => Date): Promise<boolean> {
  const job = await claimJob(db, workerId, now());
  if (!job) return false;
  const handler = handlers[job.type];
  try {
    if (!handler) throw new Error(`No handler for job type ${job.type}`);
    await handler(job.payload as Record<string, unknown>, { db, now });
    await db.update(jobs).set({ status: "done", finishedAt: now(), lockedAt: null, lockedBy: null, uniqueKey: null }).where(eq(jobs.id, job.id));
  } catch (error) {
    const message = (error as Error).message?.slice(0, 1000) ?? String(error);
    const failed = job.attempts >= job.maxAttempts;
    await db
      .update(jobs)
      .set({
        status: failed ? "failed" : "pending",
        lastError: message,
        lockedAt: null,
        lockedBy: null,
        runAt: failed ? job.runAt : new Date(now().getTime() + backoffMs(job.attempts)),
        finishedAt: failed ? now() : null,
        uniqueKey: failed ? null : job.uniqueKey,
      })
      .where(eq(jobs.id, job.id));
    console.error(`[jobs] ${job.type} #${job.id} intento ${job.attempts} falló: ${message}`);
  }
  return true;
}

/** Jobs left 'running' by a crashed process go back to pending after a while. */
export async function releaseStale(db: Db, now: Date, staleMs = 10 * 60_000) {
  await db
    .update(jobs)
    .set({ status: "pending", lockedAt: null, lockedBy: null })
    .where(and(eq(jobs.status, "running"), lte(jobs.lockedAt, new Date(now.getTime() - staleMs))));
}

export interface Runner {
  stop(): Promise<void>;
  /** Runs due jobs until none is left (tests and the CLI). */
  drain(): Promise<number>;
}

/** How often an idle runner looks for due jobs: JOBS_POLL_MS, else 2 s. */
const DEFAULT_POLL_MS = Number(process.env.JOBS_POLL_MS) > 0 ? Number(process.env.JOBS_POLL_MS) : 2000;

export function startRunner(
  db: Db,
  opts: {
    handlers: Record<string, JobHandler>;
    schedules: Schedule[];
    pollMs?: number;
    now?: () => Date;
    /** Called at every look for due jobs and after every job: the process is alive and its loop turns (health check). */
    heartbeat?: () => void;
  },
): Runner {
  const workerId = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 6)}`;
  const now = opts.now ?? (() => new Date());
  let stopping = false;
  let busy: Promise<unknown> = Promise.resolve();
  const tasks = opts.schedules.map((s) =>
    cron.schedule(s.cron, () => {
      if (!stopping) void enqueue(db, s.type, s.payload ?? {}, { uniqueKey: `schedule:${s.type}` }).catch((e) => console.error("[jobs] schedule", e));
    }),
  );
  const beat = () => {
    try {
      opts.heartbeat?.();
    } catch (e) {
      console.error("[jobs] heartbeat", (e as Error).message);
    }
  };
  const drain = async () => {
    let n = 0;
    while (!stopping && (await runOne(db, opts.handlers, workerId, now))) {
      n++;
      beat();
    }
    return n;
  };
  const tick = async () => {
    if (stopping) return;
    beat();
    busy = (async () => {
      await releaseStale(db, now());
      await drain();
    })().catch((e) => console.error("[jobs]", e));
    await busy;
    if (!stopping) timer = setTimeout(tick, opts.pollMs ?? DEFAULT_POLL_MS);
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(tick, 100);
  return {
    drain,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      for (const t of tasks) await t.stop();
      await busy; // let the running job finish
    },
  };
}
