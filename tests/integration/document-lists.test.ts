// /invoices, /tickets, /notes and /simples with issued documents: kinds in their own list, the
// filters, payment status and due state, the empty texts, plan 5 (no new button, control number),
// and only the signed-in company's documents.
import { eq, inArray } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, companies, documents } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import * as list from "../../app/routes/documents/documents-list.tsx";
import { COUNT_AHEAD, documentList, SEARCH_COUNT_AHEAD } from "../../db/queries/document-lists.ts";
import { addDays } from "../../app/domain/document-status.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { call, signedIn } from "../setup/app.ts";
import { onOneCostaRicaDay } from "../setup/costa-rica-day.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.drop());

const issue = async (companyId: number, userId: number, draft: DocumentDraft) => {
  const r = await issueDocument(database.db, { companyId, userId, draft, now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
};

async function setup() {
  const a = await issuingCompany(database.db);
  const fe = await issue(a.company.id, a.user.id, sampleDraft("fe", a.client.id));
  const fe2 = await issue(a.company.id, a.user.id, sampleDraft("fe", a.client.id));
  const te = await issue(a.company.id, a.user.id, sampleDraft("te", a.generic.id));
  const nc = await issue(
    a.company.id,
    a.user.id,
    sampleDraft("nc", a.client.id, { note: "Devolución", references: [{ documentId: fe.documentId, docType: "", number: "", issuedAt: "", code: "06", reason: "Devolución" }], lines: sampleDraft("fe", 1).lines.slice(0, 1) }),
  );
  const b = await signedIn(database.db, a.user.id, a.company.id);
  return { ...a, fe, fe2, te, nc, b };
}

/** Server-renders the list screen with loader data (what a browser without JavaScript gets). */
function render(section: string, loaderData: unknown): string {
  const Stub = createRoutesStub([{ id: section, path: `/${section}`, Component: list.default as never, loader: () => null }]);
  return renderToString(createElement(Stub, { initialEntries: [`/${section}`], hydrationData: { loaderData: { [section]: loaderData } } }));
}

const get = (b: Awaited<ReturnType<typeof signedIn>>, path: string) => call(b, list.loader, { path });

describe("document lists", () => {
  it("every list shows how many of the company's documents wait for Hacienda", async () => {
    const s = await setup();
    const other = await issuingCompany(database.db);
    await issue(other.company.id, other.user.id, sampleDraft("fe", other.client.id)); // another company's: not counted
    await database.db.update(documents).set({ status: "aceptado" }).where(eq(documents.id, s.fe.documentId));
    await database.db.update(documents).set({ status: "procesando" }).where(eq(documents.id, s.fe2.documentId));
    const text = "3 documentos esperan respuesta de Hacienda (2 por enviar, 1 procesando). Se envían solos cuando Hacienda responde; no hace falta emitirlos de nuevo.";
    for (const section of ["invoices", "tickets", "notes", "simples"]) {
      const r = await get(s.b, `/${section}`);
      expect(r.data.pending).toBe(text);
      expect(render(section, r.data)).toContain("data-pending-hacienda");
    }
    await database.db.update(documents).set({ status: "aceptado" }).where(eq(documents.companyId, s.company.id));
    const none = await get(s.b, "/invoices");
    expect(none.data.pending).toBeNull();
    expect(render("invoices", none.data)).not.toContain("data-pending-hacienda");
  }, 60_000);

  it("each list shows its own kinds, with payment status, due state and links", async () => {
    const s = await setup();
    await database.db.update(documents).set({ status: "aceptado", paymentAmount: "1226150", expirationDate: "2026-11-01" }).where(eq(documents.id, s.fe.documentId));
    await database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, s.fe2.documentId));

    const inv = await get(s.b, "/invoices");
    expect(inv.status).toBe(200);
    expect(inv.data.rows.map((r: { id: number }) => r.id).sort()).toEqual([s.fe.documentId, s.fe2.documentId].sort());
    const paid = inv.data.rows.find((r: { id: number }) => r.id === s.fe.documentId);
    expect(paid).toMatchObject({ number: s.fe.consecutivo, clientName: "Distribuidora La Sabana Limitada", total: "₡1.226.150,00", paymentStatus: "Pagado", due: null, hacienda: "aceptado" });
    const rejected = inv.data.rows.find((r: { id: number }) => r.id === s.fe2.documentId);
    expect(rejected.paymentStatus).toBeNull();

    expect((await get(s.b, "/invoices?filter=aceptado")).data.rows.map((r: { id: number }) => r.id)).toEqual([s.fe.documentId]);
    expect((await get(s.b, "/invoices?filter=rechazado")).data.rows.map((r: { id: number }) => r.id)).toEqual([s.fe2.documentId]);
    expect((await get(s.b, "/invoices?filter=pagado")).data.rows.map((r: { id: number }) => r.id)).toEqual([s.fe.documentId]);
    expect((await get(s.b, "/invoices?filter=no-pagado")).data.rows.map((r: { id: number }) => r.id)).toEqual([s.fe2.documentId]);

    const tickets = await get(s.b, "/tickets");
    expect(tickets.data.rows.map((r: { id: number }) => r.id)).toEqual([s.te.documentId]);
    expect(tickets.data.rows[0].clientId).toBeNull();

    const notes = await get(s.b, "/notes");
    expect(notes.data.rows).toHaveLength(1);
    expect(notes.data.rows[0]).toMatchObject({ id: s.nc.documentId, kindLabel: "Nota de Crédito", parent: { href: `/detail/invoice/${s.fe.documentId}` } });
    expect((await get(s.b, "/notes?filter=nd")).data.rows).toHaveLength(0);
    expect((await get(s.b, "/notes?filter=nc")).data.rows).toHaveLength(1);

    expect((await get(s.b, "/simples")).data.rows).toHaveLength(0);

    // Search by client name and by consecutive
    expect((await get(s.b, "/invoices?search=zzz-nada")).data.rows).toHaveLength(0);
    expect((await get(s.b, `/invoices?search=${s.fe2.consecutivo}`)).data.rows.map((r: { id: number }) => r.id)).toEqual([s.fe2.documentId]);
    expect((await get(s.b, "/invoices?search=sabana")).data.total).toBe(2);
    // Word prefixes, any case and accents; whole numbers only (the counter number, the clave);
    // punctuation alone finds nothing.
    expect((await get(s.b, "/invoices?search=SÁB%20distrib")).data.total).toBe(2);
    expect((await get(s.b, `/invoices?search=${s.fe2.consecutivo!.slice(0, 12)}`)).data.total).toBe(0);
    expect((await get(s.b, `/invoices?search=${s.fe2.clave}`)).data.rows.map((r: { id: number }) => r.id)).toEqual([s.fe2.documentId]);
    expect((await get(s.b, `/invoices?search=${Number(s.fe2.consecutivo!.slice(10))}`)).data.rows.map((r: { id: number }) => r.id)).toContain(s.fe2.documentId);
    expect((await get(s.b, "/invoices?search=%25%25")).data.rows).toHaveLength(0);
  }, 60_000);

  it("counts only so far past the page; the pager then offers more pages (works without JavaScript)", async () => {
    const s = await setup();
    for (let i = 0; i < 3; i++) await issue(s.company.id, s.user.id, sampleDraft("fe", s.client.id));
    // 5 invoices, one per page, counted one row past the page
    const first = await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], page: 1, perPage: 1, countAhead: 1 });
    expect(first).toMatchObject({ total: 2, totalCapped: true });
    expect(first.rows).toHaveLength(1);
    const near = await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], page: 4, perPage: 1, countAhead: 1 });
    expect(near).toMatchObject({ total: 5, totalCapped: false });
    const exact = await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], page: 1, perPage: 1 });
    expect(exact).toMatchObject({ total: 5, totalCapped: false });
    // A search is counted the same way, newest first, and by default SEARCH_COUNT_AHEAD past the page.
    const name = s.client.name.split(" ")[0];
    const searched = await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], search: name, page: 2, perPage: 1, countAhead: 1 });
    expect(searched).toMatchObject({ total: 3, totalCapped: true });
    const second = await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], page: 2, perPage: 1 });
    expect(searched.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));
    expect(SEARCH_COUNT_AHEAD).toBeLessThan(COUNT_AHEAD);
    expect(await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], search: name, page: 1, perPage: 1 })).toMatchObject({ total: 5, totalCapped: false });
    // The stored search words follow the row: a changed status is found by its new word.
    await database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, exact.rows[0].id));
    expect((await documentList(database.db, { companyId: s.company.id, kinds: ["fe"], search: "rechazado", page: 1, perPage: 10 })).rows.map((r) => r.id)).toEqual([exact.rows[0].id]);

    const data = (await get(s.b, "/invoices")).data;
    const html = render("invoices", { ...data, lastPage: 2, totalCapped: true });
    expect(html).toContain("data-more-pages");
    expect(html).toContain('aria-label="Siguiente"');
    expect(html).toContain("page=2");
    expect(render("invoices", { ...data, lastPage: 1, totalCapped: false })).not.toContain("Paginación");
  }, 60_000);

  it("remembers the page of each list and never shows a page past the end", async () => {
    const s = await setup();
    for (let i = 0; i < 9; i++) await issue(s.company.id, s.user.id, sampleDraft("fe", s.client.id));
    // 11 invoices: two pages of 10
    let r = await get(s.b, "/invoices?page=2");
    expect(r.data.page).toBe(2);
    expect(r.data.lastPage).toBe(2);
    expect(r.data.rows).toHaveLength(1);
    r = await get(s.b, "/invoices");
    expect(r.data.page).toBe(2);
    expect((await get(s.b, "/tickets")).data.page).toBe(1);
    r = await get(s.b, "/invoices?perPage=20");
    expect(r.data.page).toBe(1);
    expect(r.data.rows).toHaveLength(11);
    r = await get(s.b, "/invoices?perPage=10&page=7");
    expect(r.data.page).toBe(2);
    expect(r.data.rows).toHaveLength(1);
  }, 60_000);

  it("overdue and due-today markers for unpaid invoices", async () => {
    const s = await setup();
    // The due dates are set from Costa Rica's day right before the list is read, on that day, so a
    // run across its midnight reads what it set.
    const dueAgo = async (dues: Array<[id: number, daysAgo: number]>) =>
      (
        await onOneCostaRicaDay(async (day) => {
          for (const [id, daysAgo] of dues) await database.db.update(documents).set({ expirationDate: addDays(day, -daysAgo) }).where(eq(documents.id, id));
          return (await get(s.b, "/invoices")).data.rows;
        })
      ).result;
    let rows = await dueAgo([[s.fe.documentId, 0], [s.fe2.documentId, 1]]);
    expect(rows.find((r: { id: number }) => r.id === s.fe.documentId).due).toBe("Vence hoy");
    expect(rows.find((r: { id: number }) => r.id === s.fe2.documentId).due).toBe("Vencida hace 1 dia");
    rows = await dueAgo([[s.fe2.documentId, 3]]);
    expect(rows.find((r: { id: number }) => r.id === s.fe2.documentId).due).toBe("Vencida hace 3 dias");
  }, 60_000);

  it("the client links to client-detail unless it is deleted; an international ticket shows its client, not linked", async () => {
    const s = await setup();
    const intl = await issue(s.company.id, s.user.id, sampleDraft("te", s.generic.id, { internationalClient: { name: "John Smith", cedula: "P123456789" } }));
    const fec = await issue(
      s.company.id,
      s.user.id,
      sampleDraft("fec", s.provider.id, { references: [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-21T14:00:00Z", code: "04", reason: "Compra a productor de régimen especial" }] }),
    );
    const link = (id: number) => `href="/client-detail/${id}"`;
    const rowOf = (data: { rows: { id: number; clientId: number | null; clientName: string }[] }, id: number) => data.rows.find((r) => r.id === id)!;

    const live = { invoices: await get(s.b, "/invoices"), notes: await get(s.b, "/notes"), simples: await get(s.b, "/simples") };
    expect(rowOf(live.invoices.data, s.fe.documentId).clientId).toBe(s.client.id);
    expect(render("invoices", live.invoices.data)).toContain(link(s.client.id));
    expect(rowOf(live.notes.data, s.nc.documentId).clientId).toBe(s.client.id);
    expect(rowOf(live.simples.data, fec.documentId).clientId).toBe(s.provider.id);
    expect(render("simples", live.simples.data)).toContain(link(s.provider.id));

    const tickets = await get(s.b, "/tickets");
    expect(rowOf(tickets.data, intl.documentId)).toEqual(expect.objectContaining({ clientId: null, clientName: "John Smith" }));
    const ticketsHtml = render("tickets", tickets.data);
    expect(ticketsHtml).toContain("John Smith");
    expect(ticketsHtml).not.toContain("/client-detail/");

    await database.db.update(clients).set({ deletedAt: new Date() }).where(inArray(clients.id, [s.client.id, s.provider.id]));
    for (const [section, id] of [["invoices", s.fe.documentId], ["notes", s.nc.documentId], ["simples", fec.documentId]] as const) {
      const r = await get(s.b, `/${section}`);
      expect(rowOf(r.data, id), section).toEqual(expect.objectContaining({ clientId: null, clientName: section === "simples" ? "José Pérez Mora" : "Distribuidora La Sabana Limitada" }));
      const html = render(section, r.data);
      expect(html).not.toContain("/client-detail/");
      expect(html).toContain(section === "simples" ? "José Pérez Mora" : "Distribuidora La Sabana Limitada");
    }
  }, 60_000);

  it("empty lists, plan 5, and another company's documents never show", async () => {
    const s = await setup();
    const other = await issuingCompany(database.db);
    const ob = await signedIn(database.db, other.user.id, other.company.id);
    for (const path of ["/invoices", "/tickets", "/notes", "/simples"]) {
      const r = await get(ob, path);
      expect(r.status).toBe(200);
      expect(r.data.rows).toEqual([]);
    }
    const empties = { invoices: "No hay Facturas", tickets: "No hay Tiquetes Electronicos", notes: "No hay Notas", simples: "No hay Simplificados" };
    for (const [section, text] of Object.entries(empties)) {
      const html = render(section, (await get(ob, `/${section}`)).data);
      expect(html).toContain(text);
      if (section !== "invoices") expect(html).not.toContain("Estado de pago");
      if (section === "notes") expect(html).not.toContain("Acciones");
      else expect(html).toContain("Acciones");
    }
    expect(list.SECTIONS.invoices.empty).toBe("No hay Facturas");
    expect(list.SECTIONS.tickets.empty).toBe("No hay Tiquetes Electronicos");
    expect(list.SECTIONS.notes.empty).toBe("No hay Notas");
    expect(list.SECTIONS.simples.empty).toBe("No hay Simplificados");
    const before = await get(s.b, "/invoices");
    expect(before.data.plan5).toBe(false);
    let html = render("invoices", before.data);
    expect(html).toContain('href="/new-invoice"');
    expect(html).toContain(`href="/detail/invoice/${s.fe.documentId}"`);
    expect(html).toContain(`href="/new-note/nc/invoice/${s.fe.documentId}"`);
    expect(html).toContain(`href="/new-clone/invoice/${s.fe.documentId}"`);
    expect(html).not.toContain("N° de control");

    await database.db.update(companies).set({ permission: 5 }).where(eq(companies.id, s.company.id));
    // The integrator's reference sent through the API is the 'N° de control'.
    await database.db.update(documents).set({ controlNumber: "POS-CAJA2-0077" }).where(eq(documents.id, s.fe.documentId));
    const five = await signedIn(database.db, s.user.id, s.company.id);
    const r = await get(five, "/invoices");
    expect(r.data.plan5).toBe(true);
    expect(r.data.rows.find((row: { id: number }) => row.id === s.fe.documentId).control).toBe("POS-CAJA2-0077");
    html = render("invoices", r.data);
    expect(html).not.toContain('href="/new-invoice"');
    expect(html).not.toContain("/new-clone/");
    expect(html).not.toContain("/new-note/");
    expect(html).not.toContain("Pagar");
    expect(html).toContain("N° de control");
    expect(html).toContain("POS-CAJA2-0077");
    expect(html).toContain(`href="/detail/invoice/${s.fe.documentId}"`);
  }, 60_000);
});
