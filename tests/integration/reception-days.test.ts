// The received documents counted by the database per company and Costa Rica day, as the expenses in
// expense_counts: the table reception_days, written by deferred triggers of received_documents and
// filled for existing rows by the custom migration reception_days_triggers. Checked here, on both
// databases:
// - its rows equal a count of the received documents by company and day (expense_day, the Costa Rica
//   day of issued_at) through a document's life: received, moved to another day or company, deleted,
//   several changes in one transaction, a rollback; other columns (acceptance, status, amounts) leave
//   it alone; a day left without documents has no row; a document issued at 23:30 Costa Rica time
//   (05:30 UTC the next day) counts on its Costa Rica day;
// - the received-documents list without a filter or search takes its total from these rows (with the
//   page's rows, or alone for a page past the end), summing only the range's days, while a filter or a
//   search still counts the documents; another company's documents never count;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { receivedDocuments } from "../../db/schema/index.ts";
import { RECEPTION_COUNT_AHEAD, receptionList, type ReceptionListRequest } from "../../db/queries/receptions.ts";
import { receivedRow } from "../fixtures/receptions.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};
let n = 0;

const dayRows = () => rows<Record<string, unknown>>(database.db, sql`select company_id, day::text as day, documents from reception_days order by company_id, day`);

/** The oracle: the received documents counted by company and Costa Rica day from the documents themselves. */
const counted = () =>
  rows<Record<string, unknown>>(database.db, sql`select company_id, expense_day::text as day, count(*)::int as documents from received_documents group by 1, 2 order by 1, 2`);

async function expectCounted() {
  expect(await dayRows()).toEqual(await counted());
}

