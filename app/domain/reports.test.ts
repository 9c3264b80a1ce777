import { describe, expect, it } from "vitest";
import { belongsTo, monthRange, netFigures, parseDay, parseMonth, parseRange, parseYear, rangeInstants, showDay, timesInvoiced, toColones } from "./reports.ts";

const params = (q: string) => new URLSearchParams(q);
const today = { year: 2026, month: 2 };

describe("report period", () => {
  it("default: the current month, first to last day, shown dd-MM-yyyy", () => {
    expect(monthRange(2026, 2)).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(monthRange(2028, 2)).toEqual({ from: "2028-02-01", to: "2028-02-29" });
    expect(monthRange(2026, 12)).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(parseRange(params(""), today)).toEqual({ range: { from: "2026-02-01", to: "2026-02-28" }, typed: { desde: "01-02-2026", hasta: "28-02-2026" }, error: null });
    expect(showDay("2026-10-05")).toBe("05-10-2026");
  });

  it("typed days: dd-MM-yyyy, dd/MM/yyyy or yyyy-MM-dd; real calendar days only", () => {
    expect(parseDay("5-10-2026")).toBe("2026-10-05");
    expect(parseDay("05/10/2026")).toBe("2026-10-05");
    expect(parseDay("2026-10-05")).toBe("2026-10-05");
    expect(parseDay("29-02-2026")).toBeNull();
    expect(parseDay("29-02-2028")).toBe("2028-02-29");
    expect(parseDay("10-2026")).toBeNull();
    expect(parseDay("01-01-1999")).toBeNull();
    expect(parseRange(params("desde=01-10-2026&hasta=31-10-2026"), today)).toEqual({ range: { from: "2026-10-01", to: "2026-10-31" }, typed: { desde: "01-10-2026", hasta: "31-10-2026" }, error: null });
    // Only one end typed: the other is the current month's.
    expect(parseRange(params("desde=15-02-2026"), today).range).toEqual({ from: "2026-02-15", to: "2026-02-28" });
  });

  it("a bad range: the message, the typed text kept, the current month used", () => {
    const bad = parseRange(params("desde=32-10-2026&hasta=abc"), today);
    expect(bad).toEqual({ range: { from: "2026-02-01", to: "2026-02-28" }, typed: { desde: "32-10-2026", hasta: "abc" }, error: "Escriba las fechas como dd-mm-aaaa (por ejemplo 01-11-2026)." });
    expect(parseRange(params("desde=02-10-2026&hasta=01-10-2026"), today).error).toBe("La fecha inicial debe ser anterior o igual a la final.");
    expect(parseRange(params("desde=01-01-2020&hasta=01-01-2026"), today).error).toBe("El rango no puede ser mayor a 5 años.");
  });

  it("a Costa Rica day covers 06:00 UTC to 06:00 UTC of the next day", () => {
    expect(rangeInstants({ from: "2026-10-01", to: "2026-10-31" })).toEqual({ from: "2026-10-01T06:00:00.000Z", until: "2026-11-01T06:00:00.000Z" });
    expect(rangeInstants({ from: "2026-12-31", to: "2026-12-31" })).toEqual({ from: "2026-12-31T06:00:00.000Z", until: "2027-01-01T06:00:00.000Z" });
  });

  it("year (default this one) and month (default the previous one, the month being declared)", () => {
    expect(parseYear(params(""), today)).toEqual({ year: 2026, typed: "2026", error: null });
    expect(parseYear(params("anio=2025"), today)).toEqual({ year: 2025, typed: "2025", error: null });
    expect(parseYear(params("anio=99"), today)).toEqual({ year: 2026, typed: "99", error: "Escriba un año entre 2000 y 2100." });
    expect(parseMonth(params(""), { year: 2026, month: 1 })).toEqual({ year: 2025, month: 12, typed: "2025-12", error: null });
    expect(parseMonth(params("mes=2026-10"), today)).toEqual({ year: 2026, month: 10, typed: "2026-10", error: null });
    expect(parseMonth(params("mes=2026-13"), today)).toMatchObject({ year: 2026, month: 1, error: "Elija un mes válido." });
  });
});

describe("report figures", () => {
  it("converts dollars with the document's own rate and rounds half-up to céntimos; colones stay", () => {
    expect(toColones("113", 1, "505.25").toFixed(2)).toBe("57093.25");
    expect(toColones("0.01", 1, "505.25").toFixed(2)).toBe("5.05");
    expect(toColones("0.03", 1, "505.25").toFixed(2)).toBe("15.16");
    expect(toColones("1000.005", 2, "1").toFixed(2)).toBe("1000.01");
    // A colón amount is never multiplied, whatever rate is stored beside it.
    expect(toColones("1000", 2, "505").toFixed(2)).toBe("1000.00");
  });

  it("net figures: each value plus debit notes minus credit notes; the stored total is already net of IVA devuelto", () => {
    const doc = { subtotal: "1150000", discount: "45000", tax: "121150", ivaDevuelto: "0", total: "1226150" };
    const nd = { subtotal: "20000", discount: "0", tax: "2600", ivaDevuelto: "0", total: "22600" };
    const nc = { subtotal: "100000", discount: "0", tax: "13000", ivaDevuelto: "0", total: "113000" };
    expect(netFigures(doc, nd, nc)).toEqual({ subtotal: "1070000.00", discount: "45000.00", tax: "110750.00", ivaDevuelto: "0.00", total: "1135750.00" });
    const devuelto = { subtotal: "50000", discount: "0", tax: "2000", ivaDevuelto: "2000", total: "50000" };
    expect(netFigures(devuelto)).toEqual({ subtotal: "50000.00", discount: "0.00", tax: "2000.00", ivaDevuelto: "2000.00", total: "50000.00" });
  });

  it("'Pertenece a' and 'N veces'", () => {
    expect(belongsTo("fe", "00100001010000000123")).toBe("FE-0000000123");
    expect(belongsTo("te", "00100001040000000007")).toBe("TE-0000000007");
    expect(belongsTo("fec", "00100001080000000001")).toBe("FEC-0000000001");
    expect(belongsTo("01", "50602102600310112345600100001010000000123199999999")).toBe("FE-0000000123");
    expect(belongsTo("99", "CONTRATO-7")).toBe("DOC-CONTRATO-7");
    expect(timesInvoiced(1)).toBe("1 vez");
    expect(timesInvoiced(3)).toBe("3 veces");
  });
});

describe("céntimos", () => {
  it("parse and show amounts of up to two decimals exactly; more decimals are refused", async () => {
    const { cents, showCents } = await import("./reports.ts");
    expect(cents("1234.5")).toBe(123450n);
    expect(cents("-0.05")).toBe(-5n);
    expect(cents("1000")).toBe(100000n);
    expect(cents("90071992547409.93")).toBe(9007199254740993n);
    expect(showCents(-5n)).toBe("-0.05");
    expect(showCents(9007199254740993n)).toBe("90071992547409.93");
    expect(() => cents("1.005")).toThrow();
  });
});
