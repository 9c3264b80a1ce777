// Recurring-invoice screens (spec part 2 "Recurring invoices", §2, §4, §5, §9; decision 091): the
// shared form in recurring mode (new, from an invoice, edit), its validation (nothing lost, nothing
// stored), the /recurrings list (columns, search, pause, resume moving a past date forward, delete,
// cancel), tenant isolation, and a template saved through the screen issued once by the job.
// Through the real route loaders/actions and middleware.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { companies, documentCounters, documents, jobs, recurringDocuments, taxTypes } from "../../db/schema/index.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { runDueRecurring } from "../../app/server/recurring.server.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import { nextSendDate } from "../../app/domain/recurring.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as listRoute from "../../app/routes/documents/recurrings.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let ob: Browser;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let other: Awaited<ReturnType<typeof issuingCompany>>;
let tax13: number;
let invoiceId: number;
let invoiceConsecutivo: string;
let ticketId: number;
let otherInvoiceId: number;
const schemaSet = testSchemaSet();
const today = () => costaRicaDay(new Date());

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  other = await issuingCompany(database.db);
  for (const c of [a, other]) await setupItemsForCompany(database.db, c.company.id);
  tax13 = (await database.db.select().from(taxTypes).where(eq(taxTypes.companyId, a.company.id))).find((t) => t.name === "IVA 13%")!.id;
  const inv = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id, { note: "Mantenimiento mensual" }), now: new Date(), schemaSet });
  const tic = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("te", a.generic.id), now: new Date(), schemaSet });
  const oinv = await issueDocument(database.db, { companyId: other.company.id, userId: other.user.id, draft: sampleDraft("fe", other.client.id), now: new Date(), schemaSet });
  if (!inv.ok || !tic.ok || !oinv.ok) throw new Error("issue");
  invoiceId = inv.documentId;
  invoiceConsecutivo = inv.consecutivo!;
  ticketId = tic.documentId;
  otherInvoiceId = oinv.documentId;
  b = await signedIn(database.db, a.user.id, a.company.id);
  ob = await signedIn(database.db, other.user.id, other.company.id);
}, 180_000);
afterAll(async () => database?.drop());

const newRec = (query = "") => ({ path: `/recurring-new${query}`, params: {} });
const fromDoc = (type: string, id: number) => ({ path: `/new-recurring/${type}/${id}`, params: { document_type: type, document_id: String(id) } });
const edit = (id: number, type = "recurring") => ({ path: `/edit-recurring/${type}/${id}`, params: { document_type: type, document_id: String(id) } });
const load = (browser: Browser, r: { path: string; params: Record<string, string> }) => call(browser, formRoute.loader, r);
const post = (browser: Browser, r: { path: string; params: Record<string, string> }, form: Record<string, string>) => call(browser, formRoute.action, { ...r, form });
const list = (browser: Browser, query = "") => call(browser, listRoute.loader, { path: `/recurrings${query}` });
const act = (browser: Browser, form: Record<string, string>) => call(browser, listRoute.action, { path: "/recurrings", form });
const rowsOf = async (companyId: number) => database.db.select().from(recurringDocuments).where(eq(recurringDocuments.companyId, companyId));
const rowOf = async (id: number) => (await database.db.select().from(recurringDocuments).where(eq(recurringDocuments.id, id)))[0];
const toasts = (browser: Browser) => {
  const flash = browser.cookies.get("colibri_flash");
  return flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
};

/** A complete recurring form as the browser posts it. */
function filled(over: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: String(a.client.id),
    sale_condition: "01",
    currency: "CRC",
    "payments[0].code": "01",
    "lines[0].itemId": "",
    "lines[0].picked": "",
    "lines[0].code": "SOP-01",
    "lines[0].cabys": "8313100000000",
    "lines[0].description": "Soporte técnico mensual",
    "lines[0].unit": "Sp",
    "lines[0].quantity": "1",
    "lines[0].price": "50000",
    "lines[0].discount": "0",
    "lines[0].taxTypeId": String(tax13),
    note: "Servicio recurrente",
    recurring_start_day: today(),
    common_cycle: "monthly",
    intent: "save",
    ...over,
  };
}

