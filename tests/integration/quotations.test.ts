// Quotations end to end through the real routes and middleware (spec part 2 "Quotations", §4, §8;
// decision 090): the new screen's heading with the company's own name and the next qt number, save
// (no clave, no XML, no Hacienda status), 'Guardar y Enviar por correo' (sent at once; a mail failure
// keeps the quotation), edit in place back to the list, bad input keeps every value, convert to a
// real invoice exactly once (two concurrent conversions included, and the unique index behind it),
// soft delete, the client's tab, and another company's ids answering 404 with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { documentLines, documents, generalConfigurations, taxTypes } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { convertQuotation } from "../../app/server/quotations.server.ts";
import { verifyXml } from "../../app/hacienda/verify.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as listRoute from "../../app/routes/quotations/quotations.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as clientDetail from "../../app/routes/clients/client-detail.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from "../fixtures/smtp.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let ob: Browser;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let other: Awaited<ReturnType<typeof issuingCompany>>;
let tax13: number;
let smtp: SmtpCapture;
let smtpPort: number;
let received: CapturedMail[] = [];
const schemaSet = testSchemaSet();

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  other = await issuingCompany(database.db);
  for (const c of [a, other]) {
    await setupItemsForCompany(database.db, c.company.id);
    await setupConfigForCompany(database.db, c.company.id);
  }
  tax13 = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, a.company.id))).find((t) => t.name === "IVA 13%")!.id;
  smtp = await startSmtpCapture();
  smtpPort = smtp.port;
  received = smtp.received;
  b = await signedIn(database.db, a.user.id, a.company.id);
  ob = await signedIn(database.db, other.user.id, other.company.id);
}, 180_000);
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

const NEW = { path: "/new-quotation", params: {} };
const edit = (id: number, type = "quotation") => ({ path: `/edit-quotation/${type}/${id}`, params: { document_type: type, document_id: String(id) } });
const load = (browser: Browser, r: { path: string; params: Record<string, string> }) => call(browser, formRoute.loader, r);
const post = (browser: Browser, r: { path: string; params: Record<string, string> }, form: Record<string, string>) => call(browser, formRoute.action, { ...r, form });
const list = (browser: Browser, query = "") => call(browser, listRoute.loader, { path: `/quotations${query}` });
const act = (browser: Browser, form: Record<string, string>) => call(browser, listRoute.action, { path: "/quotations", form });
const docOf = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0];
const idOf = (location: string | undefined) => Number(location!.split("/").pop());
const kindCount = async (companyId: number, kind: string) => (await database.db.select({ id: documents.id }).from(documents).where(and(eq(documents.companyId, companyId), eq(documents.kind, kind)))).length;
const toasts = (browser: Browser) => {
  const flash = browser.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
};

/** The form as the browser posts it back (every input of the state's form). */
function posted(state: { form: { clientId: string; saleCondition: string; currency: string; exchangeRate: string; note: string; emails: string; payments: Array<{ code: string; amount: string }>; lines: Array<Record<string, string>> } }, over: Record<string, string> = {}) {
  const f = state.form;
  const out: Record<string, string> = { client_id: f.clientId, sale_condition: f.saleCondition, currency: f.currency, exchange_rate: f.exchangeRate, note: f.note, emails: f.emails };
  f.payments.forEach((p, i) => Object.assign(out, { [`payments[${i}].code`]: p.code, [`payments[${i}].amount`]: p.amount }));
  f.lines.forEach((l, i) => {
    for (const [k, v] of Object.entries(l)) out[`lines[${i}].${k}`] = v;
  });
  return { ...out, ...over };
}

const line0 = { "lines[0].cabys": "4523000000100", "lines[0].description": "Impresora láser", "lines[0].quantity": "2", "lines[0].price": "100000", "lines[0].discount": "0" };

async function quotationVia(browser: Browser, over: Record<string, string> = {}) {
  const s = (await load(browser, NEW)).data;
  const r = await post(browser, NEW, posted(s, { client_id: String(a.client.id), ...line0, [`lines[0].taxTypeId`]: String(tax13), intent: "save", ...over }));
  expect(r.status, JSON.stringify(r.data?.errors)).toBe(302);
  return idOf(r.location);
}

