// Prefilled screens of the document form (issue 5): credit/debit notes from an invoice, a ticket and
// a purchase invoice (reference rebuilt on the server even when the post tampers with it), purchase
// invoices to providers only, clones, the corrected replacement of a rejected document, and 404 for
// wrong types and other companies' documents. Through the real route loader/action and middleware.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { documentReferences, documents, taxTypes } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { verifyXml } from "../../app/hacienda/verify.ts";
import { NOTE_MESSAGES } from "../../app/domain/document-source.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as sourcedRoute from "../../app/routes/documents/sourced-form.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";
import { REPLACEMENT_NOTICE } from "../../app/domain/document-source.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let ob: Browser;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let other: Awaited<ReturnType<typeof issuingCompany>>;
let tax13: number;
let tax4: number;
const schemaSet = testSchemaSet();

const fecReference = [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-02T18:00:00.000Z", code: "04", reason: "Compra a productor de régimen especial" }];
const fecLines: DocumentDraft["lines"] = [{ cabys: "0113100000100", description: "Café en grano oro", quantity: "50", unit: "Kg", unitPrice: "3200", tax: { tarifaCode: "02" } }];

async function issued(companyId: number, userId: number, draft: DocumentDraft) {
  const r = await issueDocument(database.db, { companyId, userId, draft, now: new Date(), schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}

let invoice: Awaited<ReturnType<typeof issued>>;
let ticket: Awaited<ReturnType<typeof issued>>;
let fec: Awaited<ReturnType<typeof issued>>;
let quotation: Awaited<ReturnType<typeof issued>>;
let otherInvoice: Awaited<ReturnType<typeof issued>>;

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  other = await issuingCompany(database.db);
  for (const c of [a, other]) await setupItemsForCompany(database.db, c.company.id);
  const taxes = await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, a.company.id));
  tax13 = taxes.find((t) => t.name === "IVA 13%")!.id;
  tax4 = taxes.find((t) => t.name === "IVA 4%")!.id;
  invoice = await issued(a.company.id, a.user.id, sampleDraft("fe", a.client.id, { note: "Entrega en sitio", payments: [{ code: "04" }] }));
  ticket = await issued(a.company.id, a.user.id, sampleDraft("te", a.generic.id));
  fec = await issued(a.company.id, a.user.id, sampleDraft("fec", a.provider.id, { references: fecReference, lines: fecLines }));
  quotation = await issued(a.company.id, a.user.id, sampleDraft("qt", a.client.id, { note: "Válida por 15 días" }));
  otherInvoice = await issued(other.company.id, other.user.id, sampleDraft("fe", other.client.id));
  b = await signedIn(database.db, a.user.id, a.company.id);
  ob = await signedIn(database.db, other.user.id, other.company.id);
}, 180_000);
afterAll(async () => database?.drop());

const note = (type: string, docType: string, id: number) => ({ path: `/new-note/${type}/${docType}/${id}`, params: { note_type: type, document_type: docType, document_id: String(id) } });
const clone = (docType: string, id: number, replace = false) => ({ path: `/new-clone/${docType}/${id}${replace ? "?replace=1" : ""}`, params: { document_type: docType, document_id: String(id) } });
const simple = (query = "") => ({ path: `/new-simple${query}`, params: {} });
const load = (browser: Browser, r: { path: string; params: Record<string, string> }) => call(browser, formRoute.loader, r);
const post = (browser: Browser, r: { path: string; params: Record<string, string> }, form: Record<string, string>) => call(browser, formRoute.action, { ...r, form });
const docOf = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0];
const idOf = (location: string | undefined) => Number(location!.split("/").pop());
const count = async (companyId: number) => (await database.db.select({ id: documents.id }).from(documents).where(eq(documents.companyId, companyId))).length;
const toasts = (browser: Browser) => {
  const flash = browser.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
};
/** The form as the browser posts it back (every input of the state's form). */
function posted(state: { form: { clientId: string; saleCondition: string; currency: string; exchangeRate: string; note: string; payments: Array<{ code: string; amount: string }>; lines: Array<Record<string, string>> } }, over: Record<string, string> = {}) {
  const f = state.form;
  const out: Record<string, string> = { client_id: f.clientId, sale_condition: f.saleCondition, currency: f.currency, exchange_rate: f.exchangeRate, note: f.note };
  f.payments.forEach((p, i) => Object.assign(out, { [`payments[${i}].code`]: p.code, [`payments[${i}].amount`]: p.amount }));
  f.lines.forEach((l, i) => {
    for (const [k, v] of Object.entries(l)) out[`lines[${i}].${k}`] = v;
  });
  return { ...out, ...over };
}

