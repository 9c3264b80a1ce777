// The small things of issue 14 point 9, each with its check: the documents of the year on
// /companies-user, selecting an inactive company, why an inactive company's staff are sent to the
// dashboard, the purchase invoice's reference block says why it is asked for, a credit note's code
// (the partial one is in notes.test.ts), amounts in the detail's list never cut, lists stacked on a
// phone. (The recurring preview is in plan5-screens.test.ts; widths on screen in the browser journeys.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { companies, companyUsers, documents } from "../../db/schema/index.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { FEC_REFERENCE_HINT, noteReferenceCode } from "../../app/domain/document-source.ts";
import * as companiesUser from "../../app/routes/users/companies-user.tsx";
import * as selectCompany from "../../app/routes/companies/select-company.tsx";
import * as items from "../../app/routes/items/items.tsx";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as sourcedForm from "../../app/routes/documents/sourced-form.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as list from "../../app/routes/documents/documents-list.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.drop());

const toastsOf = (b: Browser) => {
  const flash = b.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
};

function render(id: string, pattern: string, path: string, Component: unknown, loaderData: unknown) {
  const Stub = createRoutesStub([{ id, path: pattern, Component: Component as never, loader: () => null }]);
  return renderToString(createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { [id]: loaderData } } }));
}

describe("companies of a user", () => {
  it("each company shows its own documents of the year, not 1 for every company", async () => {
    const a = await issuingCompany(database.db);
    const other = await createCompany(database.db, { userIds: [a.user.id] });
    for (let i = 0; i < 3; i++) {
      const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id), now: new Date(), schemaSet: testSchemaSet() });
      if (!r.ok) throw new Error("issue");
    }
    // A quotation is not a document issued to Hacienda.
    await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("qt", a.client.id), now: new Date(), schemaSet: testSchemaSet() });
    await database.db.update(documents).set({ issuedAt: new Date("2020-05-01T12:00:00Z") }).where(eq(documents.id, (await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, a.company.id)))[0].id));
    const admin = await createUser(database.db, { role: "admin" });
    for (const c of [a.company.id, other.id]) await database.db.insert(companyUsers).values({ companyId: c, userId: admin.id });
    const b = await signedIn(database.db, admin.id, a.company.id);
    // The administrator's own companies (an administrator reaches himself: decision 120).
    const r = await call(b, companiesUser.loader, { path: `/companies-user/${admin.id}`, params: { user_id: String(admin.id) } });
    const counts = Object.fromEntries((r.data.rows as Array<{ id: number; documentsThisYear: number }>).map((c) => [c.id, c.documentsThisYear]));
    expect(counts).toEqual({ [a.company.id]: 2, [other.id]: 0 });
  });
});

describe("an inactive company", () => {
  it("selecting it says it is inactive, not 'esta activa'", async () => {
    const user = await createUser(database.db);
    const active = await createCompany(database.db, { name: "Activa S.A.", userIds: [user.id] });
    const inactive = await createCompany(database.db, { name: "Dormida S.A.", active: false, userIds: [user.id] });
    const b = await signedIn(database.db, user.id, active.id);
    await call(b, selectCompany.action, { path: "/select-company", form: { company_id: String(inactive.id) } });
    expect(toastsOf(b)).toEqual([{ type: "warning", text: "La compañia Dormida S.A. esta inactiva: solo puede ver el inicio y las compañías. Pida a un administrador que la active." }]);
    await call(b, selectCompany.action, { path: "/select-company", form: { company_id: String(active.id) } });
    expect(toastsOf(b)).toEqual([{ type: "success", text: "La compañia Activa S.A. esta activa" }]);
  });

  it("its staff sent to the dashboard are told why", async () => {
    const user = await createUser(database.db);
    const inactive = await createCompany(database.db, { name: "Dormida Dos S.A.", active: false, userIds: [user.id] });
    const b = await signedIn(database.db, user.id, inactive.id);
    const r = await call(b, items.loader, { path: "/items" });
    expect(r.status).toBe(302);
    expect(r.location).toBe("/dashboard");
    expect(toastsOf(b)).toContainEqual({ type: "warning", text: "La compañia Dormida Dos S.A. esta inactiva: solo puede ver el inicio y las compañías. Pida a un administrador que la active." });
    // An administrator may use it: no redirect, no message.
    await database.db.update(companies).set({ active: true }).where(eq(companies.id, inactive.id));
  });
});

describe("document screens", () => {
  it("the purchase invoice's reference block says why it is asked for", async () => {
    const a = await issuingCompany(database.db);
    const b = await signedIn(database.db, a.user.id, a.company.id);
    const r = await call(b, formRoute.loader, { path: "/new-simple" });
    expect(r.data.source.references[0].hint).toBe(FEC_REFERENCE_HINT);
    const html = render("form", "/new-simple", "/new-simple", sourcedForm.default, r.data);
    expect(html).toContain("Hacienda exige que la factura electrónica de compra indique el documento que respalda la compra");
  });

  it("a note's code: the ones offered, else 01", () => {
    expect(noteReferenceCode("nc", "02")).toBe("02");
    expect(noteReferenceCode("nc", "06")).toBe("06");
    expect(noteReferenceCode("nc", "16")).toBe("01");
    expect(noteReferenceCode("nc", undefined)).toBe("01");
    expect(noteReferenceCode("nd", "06")).toBe("01");
  });

  it("the detail's list keeps amounts whole; lists stack on a phone", async () => {
    const a = await issuingCompany(database.db);
    const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id), now: new Date(), schemaSet: testSchemaSet() });
    if (!r.ok) throw new Error("issue");
    const b = await signedIn(database.db, a.user.id, a.company.id);
    const d = await call(b, detail.loader, { path: `/detail/invoice/${r.documentId}`, params: { type: "invoice", id: String(r.documentId) } });
    const html = render("detail-transaction", "/detail/:type/:id", `/detail/invoice/${r.documentId}`, detail.default, d.data);
    expect(html).toMatch(/<span class="shrink-0 whitespace-nowrap" data-list-total="true">₡1\.226\.150,00<\/span>/);
    const l = await call(b, list.loader, { path: "/invoices" });
    const listHtml = render("invoices", "/invoices", "/invoices", list.default, l.data);
    expect(listHtml).toContain("data-stack");
    for (const label of ["Número", "Cliente", "Total", "Pagado", "Estado de pago", "Fecha", "Hacienda"]) expect(listHtml).toContain(`data-label="${label}"`);
  });
});
