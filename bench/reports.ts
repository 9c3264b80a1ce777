// Reports benchmark (issue 13; docs/decisions/151): the data of bench/documents.ts (1,000,000
// documents of three companies on PostgreSQL) plus two lines per document, a reference from every
// credit and debit note to an earlier invoice, and 60,000 expenses in 36 categories. For the busiest
// company it times each report's real loader (root middleware, summary band by SQL aggregates, the
// first page) for a month (October 2026; the expenses report for the year), with the /invoices list
// loader measured in the same run as the baseline, in several rounds; then 'Exportar a Excel' of
// about 100,000 rows through the real resource route: time to the first bytes, to the whole file,
// and the peak memory added (RSS and heap sampled every 10 ms) — each run checked to be a valid
// .xlsx with the expected rows. PGlite at 200,000 documents (BENCH_PGLITE_DOCUMENTS) alike.
// Received documents (issue 12 point 8): RECEIVED_DOCUMENTS (default 240,000) of the busiest company
// over a year (about 20,000 a month, 70 % accepted, three in four of those with an expense category),
// for the reception and purchases reports, the IVA summary's purchases, the expenses report's
// received documents and a purchases export of about 100,000 rows.
// BENCH_KEEP_DATABASE=1 keeps the PostgreSQL database; BENCH_REPORTS_DATABASE=<name> measures it again.
// Budgets printed, never asserted.
import os from "node:os";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import postgres from "postgres";
import { migrateDatabase, openDatabase, setDatabase, type Database } from "../db/client.ts";
import * as list from "../app/routes/documents/documents-list.tsx";
import * as invoices from "../app/routes/reports/report-invoices.tsx";
import * as tickets from "../app/routes/reports/report-tickets.tsx";
import * as notes from "../app/routes/reports/report-notes.tsx";
import * as items from "../app/routes/reports/report-items.tsx";
import * as expensesReport from "../app/routes/reports/report-expenses.tsx";
import * as iva from "../app/routes/reports/report-iva.tsx";
import * as receptions from "../app/routes/reports/report-document-receptions.tsx";
import * as purchases from "../app/routes/reports/report-purchases.tsx";
import * as excel from "../app/routes/reports/report-excel.tsx";
import { call, signedIn, type Browser } from "../tests/setup/app.ts";
import { disableKeptTriggers, exec, fill, one, percentile, refillKeptTables } from "./documents.ts";

