// An issued document never changes (issue 14 point 4, docs/decisions/162): after the company's name,
// phone and e-mail and the client's data are edited, the PDF (its text, read with pdftotext), the
// detail preview, the public page and the e-mail still print what was signed. Documents issued
// before the snapshot was stored read the same values from their signed XML.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { clients, companies, documents } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { readModel } from "../../app/hacienda/read-model.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { buildDocumentEmail } from "../../app/server/document-email.server.ts";
import { loadDocumentView } from "../../app/server/document-view.server.ts";
import { publicCode } from "../../app/server/public-link.server.ts";
import { DocumentPreview } from "../../app/components/document-preview.tsx";
import * as fileRoute from "../../app/routes/documents/document-file.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as publicRoute from "../../app/routes/public/query-public.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const schemaSet = testSchemaSet();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-frozen-"));

beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.drop());

function pdfText(pdf: Uint8Array): string {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

const OLD = { company: "Ferretería El Clavo S.A.", phone: "22223333", email: "ventas@elclavo.example", client: "Distribuidora La Sabana Limitada", clientPhone: "22224444" };
const NEW = { company: "Ferretería Renombrada S.A.", phone: "88887777", email: "nuevo@renombrada.example", client: "Nombre Nuevo del Cliente", clientPhone: "60001111" };

async function issuedThenEdited() {
  const a = await issuingCompany(database.db);
  await database.db.update(companies).set({ name: OLD.company, phone: OLD.phone, email: OLD.email, fantasyName: null }).where(eq(companies.id, a.company.id));
  const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id), now: new Date(), schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  await database.db.update(companies).set({ name: NEW.company, phone: NEW.phone, email: NEW.email, invoiceFormat: "2" }).where(eq(companies.id, a.company.id));
  await database.db.update(clients).set({ name: NEW.client, phone: NEW.clientPhone, email: "nuevo@cliente.example", address: "Otra dirección" }).where(eq(clients.id, a.client.id));
  return { a, documentId: r.documentId };
}

function expectOld(text: string, where: string) {
  expect(text, where).toContain(OLD.company);
  expect(text, where).toContain(OLD.phone);
  expect(text, where).toContain(OLD.client);
  expect(text, where).not.toContain(NEW.company);
  expect(text, where).not.toContain(NEW.phone);
  expect(text, where).not.toContain(NEW.client);
  expect(text, where).not.toContain(NEW.clientPhone);
}

async function everyRendering(a: Awaited<ReturnType<typeof issuingCompany>>, documentId: number) {
  const b = await signedIn(database.db, a.user.id, a.company.id);
  const pdf = await call(b, fileRoute.loader, { path: `/document-file/${documentId}/pdf`, params: { id: String(documentId), file: "pdf" } });
  expect(pdf.status).toBe(200);
  expectOld(pdfText(new Uint8Array(await pdf.response.arrayBuffer())), "PDF");

  const d = await call(b, detail.loader, { path: `/detail/invoice/${documentId}`, params: { type: "invoice", id: String(documentId) } });
  expectOld(renderToString(createElement(DocumentPreview, { view: d.data.preview, logoSrc: null, ribbon: null })), "detail preview");

  const code = publicCode({ companyId: a.company.id, documentId });
  const page = (await publicRoute.loader({ params: { code64: code } } as never)) as Response;
  expect(page.status).toBe(200);
  expectOld(await page.text(), "public page");

  const view = (await loadDocumentView(database.db, { companyId: a.company.id, documentId }))!;
  const email = await buildDocumentEmail(database.db, { companyId: a.company.id, view });
  expect(email.subject).toContain(OLD.company);
  expect(email.text).toContain(OLD.company);
  expect(email.text).not.toContain(NEW.company);
  // The print format is the one of the day it was issued (format 1: no CABYS column).
  expect(view.company.invoiceFormat).toBe("1");
}

describe("an issued document keeps what was signed", () => {
  it("PDF, detail preview, public page and e-mail print the company and client as they were at issue", async () => {
    const { a, documentId } = await issuedThenEdited();
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, documentId));
    // The snapshot is what the signed XML says about the issuer.
    const xml = readModel(doc.signedXml!);
    const issuer = "issuer" in xml ? xml.issuer : null;
    expect(doc.issuerSnapshot).toMatchObject({ name: issuer!.name, idNumber: issuer!.id.number, phone: issuer!.phone!.number, email: issuer!.emails[0], invoiceFormat: "1" });
    await everyRendering(a, documentId);
  });

  it("a document issued before snapshots were stored reads them from its signed XML", async () => {
    const { a, documentId } = await issuedThenEdited();
    await database.db.update(documents).set({ issuerSnapshot: null }).where(eq(documents.id, documentId));
    const view = (await loadDocumentView(database.db, { companyId: a.company.id, documentId }))!;
    expect(view.company).toMatchObject({ name: OLD.company, phone: OLD.phone, email: OLD.email });
    await database.db.update(companies).set({ invoiceFormat: "1" }).where(eq(companies.id, a.company.id));
    await everyRendering(a, documentId);
  });
});
