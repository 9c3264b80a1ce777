// Invoice list benchmark (issue 5): 1,000,000 documents (mostly invoices, plus tickets and notes)
// of three companies and 10,000 clients, seeded with set-based SQL, on PostgreSQL (a temporary
// database under BENCH_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres);
// p50/p95 of the real /invoices loader (root middleware, session page memory, documentList with its
// count, currencies) for the company holding most documents: first page, a deep page, each filter,
// a search by client name and by consecutive number. PGlite too, at 100,000 documents by default
// (BENCH_PGLITE_DOCUMENTS; 1M takes minutes to seed there). Also the gzip JavaScript /new-invoice
// ships (bench/foundation.ts's measure, on the production build). Budgets printed, never asserted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrateDatabase, openDatabase, setDatabase, type Database } from "../db/client.ts";
import { companyUsers, currencies } from "../db/schema/index.ts";
import * as ref from "../db/seed/reference-data.ts";
import * as list from "../app/routes/documents/documents-list.tsx";
import { call, createCompany, createUser, signedIn, type Browser } from "../tests/setup/app.ts";
import { backfillStatement } from "../tests/setup/migration-backfill.ts";
import { shipped, signIn, startServer } from "./foundation.ts";

const CLIENTS = 10_000;
const RUNS = Number(process.env.BENCH_DOCUMENT_RUNS || 40);
/** Share of documents per company (the first holds most). */
const SHARES = [0.7, 0.2, 0.1];

export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function exec(database: Database, query: string) {
  if (database.kind === "pglite") await database.pglite!.exec(query);
  else await database.db.execute(query as never);
}

export async function all<T>(database: Database, query: string): Promise<T[]> {
  if (database.kind === "pglite") return (await database.pglite!.query<T>(query)).rows;
  return (await database.db.execute(query as never)) as unknown as T[];
}

export async function one<T>(database: Database, query: string): Promise<T> {
  if (database.kind === "pglite") return (await database.pglite!.query<T>(query)).rows[0];
  return ((await database.db.execute(query as never)) as unknown as T[])[0];
}

const FIRST = ["María", "José", "Ana", "Luis", "Carlos", "Sofía", "Jorge", "Lucía", "Andrés", "Valeria", "Diego", "Camila", "Pablo", "Elena", "Ricardo", "Gabriela"];
const LAST = ["Rodríguez", "Vargas", "Jiménez", "Mora", "Rojas", "Solís", "Araya", "Herrera", "Castro", "Chaves", "Quesada", "Alfaro", "Ulate", "Brenes", "Salas", "Montero"];
const sqlArray = (xs: string[]) => `array[${xs.map((s) => `'${s}'`).join(",")}]`;

/**
 * The tables the database keeps by triggers from a table the benchmarks fill in bulk (`source`):
 * their insert trigger on it and the migration whose backfill fills them.
 */
const KEPT_BY_TRIGGERS = [
  { source: "documents", table: "document_days", trigger: "document_days_insert", migration: "document_days_triggers" },
  { source: "documents", table: "pending_documents", trigger: "pending_documents_insert", migration: "pending_documents_triggers" },
  { source: "documents", table: "document_counts", trigger: "document_counts_insert", migration: "document_counts_triggers" },
  { source: "expenses", table: "expense_days", trigger: "expense_days_insert", migration: "expense_days_triggers" },
  { source: "expenses", table: "expense_counts", trigger: "expense_counts_insert", migration: "expense_counts_triggers" },
  { source: "received_documents", table: "received_expense_days", trigger: "received_expense_days_insert", migration: "received_expense_days_triggers" },
  { source: "received_documents", table: "pending_receptions", trigger: "pending_receptions_insert", migration: "pending_receptions_triggers" },
  { source: "received_documents", table: "received_document_tariffs", trigger: "received_document_tariffs_insert", migration: "received_document_tariffs_backfill" },
  { source: "received_documents", table: "reception_days", trigger: "reception_days_insert", migration: "reception_days_triggers" },
];

/** Before a bulk insert into `source`: its insert triggers that keep other tables are disabled. */
export async function disableKeptTriggers(database: Database, source: string) {
  for (const k of KEPT_BY_TRIGGERS.filter((k) => k.source === source)) await exec(database, `alter table ${source} disable trigger ${k.trigger}`);
}

/**
 * After it: the triggers are enabled again and each table they keep is filled once, from everything
 * in `source`, by its migration's own backfill instead of a deferred trigger call per row at commit.
 */
export async function refillKeptTables(database: Database, source: string) {
  for (const k of KEPT_BY_TRIGGERS.filter((k) => k.source === source)) {
    await exec(database, `alter table ${source} enable trigger ${k.trigger}`);
    await exec(database, `delete from ${k.table}`);
    await exec(database, backfillStatement(k.migration, k.table, source));
  }
}

