// The live documents counted by the database (docs/decisions/200): the table document_counts, written
// by deferred triggers of documents and filled for existing rows by the custom migration
// document_counts_triggers. Checked here, on both databases:
// - its rows equal a count of the live documents (deleted_at null) by company and kind, through a
//   document's life: issued, a quotation deleted and restored, moved to another company, its kind
//   changed, removed, several changes in one transaction, a rollback;
// - a list without search, filter or client takes its total from these rows (and caps it as a
//   counted list does), while a filtered one still counts its documents;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { documents } from "../../db/schema/index.ts";
import { documentList } from "../../db/queries/document-lists.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};

const countRows = () => rows<Record<string, unknown>>(database.db, sql`select company_id, kind, documents from document_counts order by company_id, kind`);

/** The oracle: the live documents counted from the documents themselves. */
const counted = () =>
  rows<Record<string, unknown>>(
    database.db,
    sql`select company_id, kind, count(*)::int as documents from documents where deleted_at is null group by 1, 2 order by 1, 2`,
  );

async function expectCounted() {
  expect(await countRows()).toEqual(await counted());
}

let at = Date.UTC(2026, 10, 20, 15);
async function insertDocument(name: string, over: Partial<typeof documents.$inferInsert> = {}) {
  at += 60_000;
  const [row] = await database.db
    .insert(documents)
    .values({ companyId, kind: "fe", status: "aceptado", issuedAt: new Date(at), totalComprobante: "1130.00000", ...over })
    .returning({ id: documents.id });
  ids[name] = row.id;
}

const list = (kinds: string[], over: Partial<Parameters<typeof documentList>[1]> = {}) => documentList(database.db, { companyId, kinds, page: 1, perPage: 2, ...over });

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  for (const n of [1, 2, 3, 4]) await insertDocument(`invoice${n}`);
  await insertDocument("rejected", { status: "rechazado" });
  await insertDocument("ticket", { kind: "te" });
  await insertDocument("credit", { kind: "nc" });
  await insertDocument("debit", { kind: "nd" });
  await insertDocument("quotation", { kind: "qt", status: "no aplica" });
  await insertDocument("deleted", { kind: "qt", status: "no aplica", deletedAt: new Date("2026-11-21T15:00:00Z") });
  await insertDocument("other", { companyId: otherCompanyId });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("live documents counted by the database", () => {
  it("one row per company and kind, deleted quotations left out", async () => {
    expect(await countRows()).toEqual([
      { company_id: companyId, kind: "fe", documents: 5 },
      { company_id: companyId, kind: "nc", documents: 1 },
      { company_id: companyId, kind: "nd", documents: 1 },
      { company_id: companyId, kind: "qt", documents: 1 },
      { company_id: companyId, kind: "te", documents: 1 },
      { company_id: otherCompanyId, kind: "fe", documents: 1 },
    ]);
    await expectCounted();
  });

  it("follows a document's life, commits only, and drops a kind left empty", async () => {
    // A quotation deleted, then restored.
    await database.db.update(documents).set({ deletedAt: new Date() }).where(eq(documents.id, ids.quotation));
    await expectCounted();
    expect((await countRows()).some((r) => r.kind === "qt")).toBe(false);
    await database.db.update(documents).set({ deletedAt: null }).where(eq(documents.id, ids.quotation));
    await expectCounted();
    // Moved to another company; its kind changed; removed.
    await database.db.update(documents).set({ companyId: otherCompanyId }).where(eq(documents.id, ids.ticket));
    await database.db.update(documents).set({ kind: "nc" }).where(eq(documents.id, ids.debit));
    await database.db.delete(documents).where(eq(documents.id, ids.invoice1));
    await expectCounted();
    // Changes of other columns leave the rows alone.
    const before = await countRows();
    await database.db.update(documents).set({ status: "rechazado", paymentAmount: "100.00000" }).where(eq(documents.id, ids.invoice2));
    expect(await countRows()).toEqual(before);
    // Several changes in one transaction.
    await database.db.transaction(async (tx) => {
      const [a] = await tx.insert(documents).values({ companyId, kind: "fe", status: "por enviar", issuedAt: new Date("2026-11-22T15:00:00Z"), totalComprobante: "5.00000" }).returning({ id: documents.id });
      await tx.update(documents).set({ kind: "te" }).where(eq(documents.id, a.id));
      await tx.insert(documents).values({ companyId, kind: "fe", status: "por enviar", issuedAt: new Date("2026-11-22T16:00:00Z"), totalComprobante: "6.00000" });
      await tx.delete(documents).where(eq(documents.id, ids.deleted));
    });
    await expectCounted();
    // A transaction rolled back leaves nothing.
    const committed = await countRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(documents).values({ companyId, kind: "fe", status: "por enviar", issuedAt: new Date("2026-11-23T15:00:00Z"), totalComprobante: "7.00000" });
        await tx.delete(documents).where(eq(documents.id, ids.invoice3));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await countRows()).toEqual(committed);
  });

  it("a list of every live document takes its total from these rows; a filtered one counts", async () => {
    await insertDocument("credit2", { kind: "nc" });
    await insertDocument("rejectedNote", { kind: "nd", status: "rechazado" });
    const live = (await counted()).filter((r) => r.company_id === companyId && ["nc", "nd"].includes(r.kind as string)).reduce((n, r) => n + Number(r.documents), 0);
    expect(live).toBeGreaterThan(2);
    expect(await list(["nc", "nd"])).toMatchObject({ total: live, totalCapped: false });
    // The rows are what the list reads: a wrong row shows in the unfiltered total only.
    await database.db.execute(sql`update document_counts set documents = documents + 40 where company_id = ${companyId} and kind = 'nc'`);
    try {
      expect(await list(["nc", "nd"])).toMatchObject({ total: live + 40, totalCapped: false });
      // The first page's rows carry it; a page past the end, with no row to carry it, reads it alone.
      expect(await list(["nc", "nd"], { page: 99 })).toMatchObject({ rows: [], total: live + 40, totalCapped: false });
      const accepted = await acceptedNotes();
      expect(accepted).toBeGreaterThan(1);
      expect(await list(["nc", "nd"], { filter: "aceptado", perPage: 1 })).toMatchObject({ total: accepted, totalCapped: false });
      // Capped as a counted list is: at most `countAhead` past the page, then "more".
      expect(await list(["nc", "nd"], { countAhead: 10 })).toMatchObject({ total: 12, totalCapped: true });
    } finally {
      await database.db.execute(sql`update document_counts set documents = documents - 40 where company_id = ${companyId} and kind = 'nc'`);
    }
    // Another company's documents never count.
    expect(await documentList(database.db, { companyId: otherCompanyId, kinds: ["te"], page: 1, perPage: 1 })).toMatchObject({ total: 1 });
    await expectCounted();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await countRows()).length).toBeGreaterThan(3);
    await expectBackfillRewrites(database.db, { migration: "document_counts_triggers", table: "document_counts", source: "documents", read: countRows });
    await expectCounted();
  });
});

/** The company's accepted notes, counted from the documents. */
async function acceptedNotes() {
  const [row] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from documents where company_id = ${companyId} and kind in ('nc', 'nd') and deleted_at is null and status = 'aceptado'`);
  return row.n;
}
