// The documents added up by day, kept by the database (docs/decisions/156): the table document_days,
// written by deferred triggers of documents and filled for existing rows by the custom migration
// document_days_triggers. Checked here, on both databases:
// - the dashboard's daily sums (dailySums) and the companies list's documents of the year equal, to
//   the last digit, what the queries they replaced computed from documents on every request — those
//   queries are kept below only as the oracle — for documents of every kind and state, in colones and
//   in dollars at a rate with five decimals, on both sides of a Costa Rica midnight;
// - they follow every change: Hacienda's rejection and a document accepted again, a new total or
//   rate, a document moved to another day or company, a deletion, several changes of one document in
//   one transaction, and a transaction rolled back;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { documents } from "../../db/schema/index.ts";
import { dailySums } from "../../db/queries/dashboard.ts";
import { companiesPage } from "../../db/queries/companies.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let userId: number;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};

/** Costa Rica midnight (UTC−6) of a day. */
const crMidnight = (day: string) => new Date(`${day}T06:00:00Z`);
const SINCES = [crMidnight("2026-01-01"), crMidnight("2026-05-01"), crMidnight("2026-10-01"), crMidnight("2026-10-02")];

/** The document half of dailySums until decision 156, verbatim: the oracle. */
async function oldDocumentSums(company: number, since: Date) {
  return rows<{ kind: string; day: string; total: string }>(
    database.db,
    sql`select kind, day, sum(total)::text as total from (
          select kind, to_char(issued_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD') as day,
                 total_comprobante * exchange_rate as total
            from documents
           where company_id = ${company} and issued_at >= ${since.toISOString()}::timestamptz and kind in ('fe','te','nc') and status <> 'rechazado'
        ) s group by kind, day`,
  );
}

/** The companies list's documents of the year until decision 156, verbatim. */
async function oldDocumentsThisYear(company: number, since: Date) {
  const [{ n }] = await rows<{ n: number }>(
    database.db,
    sql`select (select count(*)::int from documents d where d.company_id = ${company} and d.kind <> 'qt' and d.issued_at >= ${since.toISOString()}::timestamptz) as n`,
  );
  return n;
}

const order = <T extends { kind: string; day: string }>(list: T[]) => [...list].sort((a, b) => `${a.kind}${a.day}`.localeCompare(`${b.kind}${b.day}`));

/** The new sums and counts against the oracle's, for both companies and every starting day. */
async function expectSameAsBefore() {
  for (const company of [companyId, otherCompanyId]) {
    for (const since of SINCES) {
      const documentsOnly = (await dailySums(database.db, { companyId: company, since, daysFrom: since })).filter((r) => r.kind !== "expense");
      expect(order(documentsOnly), `${company} ${since.toISOString()}`).toEqual(order(await oldDocumentSums(company, since)));
    }
  }
  // The companies list counts from 1 January (Costa Rica) of the year of `now`.
  const list = await companiesPage(database.db, { userId, all: false, search: "", page: 1, perPage: 10, now: new Date("2026-11-20T12:00:00Z") });
  for (const company of [companyId, otherCompanyId]) {
    const row = list.rows.find((r) => r.id === company)!;
    expect(row.documentsThisYear).toBe(await oldDocumentsThisYear(company, crMidnight("2026-01-01")));
  }
}

async function dayRows() {
  return rows<Record<string, unknown>>(
    database.db,
    sql`select company_id, day::text as day, kind, rejected, documents, total_crc::text as total_crc from document_days order by company_id, day, kind, rejected`,
  );
}

