// Receipts for 80 mm and 58 mm thermal printers (issue 14 point 6, docs/decisions/165): chosen in the
// general configuration; the detail's print variant is then the receipt page (print stylesheet at
// the roll's width, the QR of the public link, no script), and the receipt PDF is as wide as the
// roll with a QR that decodes to the public link. Without a receipt format the print variant is the
// full page, with the QR too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { generalConfigurations } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { loadDocumentView } from "../../app/server/document-view.server.ts";
import { LEGAL_NOTICE } from "../../app/domain/legal.ts";
import * as generals from "../../app/routes/config/config-generals.tsx";
import * as printRoute from "../../app/routes/documents/detail-print.tsx";
import * as fileRoute from "../../app/routes/documents/document-file.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let b: Browser;
let ticket: { documentId: number; clave: string | null; consecutivo: string | null };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-receipt-"));

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  await database.db.insert(generalConfigurations).values({ companyId: a.company.id }).onConflictDoNothing();
  const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("te", a.generic.id, { payments: [{ code: "02" }] }), now: new Date(), schemaSet: testSchemaSet() });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  ticket = r;
  b = await signedIn(database.db, a.user.id, a.company.id);
}, 120_000);
afterAll(async () => database?.drop());

const printPage = async (query = "") => {
  const r = await call(b, printRoute.loader, { path: `/detail/ticket/${ticket.documentId}/print${query}`, params: { type: "ticket", id: String(ticket.documentId), print: "print" } });
  expect(r.status).toBe(200);
  return r.response.text();
};

async function chooseFormat(format: string) {
  const r = await call(b, generals.action, {
    path: `/config-generals/${a.company.id}`,
    params: { company_id: String(a.company.id) },
    form: { custom_quotation_name: "Cotización", currency: "2", mode_pos: "0", currency_emit_doc: "0", print_format: format },
  });
  expect(r.status).toBe(302);
  const [row] = await database.db.select().from(generalConfigurations).where(eq(generalConfigurations.companyId, a.company.id));
  expect(row.printFormat).toBe(format);
}

function pdfFile(pdf: Uint8Array) {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return file;
}

/** The first QR code on page 1 of a PDF (pdftoppm + jsQR). */
function pdfQr(file: string): string | null {
  const ppm = execFileSync("pdftoppm", ["-r", "150", "-f", "1", "-l", "1", file], { maxBuffer: 64 * 1024 * 1024 });
  let pos = 0;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(ppm[pos]))) pos++;
    let tok = "";
    while (!/\s/.test(String.fromCharCode(ppm[pos]))) tok += String.fromCharCode(ppm[pos++]);
    fields.push(tok);
  }
  pos++;
  const [w, h] = [Number(fields[1]), Number(fields[2])];
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let i = 0, j = pos; i < w * h; i++, j += 3) {
    rgba[i * 4] = ppm[j];
    rgba[i * 4 + 1] = ppm[j + 1];
    rgba[i * 4 + 2] = ppm[j + 2];
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, w, h)?.data ?? null;
}

describe("receipts", () => {
  it("a full page by default: the print variant carries the QR of the public link", async () => {
    const html = await printPage();
    expect(html).toContain('aria-label="Código QR del documento"');
    expect(html).not.toContain("data-receipt");
    expect(html).toContain(ticket.clave!);
  });

  it("80 mm chosen in the general configuration: the receipt page, at the roll's width, with everything a ticket prints", async () => {
    await chooseFormat("80");
    const view = (await loadDocumentView(database.db, { companyId: a.company.id, documentId: ticket.documentId }))!;
    const html = await printPage();
    expect(html).toContain('data-receipt="80"');
    expect(html).toMatch(/\.receipt\{width:72mm/);
    expect(html).not.toMatch(/<script/i);
    for (const text of [view.company.fantasyName || view.company.name, ticket.consecutivo!, ticket.clave!, "Computadora portátil 14 pulgadas", "Horas de consultoría en sistemas", "₡1.226.150,00", "Tarjeta", view.publicUrl, LEGAL_NOTICE])
      expect(html, text).toContain(text);
    expect(html).toContain('aria-label="Código QR del documento"');
    // The full page stays one parameter away.
    expect(await printPage("?formato=a4")).not.toContain("data-receipt");
  });

  it("the print pages' inline CSS is allowed by its hash (no inline style otherwise) and only the app may frame them", async () => {
    const { createHash } = await import("node:crypto");
    for (const query of ["?formato=80", "?formato=a4"]) {
      const r = await call(b, printRoute.loader, { path: `/detail/ticket/${ticket.documentId}/print${query}`, params: { type: "ticket", id: String(ticket.documentId), print: "print" } });
      const csp = r.response.headers.get("content-security-policy") ?? "";
      const style = /<style>([\s\S]*?)<\/style>/.exec(await r.response.text())![1];
      expect(csp, query).toContain(`style-src 'sha256-${createHash("sha256").update(style, "utf8").digest("base64")}'`);
      expect(csp, query).toContain("frame-ancestors 'self'");
    }
  });

  it("58 mm: a narrower receipt", async () => {
    await chooseFormat("58");
    const html = await printPage();
    expect(html).toContain('data-receipt="58"');
    expect(html).toMatch(/\.receipt\{width:48mm/);
  });

  it("the receipt PDF is as wide as the roll, one page, and its QR decodes to the public link", async () => {
    const view = (await loadDocumentView(database.db, { companyId: a.company.id, documentId: ticket.documentId }))!;
    for (const [format, points] of [
      ["80", "226.772"],
      ["58", "164.409"],
    ] as const) {
      const r = await call(b, fileRoute.loader, { path: `/document-file/${ticket.documentId}/recibo?formato=${format}`, params: { id: String(ticket.documentId), file: "recibo" } });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/pdf");
      const file = pdfFile(new Uint8Array(await r.response.arrayBuffer()));
      if (process.env.KEEP_RECEIPT) fs.copyFileSync(file, `/tmp/receipt-${format}.pdf`);
      const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
      expect(info).toMatch(/Pages:\s+1\n/);
      expect(info).toMatch(new RegExp(`Page size:\\s+${points.replace(".", "\\.")}\\d* x`));
      const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      for (const t of [ticket.consecutivo!, "₡1.226.150,00", "Computadora portátil 14 pulgadas"]) expect(text, t).toContain(t);
      expect(pdfQr(file)).toBe(view.publicUrl);
    }
  });
});