async function created(over: Record<string, string> = {}) {
  const r = await post(b, newRec(), filled(over));
  expect(r.status, JSON.stringify(r.data?.errors ?? r.data?.general)).toBe(302);
  const rows = await rowsOf(a.company.id);
  return rows.sort((x, y) => y.id - x.id)[0];
}

const pendingRecurringJobs = async () => (await database.db.select().from(jobs).where(and(eq(jobs.type, "recurring"), eq(jobs.status, "pending")))).length;

describe("new recurring invoice", () => {
  it("the form: title, next recurring number, date, the ?id= client, recurrence block with its defaults", async () => {
    const r = await load(b, newRec(`?id=${a.client.id}`));
    expect(r.status).toBe(200);
    const s = r.data;
    expect(s.kind).toBe("fe");
    expect(s.source.title).toBe("Nueva factura recurrente");
    expect(s.source.listPath).toBe("/recurrings");
    expect(s.source.facts).toEqual([
      { label: "Consecutivo", value: "1" },
      { label: "Fecha", value: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} [AP]M$/) },
    ]);
    expect(s.form.clientId).toBe(String(a.client.id));
    expect(s.recurrence).toEqual({ startDay: today(), commonCycle: "", unit: "days", every: "1", remindPayment: false });
    // A client of another company is not preselected.
    expect((await load(b, newRec(`?id=${other.client.id}`))).data.form.clientId).toBe("");
  });

  it("saving stores the template (numbered, totals, cycle, reminder), no document is issued, and goes to the list", async () => {
    const docsBefore = (await database.db.select().from(documents).where(eq(documents.companyId, a.company.id))).length;
    const r = await post(b, newRec(), filled({ remember_payment: "on", common_cycle: "custom", recurring_type: "weeks", recurring_cycle: "2" }));
    expect(r.status).toBe(302);
    expect(r.location).toBe("/recurrings");
    expect(toasts(b)).toContainEqual(expect.objectContaining({ type: "success", text: "Factura recurrente creada con exito" }));
    const row = (await rowsOf(a.company.id)).sort((x, y) => y.id - x.id)[0];
    expect(row).toMatchObject({ kind: "fe", clientId: a.client.id, cycle: "weeks", every: 2, startDay: today(), nextSendDate: today(), lastSentDate: null, paused: false, remindPayment: true, currency: "CRC" });
    expect(row.number).toBeGreaterThanOrEqual(1);
    expect(Number(row.subtotal)).toBe(50000);
    expect(Number(row.tax)).toBe(6500);
    expect(Number(row.total)).toBe(56500);
    expect((row.draft as { note?: string }).note).toBe("Servicio recurrente");
    expect((await database.db.select().from(documents).where(eq(documents.companyId, a.company.id))).length).toBe(docsBefore);
    // Due today: the recurring job is queued for the next jobs pass (not the 15-minute schedule).
    expect(await pendingRecurringJobs()).toBe(1);
    // The header's next number moved on.
    expect((await load(b, newRec())).data.source.facts[0].value).toBe(String(row.number! + 1));
  });

  it("plan 4 ('100 anuales') shows how many documents the company issued this year", async () => {
    expect((await load(b, newRec())).data.source.facts.map((f: { label: string }) => f.label)).not.toContain("Documentos emitidos este año");
    await database.db.update(companies).set({ permission: 4 }).where(eq(companies.id, a.company.id));
    try {
      const issuedThisYear = (await database.db.select().from(documents).where(eq(documents.companyId, a.company.id))).filter((d) => d.kind !== "qt" && costaRicaDay(d.issuedAt).slice(0, 4) === costaRicaDay(new Date()).slice(0, 4)).length;
      const facts = (await load(b, newRec())).data.source.facts as Array<{ label: string; value: string }>;
      expect(facts.find((f) => f.label === "Documentos emitidos este año")?.value).toBe(String(issuedThisYear));
    } finally {
      await database.db.update(companies).set({ permission: 1 }).where(eq(companies.id, a.company.id));
    }
  });

  it("a template due later does not queue the job", async () => {
    await database.db.delete(jobs).where(eq(jobs.type, "recurring"));
    await created({ recurring_start_day: "2099-01-01", common_cycle: "monthly" });
    expect(await pendingRecurringJobs()).toBe(0);
  });

  it("a start day in the past is not back-dated: the first send is the first period on or after today", async () => {
    const start = "2026-01-31";
    const row = await created({ recurring_start_day: start, common_cycle: "monthly" });
    expect(row.startDay).toBe(start);
    expect(row.nextSendDate >= today()).toBe(true);
    // It is a period of the series and the one before it is past.
    let d = start;
    while (d < today()) d = nextSendDate(d, "monthly", 1, start);
    expect(row.nextSendDate).toBe(d);
  });

  it("a bad template is refused with Spanish messages; everything typed is kept and nothing is stored", async () => {
    const before = (await rowsOf(a.company.id)).length;
    const r = await post(
      b,
      newRec(),
      filled({ client_id: "", "lines[0].description": "", "lines[0].quantity": "3", common_cycle: "custom", recurring_type: "months", recurring_cycle: "0", recurring_start_day: "2026-02-30", remember_payment: "on" }),
    );
    expect(r.status).toBe(400);
    expect(r.data.errors).toMatchObject({
      "recurrence.startDay": "Indique la fecha de inicio.",
      "recurrence.every": "El ciclo debe ser un número entero mayor o igual a 1.",
      "lines.0.description": "La descripción es obligatoria.",
    });
    expect(r.data.errors.clientId).toMatch(/cliente/i);
    expect(r.data.recurrence).toEqual({ startDay: "2026-02-30", commonCycle: "custom", unit: "months", every: "0", remindPayment: true });
    expect(r.data.form.lines[0]).toMatchObject({ quantity: "3", price: "50000", code: "SOP-01" });
    expect(r.data.form.note).toBe("Servicio recurrente");
    // No cycle at all.
    const noCycle = await post(b, newRec(), filled({ common_cycle: "" }));
    expect(noCycle.status).toBe(400);
    expect(noCycle.data.errors["recurrence.commonCycle"]).toBe("Indique el ciclo.");
    // The invoice's own rules (checked as the document it will issue): a CABYS code of the wrong length.
    const badCabys = await post(b, newRec(), filled({ "lines[0].cabys": "123" }));
    expect(badCabys.status).toBe(400);
    expect(JSON.stringify(badCabys.data.errors) + badCabys.data.general.join(" ")).toMatch(/CABYS/i);
    expect((await rowsOf(a.company.id)).length).toBe(before);
  });

  it("re-renders (add a line) keep the recurrence block as typed and store nothing", async () => {
    const before = (await rowsOf(a.company.id)).length;
    const r = await post(b, newRec(), filled({ intent: "add-line", common_cycle: "yearly", recurring_start_day: "2027-03-15" }));
    expect(r.status).toBe(200);
    expect(r.data.form.lines).toHaveLength(2);
    expect(r.data.recurrence).toMatchObject({ commonCycle: "yearly", startDay: "2027-03-15" });
    expect(r.data.errors).toEqual({});
    expect((await rowsOf(a.company.id)).length).toBe(before);
  });
});

