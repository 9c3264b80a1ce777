// Issuing throughput (issue 5 item 11): documents per second, sign included, with 20 concurrent
// issuers on one company — on PGlite (in-memory) and on PostgreSQL (BENCH_DATABASE_URL or
// DATABASE_URL; a temporary database is created and dropped). Printed, never asserted.
// Run alone: `npx tsx bench/run.ts issuing`.
import os from "node:os";
import postgres from "postgres";
import { eq } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Database } from "../db/client.ts";
import { clients, companies, documents } from "../db/schema/index.ts";
import { makeTestP12 } from "../app/hacienda/cert.ts";
import { loadP12 } from "../app/hacienda/p12.ts";
import { loadSchemaSet } from "../app/hacienda/xsd/load.server.ts";
import { defaultXsdDir } from "../app/hacienda/sandbox/real.ts";
import type { DocumentDraft } from "../app/domain/document-draft.ts";
import { issueDocument } from "../app/server/issue-document.server.ts";

const CONCURRENCY = 20;

function draft(clientId: number, lines: number): DocumentDraft {
  return {
    kind: "fe",
    clientId,
    saleCondition: "01",
    payments: [{ code: "01" }],
    currency: "CRC",
    exchangeRate: "1",
    lines: Array.from({ length: lines }, (_, i) => ({
      cabys: i % 2 ? "8313100000000" : "4523000000100",
      description: `Artículo de prueba ${i + 1}`,
      quantity: String(1 + (i % 3)),
      unit: i % 2 ? "Sp" : "Unid",
      unitPrice: "12500.5",
      discountPercent: i % 3 === 0 ? "5" : undefined,
      tax: { tarifaCode: i % 2 ? "04" : "08" },
    })),
  };
}

async function setup(database: Database) {
  await migrateDatabase(database);
  const db = database.db;
  const [c] = await db
    .insert(companies)
    .values({ name: "Empresa de prueba S.A.", identificationTypeId: 2, identification: "3101123456", email: "f@example.cr", phone: "22223333", provinceNumber: 1, cantonNumber: 1, districtNumber: 1, otherSigns: "Frente al parque central", economicActivityCode: "6201.0" })
    .returning();
  const [cl] = await db
    .insert(clients)
    .values({ companyId: c.id, name: "Cliente de prueba Ltda", identificationTypeId: 2, identification: "3102654321", email: "c@example.cr", phone: "22224444", address: "Costado sur del parque", provinceNumber: 1, cantonNumber: 1, districtNumber: 1 })
    .returning();
  return { companyId: c.id, clientId: cl.id };
}

async function measure(database: Database, lines: number, concurrency: number, total: number) {
  const { companyId, clientId } = await setup(database);
  const pin = "1234";
  const key = loadP12(makeTestP12({ cedula: "3101123456", idType: "02", name: "EMPRESA", pin, notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 365 * 86_400_000) }), pin, { now: new Date() });
  const schemaSet = loadSchemaSet(defaultXsdDir());
  const keyFor = async () => key;
  const one = () => issueDocument(database.db, { companyId, userId: null, draft: draft(clientId, lines), now: new Date(), schemaSet, keyFor });
  for (let i = 0; i < 10; i++) await one(); // warm-up
  let next = 0;
  let failures = 0;
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const s = performance.now();
        const r = await one();
        latencies.push(performance.now() - s);
        if (!r.ok) failures++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const numbers = (await database.db.select({ n: documents.number }).from(documents).where(eq(documents.companyId, companyId))).map((r) => r.n!).sort((a, b) => a - b);
  const gapless = numbers.every((n, i) => n === i + 1);
  return {
    documents: latencies.length,
    docsPerSecond: Math.round((latencies.length / seconds) * 10) / 10,
    p50Ms: Math.round(latencies[Math.floor(latencies.length * 0.5)]),
    p95Ms: Math.round(latencies[Math.floor(latencies.length * 0.95)]),
    failures,
    consecutivesGapless: gapless,
  };
}

export async function benchIssuing() {
  const out: Record<string, unknown> = { cpus: os.cpus().length, concurrency: CONCURRENCY };
  const total = Number(process.env.BENCH_ISSUING_DOCS || 300);
  for (const lines of [1, 10]) {
    const lite = await openDatabase({});
    try {
      out[`pglite:${lines} line(s)`] = await measure(lite, lines, CONCURRENCY, total);
    } finally {
      await lite.close();
    }
  }
  const pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (pgUrl) {
    const u = new URL(pgUrl);
    u.pathname = "/postgres";
    const admin = postgres(u.toString(), { max: 1, onnotice: () => {} });
    for (const lines of [1, 10]) {
      const name = `colibri_bench_issuing_${process.pid}_${lines}`;
      await admin.unsafe(`create database ${name}`);
      u.pathname = `/${name}`;
      const pg = await openDatabase({ databaseUrl: u.toString(), maxConnections: CONCURRENCY });
      try {
        out[`postgres:${lines} line(s)`] = await measure(pg, lines, CONCURRENCY, total);
      } finally {
        await pg.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      }
    }
    await admin.end();
  } else out.postgres = "omitido: defina BENCH_DATABASE_URL o DATABASE_URL";
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchIssuing(), null, 2));
}
