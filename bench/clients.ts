// Client search benchmark (issue 4 §8): p95 of the list query the /clients loader runs
// (clientsPage: search + page, with the count) over 100,000 clients of one company, on PostgreSQL
// (a temporary database under BENCH_DATABASE_URL or DATABASE_URL) and on PGlite (in memory).
// Budget ≤ 50 ms on PostgreSQL. Numbers are printed, never asserted.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrateDatabase, openDatabase, type Database } from "../db/client.ts";
import { clientBalances, clientsPage } from "../db/queries/clients.ts";
import { companies } from "../db/schema/index.ts";

const CLIENTS = 100_000;
const RUNS = 300;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const FIRST = ["María", "José", "Ana", "Luis", "Carlos", "Sofía", "Jorge", "Lucía", "Andrés", "Valeria", "Diego", "Camila", "Pablo", "Elena", "Ricardo", "Gabriela"];
const LAST = ["Rodríguez", "Vargas", "Jiménez", "Mora", "Rojas", "Solís", "Araya", "Herrera", "Castro", "Chaves", "Quesada", "Alfaro", "Ulate", "Brenes", "Salas", "Montero"];
/** Typical searches: a name or surname prefix, two words, an identification prefix, an e-mail. */
const TERMS = ["mar", "Rodr", "solís", "vargas mora", "ana", "1000042", "31010004", "luis4242@", "jose 4242", "zzz-no-existe", "Herrera Castro", "ulate brenes", "sofía araya", "", "gab", "montero salas"];
/** A word on a large share of the rows (the shared e-mail domain), measured apart. */
const BROAD = "gmail";

async function fill(database: Database): Promise<number> {
  const db = database.db;
  const [c] = await db
    .insert(companies)
    .values({ name: "Bench S.A.", identificationTypeId: 2, identification: "3101999999", email: "bench@example.cr", phone: "22223333", provinceNumber: 1, cantonNumber: 1, districtNumber: 1, otherSigns: "x" })
    .returning({ id: companies.id });
  const first = `array[${FIRST.map((s) => `'${s}'`).join(",")}]`;
  const last = `array[${LAST.map((s) => `'${s}'`).join(",")}]`;
  const insert = `insert into clients (company_id, name, identification_type_id, identification, email, phone, address, country_id, province_number, canton_number, district_number, active, provider)
    select ${c.id},
      (${first})[1 + (g % 16)] || ' ' || (${last})[1 + ((g / 16) % 16)] || ' ' || (${last})[1 + ((g / 256) % 16)],
      case when g % 3 = 0 then 2 else 1 end,
      case when g % 3 = 0 then (3101000000 + g)::text else (100000000 + g * 7)::text end,
      lower(translate((${first})[1 + (g % 16)], 'áéíóú', 'aeiou')) || g || '@' || (array['gmail.com','hotmail.com','yahoo.com','ice.co.cr','racsa.co.cr','empresa' || (g % 500) || '.cr'])[1 + (g % 6)],
      (80000000 + g)::text, 'Dirección ' || g, 60, 1, 1, 1, g % 10 <> 0, g % 20 = 0
    from generate_series(1, ${CLIENTS}) g`;
  if (database.kind === "pglite") await database.pglite!.exec(insert);
  else await db.execute(insert as never);
  if (database.kind === "pglite") await database.pglite!.exec("vacuum analyze clients");
  else await db.execute("vacuum analyze clients" as never);
  return c.id;
}

async function measure(database: Database, companyId: number) {
  const db = database.db;
  // Warm-up.
  for (const t of TERMS) await clientsPage(db, { companyId, provider: false, active: true, search: t, page: 1, perPage: 10 });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const search = TERMS[i % TERMS.length];
    const page = i % 7 === 0 ? 1 + (i % 40) : 1;
    const perPage = [10, 20, 50, 100][i % 4];
    const t0 = performance.now();
    const { rows } = await clientsPage(db, { companyId, provider: false, active: i % 5 !== 0, search, page, perPage });
    await clientBalances(db, { companyId, clientIds: rows.map((r) => r.id) });
    times.push(performance.now() - t0);
  }
  if (process.env.BENCH_VERBOSE) {
    for (const t of TERMS) {
      const t0 = performance.now();
      await clientsPage(db, { companyId, provider: false, active: true, search: t, page: 1, perPage: 10 });
      console.log(JSON.stringify(t), Math.round(performance.now() - t0));
    }
  }
  times.sort((a, b) => a - b);
  const broad: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await clientsPage(db, { companyId, provider: false, active: true, search: BROAD, page: 1, perPage: 10 });
    broad.push(performance.now() - t0);
  }
  broad.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    runs: RUNS,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times[times.length - 1]),
    broadTerm: { search: BROAD, shareOfRows: "1/6", p50Ms: round(percentile(broad, 50)), p95Ms: round(percentile(broad, 95)) },
  };
}

async function onPostgres(url: string) {
  const name = `colibri_bench_clients_${randomBytes(4).toString("hex")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), maxConnections: 4 });
  try {
    await migrateDatabase(database);
    const t0 = performance.now();
    const companyId = await fill(database);
    const fillMs = Math.round(performance.now() - t0);
    return { clients: CLIENTS, fillMs, ...(await measure(database, companyId)) };
  } finally {
    await database.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function onPglite() {
  const database = await openDatabase({});
  try {
    await migrateDatabase(database);
    const t0 = performance.now();
    const companyId = await fill(database);
    const fillMs = Math.round(performance.now() - t0);
    return { clients: CLIENTS, fillMs, ...(await measure(database, companyId)) };
  } finally {
    await database.close();
  }
}

export async function benchClients() {
  const url = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  const result: Record<string, unknown> = { budget: "client search p95 ≤ 50 ms on PostgreSQL (100,000 clients, search + page + count + balances)" };
  if (url) result.postgres = await onPostgres(url);
  else result.postgres = "skipped: set BENCH_DATABASE_URL or DATABASE_URL";
  if (!process.env.BENCH_SKIP_PGLITE) result.pglite = await onPglite();
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchClients(), null, 2));
}