const RUNS = Number(process.env.BENCH_REPORT_RUNS || 30);
const ROUNDS = Number(process.env.BENCH_REPORT_ROUNDS || 3);
const EXCEL_RUNS = Number(process.env.BENCH_EXCEL_RUNS || 3);
const EXCEL_ROWS = Number(process.env.BENCH_EXCEL_ROWS || 100_000);
const RECEIVED_DOCUMENTS = Number(process.env.BENCH_RECEIVED_DOCUMENTS || 240_000);
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Lines, note references and expenses on top of bench/documents.ts's documents (set-based SQL). */
async function addReportData(database: Database) {
  const t0 = performance.now();
  await exec(
    database,
    `insert into document_lines (company_id, document_id, position, code, cabys, description, quantity, unit, unit_price, tax_code, tarifa_code, tax_rate, subtotal, discount, tax, exonerated, total)
     select d.company_id, d.id, p.n, 'ART-' || ((d.id * 7 + p.n) % 500), case when (d.id + p.n) % 3 = 0 then null else '45230000001' || lpad(((d.id + p.n) % 90)::text, 2, '0') end,
       'Artículo ' || ((d.id * 7 + p.n) % 500), 1, 'Unid', round(d.subtotal * case when p.n = 1 then 0.6 else 0.4 end, 5), '01',
       case when p.n = 1 then '08' else '04' end, case when p.n = 1 then 13 else 4 end,
       round(d.subtotal * case when p.n = 1 then 0.6 else 0.4 end, 5), 0,
       round(d.subtotal * case when p.n = 1 then 0.6 * 0.13 else 0.4 * 0.04 end, 5), 0,
       round(d.subtotal * case when p.n = 1 then 0.6 * 1.13 else 0.4 * 1.04 end, 5)
     from documents d cross join (values (1), (2)) p(n)`,
  );
  const linesMs = performance.now() - t0;
  const t1 = performance.now();
  await exec(
    database,
    `insert into document_references (company_id, document_id, referenced_document_id, doc_type, number, issued_at, code, reason)
     select n.company_id, n.id, f.id, '01', f.clave, f.issued_at, '02', 'Ajuste'
     from documents n
     cross join lateral (select id, clave, issued_at from documents f where f.company_id = n.company_id and f.kind = 'fe' and f.issued_at < n.issued_at
                         order by f.issued_at desc, f.id desc limit 1 offset (n.id % 50)) f
     where n.kind in ('nc', 'nd')`,
  );
  const referencesMs = performance.now() - t1;
  const t2 = performance.now();
  await exec(
    database,
    `insert into expense_categories (company_id, name) select c.id, 'Categoría ' || g from companies c cross join generate_series(1, 12) g where c.name like 'Bench %'`,
  );
  // The expenses' days (expense_days, decision 159) and the live counts (expense_counts, as
  // client_counts in decision 200) are added up once after the load.
  await disableKeptTriggers(database, "expenses");
  await exec(
    database,
    `insert into expenses (company_id, spent_on, description, currency_id, exchange_rate, amount, category_id, payment_method_code)
     select c.company_id, date '2026-11-20' - (g % 1100), 'Gasto ' || g, case when g % 9 = 0 then 1 else 2 end, case when g % 9 = 0 then 505.5 else 1 end,
       (100 + (g * 7907) % 500000)::numeric(18,5), c.id, '01'
     from generate_series(1, 60000) g
     join lateral (select id, company_id from expense_categories order by id offset (g % (select count(*) from expense_categories)) limit 1) c on true`,
  );
  await refillKeptTables(database, "expenses");
  const expensesMs = performance.now() - t2;
  const t4 = performance.now();
  await disableKeptTriggers(database, "received_documents");
  // Received documents of the busiest company: a year up to November 2026, 1 in 10 in dollars, 1 in
  // 20 a credit note; 60 % accepted, 10 % partially, 10 % rejected, 20 % pending; two tariffs each.
  // Three in four accepted ones have an expense category (one of the company's 12), so the expenses
  // report reads them as expenses (view received_expenses, decision 176); the rest are accepted
  // without one (bought for resale, or left unclassified).
  await exec(
    database,
    `insert into received_documents (company_id, clave, kind, version, consecutive, issued_at, issuer_name, issuer_id_type, issuer_id, receiver_name, receiver_id,
      currency, exchange_rate, subtotal, tax, total, line_count, source, upload_xml, message, status, issuer_status, reject_deadline, tax_condition, creditable_tax, applicable_expense,
      expense_category_id, data)
     select c.id, '506' || to_char(t, 'DDMMYY') || lpad((3102000000 + g % 5000)::text, 12, '0') || '00100001' || '01' || lpad(g::text, 10, '0') || '1' || lpad((g::bigint * 7919 % 99999999)::text, 8, '0'),
       case when g % 20 = 0 then 'NC' else 'FE' end, '4.4', '0010000101' || lpad(g::text, 10, '0'), t,
       (array['Distribuidora','Ferretería','Servicios','Comercial','Importadora','Soluciones','Agropecuaria','Papelería'])[1 + g % 8] || ' ' || (g % 5000) || ' S.A.',
       '02', (3102000000 + g % 5000)::text, c.name, c.identification, case when g % 10 = 0 then 'USD' else 'CRC' end, case when g % 10 = 0 then 505.5 else 1 end,
       (1000 + g % 100000)::numeric, round((1000 + g % 100000) * 0.094, 5), round((1000 + g % 100000) * 1.094, 5), 2, 'upload', '\\x3c3f786d6c3f3e'::bytea,
       case when g % 10 < 6 then 1 when g % 10 < 7 then 2 when g % 10 < 8 then 3 else 4 end,
       case when g % 10 < 8 then 'aceptado' else 'pendiente' end, 'aceptado', (t + interval '40 days')::date, '01',
       case when g % 10 < 7 then round((1000 + g % 100000) * 0.094, 5) end, case when g % 10 < 7 then (1000 + g % 100000)::numeric end,
       case when g % 10 < 7 and g % 4 <> 0 then c.categories[1 + (g / 10) % array_length(c.categories, 1)] end,
       jsonb_build_object('CondicionVenta', '01', 'IvaPorTarifa', jsonb_build_array(
         jsonb_build_object('tarifa', '08', 'base', round((1000 + g % 100000) * 0.6, 5)::text, 'impuesto', round((1000 + g % 100000) * 0.078, 5)::text),
         jsonb_build_object('tarifa', '04', 'base', round((1000 + g % 100000) * 0.4, 5)::text, 'impuesto', round((1000 + g % 100000) * 0.016, 5)::text)))
     from (select g, timestamptz '2025-12-01 06:00:00+00' + (g::bigint * ${365 * 86400} / ${RECEIVED_DOCUMENTS}) * interval '1 second' as t from generate_series(1, ${RECEIVED_DOCUMENTS}) g) x
     cross join (select id, name, identification, (select array_agg(e.id order by e.id) from expense_categories e where e.company_id = companies.id) as categories
                   from companies where name = 'Bench 0 S.A.' order by id limit 1) c`,
  );
  await refillKeptTables(database, "received_documents");
  const receivedMs = performance.now() - t4;
  const t3 = performance.now();
  for (const t of ["document_lines", "document_references", "expenses", "expense_categories", "received_documents", "received_document_tariffs"]) await exec(database, `vacuum analyze ${t}`);
  const counts = await one<{ lines: number; refs: number; expenses: number; received: number; expenseDays: number }>(
    database,
    `select (select count(*)::int from document_lines) as lines, (select count(*)::int from document_references) as refs, (select count(*)::int from expenses) as expenses,
       (select count(*)::int from received_documents) as received, (select coalesce(sum(expenses), 0)::int from expense_days) as "expenseDays"`,
  );
  if (counts.expenseDays !== counts.expenses) throw new Error(`expense_days counts ${counts.expenseDays} expenses, ${counts.expenses} were seeded`);
  const kept = await one<{ n: number }>(database, `select coalesce(sum(expenses), 0)::int as n from expense_counts`);
  if (kept.n !== counts.expenses) throw new Error(`expense_counts counts ${kept.n} expenses, ${counts.expenses} were seeded`);
  const receptions = await one<{ n: number }>(database, `select coalesce(sum(documents), 0)::int as n from reception_days`);
  if (receptions.n !== counts.received) throw new Error(`reception_days counts ${receptions.n} received documents, ${counts.received} were seeded`);
  return { ...counts, linesMs: Math.round(linesMs), referencesMs: Math.round(referencesMs), expensesMs: Math.round(expensesMs), receivedMs: Math.round(receivedMs), vacuumMs: Math.round(performance.now() - t3) };
}

