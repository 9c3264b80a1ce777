// The documents waiting for Hacienda, counted by the database (docs/decisions/158): the table
// pending_documents, written by deferred triggers of documents and filled for existing rows by the
// custom migration pending_documents_triggers. Checked here, on both databases:
// - the counts the session reads for the banner of the document lists and the dashboard (pendingOf,
//   decision 147) equal what the count they replaced computed from documents on every request — kept
//   below only as the oracle — for every state, kind and company, deleted documents included as before;
// - it follows the life of a document (issued 'por enviar', sent 'procesando', answered), a document
//   moved to another company, a deletion, several changes in one transaction, a rollback;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { documents } from "../../db/schema/index.ts";
import { pendingCount } from "../setup/pending-count.ts";
import { pendingText } from "../../app/domain/document-status.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};

/** pendingCount until decision 158, verbatim: the oracle. */
async function oldPendingCount(company: number) {
  const found = await database.db
    .select({ status: documents.status, n: count() })
    .from(documents)
    .where(and(eq(documents.companyId, company), inArray(documents.status, ["por enviar", "procesando"])))
    .groupBy(documents.status);
  const porEnviar = Number(found.find((r) => r.status === "por enviar")?.n ?? 0);
  const procesando = Number(found.find((r) => r.status === "procesando")?.n ?? 0);
  return { porEnviar, procesando, total: porEnviar + procesando };
}

async function expectSameAsBefore() {
  for (const company of [companyId, otherCompanyId]) {
    expect(await pendingCount(database.db, company), `company ${company}`).toEqual(await oldPendingCount(company));
  }
}

async function pendingRows() {
  return rows<Record<string, unknown>>(database.db, sql`select company_id, status, documents from pending_documents order by company_id, status`);
}

async function insertDocument(name: string, over: Partial<typeof documents.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(documents)
    .values({ companyId, kind: "fe", status: "por enviar", issuedAt: new Date("2026-11-20T15:00:00Z"), totalComprobante: "1130.00000", ...over })
    .returning({ id: documents.id });
  ids[name] = row.id;
}

const setStatus = (name: string, status: string) => database.db.update(documents).set({ status }).where(eq(documents.id, ids[name]));

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await createUser(database.db);
  companyId = (await createCompany(database.db, { userIds: [user.id], name: "Alfa Comercial" })).id;
  otherCompanyId = (await createCompany(database.db, { userIds: [user.id], name: "Beta Servicios" })).id;
  await insertDocument("invoice");
  await insertDocument("ticket", { kind: "te" });
  await insertDocument("sent", { status: "procesando" });
  await insertDocument("accepted", { status: "aceptado" });
  await insertDocument("rejected", { status: "rechazado" });
  await insertDocument("quotation", { kind: "qt", status: "no aplica" });
  await insertDocument("deleted", { deletedAt: new Date("2026-11-21T15:00:00Z") });
  await insertDocument("other", { companyId: otherCompanyId, status: "procesando" });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("documents waiting for Hacienda, counted by the database", () => {
  it("one row per company and pending state, and the banner's counts as before", async () => {
    expect(await pendingRows()).toEqual([
      { company_id: companyId, status: "por enviar", documents: 3 },
      { company_id: companyId, status: "procesando", documents: 1 },
      { company_id: otherCompanyId, status: "procesando", documents: 1 },
    ]);
    await expectSameAsBefore();
    expect(await pendingCount(database.db, companyId)).toEqual({ porEnviar: 3, procesando: 1, total: 4 });
    expect(pendingText(await pendingCount(database.db, companyId))).not.toBeNull();
  });

  it("follows a document's life, commits only, and drops a state left empty", async () => {
    // Sent, then answered.
    await setStatus("invoice", "procesando");
    await expectSameAsBefore();
    await setStatus("invoice", "aceptado");
    await setStatus("sent", "rechazado");
    await expectSameAsBefore();
    // Moved to another company; a deletion.
    await database.db.update(documents).set({ companyId: otherCompanyId }).where(eq(documents.id, ids.ticket));
    await database.db.delete(documents).where(eq(documents.id, ids.deleted));
    await expectSameAsBefore();
    expect((await pendingRows()).filter((r) => r.company_id === companyId)).toEqual([]);
    expect(pendingText(await pendingCount(database.db, companyId))).toBeNull();
    // Changes of other columns leave the rows alone.
    const before = await pendingRows();
    await database.db.update(documents).set({ paymentAmount: "100.00000", emailError: "x" }).where(eq(documents.id, ids.other));
    expect(await pendingRows()).toEqual(before);
    // Several changes in one transaction: issued, sent and answered; another issued and left waiting.
    await database.db.transaction(async (tx) => {
      const [a] = await tx.insert(documents).values({ companyId, kind: "fe", status: "por enviar", issuedAt: new Date("2026-11-22T15:00:00Z"), totalComprobante: "5.00000" }).returning({ id: documents.id });
      await tx.update(documents).set({ status: "procesando" }).where(eq(documents.id, a.id));
      await tx.update(documents).set({ status: "aceptado" }).where(eq(documents.id, a.id));
      await tx.insert(documents).values({ companyId, kind: "te", status: "por enviar", issuedAt: new Date("2026-11-22T16:00:00Z"), totalComprobante: "6.00000" });
      await tx.update(documents).set({ status: "por enviar" }).where(eq(documents.id, ids.accepted));
    });
    await expectSameAsBefore();
    expect(await pendingCount(database.db, companyId)).toEqual({ porEnviar: 2, procesando: 0, total: 2 });
    // A transaction rolled back leaves nothing.
    const committed = await pendingRows();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(documents).values({ companyId, kind: "fe", status: "por enviar", issuedAt: new Date("2026-11-23T15:00:00Z"), totalComprobante: "7.00000" });
        await tx.update(documents).set({ status: "procesando" }).where(eq(documents.id, ids.accepted));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await pendingRows()).toEqual(committed);
    await expectSameAsBefore();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await pendingRows()).length).toBeGreaterThan(1);
    await expectBackfillRewrites(database.db, { migration: "pending_documents_triggers", table: "pending_documents", source: "documents", read: pendingRows });
    await expectSameAsBefore();
  });
});