describe("credit and debit notes", () => {
  it("the note form starts from the invoice: header, locked client, currency, its lines and the locked reference", async () => {
    const r = await load(b, note("nc", "invoice", invoice.documentId));
    expect(r.status).toBe(200);
    const s = r.data;
    expect(s.kind).toBe("nc");
    expect(s.source.title).toBe("Nota de crédito");
    expect(s.source.facts).toEqual([
      { label: "Consecutivo", value: "00100001030000000001" },
      { label: "Fecha", value: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} [AP]M$/) },
      { label: "Documento de referencia", value: invoice.clave },
    ]);
    expect(s.source.clientLocked).toBe(true);
    expect(s.lists.clients.map((c: { id: number }) => c.id)).toEqual([a.client.id]);
    expect(s.form).toMatchObject({ clientId: String(a.client.id), currency: "CRC", note: "", payments: [{ code: "04", amount: "" }] });
    expect(s.form.lines.map((l: { description: string; quantity: string; price: string; discount: string; taxTypeId: string }) => [l.description, l.quantity, l.price, l.discount, l.taxTypeId])).toEqual([
      ["Computadora portátil 14 pulgadas", "2", "450.000,00", "5", String(tax13)],
      ["Horas de consultoría en sistemas", "10", "25.000,00", "0", String(tax4)],
    ]);
    expect(s.totals.total).toBe("1226150.00000");
    expect(s.source.references).toEqual([expect.objectContaining({ mode: "reason", docType: "01", number: invoice.clave, code: "01", codeLabel: "Anula documento de referencia", reason: "" })]);
    // The screen (its own route module) shows the header facts and the locked reference without JavaScript.
    const Stub = createRoutesStub([{ id: "new-note", path: "/new-note/:note_type/:document_type/:document_id", Component: sourcedRoute.default as never, loader: () => null }]);
    const html = renderToString(createElement(Stub, { initialEntries: [note("nc", "invoice", invoice.documentId).path], hydrationData: { loaderData: { "new-note": s } } }));
    expect(html).toContain(`data-fact="Documento de referencia">${invoice.clave}`);
    expect(html).toContain('data-locked="true"');
    const nd = await load(b, note("nd", "invoice", invoice.documentId));
    expect(nd.data.source.title).toBe("Nota de débito");
    expect(nd.data.source.facts[0].value).toBe("00100001020000000001");
  });

  it("reason and note are required; values kept and nothing saved", async () => {
    const s = (await load(b, note("nc", "invoice", invoice.documentId))).data;
    const before = await count(a.company.id);
    const r = await post(b, note("nc", "invoice", invoice.documentId), posted(s, { "lines[0].quantity": "1", intent: "save" }));
    expect(r.status).toBe(400);
    expect(r.data.errors).toMatchObject({ note: "La nota es obligatoria para notas de crédito y débito.", "references.0": "Complete todos los campos de la referencia." });
    expect(r.data.general).toEqual([]);
    expect(r.data.form.lines[0].quantity).toBe("1");
    expect(r.data.source.references[0].number).toBe(invoice.clave);
    expect(await count(a.company.id)).toBe(before);
  });

  it("a partial credit note: one line lowered, the other removed; tampered client, currency and reference fields are ignored", async () => {
    const s = (await load(b, note("nc", "invoice", invoice.documentId))).data;
    // Remove the second line (a form submission), then lower the first.
    const removed = await post(b, note("nc", "invoice", invoice.documentId), posted(s, { intent: "remove-line:1" }));
    expect(removed.status).toBe(200);
    expect(removed.data.form.lines).toHaveLength(1);
    expect(removed.data.source.clientLocked).toBe(true);
    const partialForm = posted(removed.data, {
      "lines[0].quantity": "1",
      note: "Devolución de una computadora",
      reference_reason: "Devolución de mercadería",
      // Tampering: none of these may reach the note.
      client_id: String(a.provider.id),
      currency: "USD",
      exchange_rate: "600",
      reference_doc_type: "04",
      reference_number: "50601010100000000000000000000000000000000000000000",
      reference_code: "01",
      reference_date: "2020-01-01",
      intent: "save",
    });
    const partial = await post(b, note("nc", "invoice", invoice.documentId), partialForm);
    // Only part of the invoice: 'Anula documento' (01) is refused with the reason (issue 14 point 9)…
    expect(partial.status).toBe(400);
    expect(partial.data.errors["references.0.code"]).toBe(NOTE_MESSAGES.partialCancel);
    expect(partial.data.source.references[0].codeOptions.map((o: { value: string }) => o.value)).toEqual(["01", "02", "06"]);
    // …'Corrige monto' (02) is what a partial credit note carries; a code not offered falls back to 01.
    const r = await post(b, note("nc", "invoice", invoice.documentId), { ...partialForm, reference_code: "02" });
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    expect(r.location).toMatch(/^\/detail\/note\/\d+$/);
    expect(toasts(b)).toContainEqual({ type: "success", text: "Nota guardada con exito" });
    const nc = await docOf(idOf(r.location));
    expect(nc).toMatchObject({ kind: "nc", companyId: a.company.id, clientId: a.client.id, currencyId: 2, exchangeRate: "1.00000", number: 1, status: "por enviar" });
    expect(nc.consecutivo).toBe("00100001030000000001");
    // 1 × 450 000 − 5 % = 427 500; IVA 13 % = 55 575
    expect([nc.subtotal, nc.discount, nc.tax, nc.totalComprobante]).toEqual(["450000.00000", "22500.00000", "55575.00000", "483075.00000"]);
    const src = await docOf(invoice.documentId);
    const refs = await database.db.select().from(documentReferences).where(eq(documentReferences.documentId, nc.id));
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ referencedDocumentId: invoice.documentId, docType: "01", number: invoice.clave, code: "02", reason: "Devolución de mercadería" });
    expect(refs[0].issuedAt.toISOString()).toBe(src.issuedAt.toISOString());
    const xml = nc.signedXml!.toString("utf8");
    expect(xml).toContain("<NotaCreditoElectronica");
    expect(xml).toMatch(new RegExp(`<InformacionReferencia><TipoDocIR>01</TipoDocIR><Numero>${invoice.clave}</Numero><FechaEmisionIR>[^<]+</FechaEmisionIR><Codigo>02</Codigo><Razon>Devolución de mercadería</Razon></InformacionReferencia>`));
    expect(xml).toContain("<TotalComprobante>483075.00000</TotalComprobante>");
    expect(verifyXml(xml).valid).toBe(true);
    // The next credit note shows the next consecutive.
    expect((await load(b, note("nc", "invoice", invoice.documentId))).data.source.facts[0].value).toBe("00100001030000000002");
  });

  it("a debit note on a ticket: TipoDocIR 04, the generic client, the nd consecutive", async () => {
    const s = (await load(b, note("nd", "ticket", ticket.documentId))).data;
    expect(s.lists.clients.map((c: { id: number }) => c.id)).toEqual([a.generic.id]);
    expect(s.source.references[0]).toMatchObject({ docType: "04", docTypeLabel: "Tiquete electrónico", number: ticket.clave, code: "01" });
    const r = await post(b, note("nd", "ticket", ticket.documentId), posted(s, { note: "Cargo por envío", reference_reason: "Cargo adicional", "lines[1].quantity": "2", intent: "save" }));
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    const nd = await docOf(idOf(r.location));
    expect(nd).toMatchObject({ kind: "nd", clientId: a.generic.id, number: 1 });
    expect(nd.consecutivo!.slice(8, 10)).toBe("02");
    const xml = nd.signedXml!.toString("utf8");
    expect(xml).toContain("<NotaDebitoElectronica");
    expect(xml).toContain(`<TipoDocIR>04</TipoDocIR><Numero>${ticket.clave}</Numero>`);
    expect(verifyXml(xml).valid).toBe(true);
  });

  it("a credit note on a purchase invoice references it as TipoDocIR 17", async () => {
    const s = (await load(b, note("nc", "simple", fec.documentId))).data;
    expect(s.lists.clients.map((c: { id: number }) => c.id)).toEqual([a.provider.id]);
    expect(s.source.references[0]).toMatchObject({ docType: "17", number: fec.clave });
    const r = await post(b, note("nc", "simple", fec.documentId), posted(s, { note: "Café devuelto", reference_reason: "Devolución parcial", reference_code: "06", "lines[0].quantity": "5", intent: "save" }));
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    const nc = await docOf(idOf(r.location));
    const [ref] = await database.db.select().from(documentReferences).where(eq(documentReferences.documentId, nc.id));
    expect(ref).toMatchObject({ docType: "17", number: fec.clave, code: "06", referencedDocumentId: fec.documentId });
    expect(verifyXml(nc.signedXml!.toString("utf8")).valid).toBe(true);
  });

  it("wrong note or document types, a type that does not match the document and other companies' documents are 404", async () => {
    const invalid = "El tipo de documento a crear es invalido";
    for (const [t, d, id] of [
      ["xx", "invoice", invoice.documentId],
      ["nc", "quotation", quotation.documentId],
      ["nc", "note", invoice.documentId],
      ["nc", "recurring", invoice.documentId],
      ["nc", "invoice", "abc"],
    ] as const) {
      const r = await call(b, formRoute.loader, { path: `/new-note/${t}/${d}/${id}`, params: { note_type: t, document_type: d, document_id: String(id) } });
      expect(r.status, `${t}/${d}/${id}`).toBe(404);
      expect(r.data).toBe(invalid);
    }
    for (const [d, id] of [
      ["invoice", ticket.documentId],
      ["ticket", invoice.documentId],
      ["simple", invoice.documentId],
      ["invoice", otherInvoice.documentId],
      ["invoice", 999999],
    ] as const) {
      const r = await load(b, note("nc", d, id));
      expect(r.status, `${d}/${id}`).toBe(404);
      expect(r.data).toBe("No encontrado");
    }
    const before = await count(a.company.id);
    const cross = await post(ob, note("nc", "invoice", invoice.documentId), { note: "x", reference_reason: "x", intent: "save" });
    expect(cross.status).toBe(404);
    expect(await count(a.company.id)).toBe(before);
  });
});

