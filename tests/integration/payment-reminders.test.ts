// Payment reminders: an invoice saved with the checkbox is e-mailed once (the company's
// 'payment_reminder' template, its PDF attached) the day after it is due, only while unpaid, not
// rejected and not covered by a credit note; the form's checkbox reaches the stored invoice; the
// detail viewer's reminder form (?recordatorio=1) sends what was typed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { companies, documents } from "../../db/schema/index.ts";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, MemoryRouter } from "react-router";
import { DocumentRowActions } from "../../app/components/document-row-actions.tsx";
import { EMAIL_FORM_MESSAGES } from "../../app/domain/email-form.ts";
import { formatDate } from "../../app/domain/format.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { REMINDER_MESSAGES, sendDuePaymentReminders } from "../../app/server/payment-reminders.server.ts";
import { readDocumentForm, toDraft } from "../../app/domain/document-form.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as list from "../../app/routes/documents/documents-list.tsx";
import { call, signedIn } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
let received: SmtpCapture["received"];
const schemaSet = testSchemaSet();
const issuedAt = new Date("2026-11-21T15:30:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture({ auth: false });
  received = smtp.received;
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

/** Server-renders the detail screen (what a browser without JavaScript gets). */
function renderDetail(path: string, loaderData: unknown, actionData?: unknown): string {
  const Stub = createRoutesStub([{ id: "detail-transaction", path: "/detail/:type/:id/:print?", Component: detail.default as never, loader: () => null, action: () => null }]);
  return renderToString(
    createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { "detail-transaction": loaderData }, ...(actionData ? { actionData: { "detail-transaction": actionData } } : {}) } }),
  );
}