async function insertDocument(name: string, over: Partial<typeof documents.$inferInsert> & { issuedAt: Date }) {
  const [row] = await database.db
    .insert(documents)
    .values({ companyId, kind: "fe", status: "aceptado", totalComprobante: "1130.00000", ...over })
    .returning({ id: documents.id });
  ids[name] = row.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  userId = user.id;
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  // 1 October 2026 05:59 UTC is still 30 September in Costa Rica; 06:00 is 1 October.
  await insertDocument("septemberLate", { issuedAt: new Date("2026-10-01T05:59:59Z"), totalComprobante: "100.10000" });
  await insertDocument("octoberFirst", { issuedAt: new Date("2026-10-01T06:00:00Z"), totalComprobante: "200.20000" });
  await insertDocument("octoberSecond", { issuedAt: new Date("2026-10-01T20:00:00Z"), totalComprobante: "0.00001" });
  await insertDocument("dollars", { issuedAt: new Date("2026-10-01T21:00:00Z"), currencyId: 1, exchangeRate: "506.33333", totalComprobante: "11.31130" });
  await insertDocument("ticket", { issuedAt: new Date("2026-10-02T15:00:00Z"), kind: "te", totalComprobante: "5650.00000" });
  await insertDocument("ticketRejected", { issuedAt: new Date("2026-10-02T16:00:00Z"), kind: "te", status: "rechazado", totalComprobante: "999.00000" });
  await insertDocument("credit", { issuedAt: new Date("2026-10-03T15:00:00Z"), kind: "nc", totalComprobante: "113.00000" });
  await insertDocument("debit", { issuedAt: new Date("2026-10-03T15:30:00Z"), kind: "nd", totalComprobante: "50.00000" });
  await insertDocument("quotation", { issuedAt: new Date("2026-10-03T16:00:00Z"), kind: "qt", status: "no aplica", totalComprobante: "7777.00000" });
  await insertDocument("pending", { issuedAt: new Date("2026-11-05T15:00:00Z"), status: "por enviar", totalComprobante: "300.00000" });
  await insertDocument("lastYear", { issuedAt: new Date("2025-12-31T23:00:00Z"), totalComprobante: "400.00000" });
  await insertDocument("other", { issuedAt: new Date("2026-10-01T15:00:00Z"), companyId: otherCompanyId, totalComprobante: "1.00000" });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("documents added up by day, kept by the database", () => {
  it("one row per company, Costa Rica day, kind and rejection, with the count and the unrounded total in colones", async () => {
    const ofCompany = (await dayRows()).filter((r) => r.company_id === companyId);
    expect(ofCompany).toContainEqual({ company_id: companyId, day: "2026-09-30", kind: "fe", rejected: false, documents: 1, total_crc: "100.1000000000" });
    // 200.2 + 0.00001 + 11.3113 × 506.33333 (= 5727.28819562…)
    expect(ofCompany).toContainEqual({ company_id: companyId, day: "2026-10-01", kind: "fe", rejected: false, documents: 3, total_crc: "5927.4882056290" });
    expect(ofCompany).toContainEqual({ company_id: companyId, day: "2026-10-02", kind: "te", rejected: true, documents: 1, total_crc: "999.0000000000" });
    expect(ofCompany.filter((r) => r.kind === "qt")).toHaveLength(1);
  });

  it("the dashboard's sums and the companies list's count equal the queries they replaced", async () => {
    await expectSameAsBefore();
    const since = crMidnight("2026-10-01");
    const sums = await dailySums(database.db, { companyId, since, daysFrom: since });
    expect(sums.filter((r) => r.kind !== "expense").map((r) => `${r.kind} ${r.day}`).sort()).toEqual(["fe 2026-10-01", "fe 2026-11-05", "nc 2026-10-03", "te 2026-10-02"]);
  });

  it("follows every change of a document, commits only, and drops a day left empty", async () => {
    // Hacienda rejects an invoice, and a rejected ticket is accepted on a second try.
    await database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, ids.octoberFirst));
    await database.db.update(documents).set({ status: "aceptado" }).where(eq(documents.id, ids.ticketRejected));
    await expectSameAsBefore();
    expect((await dayRows()).filter((r) => r.company_id === companyId && r.day === "2026-10-02" && r.rejected)).toEqual([]);
    // A new total and rate; a document moved to another day and to another company.
    await database.db.update(documents).set({ totalComprobante: "12.34567", exchangeRate: "507.00001" }).where(eq(documents.id, ids.dollars));
    await database.db.update(documents).set({ issuedAt: new Date("2026-10-20T15:00:00Z") }).where(eq(documents.id, ids.credit));
    await database.db.update(documents).set({ companyId: otherCompanyId }).where(eq(documents.id, ids.debit));
    await expectSameAsBefore();
    // Changes that do not touch the sums (a payment, the e-mail) leave the rows alone.
    const before = await dayRows();
    await database.db.update(documents).set({ paymentAmount: "100.00000", emailError: "x" }).where(eq(documents.id, ids.ticket));
    expect(await dayRows()).toEqual(before);
    // Several changes of one document in one transaction; a second document issued and rejected in it.
    await database.db.transaction(async (tx) => {
      await tx.update(documents).set({ totalComprobante: "1.50000" }).where(eq(documents.id, ids.pending));
      await tx.update(documents).set({ status: "procesando" }).where(eq(documents.id, ids.pending));
      await tx.update(documents).set({ totalComprobante: "2.25000", issuedAt: new Date("2026-11-06T15:00:00Z") }).where(eq(documents.id, ids.pending));
      const [row] = await tx.insert(documents).values({ companyId, kind: "te", status: "por enviar", issuedAt: new Date("2026-11-06T16:00:00Z"), totalComprobante: "10.00000" }).returning({ id: documents.id });
      await tx.update(documents).set({ status: "rechazado" }).where(eq(documents.id, row.id));
    });
    await expectSameAsBefore();
    // A transaction rolled back leaves nothing.
    const committed = await dayRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(documents).values({ companyId, kind: "fe", issuedAt: new Date("2026-11-07T15:00:00Z"), totalComprobante: "5.00000" });
        await tx.update(documents).set({ status: "rechazado" }).where(eq(documents.id, ids.ticket));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await dayRows()).toEqual(committed);
    // Deleted: the only document of its day, so the day's row goes.
    await database.db.delete(documents).where(eq(documents.id, ids.septemberLate));
    expect((await dayRows()).filter((r) => r.company_id === companyId && r.day === "2026-09-30")).toEqual([]);
    await expectSameAsBefore();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await dayRows()).length).toBeGreaterThan(8);
    await expectBackfillRewrites(database.db, { migration: "document_days_triggers", table: "document_days", source: "documents", read: dayRows });
    await expectSameAsBefore();
  });
});
