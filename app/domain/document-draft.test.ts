import { describe, expect, it } from "vitest";
import { buyerOf, checkDraft, DRAFT_MESSAGES, draftToComprobante, draftTotals, fieldOfPath, partyOf, type DocumentDraft, type PartySnapshot } from "./document-draft.ts";
import { documentTotals } from "../hacienda/build.ts";

const issuer: PartySnapshot = { name: "Soluciones Colibrí S.A.", idType: "02", idNumber: "3101123456", email: "f@colibri.cr", phone: "22905555", province: 1, canton: 1, district: 8, address: "Del ICE 200 metros norte", activityCode: "6201.0" };
const client: PartySnapshot = { name: "La Sabana Ltda", idType: "02", idNumber: "3102654321", email: "c@sabana.cr", province: 4, canton: 1, district: 1, address: "Costado sur del parque", activityCode: "4649.0" };
const ctx = { issuer, client, clave: "5".repeat(50), consecutivo: "00100001010000000001", issuedAt: new Date("2026-11-21T15:30:00Z"), providerId: "3101123456" };

const draft = (over: Partial<DocumentDraft> = {}): DocumentDraft => ({
  kind: "fe",
  clientId: 1,
  saleCondition: "01",
  payments: [{ code: "01" }],
  currency: "CRC",
  exchangeRate: "1",
  lines: [{ cabys: "4523000000100", description: "Computadora", quantity: "2", unit: "Unid", unitPrice: "1000", discountPercent: "10", tax: { tarifaCode: "08" } }],
  ...over,
});

describe("checkDraft (part 2 §5)", () => {
  it("accepts a complete draft", () => expect(checkDraft(draft())).toEqual([]));
  it("at least one item, ranges, note and reference for notes, credit days, exchange rate", () => {
    expect(checkDraft(draft({ lines: [] }))).toContainEqual({ field: "lines", message: DRAFT_MESSAGES.noItems });
    const l = draft().lines[0];
    expect(checkDraft(draft({ lines: [{ ...l, quantity: "0.05", discountPercent: "101", unitPrice: "-1" }] })).map((e) => e.field)).toEqual([
      "lines.0.quantity",
      "lines.0.unitPrice",
      "lines.0.discountPercent",
    ]);
    // Price: minimum 0.1, maximum 1e12 (part 2 §5, §9).
    for (const [price, ok] of [["0", false], ["0.09", false], ["0.1", true], ["1000000000000", true], ["1000000000001", false]] as const)
      expect(checkDraft(draft({ lines: [{ ...l, unitPrice: price }] })).some((e) => e.field === "lines.0.unitPrice"), price).toBe(!ok);
    expect(checkDraft(draft({ kind: "nc" })).map((e) => e.field)).toEqual(["note", "references"]);
    expect(checkDraft(draft({ saleCondition: "02" }))).toContainEqual({ field: "creditDays", message: DRAFT_MESSAGES.creditDays });
    expect(checkDraft(draft({ currency: "USD", exchangeRate: "0" }))).toContainEqual({ field: "exchangeRate", message: DRAFT_MESSAGES.exchangeRate });
    expect(checkDraft(draft({ lines: [{ ...l, tax: { tarifaCode: "10" }, exoneration: { docType: "03", number: "X", institution: "01", issuedAt: "2026-01-01", percentage: "5" } }] }))).toContainEqual({
      field: "lines.0.exoneration",
      message: DRAFT_MESSAGES.exonerationRate,
    });
  });
});

describe("draftToComprobante", () => {
  it("maps an FE: parties, discount, IVA, payments, currency", () => {
    const doc = draftToComprobante(draft({ currency: "USD", exchangeRate: "505.12", note: "OC-118" }), ctx);
    expect(doc).toMatchObject({ kind: "fe", activityCode: "6201.0", receiverActivityCode: "4649.0", currency: { code: "USD", rate: "505.12" }, others: [{ text: "OC-118" }] });
    expect(doc.issuer.location).toEqual({ province: "1", canton: "01", district: "08", otherSigns: "Del ICE 200 metros norte" });
    expect(doc.lines[0]).toMatchObject({ discounts: [{ code: "07", percent: "10" }], taxes: [{ code: "01", tarifaCode: "08" }] });
  });
  it("the builder's totals equal the form's totals (one function)", () => {
    const d = draft();
    expect(documentTotals(draftToComprobante(d, ctx))).toEqual(draftTotals(d));
  });
  it("FEC: the provider issues, the company receives; TE to the generic client has no receiver", () => {
    const fec = draftToComprobante(draft({ kind: "fec" }), ctx);
    expect(fec.issuer.id.number).toBe("3102654321");
    expect(fec.receiver?.id.number).toBe("3101123456");
    expect(fec.receiverActivityCode).toBe("6201.0");
    const te = draftToComprobante(draft({ kind: "te" }), { ...ctx, client: { ...client, generic: true } });
    expect(te.receiver).toBeUndefined();
  });
  it("TE to an international client: receiver tipo 05; name and id required", () => {
    const te = draftToComprobante(draft({ kind: "te", internationalClient: { name: "John Smith", cedula: "P123456789" } }), { ...ctx, client: { ...client, generic: true } });
    expect(te.receiver).toEqual({ name: "John Smith", id: { type: "05", number: "P123456789" }, emails: [] });
    expect(checkDraft(draft({ kind: "te", internationalClient: { name: "", cedula: "" } }))).toContainEqual({ field: "internationalClient", message: DRAFT_MESSAGES.internationalClient });
  });
  it("the buyer stored and printed: a ticket's international client instead of the generic client; anything else its client", () => {
    const generic = { ...client, name: "Cliente genérico", generic: true };
    const intl = draft({ kind: "te", internationalClient: { name: " John Smith ", cedula: " P123456789 " } });
    expect(buyerOf(intl, generic)).toEqual({ name: "John Smith", idType: "05", idNumber: "P123456789" });
    expect(buyerOf(intl, null)).toEqual({ name: "John Smith", idType: "05", idNumber: "P123456789" });
    expect(buyerOf(draft({ kind: "te" }), generic)).toBe(generic);
    expect(buyerOf(draft({ internationalClient: { name: "John Smith", cedula: "P1" } }), client)).toBe(client);
    // The stored buyer maps to the same receiver the XML carries.
    expect(partyOf(buyerOf(intl, generic)!)).toEqual(draftToComprobante(intl, { ...ctx, client: generic }).receiver);
  });
  it("foreign party: OtrasSenasExtranjero", () => {
    expect(partyOf({ ...client, countryId: 12, address: "1200 Harbor Blvd, Long Beach" }).foreignAddress).toBe("1200 Harbor Blvd, Long Beach");
  });
});

describe("fieldOfPath", () => {
  it("maps Hacienda paths to form fields", () => {
    expect(fieldOfPath("LineaDetalle 2/CodigoCABYS")).toBe("lines.1.cabys");
    expect(fieldOfPath("Receptor/Identificacion/Numero")).toBe("clientId");
    expect(fieldOfPath("InformacionReferencia[1]/Codigo")).toBe("references");
    expect(fieldOfPath("ResumenFactura/MedioPago")).toBe("payments");
    expect(fieldOfPath("CondicionVentaOtros")).toBe("saleConditionOther");
    expect(fieldOfPath("CondicionVenta")).toBe("saleCondition");
  });
});