/**
 * Three companies (one user each, an administrator, as whoever signs a company up is), CLIENTS
 * clients split by SHARES, then `documents` documents: 80 % fe, 12 % te, 5 % nc, 2 % nd, 1 % fec
 * over ~3 years (newest last); 85 % aceptado, 7 % rechazado, 5 % procesando, 3 % por enviar;
 * invoices 60 % paid, 10 % partly, 30 % unpaid.
 * (bench/reports.ts seeds the same data and adds lines, note references and expenses.)
 */
export async function fill(database: Database, documents: number) {
  const db = database.db;
  await db.insert(currencies).values(ref.currencies.map((r) => ({ id: r.id, code: r.code, name: r.name, symbol: r.symbol }))).onConflictDoNothing();
  const owners: { companyId: number; browser: Browser }[] = [];
  for (let i = 0; i < SHARES.length; i++) {
    const user = await createUser(db, { email: `bench${i}-${process.pid}@example.cr`, role: "admin" });
    const company = await createCompany(db, { name: `Bench ${i} S.A.`, identification: String(3101900000 + i) });
    await db.insert(companyUsers).values({ companyId: company.id, userId: user.id });
    owners.push({ companyId: company.id, browser: await signedIn(db, user.id, company.id) });
  }
  const t0 = performance.now();
  // Clients: company i gets SHARES[i] of them (a contiguous range of g).
  const bounds = SHARES.map((_, i) => Math.round(SHARES.slice(0, i).reduce((a, b) => a + b, 0) * CLIENTS));
  const companyOfClient = `case ${owners.map((o, i) => `when g > ${bounds[i]} ${i + 1 < owners.length ? `and g <= ${bounds[i + 1]}` : ""} then ${o.companyId}`).join(" ")} end`;
  await exec(
    database,
    `insert into clients (company_id, name, identification_type_id, identification, email, phone, address, country_id, province_number, canton_number, district_number)
     select ${companyOfClient},
       (${sqlArray(FIRST)})[1 + (g % 16)] || ' ' || (${sqlArray(LAST)})[1 + ((g / 16) % 16)] || ' ' || (${sqlArray(LAST)})[1 + ((g / 256) % 16)],
       case when g % 3 = 0 then 2 else 1 end,
       case when g % 3 = 0 then (3101000000 + g)::text else (100000000 + g * 7)::text end,
       'cliente' || g || '@example.cr', (80000000 + g)::text, 'Dirección ' || g, 60, 1, 1, 1
     from generate_series(1, ${CLIENTS}) g`,
  );
  const { min } = await one<{ min: number }>(database, "select min(id)::int as min from clients");
  const clientsMs = performance.now() - t0;
  // Documents: g % 10 picks the company (7 / 2 / 1), a multiplicative hash picks its client.
  const companyIndex = `case when g % 10 < 7 then 0 when g % 10 < 9 then 1 else 2 end`;
  const sizes = SHARES.map((_, i) => (i + 1 < SHARES.length ? bounds[i + 1] : CLIENTS) - bounds[i]);
  const clientOf = `${min - 1} + (array[${bounds.join(",")}])[1 + d.ci] + 1 + ((d.g::bigint * 48271) % (array[${sizes.join(",")}])[1 + d.ci])::int`;
  const t1 = performance.now();
  // Bulk load: the migrations' indexes of documents (not its keys) are dropped and built again after
  // the insert, with their own definitions (pg_get_indexdef): faster than growing them row by row.
  const indexes = await all<{ name: string; def: string }>(
    database,
    `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid = 'documents'::regclass and not x.indisprimary and not x.indisunique`,
  );
  for (const i of indexes) await exec(database, `drop index "${i.name}"`);
  // The documents' days (document_days, decision 156), the pending counts (pending_documents,
  // decision 158) and the live counts (document_counts, decision 200) are added up once after the load.
  await disableKeptTriggers(database, "documents");
  await exec(
    database,
    `insert into documents (company_id, kind, client_id, status, issued_at, currency_id, exchange_rate, total_comprobante, branch, terminal, number, consecutivo, clave, situacion,
       sale_condition, credit_days, expiration_date, client_snapshot, subtotal, tax, payment_amount, submitted_at, answered_at)
     select c.company_id, d.kind, c.id, d.status, d.issued_at, d.currency_id, case when d.currency_id = 1 then 505.5 else 1 end, d.total, 1, 1, d.g,
       '00100001' || d.code || lpad(d.g::text, 10, '0'),
       '506' || to_char(d.issued_at, 'DDMMYY') || lpad(co.identification, 12, '0') || '00100001' || d.code || lpad(d.g::text, 10, '0') || '1' || lpad((d.g::bigint * 7919 % 99999999)::text, 8, '0'),
       1, case when d.credit then '02' else '01' end, case when d.credit then 30 end,
       (d.issued_at at time zone 'America/Costa_Rica')::date + case when d.credit then 30 else 0 end,
       jsonb_build_object('name', c.name, 'idType', lpad(c.identification_type_id::text, 2, '0'), 'idNumber', c.identification, 'email', c.email),
       round(d.total / 1.13, 5), d.total - round(d.total / 1.13, 5),
       case when d.kind not in ('fe', 'fec') or d.status = 'rechazado' then 0 when d.p < 60 then d.total when d.p < 70 then round(d.total / 2, 5) else 0 end,
       d.issued_at + interval '5 seconds', case when d.status in ('aceptado', 'rechazado') then d.issued_at + interval '2 minutes' end
     from (
       select g, ci, k, p, kind, code, status, issued_at, currency_id, total, credit from (
         select g, ${companyIndex} as ci, (g * 31) % 100 as k, (g * 13 + g / 100) % 100 as p,
           case when (g * 31) % 100 < 80 then 'fe' when (g * 31) % 100 < 92 then 'te' when (g * 31) % 100 < 97 then 'nc' when (g * 31) % 100 < 99 then 'nd' else 'fec' end as kind,
           case when (g * 31) % 100 < 80 then '01' when (g * 31) % 100 < 92 then '04' when (g * 31) % 100 < 97 then '03' when (g * 31) % 100 < 99 then '02' else '08' end as code,
           case when (g * 17 + g / 7) % 100 < 85 then 'aceptado' when (g * 17 + g / 7) % 100 < 92 then 'rechazado' when (g * 17 + g / 7) % 100 < 97 then 'procesando' else 'por enviar' end as status,
           timestamptz '2026-11-20 18:00:00+00' - (${documents} - g) * (interval '95 seconds' * ${1_000_000 / documents}) as issued_at,
           case when g % 10 = 3 then 1 else 2 end as currency_id,
           (1000 + (g::bigint * 7907) % 2000000)::numeric(18,5) as total,
           (g * 11) % 10 < 4 as credit
         from generate_series(1, ${documents}) g
       ) x
     ) d
     join clients c on c.id = ${clientOf}
     join companies co on co.id = c.company_id`,
  );
  const insertMs = performance.now() - t1;
  await refillKeptTables(database, "documents");
  for (const i of indexes) await exec(database, i.def);
  const documentsMs = performance.now() - t1;
  const t2 = performance.now();
  await exec(database, "vacuum analyze clients");
  await exec(database, "vacuum analyze documents");
  const analyzeMs = performance.now() - t2;
  const counts = await one<{ n: number; top: number; fe: number; days: number; pending: number; counted: number }>(
    database,
    `select count(*)::int as n, (select count(*)::int from documents where company_id = ${owners[0].companyId}) as top,
            (select count(*)::int from documents where company_id = ${owners[0].companyId} and kind = 'fe') as fe,
            (select sum(documents)::int from document_days) as days,
            (select count(*)::int from documents where status in ('por enviar', 'procesando')) as pending,
            (select coalesce(sum(documents), 0)::int from pending_documents) as counted from documents`,
  );
  if (counts.n !== documents || counts.days !== documents) throw new Error(`seeded ${counts.n} documents (${counts.days} in document_days), expected ${documents}`);
  if (counts.counted !== counts.pending) throw new Error(`pending_documents counts ${counts.counted} documents, ${counts.pending} are pending`);
  // A client name and a consecutive of the busiest company to search for.
  const sample = await one<{ name: string; consecutivo: string }>(
    database,
    `select client_snapshot->>'name' as name, consecutivo from documents where company_id = ${owners[0].companyId} and kind = 'fe' order by id limit 1 offset ${Math.floor(documents / 3)}`,
  );
  return {
    owner: owners[0],
    sample,
    seeded: { documents: counts.n, busiestCompany: counts.top, busiestCompanyInvoices: counts.fe, clients: CLIENTS, clientsMs: Math.round(clientsMs), documentsMs: Math.round(documentsMs), documentsInsertMs: Math.round(insertMs), indexesRebuilt: indexes.map((i) => i.name), vacuumAnalyzeMs: Math.round(analyzeMs) },
  };
}

