import { describe, expect, it } from "vitest";
import { packChoices, unpackChoices } from "./choices.ts";

describe("packed choices (the countries in a page's data)", () => {
  it("round-trips ids in and out of order, names with digits, separators and the empty list", () => {
    const rows = [
      { id: 1, name: "Afganistán" },
      { id: 2, name: "Albania" },
      { id: 8, name: "Antigua y Barbuda" },
      { id: 7, name: "Antártida" },
      { id: 9, name: "Arabia Saudí" },
      { id: 60, name: "Costa Rica" },
      { id: 61, name: "1 de prueba~con|raro" },
    ];
    const packed = packChoices(rows);
    expect(packed).toBe("Afganistán|Albania|8~Antigua y Barbuda|7~Antártida|9~Arabia Saudí|60~Costa Rica|1 de prueba con raro");
    expect(unpackChoices(packed)).toEqual(rows.map((r) => (r.id === 61 ? { id: 61, name: "1 de prueba con raro" } : r)));
    expect(unpackChoices(packChoices([]))).toEqual([]);
    expect(unpackChoices(packChoices([{ id: 5, name: "Solo" }]))).toEqual([{ id: 5, name: "Solo" }]);
  });
});
