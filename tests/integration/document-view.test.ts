// An issued document, loaded as the printable view: the public page and the PDF render it from the
// stored values, and another company's id finds nothing.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { renderDocumentPdf } from "../../app/pdf/invoice-pdf.server.tsx";
import { loadDocumentView } from "../../app/server/document-view.server.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { publicCode } from "../../app/server/public-link.server.ts";
import * as publicRoute from "../../app/routes/public/query-public.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn } from "../setup/app.ts";
import * as downloadRoute from "../../app/routes/companies/download-all-files.tsx";
import { documents, users } from "../../db/schema/index.ts";
import { eq } from "drizzle-orm";
import JSZip from "jszip";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.drop());

it("an issued invoice prints on the public page and as a PDF, only for its own company", async () => {
  const { user, company, client } = await issuingCompany(database.db);
  const issued = await issueDocument(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  expect(issued.ok).toBe(true);
  if (!issued.ok) return;
  const view = await loadDocumentView(database.db, { companyId: company.id, documentId: issued.documentId });
  expect(view).not.toBeNull();
  expect(view!.clave).toBe(issued.clave);
  expect(view!.client.name).toBe("Distribuidora La Sabana Limitada");
  expect(view!.totals.total).toBe("1226150.00000");
  expect(view!.lines.length).toBeGreaterThan(0);
  expect(view!.haciendaStatus).toBe("por enviar");

  expect(await loadDocumentView(database.db, { companyId: company.id + 1000, documentId: issued.documentId })).toBeNull();

  const code = publicCode({ companyId: company.id, documentId: issued.documentId });
  const res = (await publicRoute.loader({ params: { code64: code }, request: new Request(`http://x/query-public/${code}`), context: {} } as never)) as Response;
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain(issued.clave);
  expect(html).toContain("₡1.226.150,00");
  expect(html).not.toContain("<script");

  const pdf = await renderDocumentPdf(view!);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
}, 60_000);

it("a ticket to an international client prints that client (not 'Cliente genérico') on the public page and the PDF", async () => {
  const { user, company, generic } = await issuingCompany(database.db);
  const issued = await issueDocument(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("te", generic.id, { internationalClient: { name: "John Smith", cedula: "P123456789" } }), now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  const view = await loadDocumentView(database.db, { companyId: company.id, documentId: issued.documentId });
  expect(view!.client).toMatchObject({ name: "John Smith", identification: { type: "05", number: "P123456789" }, generic: false });
  const code = publicCode({ companyId: company.id, documentId: issued.documentId });
  const html = await ((await publicRoute.loader({ params: { code64: code }, request: new Request(`http://x/query-public/${code}`), context: {} } as never)) as Response).text();
  expect(html).toContain("<b>Cliente:</b> John Smith");
  expect(html).toContain("Extranjero: P123456789");
  expect(html).not.toContain("Cliente genérico");
  const pdf = await renderDocumentPdf(view!);
  const file = path.join(os.tmpdir(), `colibri-intl-${issued.documentId}.pdf`);
  fs.writeFileSync(file, pdf);
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  fs.rmSync(file);
  expect(text).toContain("Cliente: John Smith");
  expect(text).not.toContain("Cliente genérico");
}, 60_000);

it("the payment methods print as issued: each with its amount when there are several, 'Otros' with its description", async () => {
  const { user, company, client } = await issuingCompany(database.db);
  const payments = [{ code: "01", amount: "226150" }, { code: "99", other: "Canje de servicios", amount: "1000000" }];
  const issued = await issueDocument(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id, { payments }), now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  const view = await loadDocumentView(database.db, { companyId: company.id, documentId: issued.documentId });
  expect(view!.payments).toEqual(["Efectivo ₡226.150,00", "Otros: Canje de servicios ₡1.000.000,00"]);
  const code = publicCode({ companyId: company.id, documentId: issued.documentId });
  const html = await ((await publicRoute.loader({ params: { code64: code }, request: new Request(`http://x/query-public/${code}`), context: {} } as never)) as Response).text();
  expect(html).toContain("Efectivo ₡226.150,00; Otros: Canje de servicios ₡1.000.000,00");

  const single = await issueDocument(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id, { payments: [{ code: "06" }] }), now: new Date("2026-11-21T15:31:00Z"), schemaSet: testSchemaSet() });
  if (!single.ok) throw new Error(JSON.stringify(single.errors));
  expect((await loadDocumentView(database.db, { companyId: company.id, documentId: single.documentId }))!.payments).toEqual(["SINPE Móvil"]);
}, 60_000);

it("an admin downloads every document of the company as a ZIP (signed XML and PDF)", async () => {
  const { user, company, client } = await issuingCompany(database.db);
  await database.db.update(users).set({ role: "admin" }).where(eq(users.id, user.id));
  const issued = await issueDocument(database.db, { companyId: company.id, userId: user.id, draft: sampleDraft("fe", client.id), now: new Date("2026-11-21T16:00:00Z"), schemaSet: testSchemaSet() });
  expect(issued.ok).toBe(true);
  if (!issued.ok) return;
  const b = await signedIn(database.db, user.id, company.id);
  const res = await call(b, downloadRoute.loader, { path: `/download-all-files/${company.id}`, params: { id: String(company.id) } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  const zip = await JSZip.loadAsync(Buffer.from(await res.response.arrayBuffer()));
  const names = Object.keys(zip.files).sort();
  expect(names).toEqual([`fe/${issued.clave}.pdf`, `fe/${issued.clave}.xml`]);
  const [doc] = await database.db.select({ signedXml: documents.signedXml }).from(documents).where(eq(documents.id, issued.documentId));
  expect(Buffer.from(await zip.files[`fe/${issued.clave}.xml`].async("uint8array")).equals(doc.signedXml!)).toBe(true);
}, 60_000);