async function measure(owner: { browser: Browser }, sample: { name: string; consecutivo: string }) {
  const lastName = sample.name.split(" ").slice(1).join(" ");
  const scenarios: [string, string][] = [
    ["first page", "/invoices?page=1&perPage=10"],
    ["page 500", "/invoices?page=500&perPage=10"],
    ["filter aceptado", "/invoices?filter=aceptado&page=1&perPage=10"],
    ["filter rechazado", "/invoices?filter=rechazado&page=1&perPage=10"],
    ["filter pagado", "/invoices?filter=pagado&page=1&perPage=10"],
    ["filter no-pagado", "/invoices?filter=no-pagado&page=1&perPage=10"],
    ["filter rechazado, page 50", "/invoices?filter=rechazado&page=50&perPage=10"],
    [`search client "${lastName}"`, `/invoices?search=${encodeURIComponent(lastName)}&perPage=10`],
    [`search client "${sample.name}"`, `/invoices?search=${encodeURIComponent(sample.name)}&perPage=10`],
    [`search client beginning "${lastName.slice(0, 4)}"`, `/invoices?search=${encodeURIComponent(lastName.slice(0, 4))}&perPage=10`],
    ["search consecutive (20 digits)", `/invoices?search=${sample.consecutivo}&perPage=10`],
    ["search number (last digits)", `/invoices?search=${Number(sample.consecutivo.slice(10))}&perPage=10`],
  ];
  const round = (n: number) => Math.round(n * 10) / 10;
  const out: Record<string, unknown> = {};
  const all: number[] = [];
  for (const [name, pathName] of scenarios) {
    const first = await call(owner.browser, list.loader, { path: pathName });
    if (first.status !== 200) throw new Error(`${pathName}: ${first.status}`);
    for (let i = 0; i < 3; i++) await call(owner.browser, list.loader, { path: pathName });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await call(owner.browser, list.loader, { path: pathName });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    const data = first.data as { rows: unknown[]; total: number; lastPage: number; totalCapped?: boolean };
    out[name] = { p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), rows: data.rows.length, total: data.totalCapped ? `≥ ${data.total}` : data.total, lastPage: data.lastPage };
  }
  all.sort((a, b) => a - b);
  return { runsPerCase: RUNS, allCases: { p50Ms: round(percentile(all, 50)), p95Ms: round(percentile(all, 95)), maxMs: round(all[all.length - 1]) }, cases: out };
}

