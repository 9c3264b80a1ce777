import { describe, expect, it } from "vitest";
import { dec, money } from "./decimal.ts";
import { computeLine, computeTotals, fillPayments, lineKind, TotalsError } from "./totals.ts";

const iva = (tarifaCode: "01" | "04" | "08" | "10" | "11" | "02", extra = {}) => ({ code: "01" as const, tarifaCode, ...extra });

describe("computeLine", () => {
  it("quantity × price, percent discount, 13 % IVA", () => {
    const l = computeLine({ quantity: "2", unitPrice: "1000", unit: "Unid", discounts: [{ code: "07", percent: "10" }], taxes: [iva("08")] });
    expect(l).toMatchObject({
      kind: "goods",
      montoTotal: "2000.00000",
      discounts: [{ code: "07", amount: "200.00000" }],
      subTotal: "1800.00000",
      baseImponible: "1800.00000",
      impuestoNeto: "234.00000",
      montoTotalLinea: "2034.00000",
    });
    expect(l.taxes[0]).toEqual({ code: "01", tarifaCode: "08", rate: "13.00", monto: "234.00000" });
    expect(l.split).toEqual({ gravado: "2000.00000", exento: "0.00000", exonerado: "0.00000", noSujeto: "0.00000" });
  });

  it("rounds half-up at the 5th decimal (not half-even)", () => {
    // 1.0005 × 1 % = 0.010005 → 0.01001 (half-even would give 0.01000)
    expect(computeLine({ quantity: "1", unitPrice: "1.0005", unit: "Unid", taxes: [iva("02")] }).taxes[0].monto).toBe("0.01001");
    // 1.00005 × 1 % = 0.0100005: the 6th decimal is 0, so it stays 0.01000
    expect(computeLine({ quantity: "1", unitPrice: "1.00005", unit: "Unid", taxes: [iva("02")] }).taxes[0].monto).toBe("0.01000");
    // 1.5 × 0.000005 = 0.0000075 → 0.00001
    expect(computeLine({ quantity: "1.5", unitPrice: "0.000005", unit: "Unid", taxes: [iva("10")] }).montoTotal).toBe("0.00001");
    // 0.33333 × 13 % = 0.0433329 → 0.04333
    expect(computeLine({ quantity: "1", unitPrice: "0.33333", unit: "Unid", taxes: [iva("08")] }).taxes[0].monto).toBe("0.04333");
  });

  it("full and partial exoneration by TarifaExonerada", () => {
    const full = computeLine({ quantity: "1", unitPrice: "10000", unit: "Unid", taxes: [iva("08", { exoneration: { tarifaExonerada: "13" } })] });
    expect(full.taxes[0]).toEqual({ code: "01", tarifaCode: "08", rate: "13.00", monto: "1300.00000", exoneration: { tarifaExonerada: "13.00", monto: "1300.00000" } });
    expect(full.impuestoNeto).toBe("0.00000");
    expect(full.montoTotalLinea).toBe("10000.00000");
    expect(full.split.exonerado).toBe("10000.00000");
    expect(full.split.gravado).toBe("0.00000");

    const half = computeLine({ quantity: "1", unitPrice: "10000", unit: "Sp", taxes: [iva("08", { exoneration: { tarifaExonerada: "6.5" } })] });
    expect(half.taxes[0].exoneration!.monto).toBe("650.00000");
    expect(half.impuestoNeto).toBe("650.00000");
    expect(half.split).toMatchObject({ gravado: "5000.00000", exonerado: "5000.00000" });
  });

  it("rejects an exoneration above the rate and discounts above the amount", () => {
    expect(() => computeLine({ quantity: "1", unitPrice: "100", unit: "Unid", taxes: [iva("04", { exoneration: { tarifaExonerada: "13" } })] })).toThrow(/no puede superar la tarifa/);
    expect(() => computeLine({ quantity: "1", unitPrice: "100", unit: "Unid", discounts: [{ code: "07", amount: "100.00001" }], taxes: [iva("08")] })).toThrow(TotalsError);
  });

  it("selective consumption tax (02) enters the IVA base", () => {
    const l = computeLine({ quantity: "1", unitPrice: "1000", unit: "Unid", taxes: [{ code: "02", rate: "10" }, iva("08")] });
    expect(l.baseImponible).toBe("1100.00000");
    expect(l.taxes.map((t) => t.monto)).toEqual(["100.00000", "143.00000"]);
    expect(l.impuestoNeto).toBe("243.00000");
  });

  it("refuses JS numbers", () => {
    expect(() => computeLine({ quantity: 1 as unknown as string, unitPrice: "1", unit: "Unid", taxes: [iva("08")] })).toThrow(/Cantidad/);
  });

  it("classifies by unit", () => {
    for (const u of ["Sp", "Spe", "St", "Al", "Alc", "Cm", "I", "Os"]) expect(lineKind({ unit: u })).toBe("service");
    for (const u of ["Unid", "Kg", "cm", "L"]) expect(lineKind({ unit: u })).toBe("goods");
    expect(lineKind({ unit: "h", kind: "service" })).toBe("service");
  });
});

