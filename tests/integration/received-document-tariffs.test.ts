// Each received document's IVA by tariff kept by the database (docs/decisions/193): the table
// received_document_tariffs, written by triggers of received_documents and filled for existing rows
// by the custom migration received_document_tariffs_backfill. Checked here:
// - the IVA summary's purchases by tariff (receivedByTariff, which now adds up that table) equal, to
//   the céntimo, what the query it replaced computed from received_documents on every request — that
//   query is kept below only as the oracle — for documents stored through the real intake and others
//   with awkward figures (three tariffs whose creditable shares do not divide exactly, euros at a rate
//   of five decimals, a credit note, no breakdown, an empty breakdown, IVA of zero), in several
//   acceptance states, and after each change of state, of the creditable tax, of the data, and a
//   deletion;
// - the backfill statement of the migration writes exactly the rows the triggers wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rows } from "../../db/client.ts";
import { receivedDocuments } from "../../db/schema/index.ts";
import { ACCEPTED_RECEIVED, receivedByTariff, type ReportQuery } from "../../db/queries/reports.ts";
import { rangeInstants, monthRange } from "../../app/domain/reports.ts";
import { ingestReceivedFiles } from "../../app/server/receptions/intake.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { acceptedColumns, receivedRow, supplierDocument } from "../fixtures/receptions.ts";
import { createTestDatabase } from "../setup/db.ts";
import { expectBackfillRewrites } from "../setup/backfill-check.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let companyId: number;
let otherCompanyId: number;
const ids: Record<string, number> = {};

const at = (day: string, hour = 15) => new Date(`${day}T${String(hour).padStart(2, "0")}:00:00Z`);
const OCTOBER = monthRange(2026, 10);
const NOVEMBER = monthRange(2026, 11);
const query = (range = OCTOBER, company = () => companyId): ReportQuery => ({ companyId: company(), range, search: "", filter: null });

/** The query receivedByTariff ran until decision 193 (commit d2e3e6c), verbatim: the oracle. */
async function oldReceivedByTariff(q: ReportQuery) {
  const { from, until } = rangeInstants(q.range);
  const HAS_TARIFFS = sql.raw(`(case when jsonb_typeof(r.data->'IvaPorTarifa') = 'array' then jsonb_array_length(r.data->'IvaPorTarifa') > 0 else false end)`);
  const factor = sql.raw(`case when r.currency = 'CRC' then 1 else r.exchange_rate end * case when r.kind = 'NC' then -1 else 1 end`);
  return rows<{ tarifa_code: string | null; base: string; tax: string; creditable: string }>(
    database.db,
    sql`select t.tarifa as tarifa_code,
        coalesce(sum(round(t.base * r.f, 2)), 0)::numeric(20,2)::text as base,
        coalesce(sum(round(t.tax * r.f, 2)), 0)::numeric(20,2)::text as tax,
        coalesce(sum(round(case when t.all_tax > 0 then r.creditable * t.tax / t.all_tax
                                 when t.n = 1 then r.creditable else 0 end * r.f, 2)), 0)::numeric(20,2)::text as creditable
      from (
        select ${factor} as f, coalesce(r.creditable_tax, 0) as creditable,
               case when ${HAS_TARIFFS} then r.data->'IvaPorTarifa' end as tariffs, r.subtotal - r.discount as base, r.tax
          from received_documents r
         where r.company_id = ${q.companyId} and r.issued_at >= ${from}::timestamptz and r.issued_at < ${until}::timestamptz and ${ACCEPTED_RECEIVED("r")}
        offset 0
      ) r
      cross join lateral (
        select e.tarifa, e.base, e.tax, sum(e.tax) over () as all_tax, count(*) over () as n
          from (
            select nullif(x->>'tarifa', '') as tarifa, (x->>'base')::numeric as base, (x->>'impuesto')::numeric as tax
              from jsonb_array_elements(coalesce(r.tariffs, '[]'::jsonb)) x
            union all
            select null, r.base, r.tax
             where r.tariffs is null
          ) e
      ) t
     group by t.tarifa`,
  );
}

const byCode = <T extends { tarifa_code: string | null }>(list: T[]) => [...list].sort((a, b) => (a.tarifa_code ?? "").localeCompare(b.tarifa_code ?? ""));

/** The new sums and the oracle's, for every month and company of the data. */
async function expectSameAsBefore() {
  for (const q of [query(OCTOBER), query(NOVEMBER), query(OCTOBER, () => otherCompanyId)]) {
    const before = byCode(await oldReceivedByTariff(q));
    expect(byCode(await receivedByTariff(database.db, q)), `${q.companyId} ${q.range.from}`).toEqual(before);
  }
}

async function tariffRows() {
  return rows<Record<string, unknown>>(
    database.db,
    sql`select received_document_id, ordinal, company_id, issued_at::text as issued_at, message, status, tarifa_code, base::text as base, tax::text as tax,
          base_crc::text as base_crc, tax_crc::text as tax_crc, creditable_crc::text as creditable_crc
        from received_document_tariffs order by received_document_id, ordinal`,
  );
}

