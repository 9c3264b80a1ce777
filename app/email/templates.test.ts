// Every e-mail template (the defaults each company gets, and the fallbacks) filled for a cash
// invoice, a credit invoice, a ticket, notes and a quotation never shows an empty placeholder
// ('con vencimiento el .', 'válida hasta el .'), a placeholder left unfilled or a doubled period
// (issue 14 point 3, docs/decisions/163).
import { describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATES } from "../server/config-setup.server.ts";
import { feColones, feDollars, ncOfFe, quotation, teGeneric } from "../domain/document-view.fixtures.ts";
import type { DocumentView } from "../domain/document-view.ts";
import { statementEmail } from "../domain/account-statement.ts";
import { FALLBACK_TEMPLATE, fillDocumentTemplate, REMINDER_FALLBACK_TEMPLATE } from "./document-email.ts";

const cash: DocumentView = { ...feColones, saleCondition: "Contado", paymentTermDays: null, dueDate: null, company: { ...feColones.company, name: "Colibrí Demo S.A.", fantasyName: null } };
const credit: DocumentView = { ...feColones, company: { ...feColones.company, name: "Colibrí Demo S.A.", fantasyName: null } };
const quote: DocumentView = { ...quotation, dueDate: null };
const views: Record<string, DocumentView> = { cash, credit, dollars: feDollars, ticket: teGeneric, note: ncOfFe, quotation: quote, "quotation with a term": quotation };

/** What a filled text must never show. */
function expectClean(text: string, where: string) {
  expect(text, where).not.toMatch(/\{[a-z_]+\}/);
  expect(text, where).not.toMatch(/(?:^|\s)(el|la|de|del|hasta|por|con|a)\s*[.,;:]/i);
  expect(text, where).not.toMatch(/\s[.,]/);
  expect(text, where).not.toMatch(/\.\./);
  expect(text, where).not.toMatch(/ {2}/);
}

const templates = [...DEFAULT_TEMPLATES.filter((t) => t.type !== "account_statement"), { type: "fallback", ...FALLBACK_TEMPLATE }, { type: "reminder fallback", ...REMINDER_FALLBACK_TEMPLATE }];

describe("document e-mail templates", () => {
  for (const t of templates)
    for (const [name, view] of Object.entries(views))
      it(`${t.type} with a ${name} document`, () => {
        const filled = fillDocumentTemplate(view, { subject: t.subject, body: t.body });
        expectClean(filled.subject, "subject");
        expectClean(filled.body, "body");
      });

  it("a cash invoice drops the due date; a credit one states it", () => {
    const invoice = DEFAULT_TEMPLATES.find((t) => t.type === "invoice")!;
    expect(fillDocumentTemplate(cash, invoice).body).toContain(`por un monto de ₡1.130.000,00.\n\nGracias por su preferencia,\nColibrí Demo S.A.`.replace("₡1.130.000,00", fillDocumentTemplate(cash, { subject: "", body: "{monto}" }).body));
    expect(fillDocumentTemplate(credit, invoice).body).toMatch(/, con vencimiento el \d{2}\/\d{2}\/\d{4}\./);
    const q = DEFAULT_TEMPLATES.find((t) => t.type === "quotation")!;
    expect(fillDocumentTemplate(quote, q).body).not.toContain("válida hasta");
    expect(fillDocumentTemplate(quotation, q).body).toMatch(/válida hasta el \d{2}\/\d{2}\/\d{4}\./);
  });
});

describe("the account statement template", () => {
  const t = DEFAULT_TEMPLATES.find((x) => x.type === "account_statement")!;
  for (const invoices of [[], [{ reference: "00100001010000000001", issuedAt: "2026-11-20T15:00:00Z", pending: "1000.00000", currencyId: 2 }]])
    it(`with ${invoices.length} pending invoices`, () => {
      const mail = statementEmail({ clientName: "Ana Peña", companyName: "Colibrí Demo S.A.", pendingTotal: "1000", invoices, today: new Date("2026-11-25T15:00:00Z"), template: t });
      expectClean(mail.subject, "subject");
      // The table's columns are padded with two spaces: check the prose around it.
      expectClean(mail.text.split("\n\n").filter((p) => !p.includes("Factura  ")).join("\n\n"), "body");
    });
});