describe("make an invoice recurring", () => {
  it("the form is preloaded from the invoice's stored draft, with the header 'Haciendo recurrente Factura: #…'", async () => {
    const r = await load(b, fromDoc("invoice", invoiceId));
    expect(r.status).toBe(200);
    expect(r.data.source.title).toBe(`Haciendo recurrente Factura: #${invoiceConsecutivo}`);
    expect(r.data.form.clientId).toBe(String(a.client.id));
    expect(r.data.form.note).toBe("Mantenimiento mensual");
    expect(r.data.form.lines.map((l: { description: string }) => l.description)).toEqual(["Computadora portátil 14 pulgadas", "Horas de consultoría en sistemas"]);
    expect(r.data.recurrence.commonCycle).toBe("");
    // Saved as posted back: the template carries the invoice's lines.
    const s = r.data;
    const form: Record<string, string> = { client_id: s.form.clientId, sale_condition: s.form.saleCondition, currency: s.form.currency, note: s.form.note, recurring_start_day: today(), common_cycle: "quarterly", intent: "save" };
    s.form.payments.forEach((p: { code: string; amount: string }, i: number) => Object.assign(form, { [`payments[${i}].code`]: p.code, [`payments[${i}].amount`]: p.amount }));
    s.form.lines.forEach((l: Record<string, string>, i: number) => {
      for (const [k, v] of Object.entries(l)) form[`lines[${i}].${k}`] = v;
    });
    const saved = await post(b, fromDoc("invoice", invoiceId), form);
    expect(saved.status, JSON.stringify(saved.data?.errors)).toBe(302);
    const row = (await rowsOf(a.company.id)).sort((x, y) => y.id - x.id)[0];
    expect(row.cycle).toBe("quarterly");
    expect((row.draft as { lines: unknown[] }).lines).toHaveLength(2);
    expect(Number(row.total)).toBe(1226150);
  });

  it("only invoices of the company: a ticket, another company's invoice, a wrong type are not found", async () => {
    expect((await load(b, fromDoc("invoice", ticketId))).status).toBe(404);
    expect((await load(b, fromDoc("invoice", otherInvoiceId))).status).toBe(404);
    const wrongType = await load(b, fromDoc("ticket", ticketId));
    expect(wrongType.status).toBe(404);
    expect(wrongType.data).toBe("El tipo de documento a crear es invalido");
    const before = (await rowsOf(a.company.id)).length;
    expect((await post(b, fromDoc("invoice", otherInvoiceId), filled())).status).toBe(404);
    expect((await rowsOf(a.company.id)).length).toBe(before);
  });
});