describe("computeTotals", () => {
  it("mixed invoice: goods and services, several rates, discount, exoneration, exento, no sujeto", () => {
    const t = computeTotals([
      { quantity: "2", unitPrice: "1000", unit: "Unid", discounts: [{ code: "07", percent: "10" }], taxes: [iva("08")] }, // 2000, -200, tax 234
      { quantity: "1", unitPrice: "50000", unit: "Sp", taxes: [iva("04")] }, // tax 2000
      { quantity: "1", unitPrice: "10000", unit: "Unid", taxes: [iva("08", { exoneration: { tarifaExonerada: "6.5" } })] }, // tax 1300, exo 650
      { quantity: "3", unitPrice: "500", unit: "Unid", taxes: [iva("10")] }, // exento 1500
      { quantity: "1", unitPrice: "700", unit: "Os", taxes: [iva("11")] }, // no sujeto 700
    ]);
    const r = t.resumen;
    expect(r.totalServGravados).toBe("50000.00000");
    expect(r.totalServNoSujeto).toBe("700.00000");
    expect(r.totalMercanciasGravadas).toBe("7000.00000"); // 2000 + 5000
    expect(r.totalMercExonerada).toBe("5000.00000");
    expect(r.totalMercanciasExentas).toBe("1500.00000");
    expect(r.totalGravado).toBe("57000.00000");
    expect(r.totalExento).toBe("1500.00000");
    expect(r.totalExonerado).toBe("5000.00000");
    expect(r.totalNoSujeto).toBe("700.00000");
    expect(r.totalVenta).toBe("64200.00000");
    expect(r.totalDescuentos).toBe("200.00000");
    expect(r.totalVentaNeta).toBe("64000.00000");
    expect(r.totalDesgloseImpuesto).toEqual([
      { code: "01", tarifaCode: "08", total: "884.00000" }, // 234 + 1300 − 650
      { code: "01", tarifaCode: "04", total: "2000.00000" },
      { code: "01", tarifaCode: "10", total: "0.00000" },
      { code: "01", tarifaCode: "11", total: "0.00000" },
    ]);
    expect(r.totalImpuesto).toBe("2884.00000");
    expect(r.totalIVADevuelto).toBe("0.00000");
    expect(r.totalComprobante).toBe("66884.00000");
  });

  it("IVA devuelto: health service at 4 % paid by card", () => {
    const lines = [
      { quantity: "1", unitPrice: "50000", unit: "Sp", taxes: [iva("04")], healthService: true },
      { quantity: "1", unitPrice: "1000", unit: "Unid", taxes: [iva("08")] },
    ];
    const card = computeTotals(lines, [], { paidByCard: true }).resumen;
    expect(card.totalImpuesto).toBe("2130.00000");
    expect(card.totalIVADevuelto).toBe("2000.00000");
    expect(card.totalComprobante).toBe("51130.00000");
    const cash = computeTotals(lines, [], { paidByCard: false }).resumen;
    expect(cash.totalIVADevuelto).toBe("0.00000");
    expect(cash.totalComprobante).toBe("53130.00000");
  });

  it("otros cargos: 10 % service charge on the net sale plus a fixed charge", () => {
    const t = computeTotals([{ quantity: "4", unitPrice: "2500", unit: "Unid", taxes: [iva("08")] }], [{ code: "06", percent: "10" }, { code: "02", amount: "125.5" }]);
    expect(t.otherCharges).toEqual([
      { code: "06", percent: "10.00000", amount: "1000.00000" },
      { code: "02", percent: undefined, amount: "125.50000" },
    ]);
    expect(t.resumen.totalOtrosCargos).toBe("1125.50000");
    expect(t.resumen.totalComprobante).toBe("12425.50000"); // 10000 + 1300 + 1125.5
  });

  it("dollar invoice with cents and a fixed discount", () => {
    const t = computeTotals([{ quantity: "3", unitPrice: "19.99", unit: "Unid", discounts: [{ code: "06", amount: "0.97" }], taxes: [iva("08")] }]);
    expect(t.lines[0].montoTotal).toBe("59.97000");
    expect(t.lines[0].subTotal).toBe("59.00000");
    expect(t.lines[0].taxes[0].monto).toBe("7.67000");
    expect(t.resumen.totalComprobante).toBe("66.67000");
  });

  it("sums of many rounded lines stay exact", () => {
    const lines = Array.from({ length: 7 }, () => ({ quantity: "1", unitPrice: "0.33333", unit: "Unid", taxes: [iva("08")] }));
    const r = computeTotals(lines).resumen;
    expect(r.totalVenta).toBe("2.33331");
    expect(r.totalImpuesto).toBe("0.30331"); // 7 × 0.04333
    expect(dec(r.totalComprobante).eq(dec(r.totalVentaNeta).plus(r.totalImpuesto))).toBe(true);
  });
});