type Loader = { loader: (args: never) => unknown };

/** p50/p95/max of a loader, RUNS times after three warm-up calls. */
async function timeLoader(browser: Browser, route: Loader, path: string) {
  const first = await call(browser, route.loader as never, { path });
  if (first.status !== 200) throw new Error(`${path}: ${first.status}`);
  for (let i = 0; i < 3; i++) await call(browser, route.loader as never, { path });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await call(browser, route.loader as never, { path });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const d = first.data as { rowCount?: number; tables?: { rows: unknown[] }[]; rows?: unknown[] };
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1], rows: d.rowCount ?? d.rows?.length, shown: d.tables?.[0]?.rows.length };
}

const MONTH = "desde=01-10-2026&hasta=31-10-2026";

async function measureScreens(browser: Browser, surname: string) {
  const cases: [string, Loader, string][] = [
    ["baseline: /invoices list, first page", list, "/invoices?page=1&perPage=10"],
    ["invoices report, month, first page", invoices, `/report-invoices?${MONTH}`],
    ["invoices report, month, page 50", invoices, `/report-invoices?${MONTH}&page=50`],
    [`invoices report, month, search "${surname}"`, invoices, `/report-invoices?${MONTH}&search=${encodeURIComponent(surname)}`],
    ["tickets report, month", tickets, `/report-tickets?${MONTH}`],
    ["notes report, month", notes, `/report-notes?${MONTH}`],
    ["notes report, month, NCS", notes, `/report-notes?${MONTH}&tipo=nc`],
    ["items report, month", items, `/report-items?${MONTH}`],
    ["expenses report, year", expensesReport, "/report-expenses?anio=2026"],
    ["IVA summary, month", iva, "/report-iva?mes=2026-10"],
    ["reception report, month", receptions, `/report-document-receptions?${MONTH}`],
    ["reception report, month, page 50", receptions, `/report-document-receptions?${MONTH}&page=50`],
    ["purchases report, month", purchases, `/report-purchases?${MONTH}`],
    ["purchases report, month, sorted by total (desc)", purchases, `/report-purchases?${MONTH}&orden=total&dir=desc`],
  ];
  const rounds: Record<string, { p50: number; p95: number; max: number; rows?: number; shown?: number }[]> = {};
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    loads.push(Math.round(os.loadavg()[0] * 10) / 10);
    for (const [name, route, path] of cases) (rounds[name] ??= []).push(await timeLoader(browser, route, path));
  }
  const out: Record<string, unknown> = {};
  const baseline = rounds[cases[0][0]].map((x) => x.p95);
  for (const [name] of cases) {
    const rs = rounds[name];
    const p95s = rs.map((x) => x.p95);
    out[name] = {
      rows: rs[0].rows,
      shown: rs[0].shown,
      p50Ms: rs.map((x) => round1(x.p50)),
      p95Ms: p95s.map(round1),
      maxMs: round1(Math.max(...rs.map((x) => x.max))),
      p95Spread: `${round1(Math.min(...p95s))}–${round1(Math.max(...p95s))}`,
      p95VsBaseline: round1(p95s.reduce((a, b, i) => a + b / baseline[i], 0) / p95s.length),
    };
  }
  return { runsPerCase: RUNS, rounds: ROUNDS, loadAtRoundStart: loads, cases: out };
}

