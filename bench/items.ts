// Items benchmark: CABYS search over a 25,000-code catalogue (p50/p95 per query; budget ≤ 30 ms) on PGlite
// and on PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL, a temporary database), and the import of a
// generated 25,000-row BCCR-layout spreadsheet (time and peak RSS). Prints numbers; never asserts.
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { migrateDatabase, openDatabase, type Database } from "../db/client.ts";
import { importCabysSpreadsheet, searchCabysCatalogue } from "../app/server/cabys.server.ts";
import { generatedCode, writeCabysXlsx } from "../tests/fixtures/cabys-xlsx.ts";

const ROWS = 25_000;
const QUERIES = [
  "cafe",
  "leche entera",
  "computadora portatil",
  "servicio de consultoria",
  "tornillo acero",
  "software a la medida",
  "pan integral modelo 12",
  "transporte terrestre",
  "medicamento",
  "zzzz sin resultados",
  generatedCode(1234).slice(0, 6),
  generatedCode(20_000).slice(0, 10),
  generatedCode(777),
];

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(database: Database, file: string) {
  let peak = process.memoryUsage().rss;
  const base = peak;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const result = await importCabysSpreadsheet(database.db, fs.createReadStream(file) as never);
  const importMs = Math.round(performance.now() - started);
  clearInterval(timer);
  if (!result.ok) throw new Error(`import failed: ${result.message}`);
  // Search: warm-up, then 20 rounds over the query set.
  for (const q of QUERIES) await searchCabysCatalogue(database.db, q, { fetch: async () => new Response("[]", { status: 404 }) });
  const times: number[] = [];
  const perQuery: Record<string, number[]> = {};
  for (let round = 0; round < 20; round++) {
    for (const q of QUERIES) {
      const t = performance.now();
      await searchCabysCatalogue(database.db, q, { fetch: async () => new Response("[]", { status: 404 }) });
      const ms = performance.now() - t;
      times.push(ms);
      (perQuery[q] ??= []).push(ms);
    }
  }
  times.sort((a, b) => a - b);
  const fmt = (n: number) => Math.round(n * 10) / 10;
  return {
    importRows: result.imported,
    importMs,
    importPeakRssMb: Math.round(peak / 1048576),
    importRssGrowthMb: Math.round((peak - base) / 1048576),
    searchP50Ms: fmt(percentile(times, 50)),
    searchP95Ms: fmt(percentile(times, 95)),
    searchPerQueryP95Ms: Object.fromEntries(Object.entries(perQuery).map(([q, t]) => [q, fmt(percentile(t.sort((a, b) => a - b), 95))])),
  };
}

export async function benchItems() {
  const file = await writeCabysXlsx({ rows: ROWS });
  const out: Record<string, unknown> = { spreadsheetBytes: fs.statSync(file).size, budget: "CABYS search p95 ≤ 30 ms" };
  try {
    const lite = await openDatabase({});
    await migrateDatabase(lite);
    try {
      out.pglite = await measure(lite, file);
    } finally {
      await lite.close();
    }
    const pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
    if (pgUrl) {
      const name = `colibri_bench_items_${process.pid}`;
      const u = new URL(pgUrl);
      u.pathname = "/postgres";
      const admin = postgres(u.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      u.pathname = `/${name}`;
      const pg = await openDatabase({ databaseUrl: u.toString(), maxConnections: 2 });
      try {
        await migrateDatabase(pg);
        out.postgres = await measure(pg, file);
      } finally {
        await pg.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchItems(), null, 2));
}