describe("fillPayments", () => {
  it("fills a single method with the total", () => {
    expect(fillPayments("1130", [{ code: "01" }])).toEqual([{ code: "01", amount: "1130.00000" }]);
  });
  it("checks that several methods add up", () => {
    expect(fillPayments("1130", [{ code: "01", amount: "130" }, { code: "02", amount: "1000" }]).map((p) => p.amount)).toEqual(["130.00000", "1000.00000"]);
    expect(() => fillPayments("1130", [{ code: "01", amount: "130" }, { code: "02", amount: "999.99" }])).toThrow(/deben sumar/);
    expect(() => fillPayments("1130", [{ code: "01" }, { code: "02", amount: "1" }])).toThrow(/monto/);
    expect(() => fillPayments("5", Array.from({ length: 5 }, () => ({ code: "01", amount: "1" })))).toThrow(/4 medios/);
  });
  it("money() formats 5 decimals half-up", () => {
    expect(money("2.000005")).toBe("2.00001");
    expect(money("-2.000005")).toBe("-2.00001");
  });
});

describe("goods and services by CABYS (issue 11 point 2, A44 pp.50–52)", () => {
  it("a CABYS starting with 5–9 is a service, 0–4 a good, whatever the unit; without one, the unit decides", () => {
    expect(lineKind({ unit: "Unid", cabys: "8313100000000" })).toBe("service");
    expect(lineKind({ unit: "Unid", cabys: "5000000000000" })).toBe("service");
    expect(lineKind({ unit: "Sp", cabys: "4523000000100" })).toBe("goods");
    expect(lineKind({ unit: "Sp", cabys: "0113100000100" })).toBe("goods");
    expect(lineKind({ unit: "Sp" })).toBe("service");
    expect(lineKind({ unit: "Sp", cabys: "83131" })).toBe("service"); // not a CABYS code: the unit
    const t = computeTotals([
      { quantity: "1", unitPrice: "1000", unit: "Unid", cabys: "8313100000000", taxes: [iva("08")] },
      { quantity: "1", unitPrice: "500", unit: "Sp", cabys: "4523000000100", taxes: [iva("08")] },
    ]).resumen;
    expect([t.totalServGravados, t.totalMercanciasGravadas]).toEqual(["1000.00000", "500.00000"]);
  });

  it("tarifa 01 counts as no sujeto (A44 p.51); with noSujetoTotals false (FEE) as exento", () => {
    const lines = [{ quantity: "1", unitPrice: "1000", unit: "Unid", taxes: [iva("02", { tarifaCode: "01" })] }];
    expect(computeTotals(lines).resumen).toMatchObject({ totalMercNoSujeta: "1000.00000", totalNoSujeto: "1000.00000", totalExento: "0.00000" });
    expect(computeTotals(lines, [], { noSujetoTotals: false }).resumen).toMatchObject({ totalMercanciasExentas: "1000.00000", totalNoSujeto: "0.00000" });
  });
});
