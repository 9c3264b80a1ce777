// Received documents benchmark (issue 12): on PostgreSQL (a temporary database under
// BENCH_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres):
// - ingestion: received documents (1–10 lines, signed by another company's test key) through the
//   upload's intake (parse + verify + received-mode rules + store + the job that asks Hacienda),
//   in batches of 50 files (one upload of several files), several runs after a warm-up batch;
//   beside it, in the same run, the bare parse + verify rate of the same documents (the engine's
//   share) as a baseline;
// - a 1,000-line document through the same intake: time, and the longest the event loop was blocked
//   meanwhile (what another request would wait);
// - the /message-receptors loader (root middleware, page memory, the list and its capped count, the
//   deadline banner) at 100,000 received documents of one company in one month (plus 100,000 more
//   in other months and another company): first page (100 rows), a filter, a search, page 50.
// PGlite: the list at the same size (BENCH_SKIP_PGLITE=1 skips it). Budgets printed, never asserted.
import os from "node:os";
import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import postgres from "postgres";
import { migrateDatabase, openDatabase, setDatabase, type Database } from "../db/client.ts";
import { companyUsers, currencies } from "../db/schema/index.ts";
import * as ref from "../db/seed/reference-data.ts";
import * as list from "../app/routes/receptions/message-receptors.tsx";
import { ingestReceivedFiles } from "../app/server/receptions/intake.server.ts";
import { parseReceived } from "../app/hacienda/parse.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../tests/setup/app.ts";
import { supplierDocument } from "../tests/fixtures/receptions.ts";
import { disableKeptTriggers, refillKeptTables } from "./documents.ts";

const RUNS = Number(process.env.BENCH_RECEPTION_RUNS || 5);
const BATCH = 50;
const PER_RUN = Number(process.env.BENCH_RECEPTION_DOCS || 200);
const LIST_RUNS = Number(process.env.BENCH_RECEPTION_LIST_RUNS || 40);
const LIST_DOCUMENTS = Number(process.env.BENCH_RECEPTION_LIST_DOCUMENTS || 100_000);

const round = (n: number) => Math.round(n * 10) / 10;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: round(percentile(s, 50)), min: round(s[0]), max: round(s[s.length - 1]), runs: s.map(round) };
};

async function exec(database: Database, query: string) {
  if (database.kind === "pglite") await database.pglite!.exec(query);
  else await database.db.execute(query as never);
}

async function owner(database: Database, i: number) {
  const db = database.db;
  const user = await createUser(db, { email: `bench-rec${i}-${process.pid}@example.cr` });
  const company = await createCompany(db, { name: `Recepción Bench ${i} S.A.`, identification: String(3101800000 + i) });
  await db.insert(companyUsers).values({ companyId: company.id, userId: user.id });
  return { company, browser: await signedIn(db, user.id, company.id) };
}

/** Documents of 1–10 lines (the line count cycles), addressed to the company. */
function documents(company: { name: string; identification: string }, n: number) {
  return Array.from({ length: n }, (_, i) => supplierDocument({ receiver: { name: company.name, id: company.identification }, lines: 1 + (i % 10) }));
}

async function ingestion(database: Database) {
  const { company } = await owner(database, 0);
  const runs: number[] = [];
  const baseline: number[] = [];
  // Warm-up, not counted: the first batch compiles the received-document schemas and the hot code.
  const warm = documents(company, BATCH).map((d, i) => ({ name: `warm-${i}.xml`, bytes: new TextEncoder().encode(d.xml) }));
  await ingestReceivedFiles(database.db, { companyId: company.id, userId: null, source: "upload", files: warm, now: new Date() });
  for (let r = 0; r < RUNS; r++) {
    const docs = documents(company, PER_RUN);
    const files = docs.map((d, i) => ({ name: `f${r}-${i}.xml`, bytes: new TextEncoder().encode(d.xml) }));
    // Baseline in the same run: parse + verify alone, same documents.
    const b0 = performance.now();
    for (const f of files) if (!parseReceived(f.bytes).signature.valid) throw new Error("baseline: invalid signature");
    baseline.push(files.length / ((performance.now() - b0) / 1000));
    const t0 = performance.now();
    let stored = 0;
    for (let i = 0; i < files.length; i += BATCH) {
      const report = await ingestReceivedFiles(database.db, { companyId: company.id, userId: null, source: "upload", files: files.slice(i, i + BATCH), now: new Date() });
      stored += report.stored.length;
    }
    if (stored !== files.length) throw new Error(`ingestion stored ${stored} of ${files.length}`);
    runs.push(files.length / ((performance.now() - t0) / 1000));
  }
  const ingest = stats(runs);
  const engine = stats(baseline);
  return { documentsPerRun: PER_RUN, batch: BATCH, ingestPerSecond: ingest, parseAndVerifyPerSecond: engine, ratioToParseAndVerify: Number((ingest.median / engine.median).toFixed(3)) };
}