async function issuedQuotation(companyId: number, userId: number, clientId: number, over: Partial<DocumentDraft> = {}) {
  const r = await issueDocument(database.db, { companyId, userId, draft: sampleDraft("qt", clientId, over), now: new Date(), schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.documentId;
}

describe("new and edited quotations on the shared form", () => {
  it("the new screen is titled 'Información' + the company's name for quotations + the next number; saving stores a quotation without Hacienda parts", async () => {
    const s = (await load(b, NEW)).data;
    expect(s.kind).toBe("qt");
    expect(s.source.title).toBe("Información Cotización 1");
    expect(s.form.lines).toHaveLength(1);
    const id = await quotationVia(b, { emails: "ventas@example.cr" });
    expect(toasts(b)).toEqual([expect.objectContaining({ type: "success", text: "Cotización guardada con exito" })]);
    const q = await docOf(id);
    expect(q).toMatchObject({ kind: "qt", number: 1, clave: null, consecutivo: null, status: "no aplica", signedXml: null, subtotal: "200000.00000", tax: "26000.00000", totalComprobante: "226000.00000", emails: ["ventas@example.cr"] });
    expect((await load(b, NEW)).data.source.title).toBe("Información Cotización 2");
    await database.db.update(generalConfigurations).set({ customQuotationName: "Proforma" }).where(eq(generalConfigurations.companyId, a.company.id));
    expect((await load(b, NEW)).data.source.title).toBe("Información Proforma 2");
    expect((await list(b)).data.name).toBe("Proforma");
    await database.db.update(generalConfigurations).set({ customQuotationName: "Cotización" }).where(eq(generalConfigurations.companyId, a.company.id));
  });

  it("bad input answers 400 with Spanish messages, keeps every typed value and saves nothing", async () => {
    const before = await kindCount(a.company.id, "qt");
    const s = (await load(b, NEW)).data;
    const r = await post(b, NEW, posted(s, { client_id: "", ...line0, "lines[0].quantity": "abc", emails: "ventas@example.cr, malo@", note: "Precios sujetos a cambio", intent: "save" }));
    expect(r.status).toBe(400);
    expect(r.data.errors.clientId).toBeTruthy();
    expect(r.data.errors.emails).toBe("malo@: invalido");
    expect(r.data.errors["lines.0.quantity"]).toBeTruthy();
    expect(r.data.form).toMatchObject({ emails: "ventas@example.cr, malo@", note: "Precios sujetos a cambio" });
    expect(r.data.form.lines[0]).toMatchObject({ description: "Impresora láser", quantity: "abc", price: "100000" });
    expect(r.data.source.title).toBe(s.source.title);
    expect(await kindCount(a.company.id, "qt")).toBe(before);
  });

  it("edit: preloaded, saved in place (same number), back to the list with 'Actualizada correctamente'", async () => {
    const id = await quotationVia(b, { note: "Entrega en 8 días" });
    const number = (await docOf(id)).number;
    const s = (await load(b, edit(id))).data;
    expect(s.source.title).toBe(`Información Cotización ${number}`);
    expect(s.form).toMatchObject({ clientId: String(a.client.id), note: "Entrega en 8 días" });
    expect(s.form.lines[0]).toMatchObject({ description: "Impresora láser", quantity: "2", taxTypeId: String(tax13) });
    const before = await kindCount(a.company.id, "qt");
    const bad = await post(b, edit(id), posted(s, { "lines[0].description": "", intent: "save" }));
    expect(bad.status).toBe(400);
    expect(bad.data.form.lines[0].quantity).toBe("2");
    expect((await docOf(id)).totalComprobante).toBe("226000.00000");
    const r = await post(b, edit(id), posted(s, { "lines[0].quantity": "3", intent: "save" }));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/quotations");
    expect(toasts(b)).toEqual([expect.objectContaining({ type: "success", text: "Actualizada correctamente" })]);
    const q = await docOf(id);
    expect(q).toMatchObject({ number, kind: "qt", subtotal: "300000.00000", totalComprobante: "339000.00000" });
    const lines = await database.db.select().from(documentLines).where(eq(documentLines.documentId, id));
    expect(lines.map((l) => [l.position, l.quantity, l.total])).toEqual([[1, "3.000", "339000.00000"]]);
    expect(await kindCount(a.company.id, "qt")).toBe(before);
  });

  it("another company's quotation, or another type in the URL, is 404 and nothing changes", async () => {
    const theirs = await issuedQuotation(other.company.id, other.user.id, other.client.id);
    const before = await docOf(theirs);
    expect((await load(b, edit(theirs))).status).toBe(404);
    const s = (await load(b, NEW)).data;
    const r = await post(b, edit(theirs), posted(s, { client_id: String(a.client.id), ...line0, "lines[0].taxTypeId": String(tax13), intent: "save" }));
    expect(r.status).toBe(404);
    expect(await docOf(theirs)).toEqual(before);
    const wrong = await load(b, edit(theirs, "invoice"));
    expect(wrong.status).toBe(404);
    expect(wrong.data).toBe("El tipo de documento a crear es invalido");
    expect((await act(b, { intent: "convert", confirm: "yes", quotation_id: String(theirs) })).status).toBe(404);
    expect((await act(b, { intent: "delete", confirm: "yes", quotation_id: String(theirs) })).status).toBe(404);
    expect(await docOf(theirs)).toEqual(before);
    expect(await kindCount(a.company.id, "fe")).toBe(0);
    expect((await list(b)).data.rows.map((r: { id: number }) => r.id)).not.toContain(theirs);
  });
});

describe("Guardar y Enviar por correo", () => {
  it("e-mails the quotation PDF at once to the client and the notify list", async () => {
    await saveOutgoingEmail(database.db, a.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtpPort, username: "u", password: "p", from_email: "ventas@empresa.example", from_name: "Ventas" });
    received.length = 0;
    const id = await quotationVia(b, { emails: "compras@cliente.example", intent: "save-email" });
    expect(toasts(b)).toEqual([expect.objectContaining({ type: "success", text: "Cotización guardada con exito y enviada por correo" })]);
    expect(received).toHaveLength(1);
    expect(received[0].to.sort()).toEqual(["cliente@example.cr", "compras@cliente.example"]);
    expect(received[0].raw).toMatch(/cotizacion-\d+\.pdf/);
    expect((await docOf(id)).emailSentTo).toBe("cliente@example.cr, compras@cliente.example");
  });

  it("a mail failure keeps the saved quotation and says so", async () => {
    await saveOutgoingEmail(database.db, a.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: 1, username: "u", password: "p", from_email: "ventas@empresa.example", from_name: "Ventas" });
    const before = await kindCount(a.company.id, "qt");
    const id = await quotationVia(b, { intent: "save-email" });
    expect(await kindCount(a.company.id, "qt")).toBe(before + 1);
    const [t] = toasts(b);
    expect(t.type).toBe("error");
    expect(t.text).toMatch(/^Cotización guardada con exito, pero no se pudo enviar por correo: .+/);
    const q = await docOf(id);
    expect(q.emailSentAt).toBeNull();
    expect(q.emailError).toBeTruthy();
  });
});

