// Integrator API throughput (issue 15): the production server (`server/start.ts`, WEB_CONCURRENCY
// web processes) on PostgreSQL, 20 concurrent clients each POSTing a 1-line ticket to
// /api/v1/documents as fast as answers come back (signed, gapless numbering), for BENCH_SECONDS per
// run, several runs. Baselines in the same run, alternated with the API runs: the issuing use-case
// alone (issueDocument, in this process, 20 concurrent, same database and company) and a bare
// RSA-2048 SHA-256 signature (crypto.sign, one thread: the floor of signing one document). Then the
// same API load on the embedded PGlite (one web process owns its data folder; no in-process
// baseline there). The load average is recorded around every run. The load generator runs on the
// same machine. Printed, never asserted. Run alone: `npx tsx bench/run.ts api`.
import { generateKeyPairSync, sign as rsaSign } from "node:crypto";
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { and, eq } from "drizzle-orm";

const CONCURRENCY = 20;
const PORT = 3304;
const APP_SECRET = "bench-secret";

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

const ticket = (i: number, terminal?: number) => ({
  kind: "te",
  controlNumber: `BENCH-${i}`,
  ...(terminal ? { terminal } : {}),
  lines: [{ cabys: "4523000000100", description: "Café chorreado", quantity: 1, unitPrice: "1500", tax: { code: "01", tarifaCode: "08" } }],
});

async function load(run: (client: number) => Promise<boolean>, seconds: number) {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, client) => {
      while (performance.now() < until) {
        const s = performance.now();
        const ok = await run(client);
        latencies.push(performance.now() - s);
        if (!ok) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { documents: latencies.length - failures, docsPerSecond: Math.round(((latencies.length - failures) / elapsed) * 10) / 10, p50Ms: Math.round(percentile(latencies, 50)), p95Ms: Math.round(percentile(latencies, 95)), p99Ms: Math.round(percentile(latencies, 99)), failures };
}

const spread = (xs: number[]) => ({ min: Math.min(...xs), median: [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)], max: Math.max(...xs) });
const load1 = () => Math.round(os.loadavg()[0] * 100) / 100;

/** Bare RSA-2048 SHA-256 signatures per second on this thread for `ms` (the same run's scale). */
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
function rsaPerSecond(ms = 1000): number {
  const payload = Buffer.alloc(256, 7);
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    rsaSign("sha256", payload, privateKey);
    n++;
  }
  return Math.round((n / (performance.now() - t0)) * 1000);
}

/** The API's runs with the same run's RSA baseline and load: docs/s as a fraction of RSA signatures/s. */
function summarize(runs: Array<{ docsPerSecond: number; p95Ms: number; rsaPerSecond: number; loadBefore: number; loadAfter: number; cpuMsPerDocument?: Record<string, number> }>) {
  const cpu = runs[0]?.cpuMsPerDocument;
  return {
    runs,
    ...(cpu ? { cpuMsPerDocument: Object.fromEntries(Object.keys(cpu).map((k) => [k, spread(runs.map((r) => r.cpuMsPerDocument![k]!))])) } : {}),
    docsPerSecond: spread(runs.map((r) => r.docsPerSecond)),
    p95Ms: spread(runs.map((r) => r.p95Ms)),
    rsaSignPerSecond: spread(runs.map((r) => r.rsaPerSecond)),
    ratioToRsa: spread(runs.map((r) => Math.round((r.docsPerSecond / r.rsaPerSecond) * 1000) / 1000)),
    load1: spread(runs.flatMap((r) => [r.loadBefore, r.loadAfter])),
  };
}

/** utime + stime of every process, in ms, keyed by pid, with its process group (/proc/<pid>/stat). */
function processCpu(): Map<number, { group: number; ms: number }> {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const out = new Map<number, { group: number; ms: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(Number(entry), { group: Number(f[2]), ms: (Number(f[11]) + Number(f[12])) * tick });
  }
  return out;
}

/** Busy CPU ms of the whole machine (all CPUs, everything but idle and iowait; /proc/stat). */
function machineBusyMs(): number {
  const cpu = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  return (user + nice + system + irq + softirq + steal) * 10;
}