async function bigDocument(database: Database) {
  const { company } = await owner(database, 1);
  const times: number[] = [];
  const lags: number[] = [];
  for (let r = 0; r < 3; r++) {
    const [doc] = documents(company, 1).map(() => supplierDocument({ receiver: { name: company.name, id: company.identification }, lines: 1000 }));
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const t0 = performance.now();
    const report = await ingestReceivedFiles(database.db, { companyId: company.id, userId: null, source: "upload", files: [{ name: "mil.xml", bytes: new TextEncoder().encode(doc!.xml) }], now: new Date() });
    times.push(performance.now() - t0);
    h.disable();
    lags.push(h.max / 1e6);
    if (report.stored.length !== 1) throw new Error(`1,000 lines: ${JSON.stringify(report.outcomes)}`);
  }
  return { lines: 1000, ms: stats(times), eventLoopBlockedMaxMs: stats(lags) };
}

/** 100,000 documents of company A in one month, 50,000 of A in other months, 50,000 of company B. */
async function fillList(database: Database) {
  const a = await owner(database, 2);
  const b = await owner(database, 3);
  await database.db.insert(currencies).values(ref.currencies.map((r) => ({ id: r.id, code: r.code, name: r.name, symbol: r.symbol }))).onConflictDoNothing();
  const t0 = performance.now();
  const insert = (companyId: number, n: number, from: string, spanDays: number, offset: number) => `
    insert into received_documents (company_id, clave, kind, version, consecutive, issued_at, issuer_name, issuer_id_type, issuer_id, receiver_name, receiver_id,
      currency, exchange_rate, subtotal, tax, total, line_count, source, upload_xml, message, status, reject_deadline, expense_category_id, tax_condition)
    select ${companyId},
      '506' || to_char(t, 'DDMMYY') || lpad((3102000000 + g % 5000)::text, 12, '0') || '00100001' || '01' || lpad((${offset} + g)::text, 10, '0') || '1' || lpad((g::bigint * 7919 % 99999999)::text, 8, '0'),
      case when g % 20 = 0 then 'NC' else 'FE' end, '4.4', '0010000101' || lpad((${offset} + g)::text, 10, '0'), t,
      (array['Distribuidora','Ferretería','Servicios','Comercial','Importadora','Soluciones','Agropecuaria','Papelería'])[1 + g % 8] || ' ' ||
      (array['del Valle','Central','La Sabana','Norte','Pacífico','Caribe','Los Andes','Oriental'])[1 + (g / 8) % 8] || ' ' || (g % 5000) || ' S.A.',
      '02', (3102000000 + g % 5000)::text, 'Receptor', '3101800002', case when g % 10 = 0 then 'USD' else 'CRC' end, case when g % 10 = 0 then 505.5 else 1 end,
      (1000 + g % 100000)::numeric, round((1000 + g % 100000) * 0.13, 5), round((1000 + g % 100000) * 1.13, 5), 1 + g % 10, 'upload', '\\x3c3f786d6c3f3e'::bytea,
      case when g % 10 < 6 then 1 when g % 10 < 7 then 2 when g % 10 < 8 then 3 else 4 end,
      case when g % 10 < 8 then 'aceptado' else 'pendiente' end,
      (t + interval '40 days')::date, null, '01'
    from (select g, timestamptz '${from}' + (g::bigint * ${spanDays} * 86400 / ${n}) * interval '1 second' as t from generate_series(1, ${n}) g) x`;
  // The tables the database keeps from received documents (their days, the pending ones, the list's
  // counts) are filled once after the load, not by a trigger call per row.
  await disableKeptTriggers(database, "received_documents");
  await exec(database, insert(a.company.id, LIST_DOCUMENTS, "2026-11-01 06:00:00+00", 29, 0));
  await exec(database, insert(a.company.id, LIST_DOCUMENTS / 2, "2025-11-01 06:00:00+00", 360, 10_000_000));
  await exec(database, insert(b.company.id, LIST_DOCUMENTS / 2, "2026-11-01 06:00:00+00", 29, 20_000_000));
  await refillKeptTables(database, "received_documents");
  const seedMs = performance.now() - t0;
  await exec(database, "vacuum analyze received_documents");
  return { browser: a.browser, seeded: { documents: LIST_DOCUMENTS * 2, ofTheMonth: LIST_DOCUMENTS, seedMs: Math.round(seedMs) } };
}