/** The company's documents issued within the Costa Rica days `from`–`to`, counted by their instant (UTC−6). */
async function issuedWithin(company: number, from: string, to: string, where = sql`true`) {
  const [row] = await rows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from received_documents
         where company_id = ${company} and issued_at >= ${`${from}T06:00:00Z`}::timestamptz
           and issued_at < ${`${to}T06:00:00Z`}::timestamptz + interval '1 day' and ${where}`,
  );
  return row.n;
}

/** A received document of the company (accepted unless said otherwise) issued at `issuedAt`. */
async function receive(name: string, issuedAt: string, over: Partial<typeof receivedDocuments.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(receivedDocuments)
    .values(receivedRow(over.companyId ?? companyId, n++, { issuedAt: new Date(issuedAt), message: 1, status: "aceptado", ...over }))
    .returning({ id: receivedDocuments.id });
  ids[name] = row.id;
}

const change = (name: string, set: Partial<typeof receivedDocuments.$inferInsert>) => database.db.update(receivedDocuments).set(set).where(eq(receivedDocuments.id, ids[name]));

const MONTH = { from: "2026-11-01", to: "2026-11-30" };
const list = (over: Partial<ReceptionListRequest> = {}) => receptionList(database.db, { companyId, ...MONTH, page: 1, perPage: 2, ...over });

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  await receive("octubre", "2026-10-20T15:00:00Z");
  await receive("dos", "2026-11-02T15:00:00Z");
  // 23:30 in Costa Rica on 3 and 4 November: the next day in UTC.
  await receive("noche3", "2026-11-04T05:30:00Z");
  await receive("noche4", "2026-11-05T05:30:00Z");
  await receive("cuatro", "2026-11-04T16:00:00Z");
  await receive("diezA", "2026-11-10T15:00:00Z");
  await receive("diezB", "2026-11-10T20:00:00Z");
  await receive("once", "2026-11-11T15:00:00Z");
  await receive("doce", "2026-11-12T15:00:00Z", { message: 4, status: "pendiente" });
  await receive("veinte", "2026-11-20T15:00:00Z", { message: 4, status: "pendiente" });
  await receive("treinta", "2026-12-01T05:30:00Z");
  await receive("diciembre", "2026-12-01T06:00:00Z");
  await receive("suyo", "2026-11-10T15:00:00Z", { companyId: otherCompanyId });
  await receive("suyoTambién", "2026-11-15T15:00:00Z", { companyId: otherCompanyId });
  await receive("suyoTercero", "2026-11-25T15:00:00Z", { companyId: otherCompanyId });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("received documents counted by the database per day", () => {
  it("one row per company and Costa Rica day", async () => {
    expect(await dayRows()).toEqual([
      { company_id: companyId, day: "2026-10-20", documents: 1 },
      { company_id: companyId, day: "2026-11-02", documents: 1 },
      { company_id: companyId, day: "2026-11-03", documents: 1 },
      { company_id: companyId, day: "2026-11-04", documents: 2 },
      { company_id: companyId, day: "2026-11-10", documents: 2 },
      { company_id: companyId, day: "2026-11-11", documents: 1 },
      { company_id: companyId, day: "2026-11-12", documents: 1 },
      { company_id: companyId, day: "2026-11-20", documents: 1 },
      { company_id: companyId, day: "2026-11-30", documents: 1 },
      { company_id: companyId, day: "2026-12-01", documents: 1 },
      { company_id: otherCompanyId, day: "2026-11-10", documents: 1 },
      { company_id: otherCompanyId, day: "2026-11-15", documents: 1 },
      { company_id: otherCompanyId, day: "2026-11-25", documents: 1 },
    ]);
    await expectCounted();
  });

  it("follows a document's life, commits only, and drops a day left without documents", async () => {
    // Moved to another day: 11 November is left empty, 13 November gets a row.
    await change("once", { issuedAt: new Date("2026-11-13T15:00:00Z") });
    await expectCounted();
    expect((await dayRows()).filter((r) => r.company_id === companyId && r.day === "2026-11-11")).toEqual([]);
    expect((await dayRows()).filter((r) => r.company_id === companyId && r.day === "2026-11-13")).toEqual([{ company_id: companyId, day: "2026-11-13", documents: 1 }]);
    // Moved to 23:30 of 3 November in Costa Rica (4 November in UTC): counted on the 3rd.
    await change("dos", { issuedAt: new Date("2026-11-04T05:30:00Z") });
    await expectCounted();
    expect((await dayRows()).find((r) => r.company_id === companyId && r.day === "2026-11-03")).toEqual({ company_id: companyId, day: "2026-11-03", documents: 2 });
    // Moved to another company (the app never does, SQL can), and back.
    await change("diezA", { companyId: otherCompanyId });
    await expectCounted();
    expect((await dayRows()).find((r) => r.company_id === otherCompanyId && r.day === "2026-11-10")).toMatchObject({ documents: 2 });
    await change("diezA", { companyId });
    await expectCounted();
    // Deleted: the other company's 15 November is left without documents.
    await database.db.delete(receivedDocuments).where(eq(receivedDocuments.id, ids.suyoTambién));
    await expectCounted();
    expect((await dayRows()).some((r) => r.company_id === otherCompanyId && r.day === "2026-11-15")).toBe(false);
    // Other columns leave the rows alone (nor does an instant moved within its Costa Rica day).
    const before = await dayRows();
    await change("cuatro", { message: 3, status: "rechazado", messageDetail: "No corresponde", total: "99.00000", issuerName: "Otro Proveedor S.A." });
    await change("doce", { message: 1, status: "aceptado" });
    await change("noche4", { issuedAt: new Date("2026-11-05T05:59:59Z") });
    expect(await dayRows()).toEqual(before);
    await expectCounted();
    await change("doce", { message: 4, status: "pendiente" });
    // Several changes in one transaction: one received and deleted, one received and moved to another
    // day, one moved to the other company and back, one deleted, one moved to the other company.
    await database.db.transaction(async (tx) => {
      const [a] = await tx.insert(receivedDocuments).values(receivedRow(companyId, n++, { issuedAt: new Date("2026-11-21T15:00:00Z") })).returning({ id: receivedDocuments.id });
      await tx.delete(receivedDocuments).where(eq(receivedDocuments.id, a.id));
      const [b] = await tx.insert(receivedDocuments).values(receivedRow(companyId, n++, { issuedAt: new Date("2026-11-21T15:00:00Z") })).returning({ id: receivedDocuments.id });
      await tx.update(receivedDocuments).set({ issuedAt: new Date("2026-11-22T15:00:00Z") }).where(eq(receivedDocuments.id, b.id));
      await tx.update(receivedDocuments).set({ companyId: otherCompanyId }).where(eq(receivedDocuments.id, ids.veinte));
      await tx.update(receivedDocuments).set({ companyId }).where(eq(receivedDocuments.id, ids.veinte));
      await tx.delete(receivedDocuments).where(eq(receivedDocuments.id, ids.octubre));
      await tx.update(receivedDocuments).set({ companyId: otherCompanyId }).where(eq(receivedDocuments.id, ids.diciembre));
    });
    await expectCounted();
    const after = await dayRows();
    expect(after.filter((r) => r.company_id === companyId && ["2026-10-20", "2026-11-21", "2026-12-01"].includes(r.day as string))).toEqual([]);
    expect(after.filter((r) => r.day === "2026-11-22" || r.day === "2026-12-01")).toEqual([
      { company_id: companyId, day: "2026-11-22", documents: 1 },
      { company_id: otherCompanyId, day: "2026-12-01", documents: 1 },
    ]);
    // A transaction rolled back leaves nothing.
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(receivedDocuments).values(receivedRow(companyId, n++, { issuedAt: new Date("2026-11-23T15:00:00Z") }));
        await tx.update(receivedDocuments).set({ issuedAt: new Date("2026-11-24T15:00:00Z") }).where(eq(receivedDocuments.id, ids.diezB));
        await tx.update(receivedDocuments).set({ companyId: otherCompanyId }).where(eq(receivedDocuments.id, ids.veinte));
        await tx.delete(receivedDocuments).where(eq(receivedDocuments.id, ids.cuatro));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await dayRows()).toEqual(after);
    await expectCounted();
  });

  it("the list without a filter or search takes its total from these rows; a filter or a search counts the documents; another company's never count", async () => {
    const live = await issuedWithin(companyId, MONTH.from, MONTH.to);
    const pending = await issuedWithin(companyId, MONTH.from, MONTH.to, sql`message = 4`);
    const tenth = await issuedWithin(companyId, "2026-11-10", "2026-11-12");
    const afterTenth = await issuedWithin(companyId, "2026-11-11", MONTH.to);
    expect(live).toBeGreaterThan(4);
    expect(pending).toBeGreaterThan(1);
    expect(tenth).toBeGreaterThan(1);
    expect(afterTenth).toBeGreaterThan(1);
    expect(await issuedWithin(otherCompanyId, MONTH.from, MONTH.to)).toBeGreaterThan(1);
    const plain = await list();
    expect(plain).toMatchObject({ total: live, totalCapped: false });
    // The rows look as a filtered list's: the kept total is not one of their columns.
    const filtered = await list({ filter: "aceptado" });
    expect(Object.keys(plain.rows[0]).sort()).toEqual(Object.keys(filtered.rows[0]).sort());
    expect(plain.rows[0]).not.toHaveProperty("liveTotal");
    // The 23:30 documents of 3 and 4 November count on their Costa Rica days, as the list shows them.
    const fourth = await list({ from: "2026-11-04", to: "2026-11-04", perPage: 1 });
    expect(fourth).toMatchObject({ total: await issuedWithin(companyId, "2026-11-04", "2026-11-04"), totalCapped: false });
    expect(fourth.total).toBe(2);
    expect(await list({ from: "2026-11-03", to: "2026-11-03", perPage: 1 })).toMatchObject({ total: 2 });
    // The rows are what the list reads: a wrong row shows in the total without a filter or search only.
    await database.db.execute(sql`update reception_days set documents = documents + 30 where company_id = ${companyId} and day = '2026-11-10'`);
    try {
      const first = await list();
      expect(first.rows).toHaveLength(2);
      expect(first).toMatchObject({ total: live + 30, totalCapped: false });
      // The first page's rows carry it; a page past the end, with no row to carry it, reads it alone.
      expect(await list({ page: 99 })).toMatchObject({ rows: [], total: live + 30, totalCapped: false });
      // Only the range's days: with the 10th, without it.
      expect(await list({ from: "2026-11-10", to: "2026-11-12", perPage: 1 })).toMatchObject({ total: tenth + 30 });
      expect(await list({ from: "2026-11-11", to: MONTH.to, perPage: 1 })).toMatchObject({ total: afterTenth });
      expect(await list({ from: "2026-11-11", to: MONTH.to, page: 99 })).toMatchObject({ rows: [], total: afterTenth });
      // A filter or a search counts its documents.
      expect(await list({ filter: "pendiente", perPage: 1 })).toMatchObject({ total: pending, totalCapped: false });
      expect(await list({ filter: "pendiente", page: 99 })).toMatchObject({ rows: [], total: pending });
      expect(await list({ search: "3101777888", perPage: 1 })).toMatchObject({ total: live, totalCapped: false });
      // Another company's documents never count, either way.
      const theirs = await issuedWithin(otherCompanyId, MONTH.from, MONTH.to);
      expect(await list({ companyId: otherCompanyId, perPage: 1 })).toMatchObject({ total: theirs, totalCapped: false });
      expect(await list({ companyId: otherCompanyId, perPage: 1, search: "3101777888" })).toMatchObject({ total: theirs });
      // Capped as the expenses list is: RECEPTION_COUNT_AHEAD rows past the page at most, then "more".
      await database.db.execute(sql`update reception_days set documents = documents + ${2 * RECEPTION_COUNT_AHEAD} where company_id = ${companyId} and day = '2026-11-10'`);
      expect(await list()).toMatchObject({ total: 2 + RECEPTION_COUNT_AHEAD, totalCapped: true });
    } finally {
      await database.db.execute(
        sql`update reception_days r set documents = (select count(*) from received_documents d where d.company_id = r.company_id and d.expense_day = r.day) where company_id = ${companyId} and day = '2026-11-10'`,
      );
    }
    await expectCounted();
    expect(await list()).toMatchObject({ total: live, totalCapped: false });
    // A range without documents has no rows: its list is empty with a total of 0, on any page.
    expect(await list({ from: "2026-09-01", to: "2026-09-30" })).toMatchObject({ rows: [], total: 0, totalCapped: false });
    expect(await list({ from: "2026-09-01", to: "2026-09-30", page: 3 })).toMatchObject({ rows: [], total: 0, totalCapped: false });
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await dayRows()).length).toBeGreaterThan(5);
    await expectBackfillRewrites(database.db, { migration: "reception_days_triggers", table: "reception_days", source: "received_documents", read: dayRows });
    await expectCounted();
  });
});