describe("edit a recurring invoice", () => {
  it("loads the template and its cycle; saving edits it and recomputes the next send date when the schedule changes", async () => {
    const row = await created({ common_cycle: "monthly", recurring_start_day: today() });
    const r = await load(b, edit(row.id));
    expect(r.status).toBe(200);
    expect(r.data.source.title).toBe("Editar factura recurrente");
    expect(r.data.source.facts).toEqual(expect.arrayContaining([{ label: "Número", value: String(row.number) }, { label: "Ultimo envio", value: "N/E" }]));
    expect(r.data.recurrence).toMatchObject({ commonCycle: "monthly", startDay: today() });
    expect(r.data.form.lines[0]).toMatchObject({ description: "Soporte técnico mensual", price: "50.000,00" });

    // The period of today was already sent: the new schedule starts after it.
    await database.db.update(recurringDocuments).set({ lastSentDate: today(), nextSendDate: nextSendDate(today(), "monthly", 1, today()) }).where(eq(recurringDocuments.id, row.id));
    const saved = await post(b, edit(row.id), filled({ "lines[0].price": "60000", common_cycle: "custom", recurring_type: "days", recurring_cycle: "10" }));
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/recurrings");
    expect(toasts(b)).toContainEqual(expect.objectContaining({ text: "Factura recurrente editada con exito" }));
    const after = await rowOf(row.id);
    expect(after).toMatchObject({ cycle: "days", every: 10, number: row.number, lastSentDate: today() });
    expect(after.nextSendDate).toBe(nextSendDate(today(), "days", 10, today()));
    expect(Number(after.subtotal)).toBe(60000);

    // Same schedule: the next send date is kept.
    const again = await post(b, edit(row.id), filled({ "lines[0].price": "61000", common_cycle: "custom", recurring_type: "days", recurring_cycle: "10" }));
    expect(again.status).toBe(302);
    expect((await rowOf(row.id)).nextSendDate).toBe(after.nextSendDate);
  });

  it("a bad edit changes nothing and keeps what was typed", async () => {
    const row = await created();
    const r = await post(b, edit(row.id), filled({ "lines[0].price": "", common_cycle: "" }));
    expect(r.status).toBe(400);
    expect(r.data.errors["recurrence.commonCycle"]).toBe("Indique el ciclo.");
    expect(r.data.form.lines[0].description).toBe("Soporte técnico mensual");
    expect(await rowOf(row.id)).toMatchObject({ cycle: row.cycle, subtotal: row.subtotal, updatedAt: null });
  });

  it("another company's template, a deleted one or a wrong type: 404 and nothing changed", async () => {
    const row = await created();
    expect((await load(ob, edit(row.id))).status).toBe(404);
    expect((await post(ob, edit(row.id), { ...filled({ client_id: String(other.client.id), "lines[0].price": "1" }) })).status).toBe(404);
    expect(await rowOf(row.id)).toMatchObject({ subtotal: row.subtotal, updatedAt: null });
    const wrongType = await load(b, edit(row.id, "invoice"));
    expect(wrongType.status).toBe(404);
    expect(wrongType.data).toBe("El tipo de documento a crear es invalido");
  });
});

