// School plan (permission 3): the document form offers students, each billed to its representative
// with the student's name opening the note; 'Nuevo estudiante' keeps what was typed and comes back
// with the student chosen. Other companies' students and other plans are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { companies, documents, students, taxTypes } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as studentsRoute from "../../app/routes/students/students.tsx";
import { issuingCompany } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let school: Awaited<ReturnType<typeof issuingCompany>>;
let shop: Awaited<ReturnType<typeof issuingCompany>>;
let b: Browser;
let shopBrowser: Browser;
let ana: number;
let foreign: number;
let tax13: number;

beforeAll(async () => {
  database = await createTestDatabase();
  school = await issuingCompany(database.db);
  shop = await issuingCompany(database.db);
  for (const c of [school, shop]) await setupItemsForCompany(database.db, c.company.id);
  await database.db.update(companies).set({ permission: 3 }).where(eq(companies.id, school.company.id));
  tax13 = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, school.company.id))).find((t) => t.name === "IVA 13%")!.id;
  const [a] = await database.db.insert(students).values({ companyId: school.company.id, clientId: school.client.id, name: "Ana", surname: "Rojas Mora" }).returning();
  await database.db.insert(students).values({ companyId: school.company.id, clientId: school.client.id, name: "Luis", surname: "Rojas Mora", active: false });
  const [f] = await database.db.insert(students).values({ companyId: shop.company.id, clientId: shop.client.id, name: "Ajeno", surname: "Otro" }).returning();
  ana = a.id;
  foreign = f.id;
  b = await signedIn(database.db, school.user.id, school.company.id);
  shopBrowser = await signedIn(database.db, shop.user.id, shop.company.id);
}, 120_000);
afterAll(async () => database?.drop());

const invoice = (clientId: string) => ({
  client_id: clientId,
  sale_condition: "01",
  "payments[0].code": "01",
  currency: "CRC",
  note: "Mensualidad de marzo",
  "lines[0].cabys": "9291100000000",
  "lines[0].description": "Mensualidad",
  "lines[0].unit": "Sp",
  "lines[0].quantity": "1",
  "lines[0].price": "85000",
  "lines[0].discount": "0",
  "lines[0].taxTypeId": String(tax13),
});

describe("school plan document form", () => {
  it("offers the active students with their representative, on invoices, tickets and quotations only", async () => {
    const inv = await call(b, formRoute.loader, { path: "/new-invoice" });
    expect(inv.data.lists.students).toEqual([{ id: ana, name: "Ana Rojas Mora", clientId: school.client.id, representative: school.client.name }]);
    expect((await call(b, formRoute.loader, { path: "/new-ticket" })).data.lists.students).toHaveLength(1);
    expect((await call(b, formRoute.loader, { path: "/new-simple" })).data.lists.students).toBeNull();
    expect((await call(shopBrowser, formRoute.loader, { path: "/new-invoice" })).data.lists.students).toBeNull();
    expect((await call(b, formRoute.loader, { path: `/new-invoice?id=s:${ana}` })).data.form.clientId).toBe(`s:${ana}`);
  });

  it("an invoice for a student goes to the representative, the student's name opening the note", async () => {
    const r = await call(b, formRoute.action, { path: "/new-invoice", form: { ...invoice(`s:${ana}`), intent: "save" } });
    expect(r.status).toBe(302);
    const [doc] = await database.db.select().from(documents).where(eq(documents.companyId, school.company.id));
    expect(doc.clientId).toBe(school.client.id);
    expect(doc.note).toBe("Estudiante: Ana Rojas Mora\nMensualidad de marzo");
    expect(Buffer.from(doc.signedXml!).toString("utf8")).toContain("Estudiante: Ana Rojas Mora");
  });

  it("refuses another company's student, an unknown one, and students on other plans; nothing is saved", async () => {
    const count = async (companyId: number) => (await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, companyId))).length;
    const before = await count(school.company.id);
    for (const id of [`s:${foreign}`, "s:999999"]) {
      const r = await call(b, formRoute.action, { path: "/new-invoice", form: { ...invoice(id), intent: "save" } });
      expect(r.status).toBe(400);
      expect(r.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
      expect(r.data.form.clientId).toBe(id);
    }
    const shopTry = await call(shopBrowser, formRoute.action, { path: "/new-invoice", form: { ...invoice(`s:${foreign}`), intent: "save" } });
    expect(shopTry.status).toBe(400);
    expect(await count(school.company.id)).toBe(before);
    expect(await count(shop.company.id)).toBe(0);
  });

  it("'Nuevo estudiante' keeps what was typed and comes back with the new student chosen", async () => {
    const leave = await call(b, formRoute.action, { path: "/new-invoice", form: { ...invoice(""), intent: "quick-add-student" } });
    expect(leave.status).toBe(302);
    expect(leave.location).toBe("/students?new=1&volver=%2Fnew-invoice");
    const page = await call(b, studentsRoute.loader, { path: "/students?new=1&volver=%2Fnew-invoice" });
    expect(page.data.volver).toBe("/new-invoice");
    const saved = await call(b, studentsRoute.action, { path: "/students?new=1&volver=%2Fnew-invoice", form: { name: "Sofía", surname: "Vargas", client_id: String(school.client.id), intent: "save" } });
    expect(saved.status).toBe(302);
    const id = /^\/new-invoice\?id=s%3A(\d+)&restore=1$/.exec(saved.location!)![1];
    const back = await call(b, formRoute.loader, { path: saved.location! });
    expect(back.data.form.clientId).toBe(`s:${id}`);
    expect(back.data.form.note).toBe("Mensualidad de marzo");
    expect(back.data.lists.students.map((s: { name: string }) => s.name)).toContain("Sofía Vargas");
    // Not a return address: a provider form or anything else goes back to the students list.
    const other = await call(b, studentsRoute.action, { path: "/students?new=1&volver=%2Fnew-simple", form: { name: "Mario", surname: "Solís", client_id: String(school.client.id), intent: "save" } });
    expect(other.location).toBe("/students");
  });
});
