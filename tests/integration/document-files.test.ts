// /document-file/:id/:file — the PDF, the signed XML (the stored bytes, unchanged) and Hacienda's
// answer, with their content types and <clave> file names; another company's id, unknown files and
// files not stored yet are the same 404 and reveal nothing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { documents } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import * as file from "../../app/routes/documents/document-file.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { anonymous, call, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.drop());

const UNAVAILABLE = "Este archivo no esta disponible para su descarga";

async function download(b: Awaited<ReturnType<typeof signedIn>>, id: number, f: string) {
  let captured: Response | undefined;
  const loader = async (args: Parameters<typeof file.loader>[0]) => {
    const r = await file.loader(args);
    captured = r.clone();
    return r;
  };
  const r = await call(b, loader, { path: `/document-file/${id}/${f}`, params: { id: String(id), file: f } });
  expect(r.status).toBe(captured!.status);
  return captured!;
}

it("downloads the PDF, the signed XML and the response XML of the company's own document only", async () => {
  const a = await issuingCompany(database.db);
  const issued = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id), now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  expect(issued.ok).toBe(true);
  if (!issued.ok) return;
  const b = await signedIn(database.db, a.user.id, a.company.id);
  const [stored] = await database.db.select().from(documents).where(eq(documents.id, issued.documentId));

  // Before Hacienda answers there is no response XML.
  let res = await download(b, issued.documentId, "respuesta");
  expect(res.status).toBe(404);
  expect(await res.text()).toBe(UNAVAILABLE);

  const answer = Buffer.from(`<?xml version="1.0" encoding="utf-8"?><MensajeHacienda><Clave>${issued.clave}</Clave><Mensaje>1</Mensaje></MensajeHacienda>`);
  await database.db.update(documents).set({ status: "aceptado", responseXml: answer }).where(eq(documents.id, issued.documentId));

  res = await download(b, issued.documentId, "pdf");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${issued.clave}.pdf"`);
  expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

  res = await download(b, issued.documentId, "xml");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
  expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${issued.clave}.xml"`);
  expect(Buffer.from(await res.arrayBuffer()).equals(stored.signedXml!)).toBe(true);

  res = await download(b, issued.documentId, "respuesta");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${issued.clave}_respuesta.xml"`);
  expect(Buffer.from(await res.arrayBuffer()).equals(answer)).toBe(true);

  res = await download(b, issued.documentId, "zip");
  expect(res.status).toBe(404);

  // Another company, an unknown id, no session: the same 404, nothing of the document.
  const other = await issuingCompany(database.db);
  const ob = await signedIn(database.db, other.user.id, other.company.id);
  for (const f of ["pdf", "xml", "respuesta"]) {
    for (const [who, id] of [[ob, issued.documentId], [b, 999999]] as const) {
      const r = await download(who, id, f);
      expect(r.status).toBe(404);
      const text = await r.text();
      expect(text).toBe(UNAVAILABLE);
      expect(r.headers.get("content-disposition")).toBeNull();
    }
  }
  const anon = await call(anonymous(), file.loader, { path: `/document-file/${issued.documentId}/xml`, params: { id: String(issued.documentId), file: "xml" } });
  expect([302, 303, 401, 404]).toContain(anon.status);
  expect(anon.headers.get("content-disposition")).toBeNull();
}, 60_000);