/**
 * Where the CPU goes during a run, per document issued: the web processes (the server's process
 * group), the PostgreSQL backends of the benchmark's database, this process (the load generator and
 * its 20 clients), and the whole machine (anything else running shows as the difference).
 */
type CpuProbe = { web: () => number; postgres: () => number };
function cpuAccount(probe: CpuProbe) {
  const before = { web: probe.web(), postgres: probe.postgres(), self: process.cpuUsage(), machine: machineBusyMs() };
  return (documents: number) => {
    const self = process.cpuUsage(before.self);
    const per = (ms: number) => Math.round((ms / Math.max(documents, 1)) * 100) / 100;
    const web = probe.web() - before.web;
    const postgres = probe.postgres() - before.postgres;
    const generator = (self.user + self.system) / 1000;
    const machine = machineBusyMs() - before.machine;
    return { web: per(web), postgres: per(postgres), loadGenerator: per(generator), machine: per(machine), other: per(machine - web - postgres - generator) };
  };
}

/** One measured API run, with the load average around it, CPU per document and a bare RSA measure right after. */
async function measuredRun(run: (client: number) => Promise<boolean>, seconds: number, probe?: CpuProbe) {
  const loadBefore = load1();
  const account = probe && cpuAccount(probe);
  const result = await load(run, seconds);
  const cpuMsPerDocument = account?.(result.documents);
  const loadAfter = load1();
  return { ...result, ...(cpuMsPerDocument ? { cpuMsPerDocument } : {}), rsaPerSecond: rsaPerSecond(), loadBefore, loadAfter };
}

export async function benchApi() {
  process.env.APP_SECRET = APP_SECRET;
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  const seconds = Number(process.env.BENCH_SECONDS || 10);
  const runs = Number(process.env.BENCH_API_RUNS || 3);
  if (!process.env.BENCH_SKIP_BUILD) execSync("npx react-router build", { stdio: "ignore" });
  const engines = (process.env.BENCH_API_ENGINES || "postgres,pglite").split(",");
  const out: Record<string, unknown> = {};
  if (engines.includes("postgres")) out.postgres = pgUrl ? await benchApiPostgres(pgUrl, seconds, runs) : "omitido: defina BENCH_DATABASE_URL o DATABASE_URL";
  if (engines.includes("pglite")) out.pglite = await benchApiPglite(seconds, runs);
  return out;
}