describe("payment reminders", () => {
  it("once, the day after the due date, only for unpaid invoices with the checkbox", async () => {
    const a = await issuingCompany(database.db);
    const port = smtp.port;
    await saveOutgoingEmail(database.db, a.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port, username: "", password: "", from_email: "cobros@empresa.example", from_name: "Empresa" });
    const issue = async (over: Parameters<typeof sampleDraft>[2]) => {
      const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id, { saleCondition: "02", creditDays: 5, ...over }), now: issuedAt, schemaSet });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.documentId;
    };
    const reminded = await issue({ remindPayment: true, emails: ["contabilidad@cliente.example"] });
    const unchecked = await issue({});
    const paid = await issue({ remindPayment: true });
    const rejected = await issue({ remindPayment: true });
    await database.db.update(documents).set({ paymentAmount: sql`${documents.totalComprobante}` }).where(eq(documents.id, paid));
    await database.db.update(documents).set({ status: "rechazado" }).where(eq(documents.id, rejected));
    const [row] = await database.db.select().from(documents).where(eq(documents.id, reminded));
    expect(row).toMatchObject({ remindPayment: true, remindersSent: 0, expirationDate: "2026-11-26" });

    // On the due date (Costa Rica), nothing yet; the day after, one e-mail.
    expect(await sendDuePaymentReminders(database.db, { now: new Date("2026-11-27T05:59:00Z") })).toEqual({ sent: [], failed: 0 });
    const dayAfter = new Date("2026-11-27T06:30:00Z");
    expect(await sendDuePaymentReminders(database.db, { now: dayAfter })).toEqual({ sent: [reminded], failed: 0 });
    expect(received).toHaveLength(1);
    expect(received[0].to.sort()).toEqual(["contabilidad@cliente.example", row.clientSnapshot && (row.clientSnapshot as { email: string }).email].sort());
    expect(received[0].raw).toMatch(/filename="?[^"\r\n]+\.pdf/);
    expect(received[0].raw).not.toMatch(/filename="?\d{50}\.xml/);
    const [after] = await database.db.select().from(documents).where(eq(documents.id, reminded));
    expect(after).toMatchObject({ remindersSent: 1, lastReminderAt: dayAfter });
    // Never twice.
    expect(await sendDuePaymentReminders(database.db, { now: new Date("2026-11-30T15:00:00Z") })).toEqual({ sent: [], failed: 0 });
    expect(received).toHaveLength(1);
    for (const id of [unchecked, paid, rejected]) {
      const [d] = await database.db.select({ remindersSent: documents.remindersSent }).from(documents).where(eq(documents.id, id));
      expect(d.remindersSent).toBe(0);
    }
  });

  it("the detail viewer's 'Recordatorio de pago': a form prefilled from the template, required fields, sent and counted; due unpaid invoices of the company only", async () => {
    const a = await issuingCompany(database.db);
    const other = await issuingCompany(database.db);
    const port = smtp.port;
    await saveOutgoingEmail(database.db, a.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port, username: "", password: "", from_email: "cobros@empresa.example", from_name: "Empresa" });
    const issue = async (draft: ReturnType<typeof sampleDraft>, now: Date) => {
      const r = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft, now, schemaSet });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.documentId;
    };
    // Due yesterday (credit of 1 day issued two days ago) and a cash invoice (no due date).
    const overdue = await issue(sampleDraft("fe", a.client.id, { saleCondition: "02", creditDays: 1 }), new Date(Date.now() - 2 * 86_400_000));
    const cash = await issue(sampleDraft("fe", a.client.id), new Date());
    const b = await signedIn(database.db, a.user.id, a.company.id);
    const page = await call(b, detail.loader, { path: `/detail/invoice/${overdue}`, params: { type: "invoice", id: String(overdue) } });
    expect(page.data.actions.reminder).toEqual({ sent: 0 });
    expect((await call(b, detail.loader, { path: `/detail/invoice/${cash}`, params: { type: "invoice", id: String(cash) } })).data.actions.reminder).toBeNull();
    const path = `/detail/invoice/${overdue}`;
    const params = { type: "invoice", id: String(overdue) };
    // The button opens the form (a link: works without JavaScript); the form is not shown otherwise.
    expect(page.data.reminderForm).toBeNull();
    const html = renderDetail(path, page.data);
    expect(html).toContain(`href="${path}?recordatorio=1"`);
    expect(html).not.toContain("data-reminder-form");
    // ?recordatorio=1: prefilled from the 'payment_reminder' template (the fallback here: no templates yet).
    const opened = await call(b, detail.loader, { path: `${path}?recordatorio=1`, params });
    const view = opened.data.preview;
    expect(opened.data.reminderForm).toEqual({
      emails: "cliente@example.cr",
      subject: "Recordatorio de pago",
      body: `Estimado(a) Distribuidora La Sabana Limitada:\n\nLe recordamos que la factura ${view.consecutive} por ${opened.data.list.find((x: { id: number }) => x.id === overdue).total} venció el ${formatDate(view.dueDate)}. Si ya realizó el pago, por favor ignore este mensaje.\n\nSaludos,\n${view.company.fantasyName || view.company.name}`,
    });
    const form = renderDetail(`${path}?recordatorio=1`, opened.data);
    expect(form).toContain("data-reminder-form");
    expect(form).toContain(`action="${path}?recordatorio=1"`);
    expect(form).toContain('value="Recordatorio de pago"');
    // The company's own template when it has one.
    await setupConfigForCompany(database.db, a.company.id);
    const templated = (await call(b, detail.loader, { path: `${path}?recordatorio=1`, params })).data.reminderForm;
    expect(templated.subject).toBe(`Recordatorio de pago de la factura ${view.consecutive}`);
    expect(templated.body).toContain(`vence el ${formatDate(view.dueDate)}`);

    // Required fields: nothing sent, nothing counted, what was typed comes back.
    const before = received.length;
    const bad = await call(b, detail.action, { path: `${path}?recordatorio=1`, params, form: { intent: "reminder", emails: "cobros@cliente.example", subject: "", body: " " } });
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ intent: "reminder", errors: { subject: EMAIL_FORM_MESSAGES.subjectRequired, body: EMAIL_FORM_MESSAGES.bodyRequired }, values: { emails: "cobros@cliente.example" } });
    const again = renderDetail(`${path}?recordatorio=1`, (await call(b, detail.loader, { path: `${path}?recordatorio=1`, params })).data, bad.data);
    expect(again).toContain('value="cobros@cliente.example"');
    expect(again).toContain(EMAIL_FORM_MESSAGES.subjectRequired);
    expect(received).toHaveLength(before);

    const r = await call(b, detail.action, {
      path: `${path}?recordatorio=1`,
      params,
      form: { intent: "reminder", emails: "cobros@cliente.example", subject: "Recordatorio de pago", body: "Su factura está vencida, gracias por su pago." },
    });
    expect(r.status).toBe(302);
    expect(r.location).toBe(path);
    const flash = b.cookies.get("colibri_flash");
    expect(flash ? readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) : []).toContainEqual({ type: "success", text: "El recordatorio de pago se envio correctamente" });
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.to).toEqual(["cobros@cliente.example"]);
    expect(received.at(-1)!.raw).toContain("Subject: Recordatorio de pago");
    expect(received.at(-1)!.raw).toMatch(/Su factura est=C3=A1 vencida, gracias por su pago\.|Su factura está vencida, gracias por su pago\./);
    expect((await call(b, detail.loader, { path, params })).data.actions.reminder).toEqual({ sent: 1 });
    // The invoices list offers it on the overdue row with the count, not on the cash one, as a link to the form.
    const rows = (await call(b, list.loader, { path: "/invoices" })).data.rows as Array<{ id: number; reminder: number | null }>;
    expect(rows.find((x) => x.id === overdue)!.reminder).toBe(1);
    expect(rows.find((x) => x.id === cash)!.reminder).toBeNull();
    const rowActions = renderToString(createElement(MemoryRouter, null, createElement(DocumentRowActions, { type: "invoice", id: overdue, pay: true, reminder: 1, back: "/invoices" })));
    expect(rowActions).toContain(`href="/detail/invoice/${overdue}?recordatorio=1"`);
    const typed = { intent: "reminder", emails: "cobros@cliente.example", subject: "Recordatorio de pago", body: "Hola" };
    // Not due: refused with the reason, nothing sent; the form is not offered.
    const cashParams = { type: "invoice", id: String(cash) };
    expect((await call(b, detail.loader, { path: `/detail/invoice/${cash}?recordatorio=1`, params: cashParams })).data.reminderForm).toBeNull();
    const notDue = await call(b, detail.action, { path: `/detail/invoice/${cash}?recordatorio=1`, params: cashParams, form: typed });
    expect(notDue.data.errors._form).toBe(REMINDER_MESSAGES.notDue);
    expect(received).toHaveLength(before + 1);
    // Plan 5 (read only): refused on the server.
    await database.db.update(companies).set({ permission: 5 }).where(eq(companies.id, a.company.id));
    expect((await call(b, detail.action, { path: `${path}?recordatorio=1`, params, form: typed })).status).toBe(403);
    await database.db.update(companies).set({ permission: 1 }).where(eq(companies.id, a.company.id));
    // Another company's user: 404, nothing sent.
    const ob = await signedIn(database.db, other.user.id, other.company.id);
    const foreign = await call(ob, detail.action, { path: `${path}?recordatorio=1`, params, form: typed });
    expect(foreign.status).toBe(404);
    expect(received).toHaveLength(before + 1);
    expect((await call(b, detail.loader, { path, params })).data.actions.reminder).toEqual({ sent: 1 });
  });

  it("the form's checkbox goes into the invoice's draft (invoices only)", () => {
    const values = { client_id: "1", sale_condition: "02", credit_days: "30", "payments[0].code": "01", currency: "CRC", remember_payment: "on", "lines[0].description": "x", "lines[0].quantity": "1", "lines[0].price": "1", "lines[0].taxTypeId": "1" };
    const taxes = [{ id: 1, name: "IVA 13%", rate: "13", taxCode: "01", vatCode: "08" }];
    expect(toDraft("fe", readDocumentForm(values), taxes).draft.remindPayment).toBe(true);
    expect(toDraft("te", readDocumentForm(values), taxes).draft.remindPayment).toBeUndefined();
    expect(toDraft("fe", readDocumentForm({ ...values, remember_payment: undefined }), taxes).draft.remindPayment).toBeUndefined();
  });
});
