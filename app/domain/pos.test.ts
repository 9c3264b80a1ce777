import { describe, expect, it } from "vitest";
import { blankLine, blankPayment, type DocumentFormValues, type FormItem } from "./document-form.ts";
import { addItemLine, posExactItem, posSearch } from "./pos.ts";

const item = (id: number, code: string, name: string, cabys = "8313100000000"): FormItem => ({ id, code, cabysCode: cabys, name, description: "", unitCode: "Unid", taxTypeId: 11, price: "1500.00000" });
const items = [item(1, "7441001234567", "Café molido Tarrazú"), item(2, "CAF-2", "Café en grano"), item(3, "PAN-1", "Pan casero", "2391100000100"), item(4, "7441001234", "Azúcar")];
const form = (lines = [blankLine("11")]): DocumentFormValues => ({ clientId: "", saleCondition: "01", saleConditionOther: "", creditDays: "", payments: [blankPayment()], currency: "CRC", exchangeRate: "", note: "", international: false, remindPayment: false, termId: "", contingencyNumber: "", contingencyDate: "", internationalName: "", internationalCedula: "", emails: "", lines });

describe("point-of-sale search", () => {
  it("an exact code first, then every word anywhere (accents folded); nothing for an empty query", () => {
    expect(posSearch(items, "cafe").map((i) => i.id)).toEqual([1, 2]);
    expect(posSearch(items, "CAF-2").map((i) => i.id)[0]).toBe(2);
    expect(posSearch(items, "cafe tarrazu").map((i) => i.id)).toEqual([1]);
    expect(posSearch(items, "2391100000100").map((i) => i.id)).toEqual([3]);
    expect(posSearch(items, "  ")).toEqual([]);
  });

  it("a scanned code names one item only by its whole code", () => {
    expect(posExactItem(items, "7441001234567")?.id).toBe(1);
    expect(posExactItem(items, "744100123")).toBeNull();
    expect(posExactItem(items, "caf-2")?.id).toBe(2);
  });

  it("adding fills the blank row, then a new row, and the same item again raises its quantity", () => {
    let f = addItemLine(form(), items[0]);
    expect(f.lines).toHaveLength(1);
    expect(f.lines[0]).toMatchObject({ itemId: "1", picked: "1", code: "7441001234567", description: "Café molido Tarrazú", price: "1.500,00", quantity: "1", taxTypeId: "11" });
    f = addItemLine(f, items[2]);
    expect(f.lines.map((l) => l.itemId)).toEqual(["1", "3"]);
    f = addItemLine(f, items[0]);
    expect(f.lines.map((l) => l.quantity)).toEqual(["2", "1"]);
  });
});