/** One export: time to the first chunk and to the end, bytes, and peak memory added while it ran. */
async function timeExport(browser: Browser, path: string) {
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  }, 10);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await call(browser, excel.loader as never, { path });
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  const reader = r.response.body!.getReader();
  let first = 0;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - t0;
    bytes += value.byteLength;
    chunks.push(value);
  }
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  return { firstBytesMs: round1(first), totalMs: round1(total), nodeCpuMs: Math.round((cpu.user + cpu.system) / 1000), load1: Math.round(os.loadavg()[0] * 10) / 10, bytes, rssAddedMb: round1((peakRss - before.rss) / 2 ** 20), heapAddedMb: round1((peakHeap - before.heapUsed) / 2 ** 20), file: Buffer.concat(chunks) };
}

/** Rows of the report's table in an .xlsx, read with exceljs' streaming reader (the file is also checked to open). */
async function dataRows(file: Buffer, firstHeader: string) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(file), { worksheets: "emit", sharedStrings: "cache", styles: "ignore", hyperlinks: "ignore" });
  let inTable = false;
  let n = 0;
  for await (const sheet of reader) for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
    if (inTable) n++;
    else if (row.getCell(1).value === firstHeader) inTable = true;
  }
  return n;
}

async function measureExcel(database: Database, browser: Browser, companyId: number, report: "invoices" | "purchases" = "invoices") {
  // The first day from which the busiest company has EXCEL_ROWS invoices (not rejected), or accepted
  // received documents, up to the last one.
  const table = report === "invoices" ? "documents" : "received_documents";
  const which = report === "invoices" ? "kind = 'fe' and status <> 'rechazado' and deleted_at is null" : "message in (1, 2) and status not in ('rechazado', 'no enviado')";
  const { day, last } = await one<{ day: string; last: string }>(
    database,
    `select to_char((issued_at at time zone 'America/Costa_Rica')::date, 'DD-MM-YYYY') as day,
            (select to_char((max(issued_at) at time zone 'America/Costa_Rica')::date, 'DD-MM-YYYY') from ${table} where company_id = ${companyId}) as last
       from ${table} where company_id = ${companyId} and ${which}
      order by issued_at desc, id desc offset ${EXCEL_ROWS - 1} limit 1`,
  );
  const path = `/report-${report}/excel?desde=${day}&hasta=${last}`;
  const runs: { firstBytesMs: number; totalMs: number; nodeCpuMs: number; load1: number; bytes: number; rssAddedMb: number; heapAddedMb: number; rows: number }[] = [];
  for (let i = 0; i < EXCEL_RUNS; i++) {
    const m = await timeExport(browser, path);
    const rows = await dataRows(m.file, report === "invoices" ? "Consecutivo" : "Cliente");
    runs.push({ firstBytesMs: m.firstBytesMs, totalMs: m.totalMs, nodeCpuMs: m.nodeCpuMs, load1: m.load1, bytes: m.bytes, rssAddedMb: m.rssAddedMb, heapAddedMb: m.heapAddedMb, rows });
  }
  const spread = (k: "firstBytesMs" | "totalMs" | "nodeCpuMs" | "rssAddedMb" | "heapAddedMb") => `${Math.min(...runs.map((r) => r[k]))}–${Math.max(...runs.map((r) => r[k]))}`;
  return { range: `${day} … ${last}`, runs, spread: { firstBytesMs: spread("firstBytesMs"), totalMs: spread("totalMs"), nodeCpuMs: spread("nodeCpuMs"), rssAddedMb: spread("rssAddedMb"), heapAddedMb: spread("heapAddedMb") } };
}