describe("convert to invoice", () => {
  it("cancel changes nothing; confirmed, it issues a signed invoice once and goes to its detail", async () => {
    const id = await quotationVia(b, { emails: "compras@cliente.example" });
    const cancel = await act(b, { intent: "convert", confirm: "cancel", quotation_id: String(id), back: `/detail/quotation/${id}` });
    expect(cancel.location).toBe(`/detail/quotation/${id}`);
    expect(toasts(b)).toEqual([expect.objectContaining({ text: "Acción cancelada" })]);
    const invoicesBefore = await kindCount(a.company.id, "fe");
    expect(invoicesBefore).toBe(0);

    const r = await act(b, { intent: "convert", confirm: "yes", quotation_id: String(id), back: "/quotations" });
    expect(r.status).toBe(302);
    expect(r.location).toMatch(/^\/detail\/invoice\/\d+$/);
    expect(toasts(b)).toEqual([expect.objectContaining({ type: "success", text: "Cotización convertida correctamente" })]);
    const invoice = await docOf(idOf(r.location));
    const q = await docOf(id);
    expect(invoice).toMatchObject({ kind: "fe", quotationId: id, status: "por enviar", clientId: a.client.id, totalComprobante: q.totalComprobante, emails: ["compras@cliente.example"], number: 1 });
    expect(invoice.clave).toMatch(/^\d{50}$/);
    expect(verifyXml(invoice.signedXml!.toString("utf8")).valid).toBe(true);

    const again = await act(b, { intent: "convert", confirm: "yes", quotation_id: String(id), back: "/quotations" });
    expect(again.location).toBe(`/detail/invoice/${invoice.id}`);
    expect(toasts(b)).toEqual([expect.objectContaining({ type: "error", text: "Esta cotización ya fue convertida a factura." })]);
    expect(await kindCount(a.company.id, "fe")).toBe(1);

    // The list and the detail viewer show the invoice instead of the convert action.
    const row = (await list(b)).data.rows.find((x: { id: number }) => x.id === id);
    expect(row.invoiceId).toBe(invoice.id);
    const d = await call(b, detail.loader, { path: `/detail/quotation/${id}`, params: { type: "quotation", id: String(id) } });
    expect(d.data).toMatchObject({ ribbon: null, quotation: { invoiceId: invoice.id } });
  });

  it("two concurrent conversions give one invoice", async () => {
    const id = await issuedQuotation(a.company.id, a.user.id, a.client.id);
    const before = await kindCount(a.company.id, "fe");
    const results = await Promise.all([0, 1].map(() => convertQuotation(database.db, { companyId: a.company.id, userId: a.user.id, quotationId: id, now: new Date(), schemaSet })));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "converted")).toHaveLength(1);
    expect(await kindCount(a.company.id, "fe")).toBe(before + 1);
    const invoices = await database.db.select().from(documents).where(eq(documents.quotationId, id));
    expect(invoices).toHaveLength(1);
  });

  it("the database refuses a second invoice for the same quotation", async () => {
    const id = await issuedQuotation(a.company.id, a.user.id, a.client.id);
    const r = await convertQuotation(database.db, { companyId: a.company.id, userId: a.user.id, quotationId: id, now: new Date(), schemaSet });
    expect(r.ok).toBe(true);
    const base = { companyId: a.company.id, kind: "fe", issuedAt: new Date(), quotationId: id };
    await expect(database.db.insert(documents).values(base)).rejects.toThrow();
  });

  it("a quotation that cannot become a valid invoice stays as it is, with the reason", async () => {
    const id = await issuedQuotation(a.company.id, a.user.id, a.client.id, { lines: [{ description: "Servicio sin CABYS", quantity: "1", unit: "Sp", unitPrice: "1000", tax: { tarifaCode: "08" } }] });
    const before = await kindCount(a.company.id, "fe");
    const r = await act(b, { intent: "convert", confirm: "yes", quotation_id: String(id), back: "/quotations" });
    expect(r.location).toBe("/quotations");
    const [t] = toasts(b);
    expect(t.type).toBe("error");
    expect(t.text).toMatch(/^No se pudo convertir a factura: .+ Edite la cotización y vuelva a intentarlo\.$/);
    expect(await kindCount(a.company.id, "fe")).toBe(before);
  });
});