describe("/recurrings list", () => {
  it("columns: number, client, totals, dates, N/E before the first send; search; empty message for another company", async () => {
    const row = await created({ "lines[0].description": "Hospedaje web anual" });
    const r = await list(b, `?search=${row.number}`);
    expect(r.status).toBe(200);
    const shown = r.data.rows.find((x: { id: number }) => x.id === row.id);
    expect(shown).toMatchObject({ number: String(row.number), clientId: a.client.id, clientName: a.client.name, subtotal: "₡50.000,00", tax: "₡6.500,00", total: "₡56.500,00", discount: "₡0,00", last: "N/E", paused: false });
    expect(shown.start).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(shown.next).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect((await list(b, "?search=no-existe-xyz")).data.rows).toEqual([]);
    const empty = await list(ob);
    expect(empty.data.rows).toEqual([]);
  });

  it("pause, then resume: a next send date left in the past moves to the next period on or after today (no burst)", async () => {
    const row = await created({ common_cycle: "custom", recurring_type: "weeks", recurring_cycle: "1", recurring_start_day: "2026-01-05" });
    expect((await act(b, { intent: "pause", id: String(row.id) })).status).toBe(302);
    expect(toasts(b)).toContainEqual(expect.objectContaining({ text: "Factura recurrente pausada" }));
    expect((await rowOf(row.id)).paused).toBe(true);
    expect((await list(b)).data.rows.find((x: { id: number }) => x.id === row.id)).toMatchObject({ paused: true });
    // Weeks pass while paused: the stored date is now long past.
    await database.db.update(recurringDocuments).set({ nextSendDate: "2026-02-02" }).where(eq(recurringDocuments.id, row.id));
    const shown = (await list(b)).data.rows.find((x: { id: number }) => x.id === row.id);
    // Cancel changes nothing.
    expect((await act(b, { intent: "resume", id: String(row.id), confirm: "cancel" })).status).toBe(302);
    expect(toasts(b)).toContainEqual(expect.objectContaining({ text: "Acción cancelada" }));
    expect(await rowOf(row.id)).toMatchObject({ paused: true, nextSendDate: "2026-02-02" });
    expect((await act(b, { intent: "resume", id: String(row.id), confirm: "yes" })).status).toBe(302);
    expect(toasts(b)).toContainEqual(expect.objectContaining({ text: "Factura recurrente reanudada" }));
    const after = await rowOf(row.id);
    expect(after.paused).toBe(false);
    expect(after.nextSendDate >= today()).toBe(true);
    // A Monday of the weekly series (2026-01-05 was a Monday), less than a week away.
    expect(new Date(`${after.nextSendDate}T12:00:00Z`).getUTCDay()).toBe(1);
    expect((Date.parse(after.nextSendDate) - Date.parse(today())) / 86_400_000).toBeLessThan(7);
    // The resume warning showed that date before confirming.
    expect(shown.resumeNext).toBe(`${after.nextSendDate.slice(8, 10)}/${after.nextSendDate.slice(5, 7)}/${after.nextSendDate.slice(0, 4)}`);
    // The job issues one invoice for today's period at most, never the missed ones.
    await runDueRecurring(database.db, { now: new Date(`${after.nextSendDate}T15:00:00Z`), schemaSet });
    const docs = await database.db.select().from(documents).where(eq(documents.recurringId, row.id));
    expect(docs).toHaveLength(1);
    expect(docs[0].recurringPeriod).toBe(after.nextSendDate);
  });

  it("a future next send date is kept when resuming", async () => {
    const row = await created({ recurring_start_day: "2030-05-10", common_cycle: "yearly" });
    await act(b, { intent: "pause", id: String(row.id) });
    await act(b, { intent: "resume", id: String(row.id), confirm: "yes" });
    expect(await rowOf(row.id)).toMatchObject({ paused: false, nextSendDate: "2030-05-10" });
  });

  it("delete (confirmed) removes it from the list; another company cannot pause, resume or delete it", async () => {
    const row = await created();
    for (const intent of ["pause", "resume", "delete"]) expect((await act(ob, { intent, id: String(row.id), confirm: "yes" })).status).toBe(404);
    expect(await rowOf(row.id)).toMatchObject({ paused: false, deletedAt: null });
    expect((await act(b, { intent: "delete", id: String(row.id), confirm: "yes" })).status).toBe(302);
    expect(toasts(b)).toContainEqual(expect.objectContaining({ text: "Factura recurrente eliminada" }));
    expect((await rowOf(row.id)).deletedAt).not.toBeNull();
    expect((await list(b)).data.rows.some((x: { id: number }) => x.id === row.id)).toBe(false);
    expect((await load(b, edit(row.id))).status).toBe(404);
    expect((await act(b, { intent: "delete", id: String(row.id), confirm: "yes" })).status).toBe(404);
  });
});

