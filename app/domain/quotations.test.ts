import { describe, expect, it } from "vitest";
import { parseEmailList, readDocumentForm, toDraft } from "./document-form.ts";
import { backPath, convertFailedMessage, invoiceDraftOf, quotationHeading } from "./quotations.ts";
import type { DocumentDraft } from "./document-draft.ts";

const qt: DocumentDraft = {
  kind: "qt",
  clientId: 7,
  saleCondition: "02",
  creditDays: 30,
  payments: [{ code: "04" }],
  currency: "USD",
  exchangeRate: "505.10",
  note: "Válida 15 días",
  emails: ["compras@example.cr"],
  lines: [{ cabys: "4523000000100", description: "Laptop", quantity: "1", unit: "Unid", unitPrice: "900", tax: { tarifaCode: "08" } }],
};

describe("quotations (pure)", () => {
  it("heading: Información + the company's name (default Cotización) + number", () => {
    expect(quotationHeading("Proforma", 12)).toBe("Información Proforma 12");
    expect(quotationHeading("  ", "3")).toBe("Información Cotización 3");
  });

  it("the invoice keeps client, terms, lines and notify list; dollars take today's rate when known", () => {
    expect(invoiceDraftOf(qt, "512.40")).toEqual({ ...qt, kind: "fe", exchangeRate: "512.40" });
    expect(invoiceDraftOf(qt, null).exchangeRate).toBe("505.10");
    expect(invoiceDraftOf({ ...qt, currency: "CRC", exchangeRate: "1" }, "512.40").exchangeRate).toBe("1");
    expect(invoiceDraftOf({ ...qt, internationalClient: { name: "X", cedula: "1" } }, null)).not.toHaveProperty("internationalClient");
  });

  it("back paths stay on this site", () => {
    expect(backPath("/client-detail/4?tab=quotations", "/quotations")).toBe("/client-detail/4?tab=quotations");
    for (const bad of ["//evil.example/x", "https://evil.example", "/\\evil", "", null, "/a b"]) expect(backPath(bad, "/quotations")).toBe("/quotations");
  });

  it("conversion failures list each reason once and say what to do", () => {
    expect(convertFailedMessage([{ field: "a", message: "Falta el CABYS." }, { field: "b", message: "Falta el CABYS." }])).toBe("No se pudo convertir a factura: Falta el CABYS. Edite la cotización y vuelva a intentarlo.");
  });

  it("notify e-mails: split, de-duplicated, malformed ones reported as 'invalido'", () => {
    expect(parseEmailList("a@x.cr, b@x.cr;a@x.cr  malo@")).toEqual({ emails: ["a@x.cr", "b@x.cr"], bad: ["malo@"] });
    const form = readDocumentForm({ client_id: "1", emails: "a@x.cr malo", "lines[0].description": "X", "lines[0].quantity": "1", "lines[0].price": "1", "lines[0].taxTypeId": "1" });
    const { draft, errors } = toDraft("qt", form, [{ id: 1, name: "IVA 13%", rate: "13", taxCode: "01", vatCode: "08" }]);
    expect(errors).toContainEqual({ field: "emails", message: "malo: invalido" });
    expect(draft.emails).toEqual(["a@x.cr"]);
  });
});
