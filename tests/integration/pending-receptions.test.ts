// The received documents waiting for the company's decision, counted by the database per deadline
// (docs/decisions/158): the table pending_receptions, written by deferred triggers of
// received_documents and filled for existing rows by the custom migration
// pending_receptions_triggers. Checked here, on both databases:
// - pendingDeadlines (the deadline banner of the dashboard and the reception list) equals what the
//   query it replaced computed from received_documents on every request — kept below only as the
//   oracle — with deadlines passed, today, within the warning days and later, for two companies;
// - it follows every change: accepted, rejected, back to pending, a new deadline, a document moved to
//   another company, a deletion, several changes in one transaction, a rollback;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { receivedDocuments } from "../../db/schema/index.ts";
import { pendingDeadlines } from "../../db/queries/receptions.ts";
import { receivedRow } from "../fixtures/receptions.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};
let n = 0;

const TODAY = "2026-11-20";
/** The banner's windows: today, and today plus the warning days (a few before and after the nearest deadlines). */
const WINDOWS = [
  { today: TODAY, urgentUntil: "2026-11-25" },
  { today: "2026-11-19", urgentUntil: "2026-11-24" },
  { today: "2026-11-26", urgentUntil: "2026-12-01" },
];

/** pendingDeadlines until decision 158, verbatim: the oracle. */
async function oldPendingDeadlines(company: number, today: string, urgentUntil: string) {
  const [row] = await rows<{ pending: number; urgent: number; nearest: string | null; passed: number }>(
    database.db,
    sql`select count(*)::int as pending,
               count(*) filter (where reject_deadline >= ${today}::date and reject_deadline <= ${urgentUntil}::date)::int as urgent,
               count(*) filter (where reject_deadline < ${today}::date)::int as passed,
               to_char(min(reject_deadline) filter (where reject_deadline >= ${today}::date), 'YYYY-MM-DD') as nearest
          from received_documents where company_id = ${company} and message = 4`,
  );
  return { pending: Number(row?.pending ?? 0), urgent: Number(row?.urgent ?? 0), passed: Number(row?.passed ?? 0), nearest: row?.nearest ?? null };
}

async function expectSameAsBefore() {
  for (const company of [companyId, otherCompanyId]) {
    for (const w of WINDOWS) {
      expect(await pendingDeadlines(database.db, { companyId: company, ...w }), `company ${company} ${w.today}`).toEqual(await oldPendingDeadlines(company, w.today, w.urgentUntil));
    }
  }
}

async function pendingRows() {
  return rows<Record<string, unknown>>(database.db, sql`select company_id, reject_deadline::text as reject_deadline, documents from pending_receptions order by company_id, reject_deadline`);
}

async function receive(name: string, rejectDeadline: string, over: Partial<typeof receivedDocuments.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(receivedDocuments)
    .values(receivedRow(over.companyId ?? companyId, n++, { rejectDeadline, ...over }))
    .returning({ id: receivedDocuments.id });
  ids[name] = row.id;
}

const change = (name: string, set: Partial<typeof receivedDocuments.$inferInsert>) => database.db.update(receivedDocuments).set(set).where(eq(receivedDocuments.id, ids[name]));

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  await receive("passed", "2026-11-18");
  await receive("today", TODAY);
  await receive("todayToo", TODAY);
  await receive("urgent", "2026-11-24");
  await receive("later", "2026-12-15");
  await receive("accepted", "2026-11-22", { message: 1 });
  await receive("rejected", "2026-11-21", { message: 3 });
  await receive("other", "2026-11-23", { companyId: otherCompanyId });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("received documents waiting for a decision, counted by the database", () => {
  it("one row per company and deadline, and the banner's figures as before", async () => {
    expect(await pendingRows()).toEqual([
      { company_id: companyId, reject_deadline: "2026-11-18", documents: 1 },
      { company_id: companyId, reject_deadline: "2026-11-20", documents: 2 },
      { company_id: companyId, reject_deadline: "2026-11-24", documents: 1 },
      { company_id: companyId, reject_deadline: "2026-12-15", documents: 1 },
      { company_id: otherCompanyId, reject_deadline: "2026-11-23", documents: 1 },
    ]);
    expect(await pendingDeadlines(database.db, { companyId, today: TODAY, urgentUntil: "2026-11-25" })).toEqual({ pending: 5, urgent: 3, passed: 1, nearest: TODAY });
    await expectSameAsBefore();
  });

  it("follows every change, commits only, and drops a day left empty", async () => {
    await change("today", { message: 1 });
    await change("urgent", { message: 3 });
    await change("accepted", { message: 4 });
    await expectSameAsBefore();
    await change("later", { rejectDeadline: "2026-11-25" });
    await change("todayToo", { companyId: otherCompanyId });
    await database.db.delete(receivedDocuments).where(eq(receivedDocuments.id, ids.passed));
    await expectSameAsBefore();
    expect((await pendingRows()).filter((r) => r.company_id === companyId && r.reject_deadline === TODAY)).toEqual([]);
    // Other columns leave the rows alone.
    const before = await pendingRows();
    await change("other", { messageDetail: "Revisado", lastError: "x" });
    expect(await pendingRows()).toEqual(before);
    // Several changes in one transaction: received and decided at once, one received and left pending.
    await database.db.transaction(async (tx) => {
      const [a] = await tx.insert(receivedDocuments).values(receivedRow(companyId, n++, { rejectDeadline: "2026-11-28" })).returning({ id: receivedDocuments.id });
      await tx.update(receivedDocuments).set({ rejectDeadline: "2026-11-29" }).where(eq(receivedDocuments.id, a.id));
      await tx.update(receivedDocuments).set({ message: 2 }).where(eq(receivedDocuments.id, a.id));
      await tx.insert(receivedDocuments).values(receivedRow(companyId, n++, { rejectDeadline: "2026-11-30" }));
      await tx.update(receivedDocuments).set({ message: 1 }).where(eq(receivedDocuments.id, ids.accepted));
    });
    await expectSameAsBefore();
    // A transaction rolled back leaves nothing.
    const committed = await pendingRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(receivedDocuments).values(receivedRow(companyId, n++, { rejectDeadline: "2026-12-01" }));
        await tx.update(receivedDocuments).set({ message: 4 }).where(eq(receivedDocuments.id, ids.today));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await pendingRows()).toEqual(committed);
    await expectSameAsBefore();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await pendingRows()).length).toBeGreaterThan(2);
    await expectBackfillRewrites(database.db, { migration: "pending_receptions_triggers", table: "pending_receptions", source: "received_documents", read: pendingRows });
    await expectSameAsBefore();
  });
});
