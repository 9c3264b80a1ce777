// The REP a payment issues (issue 11 point 9; docs/decisions/135): which payments need one and how a
// payment is shared among the invoice's IVA rates.
import { describe, expect, it } from "vitest";
import { Decimal } from "./decimal.ts";
import { draftLineInputs, draftTotals, type DocumentDraft } from "./document-draft.ts";
import { baseOfGross, repLines, repSaleCondition } from "./rep.ts";

const invoice = (lines: DocumentDraft["lines"]): DocumentDraft => ({ kind: "fe", clientId: 1, saleCondition: "10", payments: [], currency: "CRC", exchangeRate: "1", lines });
const of = (d: DocumentDraft) => ({ lines: draftLineInputs(d), totals: draftTotals(d) });
const gross = (base: string, rate: string) => new Decimal(base).plus(new Decimal(base).times(rate).div(100).toDecimalPlaces(5, Decimal.ROUND_HALF_UP));

describe("which payments issue a REP (A44 p.69, nota 5 footnotes 19 and 21)", () => {
  it("an FE sold with 08 is paid with CondicionVenta 09, with 10 with 11; nothing else", () => {
    expect(repSaleCondition("fe", "08")).toBe("09");
    expect(repSaleCondition("fe", "10")).toBe("11");
    for (const sc of ["01", "02", "03", "99"]) expect(repSaleCondition("fe", sc)).toBeNull();
    expect(repSaleCondition("te", "10")).toBeNull();
    expect(repSaleCondition("fec", "08")).toBeNull();
  });
});

describe("baseOfGross: the base whose base + IVA (half-up at 5 decimals) is the payment", () => {
  it("is exact when such a base exists, and never exceeds the payment", () => {
    expect(baseOfGross("1130", "13")).toBe("1000.00000");
    expect(gross(baseOfGross("565", "13"), "13").toFixed(5)).toBe("565.00000");
    let exact = 0;
    for (let cents = 1; cents <= 20000; cents += 7) {
      const g = new Decimal(cents).div(100);
      const b = baseOfGross(g.toFixed(5), "13");
      const t = gross(b, "13");
      expect(t.lte(g)).toBe(true);
      expect(g.minus(t).lte("0.00001")).toBe(true);
      if (t.eq(g)) exact++;
    }
    expect(exact).toBeGreaterThan(2500); // most payments split exactly (≈ 87 % at 13 %)
    expect(baseOfGross("100", "0")).toBe("100.00000");
  });
});

describe("repLines", () => {
  it("one line per IVA rate, in proportion to what each rate adds up to", () => {
    const d = invoice([
      { cabys: "8313100000000", description: "Consultoría", quantity: "1", unit: "Sp", unitPrice: "100000", tax: { tarifaCode: "08" } }, // 113 000
      { cabys: "8313100000000", description: "Soporte", quantity: "1", unit: "Sp", unitPrice: "50000", tax: { tarifaCode: "04" } }, // 52 000
    ]);
    // Half of 165 000: 56 500 at 13 % (base 50 000) and 26 000 at 4 % (base 25 000).
    expect(repLines(of(d), "82500", "Pago 1 de la factura 00100001010000000001")).toEqual([
      { description: "Pago 1 de la factura 00100001010000000001 (IVA 4 %)", amount: "25000.00000", tarifaCode: "04" },
      { description: "Pago 1 de la factura 00100001010000000001 (IVA 13 %)", amount: "50000.00000", tarifaCode: "08" },
    ]);
    expect(repLines(of(invoice([d.lines[0]])), "1130", "Pago 1")).toEqual([{ description: "Pago 1", amount: "1000.00000", tarifaCode: "08" }]);
  });

  it("none for an invoice with an exoneration or a tax other than IVA (Colibrí does not share those)", () => {
    const exo = invoice([
      {
        cabys: "4523000000100",
        description: "Equipo exonerado",
        quantity: "1",
        unit: "Unid",
        unitPrice: "1000",
        tax: { tarifaCode: "08" },
        exoneration: { docType: "03", number: "AL-1", institution: "01", issuedAt: "2026-01-01", percentage: "13" },
      },
    ]);
    expect(repLines(of(exo), "1000", "Pago 1")).toBeNull();
    const selective = invoice([{ cabys: "2211000000000", description: "Bebida", quantity: "1", unit: "Unid", unitPrice: "1000", tax: { code: "02", rate: "10" } }]);
    expect(repLines(of(selective), "1100", "Pago 1")).toBeNull();
  });
});
