// Cross-tenant attempts on every client, provider, student and activity route: another company's
// ids in URLs or forms give 404 (or a refused form) and change nothing.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientContacts, clients, students } from "../../db/schema/index.ts";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import * as providers from "../../app/routes/clients/providers.tsx";
import * as detail from "../../app/routes/clients/client-detail.tsx";
import * as studentsRoute from "../../app/routes/students/students.tsx";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let asA: Browser;
let clientB: number;
let providerB: number;
let studentB: number;
const snapshot = async () => ({
  clients: await database.db.select().from(clients).where(eq(clients.companyId, companyB)),
  contacts: await database.db.select().from(clientContacts).where(eq(clientContacts.companyId, companyB)),
  students: await database.db.select().from(students).where(eq(students.companyId, companyB)),
});
let companyB: number;
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  database = await createTestDatabase();
  const a = await createUser(database.db, { role: "admin" });
  const bUser = await createUser(database.db, { role: "admin" });
  const A = await createCompany(database.db, { userIds: [a.id] });
  const B = await createCompany(database.db, { userIds: [bUser.id] });
  companyB = B.id;
  asA = await signedIn(database.db, a.id, A.id);
  const base = { companyId: B.id, identificationTypeId: 1, identification: "109870654", email: "b@example.cr", phone: "88887777", address: "Heredia" };
  [{ id: clientB }] = await database.db.insert(clients).values({ ...base, name: "Cliente de B" }).returning({ id: clients.id });
  [{ id: providerB }] = await database.db.insert(clients).values({ ...base, name: "Proveedor de B", provider: true }).returning({ id: clients.id });
  await database.db.insert(clientContacts).values({ companyId: B.id, clientId: clientB, name: "Contacto B", email: "c@b.cr" });
  [{ id: studentB }] = await database.db.insert(students).values({ companyId: B.id, clientId: clientB, name: "Est", surname: "B" }).returning({ id: students.id });
  before = await snapshot();
});
afterAll(() => database.drop());

const form = (o: Record<string, string>) => ({
  intent: "save",
  name: "Robado",
  identification_type: "1",
  identification: "109870654",
  email: "x@example.cr",
  phone: "1",
  address: "x",
  country: "60",
  province: "1",
  canton: "1",
  district: "1",
  barrio: "Amón",
  contact_count: "1",
  economic_activity_code: "6201.0",
  ...o,
});

describe("another company's clients, providers and students", () => {
  it.each([
    ["/clients?edit=", () => clientB],
    ["/clients?statement=", () => clientB],
    ["/providers?edit=", () => providerB],
    ["/students?edit=", () => studentB],
  ])("GET %s<id of B> is 404", async (prefix, id) => {
    const route = prefix.startsWith("/providers") ? providers : prefix.startsWith("/students") ? studentsRoute : clientsRoute;
    const res = await call(asA, route.loader, { path: `${prefix}${id()}` });
    expect(res.status).toBe(404);
  });

  it("client detail of B is 404 for every tab and every intent", async () => {
    for (const tab of ["", "?tab=invoices", "?tab=tickets", "?tab=quotations"]) {
      const res = await call(asA, detail.loader, { path: `/client-detail/${clientB}${tab}`, params: { id: String(clientB) } });
      expect(res.status).toBe(404);
    }
    for (const intent of ["save", "activity-save", "activity-lookup", "add-contact"]) {
      const res = await call(asA, detail.action, { path: `/client-detail/${clientB}`, params: { id: String(clientB) }, form: form({ intent }) });
      expect(res.status).toBe(404);
    }
  });

  it("row actions and the edit form with B's ids are 404 and change nothing", async () => {
    for (const intent of ["toggle", "delete", "send-statement"]) {
      for (const [route, path, id] of [
        [clientsRoute, "/clients", clientB],
        [providers, "/providers", providerB],
      ] as const) {
        const res = await call(asA, route.action, { path, form: { intent, client_id: String(id), confirm: "yes" } });
        expect(res.status).toBe(404);
      }
    }
    expect((await call(asA, clientsRoute.action, { path: `/clients?edit=${clientB}`, form: form({}) })).status).toBe(404);
    expect((await call(asA, clientsRoute.action, { path: `/clients?edit=${clientB}`, form: form({ intent: "add-contact" }) })).status).toBe(404);
    expect((await call(asA, providers.action, { path: `/providers?edit=${providerB}`, form: form({}) })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("students: B's student is 404 and B's client is refused as representative", async () => {
    for (const intent of ["toggle", "delete"]) {
      const res = await call(asA, studentsRoute.action, { path: "/students", form: { intent, student_id: String(studentB), confirm: "yes" } });
      expect(res.status).toBe(404);
    }
    expect((await call(asA, studentsRoute.action, { path: `/students?edit=${studentB}`, form: { intent: "save", name: "X", surname: "Y", client_id: String(clientB) } })).status).toBe(404);
    const res = await call(asA, studentsRoute.action, { path: "/students?new=1", form: { intent: "save", name: "X", surname: "Y", client_id: String(clientB) } });
    expect(res.status).toBe(400);
    expect(res.data.form.errors.client_id).toBe("El representante es obligatorio");
    expect(await snapshot()).toEqual(before);
  });

  it("B's clients never appear in A's lists or searches", async () => {
    for (const [route, path] of [
      [clientsRoute, "/clients?search=de B"],
      [clientsRoute, "/clients?tab=inactive&search="],
      [providers, "/providers?search=de B"],
    ] as const) {
      const res = await call(asA, route.loader, { path });
      expect(res.data.rows).toHaveLength(0);
    }
    const st = await call(asA, studentsRoute.loader, { path: "/students?new=1" });
    expect(st.data.rows).toHaveLength(0);
    expect(st.data.representatives.some((r: { id: number }) => r.id === clientB)).toBe(false);
  });
});