/** A received document as the intake stores it, with these columns (an IvaPorTarifa written here). */
async function insertDocument(name: string, over: Partial<typeof receivedDocuments.$inferInsert>) {
  const [row] = await database.db
    .insert(receivedDocuments)
    .values(receivedRow(companyId, Object.keys(ids).length, over))
    .returning({ id: receivedDocuments.id });
  ids[name] = row.id;
  return row.id;
}

const accept = (id: number, set: Partial<typeof receivedDocuments.$inferInsert>) =>
  database.db
    .update(receivedDocuments)
    .set({ ...acceptedColumns, ...set })
    .where(eq(receivedDocuments.id, id));

beforeAll(async () => {
  database = await createTestDatabase();
  const a = await issuingCompany(database.db);
  const b = await issuingCompany(database.db, { name: "Otra Compañía S.A." });
  companyId = a.company.id;
  otherCompanyId = b.company.id;
  const receiver = { name: a.company.name, id: a.company.identification };
  // Through the real intake (parse, signature, IvaPorTarifa from the lines): 13 % and 4 % lines.
  const receive = async (name: string, opts: Parameters<typeof supplierDocument>[0], company = companyId) => {
    const d = supplierDocument(opts);
    const report = await ingestReceivedFiles(database.db, { companyId: company, userId: null, source: "upload", files: [{ name: `${name}.xml`, bytes: new TextEncoder().encode(d.xml) }], now: opts.issuedAt! });
    if (report.stored.length !== 1) throw new Error(`${name}: ${JSON.stringify(report.outcomes)}`);
    ids[name] = report.stored[0].id;
  };
  await receive("colones", { receiver, issuedAt: at("2026-10-03"), lines: 2 });
  await receive("dollars", { receiver, issuedAt: at("2026-10-06"), lines: 3, currency: { code: "USD", rate: "505.25" } });
  await receive("credit", { receiver, issuedAt: at("2026-10-15"), lines: 2, kind: "nc" });
  await receive("pending", { receiver, issuedAt: at("2026-10-20"), lines: 2 });
  await receive("companyRejected", { receiver, issuedAt: at("2026-10-21"), lines: 1 });
  await receive("haciendaRejected", { receiver, issuedAt: at("2026-10-22"), lines: 2 });
  await receive("november", { receiver, issuedAt: at("2026-11-03"), lines: 2 });
  await receive("other", { receiver: { name: b.company.name, id: b.company.identification }, issuedAt: at("2026-10-04"), lines: 2 }, otherCompanyId);
  // Awkward figures (as the intake would store them): creditable shares that do not divide exactly,
  // euros at a rate with five decimals, no breakdown, an empty breakdown, IVA of zero.
  const tariff = (tarifa: string, base: string, impuesto: string) => ({ tarifa, base, impuesto });
  await insertDocument("threeTariffs", {
    currency: "EUR",
    exchangeRate: "587.12345",
    subtotal: "3333.33000",
    tax: "255.55667",
    total: "3588.88667",
    data: { CondicionVenta: "01", IvaPorTarifa: [tariff("08", "1111.11000", "144.44430"), tariff("04", "1111.11000", "44.44440"), tariff("02", "1111.11000", "22.22220")] },
  });
  await insertDocument("noBreakdown", { subtotal: "5000.00000", discount: "123.45000", tax: "633.90150", total: "5510.45150", data: { CondicionVenta: "01" } });
  await insertDocument("emptyBreakdown", { kind: "NC", currency: "USD", exchangeRate: "506.33333", subtotal: "10.01000", tax: "1.30130", total: "11.31130", data: { IvaPorTarifa: [] } });
  await insertDocument("zeroTaxTwo", { subtotal: "3000.00000", tax: "0", total: "3000.00000", data: { IvaPorTarifa: [tariff("10", "1000.00000", "0.00000"), tariff("01", "2000.00000", "0.00000")] } });
  await insertDocument("zeroTaxOne", { subtotal: "777.77000", tax: "0", total: "777.77000", data: { IvaPorTarifa: [tariff("11", "777.77000", "0.00000")] } });
  await insertDocument("noTariffCode", { subtotal: "100.00000", tax: "13.00000", total: "113.00000", data: { IvaPorTarifa: [tariff("", "40.00000", "5.20000"), tariff("08", "60.00000", "7.80000")] } });

  // The company's decisions (as the processing and Hacienda's answer leave them).
  await accept(ids.colones, { creditableTax: "127000", expenseCategoryId: null });
  await accept(ids.dollars, { message: 2, taxCondition: "02", creditableTax: "58500.33333" });
  await accept(ids.credit, { creditableTax: "117000" });
  await accept(ids.companyRejected, { message: 3 });
  await accept(ids.haciendaRejected, { creditableTax: "127000" });
  await database.db.update(receivedDocuments).set({ status: "rechazado" }).where(eq(receivedDocuments.id, ids.haciendaRejected));
  await accept(ids.november, { creditableTax: "100000" });
  await accept(ids.other, { creditableTax: "127000" });
  await accept(ids.threeTariffs, { creditableTax: "200.00001" });
  await accept(ids.noBreakdown, { creditableTax: "600" });
  await accept(ids.emptyBreakdown, { creditableTax: "1.30130" });
  await accept(ids.zeroTaxTwo, { creditableTax: "0" });
  await accept(ids.zeroTaxOne, {});
  await accept(ids.noTariffCode, { message: 2, creditableTax: "10.00001" });
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("received documents' IVA by tariff, kept by the database", () => {
  it("the intake writes one row per document and tariff, in colones with each document's rounding", async () => {
    const list = await tariffRows();
    const of = (name: string) => list.filter((r) => r.received_document_id === ids[name]);
    // The intake's document in dollars (3 lines: two at 13 %, one at 4 %): base 1 800 000 USD and
    // 250 000 USD at 505.25; its creditable 58 500.33333 USD shared by IVA (234 000 : 10 000).
    expect(of("dollars").map((r) => [r.tarifa_code, r.base, r.tax, r.base_crc, r.tax_crc, r.creditable_crc])).toEqual([
      ["08", "1800000.00000", "234000.00000", "909450000.00", "118228500.00", expect.any(String)],
      ["04", "250000.00000", "10000.00000", "126312500.00", "5052500.00", expect.any(String)],
    ]);
    // 58 500.33333 × 234 000 / 244 000 × 505.25 = 28 345 928.93…; × 10 000 / 244 000 × 505.25 = 1 211 364.48…
    expect(of("dollars").map((r) => r.creditable_crc)).toEqual(["28345928.93", "1211364.48"]);
    // The credit note counts negative (creditable 117 000 × 117 000 / 127 000 = 107 787.40…, × 10 000 / 127 000
    // = 9 212.59…); the document without a breakdown has one row, no tariff.
    expect(of("credit").map((r) => [r.tarifa_code, r.base_crc, r.tax_crc, r.creditable_crc])).toEqual([
      ["08", "-900000.00", "-117000.00", "-107787.40"],
      ["04", "-250000.00", "-10000.00", "-9212.60"],
    ]);
    expect(of("noBreakdown").map((r) => [r.ordinal, r.tarifa_code, r.base, r.base_crc, r.tax_crc, r.creditable_crc])).toEqual([[0, null, "4876.55000", "4876.55", "633.90", "600.00"]]);
    expect(of("haciendaRejected").every((r) => r.status === "rechazado")).toBe(true);
    expect(of("pending").every((r) => r.message === 4 && r.status === "pendiente")).toBe(true);
  });

  it("the IVA summary's purchases by tariff equal the computation it replaced, to the céntimo", async () => {
    const october = byCode(await receivedByTariff(database.db, query()));
    expect(october.map((r) => r.tarifa_code)).toEqual([null, "01", "02", "04", "08", "10", "11"]);
    await expectSameAsBefore();
  });

  it("follows every change of a document: acceptance, Hacienda's rejection, the creditable tax, its data, a deletion", async () => {
    // The pending one accepted, the company-rejected one accepted after all.
    await accept(ids.pending, { creditableTax: "63500.5" });
    await accept(ids.companyRejected, { creditableTax: "117000" });
    await expectSameAsBefore();
    // Hacienda rejects the message of an accepted document: it no longer counts.
    await database.db.update(receivedDocuments).set({ status: "rechazado" }).where(eq(receivedDocuments.id, ids.colones));
    await expectSameAsBefore();
    // A new creditable tax, a re-read document (its data), a document moved to another month.
    await database.db.update(receivedDocuments).set({ creditableTax: "12.34567" }).where(eq(receivedDocuments.id, ids.threeTariffs));
    await database.db
      .update(receivedDocuments)
      .set({ data: { IvaPorTarifa: [{ tarifa: "08", base: "5000.00000", impuesto: "650.00000" }] }, subtotal: "5000.00000", discount: "0", tax: "650.00000" })
      .where(eq(receivedDocuments.id, ids.noBreakdown));
    await database.db.update(receivedDocuments).set({ issuedAt: at("2026-11-01", 7) }).where(eq(receivedDocuments.id, ids.zeroTaxOne));
    await expectSameAsBefore();
    const moved = (await tariffRows()).filter((r) => r.received_document_id === ids.noBreakdown);
    expect(moved.map((r) => [r.ordinal, r.tarifa_code, r.creditable_crc])).toEqual([[1, "08", "600.00"]]);
    // Rejected by the company; then deleted: its rows go with it.
    await database.db.update(receivedDocuments).set({ message: 3 }).where(eq(receivedDocuments.id, ids.dollars));
    await expectSameAsBefore();
    await database.db.delete(receivedDocuments).where(eq(receivedDocuments.id, ids.credit));
    expect((await tariffRows()).filter((r) => r.received_document_id === ids.credit)).toEqual([]);
    await expectSameAsBefore();
  });

  it("the migration's backfill writes the same rows as the triggers", async () => {
    expect((await tariffRows()).length).toBeGreaterThan(20);
    await expectBackfillRewrites(database.db, { migration: "received_document_tariffs_backfill", table: "received_document_tariffs", source: "received_documents", read: tariffRows });
    await expectSameAsBefore();
  });
});