describe("list, delete and the client's tab", () => {
  it("lists with amounts and links; soft delete (confirmed) hides it everywhere", async () => {
    const id = await quotationVia(b);
    const l = (await list(b, "?perPage=50")).data;
    const row = l.rows.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({ clientId: a.client.id, subtotal: "₡200.000,00", discount: "₡0,00", tax: "₡26.000,00", total: "₡226.000,00", invoiceId: null });
    const tab = await call(b, clientDetail.loader, { path: `/client-detail/${a.client.id}?tab=quotations`, params: { id: String(a.client.id) } });
    expect(tab.data.documents.rows.map((r: { id: number }) => r.id)).toContain(id);

    await act(b, { intent: "delete", confirm: "cancel", quotation_id: String(id) });
    expect((await docOf(id)).deletedAt).toBeNull();
    const del = await act(b, { intent: "delete", confirm: "yes", quotation_id: String(id), back: `/detail/quotation/${id}` });
    expect(del.location).toBe("/quotations");
    expect(toasts(b)).toEqual([expect.objectContaining({ type: "success", text: "Cotización eliminada" })]);
    expect((await docOf(id)).deletedAt).toBeInstanceOf(Date);
    expect((await list(b, "?perPage=50")).data.rows.map((r: { id: number }) => r.id)).not.toContain(id);
    const tab2 = await call(b, clientDetail.loader, { path: `/client-detail/${a.client.id}?tab=quotations`, params: { id: String(a.client.id) } });
    expect(tab2.data.documents.rows.map((r: { id: number }) => r.id)).not.toContain(id);
    expect((await call(b, detail.loader, { path: `/detail/quotation/${id}`, params: { type: "quotation", id: String(id) } })).status).toBe(404);
    expect((await load(b, edit(id))).status).toBe(404);
    expect((await load(b, { path: `/new-clone/quotation/${id}`, params: { document_type: "quotation", document_id: String(id) } })).status).toBe(404);
    expect((await act(b, { intent: "convert", confirm: "yes", quotation_id: String(id) })).status).toBe(404);
    expect((await act(b, { intent: "delete", confirm: "yes", quotation_id: String(id) })).status).toBe(404);
  });

  it("another company sees none of them", async () => {
    const l = (await list(ob)).data;
    expect(l.rows.every((r: { clientId: number | null }) => r.clientId !== a.client.id)).toBe(true);
  });
});