async function benchApiPostgres(pgUrl: string, seconds: number, runs: number) {

  const { startServer } = await import("./foundation.ts");
  const { openDatabase, setDatabase } = await import("../db/client.ts");
  const { companies, documents } = await import("../db/schema/index.ts");
  const { hashPassword } = await import("../app/server/password.server.ts");
  const { issueDocument } = await import("../app/server/issue-document.server.ts");
  const { appSchemaSet } = await import("../app/server/document-form.server.ts");
  const { genericClient } = await import("../db/queries/clients.ts");

  const name = `colibri_bench_api_${process.pid}`;
  const u = new URL(pgUrl);
  u.pathname = "/postgres";
  const admin = postgres(u.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  u.pathname = `/${name}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-bench-api-"));
  const out: Record<string, unknown> = {
    what: "POST /api/v1/documents, 1-line ticket, signed, gapless; 20 concurrent clients back to back; production server on PostgreSQL; `api`: one counter (the company's terminal), `apiTerminalPerClient`: each client its own terminal (a chain's cash registers)",
    budget: "≥ 300 documents/s with p95 ≤ 150 ms",
    cpus: os.cpus().length,
    webProcesses: Number(process.env.WEB_CONCURRENCY || os.availableParallelism()),
    seconds,
    loadBefore: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  Object.assign(process.env, { HACIENDA_SANDBOX: "false", SEED_DEMO: "true", API_RATE_LIMIT_PER_MINUTE: "100000000" });
  // BENCH_API_PROFILE=<dir>: the web processes (cluster workers inherit the flags) write V8 CPU profiles there.
  const profile = process.env.BENCH_API_PROFILE;
  const command = profile ? ["node", "--cpu-prof", `--cpu-prof-dir=${profile}`, "--import", "tsx", "server/start.ts"] : ["npx", "tsx", "server/start.ts"];
  const server = await startServer({ command, port: PORT, dataDir: tmp, databaseUrl: u.toString() });
  const database = await openDatabase({ databaseUrl: u.toString(), maxConnections: CONCURRENCY });
  setDatabase(database);
  try {
    // The demo company becomes a plan-5 company with API credentials.
    const [company] = await database.db.select({ id: companies.id }).from(companies).limit(1);
    await database.db.update(companies).set({ permission: 5, usernameApi: "bench-pos", passwordApiHash: await hashPassword("bench-clave-1") }).where(eq(companies.id, company.id));
    const base = `http://127.0.0.1:${PORT}/api/v1`;
    const tokenRes = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "bench-pos", password: "bench-clave-1" }) });
    if (tokenRes.status !== 200) throw new Error(`token: ${tokenRes.status} ${await tokenRes.text()}`);
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    let n = 0;
    const post = async (terminal?: number) => {
      const r = await fetch(`${base}/documents`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(ticket(++n, terminal)) });
      await r.arrayBuffer();
      return r.status === 201;
    };
    // One counter (every client numbers on the company's terminal, as the interface does) …
    const viaApi = () => post();
    // … or a chain: each client is its own cash register (terminal 2–21), each with its own counter.
    const viaApiTerminals = (client: number) => post(client + 2);
    const generic = (await genericClient(database.db, company.id))!.id;
    const schemaSet = appSchemaSet();
    const draft = { kind: "te" as const, clientId: generic, saleCondition: "01", payments: [{ code: "01" }], currency: "CRC" as const, exchangeRate: "1", lines: [{ cabys: "4523000000100", description: "Café chorreado", quantity: "1", unit: "Unid", unitPrice: "1500", tax: { tarifaCode: "08" as const } }] };
    const direct = async () => (await issueDocument(database.db, { companyId: company.id, userId: null, draft, now: new Date(), schemaSet })).ok;

    // Where PostgreSQL's backends are while the API is loaded (sampled every 50 ms): waiting for the
    // counter row's lock, waiting for the web process inside a transaction (ClientRead while
    // "idle in transaction"), writing WAL, or running.
    const waits = new Map<string, number>();
    let sampling = false;
    const sampler = postgres(u.toString(), { max: 1, onnotice: () => {} });
    const sample = async () => {
      while (sampling) {
        const rows = await sampler<{ k: string; n: number }[]>`select coalesce(state, '') || ' / ' || coalesce(wait_event_type || ':' || wait_event, 'CPU') as k, count(*)::int as n from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid() and state <> 'idle' group by 1`;
        for (const r of rows) waits.set(r.k, (waits.get(r.k) ?? 0) + r.n);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // CPU of the web processes (the server's process group) and of this database's backends.
    const backends = new Set<number>();
    const probe: CpuProbe = {
      web: () => [...processCpu().values()].filter((p) => p.group === server.processGroup).reduce((a, p) => a + p.ms, 0),
      postgres: () => {
        const all = processCpu();
        return [...backends].reduce((a, pid) => a + (all.get(pid)?.ms ?? 0), 0);
      },
    };
    // Warm-up: every web process compiles its hot code and caches the key and the schemas.
    await load(viaApi, 3);
    await load(direct, 2);
    await load(viaApiTerminals, 2);
    const apiRuns = [];
    const terminalRuns = [];
    const baseRuns = [];
    for (const r of await sampler<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${name}`) backends.add(r.pid);
    for (let i = 0; i < runs; i++) {
      sampling = true;
      const sampled = sample();
      apiRuns.push(await measuredRun(viaApi, seconds, probe));
      sampling = false;
      await sampled;
      baseRuns.push(await load(direct, seconds));
      terminalRuns.push(await measuredRun(viaApiTerminals, seconds, probe));
    }
    await sampler.end();
    const samples = [...waits.values()].reduce((a, b) => a + b, 0);
    out.postgresBackendsDuringApiRuns = Object.fromEntries([...waits].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, `${Math.round((100 * n) / samples)}%`]));
    out.api = summarize(apiRuns);
    out.apiTerminalPerClient = summarize(terminalRuns);
    out.baselineUseCaseInProcess = { runs: baseRuns, docsPerSecond: spread(baseRuns.map((r) => r.docsPerSecond)), p95Ms: spread(baseRuns.map((r) => r.p95Ms)) };
    out.ratioApiToUseCase = Math.round((spread(apiRuns.map((r) => r.docsPerSecond)).median / spread(baseRuns.map((r) => r.docsPerSecond)).median) * 100) / 100;
    // Gapless per counter (terminal): numbers 1..n on each.
    const rows = await database.db.select({ n: documents.number, terminal: documents.terminal }).from(documents).where(and(eq(documents.companyId, company.id), eq(documents.kind, "te")));
    const byTerminal = new Map<number, number[]>();
    for (const r of rows) byTerminal.set(r.terminal!, [...(byTerminal.get(r.terminal!) ?? []), r.n!]);
    out.ticketsIssued = rows.length;
    out.terminals = byTerminal.size;
    out.consecutivesGapless = [...byTerminal.values()].every((ns) => ns.sort((a, b) => a - b).every((x, i) => x === i + 1));
    out.loadAfter = os.loadavg().map((x) => Math.round(x * 100) / 100);
  } finally {
    setDatabase(undefined);
    await database.close();
    await server.stop();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

/**
 * The same API load on the embedded PGlite: one web process (PGlite is one connection in one process
 * and takes a lock on its folder), the jobs in-process. The company is made a plan-5 company while
 * the server is stopped; the numbering is checked after it stops.
 */
async function benchApiPglite(seconds: number, runs: number) {
  const { startServer } = await import("./foundation.ts");
  const { openDatabase } = await import("../db/client.ts");
  const { companies, documents } = await import("../db/schema/index.ts");
  const { hashPassword } = await import("../app/server/password.server.ts");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-bench-api-pglite-"));
  const out: Record<string, unknown> = { what: "the same API load on the embedded PGlite (one web process, jobs in-process)", webProcesses: 1, seconds, loadBefore: os.loadavg().map((n) => Math.round(n * 100) / 100) };
  Object.assign(process.env, { HACIENDA_SANDBOX: "false", SEED_DEMO: "true", API_RATE_LIMIT_PER_MINUTE: "100000000" });
  const command = ["npx", "tsx", "server/start.ts"];
  // First start: migrations and the demo company.
  let server = await startServer({ command, port: PORT, dataDir: tmp });
  await server.stop();
  let database = await openDatabase({ dataDir: path.join(tmp, "pglite") });
  const [company] = await database.db.select({ id: companies.id }).from(companies).limit(1);
  await database.db.update(companies).set({ permission: 5, usernameApi: "bench-pos", passwordApiHash: await hashPassword("bench-clave-1") }).where(eq(companies.id, company.id));
  await database.close();
  server = await startServer({ command, port: PORT, dataDir: tmp });
  try {
    const base = `http://127.0.0.1:${PORT}/api/v1`;
    const tokenRes = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "bench-pos", password: "bench-clave-1" }) });
    if (tokenRes.status !== 200) throw new Error(`token: ${tokenRes.status} ${await tokenRes.text()}`);
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    let n = 0;
    const post = async () => {
      const r = await fetch(`${base}/documents`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(ticket(++n)) });
      await r.arrayBuffer();
      return r.status === 201;
    };
    await load(post, 3);
    const apiRuns = [];
    for (let i = 0; i < runs; i++) apiRuns.push(await measuredRun(post, seconds));
    out.api = summarize(apiRuns);
  } finally {
    await server.stop();
  }
  database = await openDatabase({ dataDir: path.join(tmp, "pglite") });
  try {
    const rows = await database.db.select({ n: documents.number }).from(documents).where(eq(documents.kind, "te"));
    out.ticketsIssued = rows.length;
    out.consecutivesGapless = rows.map((r) => r.n!).sort((a, b) => a - b).every((x, i) => x === i + 1);
  } finally {
    await database.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  out.loadAfter = os.loadavg().map((x) => Math.round(x * 100) / 100);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchApi(), null, 2));
}