async function listTimes(browser: Browser) {
  const month = "from=2026-11-01&to=2026-11-30";
  const scenarios: [string, string][] = [
    ["month, first page (100 rows)", `/message-receptors?${month}&page=1&perPage=100`],
    ["month, page 50", `/message-receptors?${month}&page=50&perPage=100`],
    ["month, filter pendiente", `/message-receptors?${month}&filter=pendiente&page=1&perPage=100`],
    ["month, filter rechazado", `/message-receptors?${month}&filter=rechazado&page=1&perPage=100`],
    ["month, search issuer name", `/message-receptors?${month}&search=${encodeURIComponent("Ferretería Norte")}&page=1&perPage=100`],
    ["month, search issuer id", `/message-receptors?${month}&search=3102001234&page=1&perPage=100`],
  ];
  const out: Record<string, unknown> = {};
  const all: number[] = [];
  for (const [name, path] of scenarios) {
    const first = await call(browser, list.loader, { path });
    if (first.status !== 200) throw new Error(`${path}: ${first.status}`);
    for (let i = 0; i < 3; i++) await call(browser, list.loader, { path });
    const times: number[] = [];
    for (let i = 0; i < LIST_RUNS; i++) {
      const t0 = performance.now();
      await call(browser, list.loader, { path });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    const d = first.data as { rows: unknown[]; lastPage: number; totalCapped: boolean };
    out[name] = { p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), maxMs: round(times[times.length - 1]), rows: d.rows.length, lastPage: d.totalCapped ? `≥ ${d.lastPage}` : d.lastPage };
  }
  all.sort((a, b) => a - b);
  return { runsPerCase: LIST_RUNS, allCases: { p50Ms: round(percentile(all, 50)), p95Ms: round(percentile(all, 95)), maxMs: round(all[all.length - 1]) }, cases: out };
}

async function onPostgres(url: string) {
  const name = `colibri_bench_receptions_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), maxConnections: 4 });
  try {
    await migrateDatabase(database);
    setDatabase(database);
    const ingest = await ingestion(database);
    const big = await bigDocument(database);
    const { browser, seeded } = await fillList(database);
    return { ingestion: ingest, bigDocument: big, list: { seeded, ...(await listTimes(browser)) } };
  } finally {
    setDatabase(undefined);
    await database.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function onPglite() {
  const database = await openDatabase({});
  try {
    await migrateDatabase(database);
    setDatabase(database);
    const { browser, seeded } = await fillList(database);
    return { list: { seeded, ...(await listTimes(browser)) } };
  } finally {
    setDatabase(undefined);
    await database.close();
  }
}

export async function benchReceptions() {
  process.env.APP_SECRET ||= "bench-secret";
  const url = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres:postgres@127.0.0.1:5432/postgres";
  const result: Record<string, unknown> = {
    budget: "ingestion ≥ 200 received documents/s (PostgreSQL, 1–10 lines); a 1,000-line document ≤ 0.5 s; list at 100,000 documents of a month p95 ≤ 50 ms",
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  if (!process.env.BENCH_SKIP_POSTGRES) result.postgres = await onPostgres(url);
  if (!process.env.BENCH_SKIP_PGLITE) result.pglite = await onPglite();
  result.loadAfter = os.loadavg().map((n) => Math.round(n * 100) / 100);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchReceptions(), null, 2));
}
