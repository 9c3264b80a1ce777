// The number of lines of a document (issue 10 point 8, docs/decisions/123-document-line-limit.md): up
// to MAX_LINES (200) a document is issued; more are refused with a Spanish message on the lines,
// nothing saved, every line typed kept (the page without JavaScript shows them all again); 'Agregar
// línea' at the limit says so instead of doing nothing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documents, taxTypes } from "../../db/schema/index.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import { FORM_MESSAGES, MAX_LINES } from "../../app/domain/document-form.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let companyId: number;
let tax13: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const t = await issuingCompany(database.db);
  companyId = t.company.id;
  await setupItemsForCompany(database.db, companyId);
  tax13 = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, companyId))).find((x) => x.name === "IVA 13%")!.id;
  b = await signedIn(database.db, t.user.id, companyId);
}, 120_000);
afterAll(async () => database?.drop());

/** A ticket form with `n` complete service lines, each with its own description. */
function ticket(n: number, extra: Record<string, string> = {}) {
  const form: Record<string, string> = { sale_condition: "01", "payments[0].code": "01", currency: "CRC", ...extra };
  for (let i = 0; i < n; i++) {
    Object.assign(form, {
      [`lines[${i}].cabys`]: "8313100000000",
      [`lines[${i}].description`]: `Servicio número ${i + 1}`,
      [`lines[${i}].unit`]: "Sp",
      [`lines[${i}].quantity`]: "1",
      [`lines[${i}].price`]: "1000",
      [`lines[${i}].discount`]: "0",
      [`lines[${i}].taxTypeId`]: String(tax13),
    });
  }
  return form;
}
const count = async () => (await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, companyId))).length;

describe("lines of a document", () => {
  it(`more than ${MAX_LINES} lines: refused with the message on the lines, nothing saved, every line kept`, async () => {
    const before = await count();
    const res = await call(b, formRoute.action, { path: "/new-ticket", form: ticket(MAX_LINES + 50) });
    expect(res.status).toBe(400);
    expect(res.data.errors.lines).toBe(FORM_MESSAGES.tooManyLines(MAX_LINES + 50));
    expect(res.data.form.lines).toHaveLength(MAX_LINES + 50);
    expect(res.data.form.lines.map((l: { description: string }) => l.description)).toEqual(Array.from({ length: MAX_LINES + 50 }, (_, i) => `Servicio número ${i + 1}`));
    expect(await count()).toBe(before);
  });

  it(`exactly ${MAX_LINES} lines are issued`, async () => {
    const before = await count();
    const res = await call(b, formRoute.action, { path: "/new-ticket", form: ticket(MAX_LINES) });
    expect(res.status).toBe(302);
    expect(await count()).toBe(before + 1);
  });

  it("'Agregar línea' at the limit keeps the lines and says why no line was added", async () => {
    const res = await call(b, formRoute.action, { path: "/new-ticket", form: ticket(MAX_LINES, { intent: "add-line" }) });
    expect(res.status).toBe(200);
    expect(res.data.form.lines).toHaveLength(MAX_LINES);
    expect(res.data.errors.lines).toBe(FORM_MESSAGES.lineLimit);
  });
});