/** A database seeded by an earlier run (BENCH_KEEP_DATABASE): its busiest company, signed in again. */
async function reuse(database: Database) {
  const owner = await one<{ companyId: number; userId: number }>(
    database,
    `select c.id as "companyId", cu.user_id as "userId" from companies c join company_users cu on cu.company_id = c.id where c.name = 'Bench 0 S.A.' order by c.id limit 1`,
  );
  const sample = await one<{ name: string }>(database, `select client_snapshot->>'name' as name from documents where company_id = ${owner.companyId} and kind = 'fe' order by id limit 1 offset 300000`);
  return { owner: { companyId: owner.companyId, browser: await signedIn(database.db, owner.userId, owner.companyId) }, sample, seeded: { reused: true } };
}

async function run(database: Database, documents: number, reused = false) {
  await migrateDatabase(database);
  setDatabase(database);
  const { owner, sample, seeded } = reused ? await reuse(database) : await fill(database, documents);
  const extra = reused ? {} : await addReportData(database);
  const surname = sample.name.split(" ").slice(1).join(" ");
  const screens = await measureScreens(owner.browser, surname);
  const excelRuns = await measureExcel(database, owner.browser, owner.companyId);
  const purchasesExcel = process.env.BENCH_SKIP_PURCHASES_EXCEL ? null : await measureExcel(database, owner.browser, owner.companyId, "purchases");
  return { seeded: { ...seeded, ...extra }, screens, excel: excelRuns, purchasesExcel };
}

async function onPostgres(url: string, documents: number) {
  // BENCH_REPORTS_DATABASE: measure again on a database kept by an earlier run (no seeding).
  const kept = process.env.BENCH_REPORTS_DATABASE;
  const name = kept || `colibri_bench_reports_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  if (!kept) await admin.unsafe(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), maxConnections: 4 });
  try {
    return await run(database, documents, !!kept);
  } finally {
    setDatabase(undefined);
    await database.close();
    if (process.env.BENCH_KEEP_DATABASE || kept) console.error(`kept database ${name}`);
    else await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function onPglite(documents: number) {
  const database = await openDatabase({});
  try {
    return await run(database, documents);
  } finally {
    setDatabase(undefined);
    await database.close();
  }
}

export async function benchReports() {
  process.env.APP_SECRET ||= "bench-secret";
  const url = process.env.BENCH_DATABASE_URL || "postgres://postgres:postgres@127.0.0.1:5432/postgres";
  const pgDocuments = Number(process.env.BENCH_DOCUMENTS || 1_000_000);
  const pgliteDocuments = Number(process.env.BENCH_PGLITE_DOCUMENTS || 200_000);
  const result: Record<string, unknown> = {
    budget: "each report's first page for a month p95 ≤ 100 ms (1,000,000 documents, PostgreSQL); Excel of 100,000 rows: first bytes ≤ 1 s, whole file ≤ 5 s, peak memory added ≤ 100 MB",
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  if (!process.env.BENCH_SKIP_POSTGRES) result.postgres = await onPostgres(url, pgDocuments);
  if (!process.env.BENCH_SKIP_PGLITE) result.pglite = { note: `PGlite at ${pgliteDocuments} documents; its memory figures include the embedded database's own`, ...(await onPglite(pgliteDocuments)) };
  result.loadAfter = os.loadavg().map((n) => Math.round(n * 100) / 100);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchReports(), null, 2));
}