async function onPostgres(url: string, documents: number) {
  const name = `colibri_bench_documents_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), maxConnections: 4 });
  try {
    await migrateDatabase(database);
    setDatabase(database);
    const { owner, sample, seeded } = await fill(database, documents);
    return { seeded, ...(await measure(owner, sample)) };
  } finally {
    setDatabase(undefined);
    await database.close();
    // BENCH_KEEP_DATABASE=1 keeps the seeded database to study plans (EXPLAIN) by hand.
    if (process.env.BENCH_KEEP_DATABASE) console.error(`kept database ${name}`);
    else await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function onPglite(documents: number) {
  const database = await openDatabase({});
  try {
    await migrateDatabase(database);
    setDatabase(database);
    const { owner, sample, seeded } = await fill(database, documents);
    return { seeded, ...(await measure(owner, sample)) };
  } finally {
    setDatabase(undefined);
    await database.close();
  }
}

/** gzip JavaScript of /new-invoice on the production build (npm start: build, migrate, demo seed, serve). */
async function newInvoiceShipped() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-bench-docs-"));
  const server = await startServer({ command: ["npm", "start", "--silent"], port: 3303, dataDir: tmp });
  try {
    const base = "http://127.0.0.1:3303";
    const cookie = await signIn(base);
    return await shipped(base, "/new-invoice", cookie);
  } finally {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export async function benchDocuments() {
  // The loader runs in this process (sessions and CSRF are signed with APP_SECRET).
  process.env.APP_SECRET ||= "bench-secret";
  const url = process.env.BENCH_DATABASE_URL || "postgres://postgres:postgres@127.0.0.1:5432/postgres";
  const pgDocuments = Number(process.env.BENCH_DOCUMENTS || 1_000_000);
  const pgliteDocuments = Number(process.env.BENCH_PGLITE_DOCUMENTS || 100_000);
  const result: Record<string, unknown> = {
    budget: "invoice list p95 ≤ 50 ms (1,000,000 documents, PostgreSQL); /new-invoice ≤ 120 kB gzip JavaScript",
    load: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  if (!process.env.BENCH_SKIP_POSTGRES) result.postgres = await onPostgres(url, pgDocuments);
  if (!process.env.BENCH_SKIP_PGLITE) result.pglite = { note: pgliteDocuments < 1_000_000 ? `PGlite measured at ${pgliteDocuments} documents (seeding 1,000,000 in PGlite takes minutes)` : undefined, ...(await onPglite(pgliteDocuments)) };
  if (!process.env.BENCH_SKIP_SHIPPED) result["shipped:/new-invoice"] = { budget: "≤ 120 kB gzip JavaScript", ...(await newInvoiceShipped()) };
  result.loadAfter = os.loadavg().map((n) => Math.round(n * 100) / 100);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchDocuments(), null, 2));
}
