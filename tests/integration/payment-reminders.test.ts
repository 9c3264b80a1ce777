// Payment reminders: an invoice saved with the checkbox is e-mailed once (the company's
// 'payment_reminder' template, its PDF attached) the day after it is due, only while unpaid, not
// rejected and not covered by a credit note; the form's checkbox reaches the stored invoice.
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { documents } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { sendDuePaymentReminders } from "../../app/server/payment-reminders.server.ts";
import { readDocumentForm, toDraft } from "../../app/domain/document-form.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as list from "../../app/routes/documents/documents-list.tsx";
import { call, signedIn } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SMTPServer;
const received: { to: string[]; raw: string }[] = [];
const schemaSet = testSchemaSet();
const issuedAt = new Date("2026-11-21T15:30:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("latin1") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => smtp.close(() => r()));
  await database?.drop();
});

describe("payment reminders", () => {
  it("once, the day after the due date, only for unpaid invoices with the checkbox", async () => {
    const a = await issuingCompany(database.db);
    const port = (smtp.server.address() as { port: number }).port;
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

  it("the detail viewer's 'Recordatorio de pago': due or overdue unpaid invoices of the company only, counted", async () => {
    const a = await issuingCompany(database.db);
    const other = await issuingCompany(database.db);
    const port = (smtp.server.address() as { port: number }).port;
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
    const before = received.length;
    const r = await call(b, detail.action, { path: `/detail/invoice/${overdue}`, params: { type: "invoice", id: String(overdue) }, form: { intent: "reminder" } });
    expect(r.status).toBe(302);
    expect(received).toHaveLength(before + 1);
    expect((await call(b, detail.loader, { path: `/detail/invoice/${overdue}`, params: { type: "invoice", id: String(overdue) } })).data.actions.reminder).toEqual({ sent: 1 });
    // The invoices list offers it on the overdue row with the count, not on the cash one.
    const rows = (await call(b, list.loader, { path: "/invoices" })).data.rows as Array<{ id: number; reminder: number | null }>;
    expect(rows.find((x) => x.id === overdue)!.reminder).toBe(1);
    expect(rows.find((x) => x.id === cash)!.reminder).toBeNull();
    // Not due: refused with the reason, nothing sent.
    await call(b, detail.action, { path: `/detail/invoice/${cash}`, params: { type: "invoice", id: String(cash) }, form: { intent: "reminder" } });
    expect(received).toHaveLength(before + 1);
    // Another company's user: 404, nothing sent.
    const ob = await signedIn(database.db, other.user.id, other.company.id);
    const foreign = await call(ob, detail.action, { path: `/detail/invoice/${overdue}`, params: { type: "invoice", id: String(overdue) }, form: { intent: "reminder" } });
    expect(foreign.status).toBe(404);
    expect(received).toHaveLength(before + 1);
  });

  it("the form's checkbox goes into the invoice's draft (invoices only)", () => {
    const values = { client_id: "1", sale_condition: "02", credit_days: "30", "payments[0].code": "01", currency: "CRC", remember_payment: "on", "lines[0].description": "x", "lines[0].quantity": "1", "lines[0].price": "1", "lines[0].taxTypeId": "1" };
    const taxes = [{ id: 1, name: "IVA 13%", rate: "13", taxCode: "01", vatCode: "08" }];
    expect(toDraft("fe", readDocumentForm(values), taxes).draft.remindPayment).toBe(true);
    expect(toDraft("te", readDocumentForm(values), taxes).draft.remindPayment).toBeUndefined();
    expect(toDraft("fe", readDocumentForm({ ...values, remember_payment: undefined }), taxes).draft.remindPayment).toBeUndefined();
  });
});
