// Recurring invoices (issue 5 items 5, 10): exactly one invoice per period with two job runners at
// once and after a crash mid-way; cycles; pause.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { documents, exchangeRates, jobs as jobsTable, recurringDocuments } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { createRecurring, nextSendDate, runDueRecurring, setRecurringPaused } from "../../app/server/recurring.server.ts";
import { enqueue, runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import { configurePipeline } from "../../app/server/hacienda-pipeline.server.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const schemaSet = testSchemaSet();

beforeAll(async () => {
  configurePipeline({ clientOptions: { maxRetries: 0, timeoutMs: 500, rateLimitPerSecond: 0 } });
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.drop());

const issuedFor = async (recurringId: number) => database.db.select().from(documents).where(eq(documents.recurringId, recurringId));
const rowOf = async (id: number) => (await database.db.select().from(recurringDocuments).where(eq(recurringDocuments.id, id)))[0];

describe("cycles", () => {
  it("weekly, 15 days, monthly (clamped to month end, keeps the start day), quarterly, yearly, custom", () => {
    expect(nextSendDate("2026-11-21", "weekly", 1, "2026-11-21")).toBe("2026-11-28");
    expect(nextSendDate("2026-11-21", "biweekly", 1, "2026-11-21")).toBe("2026-12-06");
    expect(nextSendDate("2026-01-31", "monthly", 1, "2026-01-31")).toBe("2026-02-28");
    expect(nextSendDate("2026-02-28", "monthly", 1, "2026-01-31")).toBe("2026-03-31");
    expect(nextSendDate("2026-11-30", "quarterly", 1, "2026-11-30")).toBe("2027-02-28");
    expect(nextSendDate("2028-02-29", "yearly", 1, "2028-02-29")).toBe("2029-02-28");
    expect(nextSendDate("2026-11-21", "days", 10, "2026-11-21")).toBe("2026-12-01");
    expect(nextSendDate("2026-11-21", "weeks", 2, "2026-11-21")).toBe("2026-12-05");
    expect(nextSendDate("2026-11-21", "months", 2, "2026-11-21")).toBe("2027-01-21");
  });
});

describe("runDueRecurring", () => {
  it("issues a real invoice once per period and advances the next send date in the same transaction", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const rec = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "2026-11-21", cycle: "monthly", now: new Date("2026-11-21T15:00:00Z"), schemaSet });
    expect(rec.ok).toBe(true);
    if (!rec.ok) return;
    const day1 = new Date("2026-11-21T15:00:00Z");
    const first = await runDueRecurring(database.db, { now: day1, schemaSet });
    expect(first.issued).toHaveLength(1);
    expect(await runDueRecurring(database.db, { now: day1, schemaSet })).toMatchObject({ issued: [] });
    const row = await rowOf(rec.id);
    expect(row).toMatchObject({ lastSentDate: "2026-11-21", nextSendDate: "2026-12-21" });
    const docs = await issuedFor(rec.id);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ kind: "fe", status: "por enviar", recurringPeriod: "2026-11-21" });
    expect(docs[0].signedXml).not.toBeNull();
    const second = await runDueRecurring(database.db, { now: new Date("2026-12-21T15:00:00Z"), schemaSet });
    expect(second.issued).toHaveLength(1);
    expect((await issuedFor(rec.id)).map((d) => d.number).sort()).toEqual([1, 2]);
  });

  it("two job runners at once: exactly one invoice per period", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "2026-11-20", cycle: "weekly", now: new Date("2026-11-20T15:00:00Z"), schemaSet });
      if (r.ok) ids.push(r.id);
    }
    const now = new Date("2026-11-21T15:00:00Z");
    const [a, b] = await Promise.all([runDueRecurring(database.db, { now, schemaSet }), runDueRecurring(database.db, { now, schemaSet })]);
    expect(a.issued.length + b.issued.length).toBe(5);
    for (const id of ids) expect(await issuedFor(id)).toHaveLength(1);
    // Through the jobs runner too: two workers draining the same queue.
    const later = new Date("2026-11-27T15:00:00Z");
    await enqueue(database.db, "recurring", {}, { runAt: later, uniqueKey: "r1" });
    await enqueue(database.db, "recurring", {}, { runAt: later, uniqueKey: "r2" });
    // Two workers drain the queue (the submissions fail fast: no Hacienda here, they wait for retry).
    const worker = async (name: string) => {
      while (await runOne(database.db, handlers, name, () => later));
    };
    await Promise.all([worker("w1"), worker("w2")]);
    const jobRows = await database.db.select().from(jobsTable);
    for (const id of ids) expect(await issuedFor(id), JSON.stringify(jobRows.map((j) => [j.type, j.status, j.lastError]))).toHaveLength(2);
    const numbers = (await database.db.select({ n: documents.number }).from(documents).where(eq(documents.companyId, company.id))).map((r) => r.n).sort((x, y) => x! - y!);
    expect(numbers).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it("a crash mid-way loses nothing and duplicates nothing: the period is retried", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const rec = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "2026-11-21", cycle: "days", every: 1, now: new Date("2026-11-21T15:00:00Z"), schemaSet });
    if (!rec.ok) throw new Error("create");
    const now = new Date("2026-11-21T15:00:00Z");
    const crashed = await runDueRecurring(database.db, {
      now,
      schemaSet,
      beforeCommit: () => {
        throw new Error("simulated crash");
      },
    });
    expect(crashed).toMatchObject({ issued: [], failed: 1 });
    expect(await issuedFor(rec.id)).toHaveLength(0);
    expect(await rowOf(rec.id)).toMatchObject({ nextSendDate: "2026-11-21", lastSentDate: null });
    const retry = await runDueRecurring(database.db, { now, schemaSet });
    expect(retry.issued).toHaveLength(1);
    expect((await issuedFor(rec.id))[0].number).toBe(1);
  });

  it("paused recurring documents issue nothing; resuming returns the flag", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const other = await issuingCompany(database.db);
    const rec = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "2026-11-21", cycle: "monthly", now: new Date("2026-11-21T15:00:00Z"), schemaSet });
    if (!rec.ok) throw new Error("create");
    expect(await setRecurringPaused(database.db, other.company.id, rec.id, true, new Date())).toBeNull();
    expect(await setRecurringPaused(database.db, company.id, rec.id, true, new Date())).toBe(true);
    await runDueRecurring(database.db, { now: new Date("2026-11-21T15:00:00Z"), schemaSet });
    expect(await issuedFor(rec.id)).toHaveLength(0);
    expect(await setRecurringPaused(database.db, company.id, rec.id, false, new Date("2026-11-21T15:00:00Z"))).toBe(false);
  });

  it("a dollar template issues with the day's exchange rate; without one known, it waits with the reason", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const now = new Date("2029-03-10T15:00:00Z");
    const rec = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id, { currency: "USD", exchangeRate: "500" }), startDay: "2029-03-10", cycle: "monthly", now, schemaSet });
    if (!rec.ok) throw new Error(JSON.stringify(rec.errors));
    await database.db.delete(exchangeRates).where(eq(exchangeRates.currencyCode, "USD"));
    await runDueRecurring(database.db, { now, schemaSet });
    expect(await issuedFor(rec.id)).toHaveLength(0);
    expect((await rowOf(rec.id)).lastError).toMatch(/tipo de cambio/i);
    await database.db.insert(exchangeRates).values({ currencyCode: "USD", rateDate: "2029-03-10", buy: "515", sell: "520.25", source: "test" });
    await runDueRecurring(database.db, { now, schemaSet });
    const [doc] = await issuedFor(rec.id);
    expect(Number(doc.exchangeRate)).toBe(520.25);
    expect(Buffer.from(doc.signedXml!).toString()).toContain("<TipoCambio>520.25");
  });

  it("validation: cycle and start day required", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const r = await createRecurring(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), startDay: "", cycle: "days", every: 0, now: new Date("2026-11-21T15:00:00Z"), schemaSet });
    expect(r).toMatchObject({ ok: false });
  });
});
