import { describe, expect, it } from "vitest";
import { checkCabysRow, parseCabysRate, priceSchema, searchWords, taxSchema, taxTypeForRate } from "./item-schemas.ts";

const list = [
  { id: 1, name: "IVA 13%", rate: "13", vatCode: "08" },
  { id: 4, name: "IVA 1%", rate: "1", vatCode: "02" },
  { id: 6, name: "Exento", rate: "0", vatCode: "10" },
  { id: 7, name: "No sujeto", rate: "0", vatCode: "11" },
];

describe("CABYS rate → tax type", () => {
  it("matches the rate, Exento when 0, none when absent", () => {
    expect(taxTypeForRate(list, "13.0000")?.id).toBe(1);
    expect(taxTypeForRate(list, 1)?.id).toBe(4);
    expect(taxTypeForRate(list, "0")?.id).toBe(6);
    expect(taxTypeForRate([list[3], list[2]], "0")?.id).toBe(6);
    expect(taxTypeForRate(list, "4")).toBeUndefined();
    expect(taxTypeForRate(list, null)).toBeUndefined();
  });
});

describe("price", () => {
  it("at most 2 decimals, not negative, comma accepted", () => {
    expect(priceSchema.parse("1500,5")).toBe("1500.5");
    expect(priceSchema.parse("007.25")).toBe("7.25");
    expect(priceSchema.parse("1.999")).toBe("1999");
    expect(priceSchema.parse("1.500,50")).toBe("1500.50");
    expect(priceSchema.safeParse("1,999").success).toBe(false);
    expect(priceSchema.safeParse("-1").success).toBe(false);
  });
});

describe("CABYS cells", () => {
  it("rates", () => {
    expect(parseCabysRate("13%")).toBe("13");
    expect(parseCabysRate(" 0,5 % ")).toBe("0.5");
    expect(parseCabysRate(4)).toBe("4");
    expect(parseCabysRate("Exento")).toBe("0");
    expect(parseCabysRate("trece")).toBeNull();
    expect(parseCabysRate("130%")).toBeNull();
  });
  it("rows name their number", () => {
    expect(checkCabysRow(7, { code: "123", description: "x", tax: "13%", categories: [] })).toEqual({ ok: false, error: "Fila 7: el código CABYS debe tener 13 dígitos" });
    expect(checkCabysRow(8, { code: 2110000000013, description: { richText: [{ text: "Café " }, { text: "tostado" }] }, tax: "13%", categories: ["Bienes", null, "Café"] })).toEqual({
      ok: true,
      row: { code: "2110000000013", description: "Café tostado", taxRate: "13", categories: "Bienes > Café" },
    });
  });
  it("search words fold accents and drop symbols", () => {
    expect(searchWords("Café  TOSTADO, niño's")).toEqual(["cafe", "tostado", "nino", "s"]);
  });
});

describe("tax form", () => {
  it("everything invalid says 'invalido'", () => {
    const r = taxSchema(["08"]).safeParse({ name: "", rate: "x", vat_code: "01" });
    expect(r.success).toBe(false);
    expect(new Set(r.error!.issues.map((i) => i.message))).toEqual(new Set(["invalido"]));
    expect(taxSchema(["08"]).parse({ name: " IVA ", rate: "13%", vat_code: "08" })).toEqual({ name: "IVA", rate: "13", vat_code: "08" });
  });
});