describe("the job issues a template saved through the screen", () => {
  it("one real invoice for its period, once, with the template's lines and client", async () => {
    const row = await created({ common_cycle: "monthly", recurring_start_day: today(), "lines[0].description": "Licencia de software mensual", remember_payment: "on" });
    const now = new Date(`${row.nextSendDate}T15:00:00Z`);
    const first = await runDueRecurring(database.db, { now, schemaSet });
    const again = await runDueRecurring(database.db, { now, schemaSet });
    const docs = await database.db.select().from(documents).where(eq(documents.recurringId, row.id));
    expect(docs).toHaveLength(1);
    expect(first.issued).toContain(docs[0].id);
    expect(again.issued).not.toContain(docs[0].id);
    // The template's payment-reminder checkbox is on the invoice it issued.
    expect(docs[0]).toMatchObject({ kind: "fe", companyId: a.company.id, clientId: a.client.id, status: "por enviar", recurringPeriod: row.nextSendDate, remindPayment: true });
    expect(Number(docs[0].totalComprobante)).toBe(56500);
    expect(docs[0].signedXml).not.toBeNull();
    expect((docs[0].draft as { lines: Array<{ description: string }> }).lines[0].description).toBe("Licencia de software mensual");
    const after = await rowOf(row.id);
    expect(after).toMatchObject({ lastSentDate: row.nextSendDate, nextSendDate: nextSendDate(row.nextSendDate, "monthly", 1, row.startDay) });
    // The recurring numbers are the company's own counter, not the invoices'.
    const [counter] = await database.db
      .select()
      .from(documentCounters)
      .where(and(eq(documentCounters.companyId, a.company.id), eq(documentCounters.docType, "fr")));
    expect(counter.nextNumber).toBe(row.number! + 1);
  });
});
