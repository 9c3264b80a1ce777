import { describe, expect, it } from "vitest";
import { formValuesFromDraft, noteReference, noteReferenceDocType, purchaseReference, referenceDay, replacementReference, sourceRequestOf } from "./document-source.ts";
import type { DocumentDraft } from "./document-draft.ts";
import type { FormItem, FormTaxType } from "./document-form.ts";

const u = (path: string) => new URL(`http://x${path}`);

describe("sourceRequestOf", () => {
  it("notes: nc/nd from invoice, ticket or simple; anything else is invalid", () => {
    expect(sourceRequestOf(u("/new-note/nc/invoice/7"), { note_type: "nc", document_type: "invoice", document_id: "7" })).toEqual({ mode: "note", kind: "nc", sourceKind: "fe", documentId: 7 });
    expect(sourceRequestOf(u("/new-note/nd/simple/7.data"), { note_type: "nd", document_type: "simple", document_id: "7" })).toEqual({ mode: "note", kind: "nd", sourceKind: "fec", documentId: 7 });
    for (const [t, d, id] of [
      ["fe", "invoice", "7"],
      ["nc", "quotation", "7"],
      ["nc", "note", "7"],
      ["nc", "recurring", "7"],
      ["nc", "invoice", "0"],
      ["nc", "invoice", "7x"],
    ])
      expect(sourceRequestOf(u(`/new-note/${t}/${d}/${id}`), { note_type: t, document_type: d, document_id: id })).toBe("invalid");
  });
  it("clones: invoice, ticket, quotation, simple; ?replace=1; /new-simple with or without ?id (also as .data)", () => {
    expect(sourceRequestOf(u("/new-clone/quotation/3"), { document_type: "quotation", document_id: "3" })).toEqual({ mode: "clone", kind: "qt", documentId: 3, replace: false });
    expect(sourceRequestOf(u("/new-clone/invoice/3?replace=1"), { document_type: "invoice", document_id: "3" })).toEqual({ mode: "clone", kind: "fe", documentId: 3, replace: true });
    expect(sourceRequestOf(u("/new-clone/note/3"), { document_type: "note", document_id: "3" })).toBe("invalid");
    expect(sourceRequestOf(u("/new-simple?id=12"), {})).toEqual({ mode: "simple", providerId: "12" });
    expect(sourceRequestOf(u("/new-simple.data?id=x"), {})).toEqual({ mode: "simple", providerId: null });
    expect(sourceRequestOf(u("/new-invoice"), {})).toBeNull();
  });
});

describe("references", () => {
  const src = { id: 4, kind: "fe", clave: "5".repeat(50), issuedAt: new Date("2026-11-02T18:30:00Z") };
  it("notes: TipoDocIR 01 invoice, 04 ticket, 17/18 purchase invoice; code 01; the stored clave and date", () => {
    expect([noteReferenceDocType("nc", "fe"), noteReferenceDocType("nd", "te"), noteReferenceDocType("nc", "fec"), noteReferenceDocType("nd", "fec"), noteReferenceDocType("nc", "qt")]).toEqual(["01", "04", "17", "18", null]);
    expect(noteReference("nc", src, "  Devolución  ")).toEqual({ documentId: 4, docType: "01", number: src.clave, issuedAt: "2026-11-02T18:30:00.000Z", code: "01", reason: "Devolución" });
  });
  it("replacement: TipoDocIR 10, code 16", () => {
    expect(replacementReference(src)).toMatchObject({ documentId: 4, docType: "10", code: "16", number: src.clave, reason: "Sustituye comprobante electrónico rechazado" });
  });
  it("purchase invoice: all fields, a listed type and code, a real date not after today", () => {
    const ok = { docType: "14", number: "R-1", date: "2026-11-02", code: "04", reason: "Compra" };
    expect(purchaseReference(ok, "2026-11-02")).toEqual({ reference: { docType: "14", number: "R-1", issuedAt: "2026-11-02T18:00:00.000Z", code: "04", reason: "Compra" }, errors: [] });
    expect(purchaseReference({ ...ok, reason: "" }, "2026-11-02").errors).toEqual([{ field: "references.0", message: "Complete todos los campos de la referencia." }]);
    expect(purchaseReference({ ...ok, date: "2026-11-03" }, "2026-11-02").errors[0].field).toBe("references.0.date");
    expect(purchaseReference({ ...ok, date: "2026-02-30" }, "2026-11-02").errors[0].field).toBe("references.0.date");
    expect(purchaseReference({ ...ok, docType: "01" }, "2026-11-02").errors[0].field).toBe("references.0.docType");
    expect(purchaseReference({ ...ok, code: "16" }, "2026-11-02").errors[0].field).toBe("references.0.code");
    expect(referenceDay("2026-11-02T18:00:00.000Z")).toBe("2026-11-02");
    expect(referenceDay("2026-11-03T03:00:00.000Z")).toBe("2026-11-02");
  });
});

describe("formValuesFromDraft", () => {
  const taxes: FormTaxType[] = [
    { id: 10, name: "IVA 13%", rate: "13", taxCode: "01", vatCode: "08" },
    { id: 11, name: "IVA 4%", rate: "4", taxCode: "01", vatCode: "04" },
    { id: 12, name: "Selectivo 10%", rate: "10", taxCode: "02", vatCode: "" },
  ];
  const items: FormItem[] = [{ id: 5, code: "LAP", cabysCode: "4523000000100", name: "Portátil", description: "Portátil", unitCode: "Unid", taxTypeId: 10, price: "1" }];
  const draft: DocumentDraft = {
    kind: "fe",
    clientId: 9,
    saleCondition: "02",
    creditDays: 30,
    payments: [{ code: "02", amount: "100" }, { code: "04", amount: "13" }],
    currency: "USD",
    exchangeRate: "505.5",
    note: "Entrega",
    lines: [
      { itemId: 5, code: "LAP", cabys: "4523000000100", description: "Portátil", quantity: "1", unit: "Unid", unitPrice: "100", tax: { code: "01", tarifaCode: "08" } },
      { itemId: 77, code: "OLD", cabys: "8313100000000", description: "Artículo borrado", quantity: "2", unit: "Sp", unitPrice: "5", discountPercent: "10", tax: { code: "02", rate: "10" } },
      { description: "Sin impuesto conocido", quantity: "1", unit: "Unid", unitPrice: "1", tax: { code: "01", tarifaCode: "02" } },
    ],
  };
  it("lines keep existing items (deleted ones become free lines), taxes by code; payments, credit, currency", () => {
    const f = formValuesFromDraft(draft, taxes, items, { keepNote: true, keepRate: false });
    expect(f).toMatchObject({ clientId: "9", saleCondition: "02", creditDays: "30", currency: "USD", exchangeRate: "", note: "Entrega", payments: [{ code: "02", amount: "100,00" }, { code: "04", amount: "13,00" }] });
    expect(f.lines.map((l) => [l.itemId, l.picked, l.code, l.quantity, l.price, l.discount, l.taxTypeId])).toEqual([
      ["5", "5", "LAP", "1", "100,00", "0", "10"],
      ["", "", "OLD", "2", "5,00", "10", "12"],
      ["", "", "", "1", "1,00", "0", ""],
    ]);
    const n = formValuesFromDraft(draft, taxes, items, { keepNote: false, keepRate: true });
    expect(n.note).toBe("");
    expect(n.exchangeRate).toBe("505,5");
  });
});
