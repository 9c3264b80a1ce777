// Issuing (issue 5 items 3, 10): totals through the draft mapping, every kind, consecutives under
// concurrency, validation failures that save nothing. Runs on PGlite and, with DATABASE_URL, PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { clients, companies, documentCounters, documentLines, documentReferences, documents, jobs } from "../../db/schema/index.ts";
import { makeTestP12 } from "../../app/hacienda/cert.ts";
import { loadP12, type SigningKey } from "../../app/hacienda/p12.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { verifyXml } from "../../app/hacienda/verify.ts";
import { parseClave } from "../../app/hacienda/clave.ts";
import { draftTotals, type DocumentDraft } from "../../app/domain/document-draft.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const schemaSet = testSchemaSet();
const now = new Date("2026-11-21T15:30:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.drop());

let alphanumeric: SigningKey | undefined;
/** A test key whose certificate carries the alphanumeric cédula jurídica 3101A00001. */
function alphanumericKey(): SigningKey {
  const pin = "Tr1bu-CR#2026!";
  alphanumeric ??= loadP12(
    makeTestP12({ cedula: "3101A00001", idType: "02", name: "EMPRESA ALFANUMERICA", pin, notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2030-01-01T00:00:00Z") }),
    pin,
    { now },
  );
  return alphanumeric;
}

const issue = (companyId: number, userId: number, draft: DocumentDraft, at = now) => issueDocument(database.db, { companyId, userId, draft, now: at, schemaSet });

describe("totals through the draft mapping (hand-computed)", () => {
  it("discount, 13 % and 4 % IVA", () => {
    const r = draftTotals(sampleDraft("fe", 1)).resumen;
    // 2 × 450 000 = 900 000 − 5 % (45 000) = 855 000, IVA 13 % = 111 150; 10 × 25 000 = 250 000, IVA 4 % = 10 000
    expect(r.totalVenta).toBe("1150000.00000");
    expect(r.totalDescuentos).toBe("45000.00000");
    expect(r.totalVentaNeta).toBe("1105000.00000");
    expect(r.totalImpuesto).toBe("121150.00000");
    expect(r.totalComprobante).toBe("1226150.00000");
  });
  it("full exoneration of 13 % IVA", () => {
    const d = sampleDraft("fe", 1, {
      lines: [
        {
          cabys: "4523000000100",
          description: "Equipo exonerado",
          quantity: "1",
          unit: "Unid",
          unitPrice: "900000",
          tax: { tarifaCode: "08" },
          exoneration: { docType: "03", number: "AL-00012345-24", institution: "01", issuedAt: "2026-02-01", percentage: "13" },
        },
      ],
    });
    const t = draftTotals(d);
    expect(t.lines[0].taxes[0].exoneration?.monto).toBe("117000.00000");
    expect(t.resumen.totalImpuesto).toBe("0.00000");
    expect(t.resumen.totalExonerado).toBe("900000.00000");
    expect(t.resumen.totalComprobante).toBe("900000.00000");
  });
  it("1 % rate, 10 % discount, fractional amounts round half-up at 5 decimals", () => {
    const d = sampleDraft("fe", 1, {
      lines: [{ cabys: "4523000000100", description: "Artículo", quantity: "3", unit: "Unid", unitPrice: "333.33", discountPercent: "10", tax: { tarifaCode: "02" } }],
    });
    const r = draftTotals(d).resumen;
    // 999.99 − 99.999 = 899.991; IVA 1 % = 8.99991
    expect(r.totalDescuentos).toBe("99.99900");
    expect(r.totalImpuesto).toBe("8.99991");
    expect(r.totalComprobante).toBe("908.99091");
  });
  it("dollars: amounts stay in the document currency", () => {
    const d = sampleDraft("fe", 1, { currency: "USD", exchangeRate: "505.12", lines: [{ cabys: "4523000000100", description: "Licencia", quantity: "1", unit: "Unid", unitPrice: "100", tax: { tarifaCode: "08" } }] });
    expect(draftTotals(d).resumen.totalComprobante).toBe("113.00000");
  });
  it("IVA devuelto: health service at 4 % paid by card", () => {
    const d = sampleDraft("fe", 1, { payments: [{ code: "02" }], lines: [{ cabys: "8620000000000", description: "Consulta médica", quantity: "1", unit: "Sp", unitPrice: "50000", tax: { tarifaCode: "04" }, healthService: true }] });
    const r = draftTotals(d).resumen;
    expect(r.totalImpuesto).toBe("2000.00000");
    expect(r.totalIVADevuelto).toBe("2000.00000");
    expect(r.totalComprobante).toBe("50000.00000");
  });
});

describe("issueDocument", () => {
  it("issues an FE: consecutive 1, clave, signed XML, stored totals equal the form's, lines, snapshot, submission job", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const draft = sampleDraft("fe", client.id, { saleCondition: "02", creditDays: 30, payments: [{ code: "04" }] });
    const r = await issue(company.id, user.id, draft);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.number).toBe(1);
    expect(r.status).toBe("por enviar");
    const parts = parseClave(r.clave!);
    expect(parts.consecutivo).toBe(r.consecutivo);
    expect(r.consecutivo).toBe("00100001010000000001");
    expect(parts.situacion).toBe(1);
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, r.documentId));
    expect(doc.totalComprobante).toBe(draftTotals(draft).resumen.totalComprobante);
    expect(doc.subtotal).toBe("1150000.00000");
    expect(doc.tax).toBe("121150.00000");
    expect(doc.expirationDate).toBe("2026-12-21");
    expect((doc.clientSnapshot as { name: string }).name).toBe("Distribuidora La Sabana Limitada");
    const xml = doc.signedXml!.toString("utf8");
    expect(xml).toContain(`<Clave>${r.clave}</Clave>`);
    expect(xml).toContain("<TotalComprobante>1226150.00000</TotalComprobante>");
    expect(verifyXml(xml).valid).toBe(true);
    const lines = await database.db.select().from(documentLines).where(eq(documentLines.documentId, r.documentId)).orderBy(asc(documentLines.position));
    expect(lines.map((l) => [l.subtotal, l.discount, l.tax, l.total])).toEqual([
      ["900000.00000", "45000.00000", "111150.00000", "966150.00000"],
      ["250000.00000", "0.00000", "10000.00000", "260000.00000"],
    ]);
    const queued = await database.db.select().from(jobs).where(eq(jobs.uniqueKey, `submit:${r.documentId}`));
    expect(queued).toHaveLength(1);
  });

  it("issues TE, NC and ND from an FE, FEC and a quotation, each with its own counter", async () => {
    const { company, user, client, provider, generic } = await issuingCompany(database.db);
    const fe = await issue(company.id, user.id, sampleDraft("fe", client.id));
    const te = await issue(company.id, user.id, sampleDraft("te", generic.id));
    expect(fe.ok && te.ok, JSON.stringify([fe, te])).toBe(true);
    if (!fe.ok || !te.ok) return;
    const ref = (code: string, reason: string) => [{ documentId: fe.documentId, docType: "", number: "", issuedAt: "", code, reason }];
    const nc = await issue(company.id, user.id, sampleDraft("nc", client.id, { note: "Devolución", references: ref("06", "Devolución de una computadora"), lines: sampleDraft("fe", 1).lines.slice(0, 1) }));
    const nd = await issue(company.id, user.id, sampleDraft("nd", client.id, { note: "Horas extra", references: ref("02", "Horas adicionales no facturadas"), lines: sampleDraft("fe", 1).lines.slice(1) }));
    const fec = await issue(
      company.id,
      user.id,
      sampleDraft("fec", provider.id, {
        references: [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-21T14:00:00Z", code: "04", reason: "Compra a productor de régimen especial" }],
        lines: [{ cabys: "0113100000100", description: "Café en grano oro", quantity: "50", unit: "Kg", unitPrice: "3200", tax: { tarifaCode: "02" } }] }),
    );
    const qt = await issue(company.id, user.id, sampleDraft("qt", client.id));
    for (const r of [nc, nd, fec, qt]) expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!nc.ok || !nd.ok || !fec.ok || !qt.ok) return;
    expect([fe.number, te.number, nc.number, nd.number, fec.number, qt.number]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(te.consecutivo!.slice(8, 10)).toBe("04");
    expect(nc.consecutivo!.slice(8, 10)).toBe("03");
    expect(nd.consecutivo!.slice(8, 10)).toBe("02");
    expect(fec.consecutivo!.slice(8, 10)).toBe("08");
    expect(qt.clave).toBeNull();
    expect(qt.status).toBe("no aplica");
    const [q] = await database.db.select().from(documents).where(eq(documents.id, qt.documentId));
    expect(q.signedXml).toBeNull();
    expect(q.totalComprobante).toBe("1226150.00000");
    const refs = await database.db.select().from(documentReferences).where(eq(documentReferences.documentId, nc.documentId));
    expect(refs[0]).toMatchObject({ referencedDocumentId: fe.documentId, docType: "01", number: fe.clave, code: "06" });
    const [ncDoc] = await database.db.select().from(documents).where(eq(documents.id, nc.documentId));
    expect(ncDoc.signedXml!.toString()).toContain(`<Numero>${fe.clave}</Numero>`);
    const qtJobs = await database.db.select().from(jobs).where(eq(jobs.uniqueKey, `submit:${qt.documentId}`));
    expect(qtJobs).toHaveLength(0);
  });

  it("notes only from fe, te or fec; other companies' documents are not found", async () => {
    const a = await issuingCompany(database.db);
    const b = await issuingCompany(database.db);
    const qt = await issue(a.company.id, a.user.id, sampleDraft("qt", a.client.id));
    expect(qt.ok).toBe(true);
    if (!qt.ok) return;
    const ref = [{ documentId: qt.documentId, docType: "", number: "", issuedAt: "", code: "01", reason: "Anula" }];
    const fromQt = await issue(a.company.id, a.user.id, sampleDraft("nc", a.client.id, { note: "x", references: ref }));
    expect(fromQt).toMatchObject({ ok: false, errors: [{ field: "references", message: "Solo se pueden emitir notas de facturas, tiquetes o facturas de compra." }] });
    const cross = await issue(b.company.id, b.user.id, sampleDraft("nc", b.client.id, { note: "x", references: ref }));
    expect(cross).toMatchObject({ ok: false, errors: [{ field: "references" }] });
    const foreignClient = await issue(b.company.id, b.user.id, sampleDraft("fe", a.client.id));
    expect(foreignClient).toMatchObject({ ok: false, errors: [{ field: "clientId" }] });
  });

  it("contingency situation 3 goes into the clave", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id, { situacion: 3 }));
    expect(r.ok).toBe(true);
    if (r.ok) expect(parseClave(r.clave!).situacion).toBe(3);
  });

  it("a ticket to an international client validates with receptor tipo 05 and stores that client as its client", async () => {
    const { company, user, generic } = await issuingCompany(database.db);
    const r = await issue(company.id, user.id, sampleDraft("te", generic.id, { internationalClient: { name: "John Smith", cedula: "P123456789" } }));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, r.documentId));
    expect(doc.signedXml!.toString()).toContain("<Receptor><Nombre>John Smith</Nombre><Identificacion><Tipo>05</Tipo><Numero>P123456789</Numero></Identificacion></Receptor>");
    // Filed under the generic client; the snapshot every view, PDF and list reads is the buyer's.
    expect(doc.clientId).toBe(generic.id);
    expect(doc.clientSnapshot).toEqual({ name: "John Smith", idType: "05", idNumber: "P123456789" });
  });

  it("no_hacienda companies: no status and no submission", async () => {
    const { company, user, client } = await issuingCompany(database.db, { noHacienda: true });
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    expect(r).toMatchObject({ ok: true, status: "no aplica" });
    if (r.ok) expect(await database.db.select().from(jobs).where(eq(jobs.uniqueKey, `submit:${r.documentId}`))).toHaveLength(0);
  });

  it("a validation failure saves nothing: counter unchanged, Spanish errors by field", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const ok = await issue(company.id, user.id, sampleDraft("fe", client.id));
    expect(ok.ok).toBe(true);
    const counter = async () =>
      (await database.db.select().from(documentCounters).where(and(eq(documentCounters.companyId, company.id), eq(documentCounters.docType, "01"))))[0]?.nextNumber;
    expect(await counter()).toBe(2);
    const before = (await database.db.select().from(documents).where(eq(documents.companyId, company.id))).length;
    const bad = sampleDraft("fe", client.id);
    bad.lines[1] = { ...bad.lines[1], cabys: "123" };
    const r = await issue(company.id, user.id, bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toContainEqual({ field: "lines.1.cabys", message: expect.stringMatching(/CABYS .*13 dígitos/) });
    expect(await counter()).toBe(2);
    expect((await database.db.select().from(documents).where(eq(documents.companyId, company.id))).length).toBe(before);
    const empty = await issue(company.id, user.id, sampleDraft("fe", client.id, { lines: [] }));
    expect(empty).toMatchObject({ ok: false, errors: [{ field: "lines", message: "El documento debe contener minimo un artículo." }] });
    const next = await issue(company.id, user.id, sampleDraft("fe", client.id));
    expect(next).toMatchObject({ ok: true, number: 2 });
  });

  it("refuses to issue with an activity code of the catalogue before TRIBU-CR, saying where to choose the new one, and saves nothing (issue 11 point 1)", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    await database.db.update(companies).set({ economicActivityCode: "620100" }).where(eq(companies.id, company.id));
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    expect(r).toEqual({
      ok: false,
      errors: [
        {
          field: "CodigoActividadEmisor",
          message:
            "El código de actividad 620100 (CodigoActividadEmisor) es del catálogo anterior a TRIBU-CR: Hacienda exige el código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0). Elija la nueva actividad en los datos de la empresa y vuelva a emitir.",
        },
      ],
    });
    await database.db.update(companies).set({ economicActivityCode: "6201.0" }).where(eq(companies.id, company.id));
    await database.db.update(clients).set({ economicActivityCode: "464900" }).where(eq(clients.id, client.id));
    const r2 = await issue(company.id, user.id, sampleDraft("fe", client.id));
    expect(r2.ok ? [] : r2.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^El código de actividad 464900 \(CodigoActividadReceptor\) es del catálogo anterior a TRIBU-CR.*datos del cliente/)]);
    expect(await database.db.select().from(documents).where(eq(documents.companyId, company.id))).toEqual([]);
    await database.db.update(clients).set({ economicActivityCode: "4649.0" }).where(eq(clients.id, client.id));
    expect((await issue(company.id, user.id, sampleDraft("fe", client.id))).ok).toBe(true);
  });

  it("a company with an alphanumeric cédula jurídica issues an alphanumeric clave that its signature and the 2026 schema accept (issue 11 point 8)", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    await database.db.update(companies).set({ identification: "3101A00001" }).where(eq(companies.id, company.id));
    const r = await issueDocument(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), now, schemaSet, keyFor: async () => alphanumericKey() });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.clave!.slice(9, 21)).toBe("003101A00001");
    const [row] = await database.db.select().from(documents).where(eq(documents.id, r.documentId));
    expect(verifyXml(row.signedXml!).valid).toBe(true);
  });

  it("a cash sale without a payment method is refused (A44 p.54), a credit sale is not", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const cash = await issue(company.id, user.id, sampleDraft("fe", client.id, { payments: [] }));
    expect(cash.ok ? [] : cash.errors.map((e) => e.field)).toEqual(["payments"]);
    const credit = await issue(company.id, user.id, sampleDraft("fe", client.id, { payments: [], saleCondition: "02", creditDays: 30 }));
    expect(credit.ok).toBe(true);
  });

  it("20 concurrent issuers on one company: consecutives 1..20, no duplicate, no gap", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    const results = await Promise.all(Array.from({ length: 20 }, () => issue(company.id, user.id, sampleDraft("fe", client.id))));
    const numbers = results.map((r) => (r.ok ? r.number : -1)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const stored = await database.db.select({ consecutivo: documents.consecutivo, clave: documents.clave }).from(documents).where(eq(documents.companyId, company.id));
    expect(new Set(stored.map((s) => s.consecutivo)).size).toBe(20);
    expect(new Set(stored.map((s) => s.clave)).size).toBe(20);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("PostgreSQL: what an issue does while it holds the counter row (decision 188)", () => {
  it("an issue waiting for the counter has already written its document and lines; only the number, the signature and one UPDATE remain", async () => {
    const { company, user, client } = await issuingCompany(database.db);
    expect((await issue(company.id, user.id, sampleDraft("fe", client.id))).ok).toBe(true);
    const { default: postgres } = await import("postgres");
    const sql = postgres(database.url!, { max: 2, onnotice: () => {} });
    const holder = await sql.reserve();
    try {
      // Another transaction holds the company's FE counter row.
      await holder`begin`;
      await holder`select next_number from document_counters where company_id = ${company.id} and doc_type = '01' for update`;
      const pending = issue(company.id, user.id, sampleDraft("fe", client.id));
      let waiting: { pid: number } | undefined;
      for (let i = 0; i < 200 && !waiting; i++) {
        [waiting] = await sql<{ pid: number }[]>`select pid from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%document_counters%' and pid <> pg_backend_pid()`;
        if (!waiting) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waiting, "an issue waits for the counter row").toBeDefined();
      // Its document and lines are written already (it holds row-exclusive locks on their tables).
      const tables = await sql<{ relname: string }[]>`select c.relname from pg_locks l join pg_class c on c.oid = l.relation where l.pid = ${waiting!.pid} and l.mode = 'RowExclusiveLock' and c.relname in ('documents', 'document_lines', 'jobs') order by 1`;
      expect(tables.map((t) => t.relname)).toEqual(["document_lines", "documents", "jobs"]);
      await holder`rollback`;
      const done = await pending;
      expect(done.ok && done.number).toBe(2);
      const [row] = await database.db.select({ clave: documents.clave, signed: documents.signedXml }).from(documents).where(and(eq(documents.companyId, company.id), eq(documents.number, 2)));
      expect(row.clave).toMatch(/^\d{50}$/);
      expect(verifyXml(row.signed!.toString("utf8")).valid).toBe(true);
    } finally {
      holder.release();
      await sql.end({ timeout: 5 });
    }
  });
});