describe("purchase invoices (FEC)", () => {
  it("offers only providers; ?id= preselects a provider of this company only; the header shows the next fec consecutive", async () => {
    const r = await load(b, simple());
    expect(r.data.kind).toBe("fec");
    expect(r.data.lists.clients.map((c: { id: number }) => c.id)).toEqual([a.provider.id]);
    expect(r.data.source.clientLabel).toBe("Proveedor");
    expect(r.data.source.facts[0]).toEqual({ label: "Consecutivo", value: "00100001080000000002" });
    expect(r.data.source.references[0]).toMatchObject({ mode: "editable", docType: "14", code: "04" });
    expect((await load(b, simple(`?id=${a.provider.id}`))).data.form.clientId).toBe(String(a.provider.id));
    expect((await load(b, simple(`?id=${a.client.id}`))).data.form.clientId).toBe("");
    expect((await load(b, simple(`?id=${other.provider.id}`))).data.form.clientId).toBe("");
  });

  it("a non-provider client, a missing reference field or a future reference date are refused; nothing saved", async () => {
    const s = (await load(b, simple())).data;
    const base = posted(s, {
      "lines[0].cabys": "0113100000100",
      "lines[0].description": "Café en grano oro",
      "lines[0].quantity": "10",
      "lines[0].price": "3200",
      reference_doc_type: "14",
      reference_number: "REG-ESP-77",
      reference_date: "2026-01-15",
      reference_code: "04",
      reference_reason: "Compra a productor",
      intent: "save",
    });
    const before = await count(a.company.id);
    const notProvider = await post(b, simple(), { ...base, client_id: String(a.client.id) });
    expect(notProvider.status).toBe(400);
    expect(notProvider.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
    const foreign = await post(b, simple(), { ...base, client_id: String(other.provider.id) });
    expect(foreign.data.errors.clientId).toBe("El cliente seleccionado no existe en esta empresa.");
    const none = await post(b, simple(), { ...base, client_id: "" });
    expect(none.data.errors.clientId).toBe("Seleccione un proveedor.");
    const missing = await post(b, simple(), { ...base, client_id: String(a.provider.id), reference_number: "" });
    expect(missing.status).toBe(400);
    expect(missing.data.errors["references.0"]).toBe("Complete todos los campos de la referencia.");
    expect(missing.data.source.references[0]).toMatchObject({ docType: "14", number: "", date: "2026-01-15", reason: "Compra a productor" });
    const future = await post(b, simple(), { ...base, client_id: String(a.provider.id), reference_date: "2999-01-01" });
    expect(future.data.errors["references.0.date"]).toBe("La fecha del documento de referencia no es válida o es posterior a hoy.");
    const badType = await post(b, simple(), { ...base, client_id: String(a.provider.id), reference_doc_type: "01" });
    expect(badType.data.errors["references.0.docType"]).toBe("Seleccione un tipo de documento de referencia válido.");
    // A re-render (add a line) keeps the typed reference and shows no reference error yet.
    const added = await post(b, simple(), { ...base, client_id: String(a.provider.id), reference_number: "", intent: "add-line" });
    expect(added.status).toBe(200);
    expect(added.data.errors["references.0"]).toBeUndefined();
    expect(added.data.source.references[0].reason).toBe("Compra a productor");
    expect(await count(a.company.id)).toBe(before);
  });

  it("issues a FEC to a provider: the provider is the Emisor, the company the Receptor, with the typed reference", async () => {
    const s = (await load(b, simple(`?id=${a.provider.id}`))).data;
    const r = await post(
      b,
      simple(),
      posted(s, {
        "lines[0].cabys": "0113100000100",
        "lines[0].description": "Café en grano oro",
        "lines[0].unit": "Kg",
        "lines[0].quantity": "10",
        "lines[0].price": "3200",
        "lines[0].taxTypeId": String(tax13),
        reference_doc_type: "14",
        reference_number: "REG-ESP-77",
        reference_date: "2026-01-15",
        reference_code: "04",
        reference_reason: "Compra a productor",
        intent: "save",
      }),
    );
    expect(r.status, JSON.stringify(r.data?.errors ?? r.data?.general)).toBe(302);
    expect(r.location).toMatch(/^\/detail\/simple\/\d+$/);
    expect(toasts(b)).toContainEqual({ type: "success", text: "Factura guardada con exito" });
    const doc = await docOf(idOf(r.location));
    expect(doc).toMatchObject({ kind: "fec", clientId: a.provider.id, number: 2 });
    expect(doc.consecutivo!.slice(8, 10)).toBe("08");
    const xml = doc.signedXml!.toString("utf8");
    expect(xml).toContain("<FacturaElectronicaCompra");
    expect(xml).toMatch(/<Emisor><Nombre>José Pérez Mora<\/Nombre><Identificacion><Tipo>01<\/Tipo><Numero>114480790<\/Numero>/);
    expect(xml).toMatch(new RegExp(`<Receptor><Nombre>${a.company.name}</Nombre>`));
    expect(xml).toContain("<CodigoActividadReceptor>6201.0</CodigoActividadReceptor>");
    expect(xml).toContain("<InformacionReferencia><TipoDocIR>14</TipoDocIR><Numero>REG-ESP-77</Numero><FechaEmisionIR>2026-01-15T12:00:00-06:00</FechaEmisionIR><Codigo>04</Codigo><Razon>Compra a productor</Razon></InformacionReferencia>");
    expect(verifyXml(xml).valid).toBe(true);
  });
});

describe("clone", () => {
  it("an invoice: header, the form preloaded (client, lines, payments, currency, note); Guardar issues a new invoice", async () => {
    const s = (await load(b, clone("invoice", invoice.documentId))).data;
    expect(s.kind).toBe("fe");
    expect(s.source.title).toBe("Factura");
    expect(s.source.facts).toEqual([
      { label: "Consecutivo", value: "00100001010000000002" },
      { label: "Clonado de", value: invoice.consecutivo },
    ]);
    expect(s.source.references).toEqual([]);
    expect(s.source.clientLocked).toBe(false);
    expect(s.form).toMatchObject({ clientId: String(a.client.id), currency: "CRC", note: "Entrega en sitio", payments: [{ code: "04", amount: "" }] });
    expect(s.form.lines).toHaveLength(2);
    expect(s.totals.total).toBe("1226150.00000");
    const r = await post(b, clone("invoice", invoice.documentId), posted(s, { intent: "save" }));
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    expect(r.location).toMatch(/^\/detail\/invoice\/\d+$/);
    expect(toasts(b)).toContainEqual({ type: "success", text: "Factura guardada con exito" });
    const copy = await docOf(idOf(r.location));
    expect(copy).toMatchObject({ kind: "fe", number: 2, clientId: a.client.id, totalComprobante: "1226150.00000", note: "Entrega en sitio", replacesDocumentId: null });
    expect(await database.db.select().from(documentReferences).where(eq(documentReferences.documentId, copy.id))).toHaveLength(0);
    expect(verifyXml(copy.signedXml!.toString("utf8")).valid).toBe(true);
  });

  it("a ticket, a quotation and a purchase invoice clone into their own kind", async () => {
    const te = (await load(b, clone("ticket", ticket.documentId))).data;
    expect(te.source.title).toBe("Tiquete");
    expect(te.form.clientId).toBe(String(a.generic.id));
    const rt = await post(b, clone("ticket", ticket.documentId), posted(te, { intent: "save" }));
    expect(rt.status, JSON.stringify(rt.data?.errors)).toBe(302);
    expect(await docOf(idOf(rt.location))).toMatchObject({ kind: "te", number: 2 });

    const qt = (await load(b, clone("quotation", quotation.documentId))).data;
    expect(qt.source.title).toBe("Cotización");
    expect(qt.source.facts[0]).toEqual({ label: "Consecutivo", value: "2" });
    const rq = await post(b, clone("quotation", quotation.documentId), posted(qt, { intent: "save" }));
    expect(rq.status, JSON.stringify(rq.data?.errors)).toBe(302);
    expect(rq.location).toMatch(/^\/detail\/quotation\/\d+$/);
    expect(await docOf(idOf(rq.location))).toMatchObject({ kind: "qt", number: 2, note: "Válida por 15 días", clave: null });

    const fc = (await load(b, clone("simple", fec.documentId))).data;
    expect(fc.source.title).toBe("Simplificado");
    expect(fc.form.clientId).toBe(String(a.provider.id));
    expect(fc.source.references[0]).toMatchObject({ mode: "editable", docType: "14", number: "REG-ESP-2026-0005", date: "2026-11-02", code: "04", reason: "Compra a productor de régimen especial" });
    const refFields = { reference_doc_type: "14", reference_number: "REG-ESP-2026-0005", reference_date: "2026-11-02", reference_code: "04", reference_reason: "Compra a productor de régimen especial" };
    const rf = await post(b, clone("simple", fec.documentId), posted(fc, { ...refFields, intent: "save" }));
    expect(rf.status, JSON.stringify(rf.data?.errors)).toBe(302);
    expect(rf.location).toMatch(/^\/detail\/simple\/\d+$/);
    expect(await docOf(idOf(rf.location))).toMatchObject({ kind: "fec", clientId: a.provider.id });
  });

  it("wrong types, a type that does not match and other companies' documents are 404", async () => {
    for (const [d, id] of [
      ["note", invoice.documentId],
      ["recurring", invoice.documentId],
      ["factura", invoice.documentId],
    ] as const) {
      const r = await load(b, clone(d, id));
      expect(r.status).toBe(404);
      expect(r.data).toBe("El tipo de documento a crear es invalido");
    }
    expect((await load(b, clone("ticket", invoice.documentId))).status).toBe(404);
    expect((await load(b, clone("invoice", otherInvoice.documentId))).status).toBe(404);
    const before = await count(other.company.id);
    const cross = await post(b, clone("invoice", otherInvoice.documentId), { client_id: String(a.client.id), intent: "save" });
    expect(cross.status).toBe(404);
    expect(await count(other.company.id)).toBe(before);
  });
});

describe("corrected replacement of a rejected document", () => {
  it("only for rejected documents; the detail offers it; the replacement carries code 16 / TipoDocIR 10 rebuilt on the server", async () => {
    const bad = await issued(a.company.id, a.user.id, sampleDraft("fe", a.client.id));
    expect((await load(b, clone("invoice", bad.documentId, true))).status).toBe(404);
    await database.db
      .update(documents)
      .set({ status: "rechazado", haciendaDetail: "El campo Receptor/Identificacion/Numero no es válido." })
      .where(and(eq(documents.id, bad.documentId), eq(documents.companyId, a.company.id)));

    const d = await call(b, detail.loader, { path: `/detail/invoice/${bad.documentId}`, params: { type: "invoice", id: String(bad.documentId) } });
    expect(d.data.actions).toMatchObject({ replace: true, notes: true });
    const okDetail = await call(b, detail.loader, { path: `/detail/invoice/${invoice.documentId}`, params: { type: "invoice", id: String(invoice.documentId) } });
    expect(okDetail.data.actions.replace).toBe(false);

    const s = (await load(b, clone("invoice", bad.documentId, true))).data;
    expect(s.source.facts).toContainEqual({ label: "Sustituye a", value: bad.consecutivo });
    // The screen says that the 2026 reference code replaces it, not a credit note (issue 11 point 8).
    expect(s.source.notice).toBe(REPLACEMENT_NOTICE);
    expect(s.source.notice).toMatch(/código de referencia 16.*no se anula con una nota de crédito/);
    expect(s.source.references).toEqual([expect.objectContaining({ mode: "locked", docType: "10", number: bad.clave, code: "16", codeLabel: "Sustituye comprobante electrónico rechazado" })]);
    const r = await post(
      b,
      clone("invoice", bad.documentId, true),
      posted(s, { "lines[1].quantity": "12", reference_doc_type: "01", reference_number: "123", reference_code: "01", reference_reason: "otra", intent: "save" }),
    );
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    const fixed = await docOf(idOf(r.location));
    expect(fixed).toMatchObject({ kind: "fe", replacesDocumentId: bad.documentId });
    const refs = await database.db.select().from(documentReferences).where(eq(documentReferences.documentId, fixed.id));
    expect(refs).toEqual([expect.objectContaining({ referencedDocumentId: bad.documentId, docType: "10", number: bad.clave, code: "16", reason: "Sustituye comprobante electrónico rechazado" })]);
    const xml = fixed.signedXml!.toString("utf8");
    expect(xml).toContain(`<TipoDocIR>10</TipoDocIR><Numero>${bad.clave}</Numero>`);
    expect(xml).toContain("<Codigo>16</Codigo>");
    expect(verifyXml(xml).valid).toBe(true);
    // Another company cannot replace it.
    expect((await load(ob, clone("invoice", bad.documentId, true))).status).toBe(404);
  });

  it("a rejected purchase invoice: its own reference stays editable and the locked replacement reference is added", async () => {
    const bad = await issued(a.company.id, a.user.id, sampleDraft("fec", a.provider.id, { references: fecReference, lines: fecLines }));
    await database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, bad.documentId));
    const s = (await load(b, clone("simple", bad.documentId, true))).data;
    expect(s.source.references.map((r: { mode: string; docType: string; code: string }) => [r.mode, r.docType, r.code])).toEqual([
      ["editable", "14", "04"],
      ["locked", "10", "16"],
    ]);
    const refFields = { reference_doc_type: "16", reference_number: "NODOM-9", reference_date: "2026-11-02", reference_code: "11", reference_reason: "Proveedor no domiciliado" };
    const r = await post(b, clone("simple", bad.documentId, true), posted(s, { ...refFields, intent: "save" }));
    expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
    expect(r.location).toMatch(/^\/detail\/simple\/\d+$/);
    const fixed = await docOf(idOf(r.location));
    expect(fixed).toMatchObject({ kind: "fec", replacesDocumentId: bad.documentId });
    const refs = await database.db.select().from(documentReferences).where(eq(documentReferences.documentId, fixed.id));
    expect(refs.map((x) => [x.docType, x.number, x.code])).toEqual([
      ["16", "NODOM-9", "11"],
      ["10", bad.clave, "16"],
    ]);
    expect(verifyXml(fixed.signedXml!.toString("utf8")).valid).toBe(true);
  });
});
