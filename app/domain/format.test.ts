import { describe, expect, it } from "vitest";
import { crCalendar, formatDate, formatDateTime, formatMoney, truncate } from "./format.ts";

describe("formatMoney", () => {
  it("uses dot thousands, comma decimals, symbol in front", () => {
    expect(formatMoney("1234.5", "$")).toBe("$1.234,50");
    expect(formatMoney("1234.5", "₡")).toBe("₡1.234,50");
    expect(formatMoney("0", "₡")).toBe("₡0,00");
    expect(formatMoney("1234567890.12345", "₡")).toBe("₡1.234.567.890,12");
    expect(formatMoney(12.5, "$")).toBe("$12,50");
  });
  it("rounds half up at 2 decimals, carrying into the integer part", () => {
    expect(formatMoney("0.005", "₡")).toBe("₡0,01");
    expect(formatMoney("0.00499", "₡")).toBe("₡0,00");
    expect(formatMoney("999.995", "₡")).toBe("₡1.000,00");
    expect(formatMoney("-1500.25", "$")).toBe("-$1.500,25");
  });
});

describe("dates in Costa Rica time", () => {
  it("formats DD/MM/YYYY and DD/MM/YYYY hh:mm A whatever the server zone", () => {
    // 2026-11-22 05:30 UTC is 2026-11-21 23:30 in Costa Rica (UTC−6).
    const d = new Date("2026-11-22T05:30:00Z");
    expect(formatDate(d)).toBe("21/11/2026");
    expect(formatDateTime(d)).toBe("21/11/2026 11:30 PM");
    expect(formatDateTime(new Date("2026-01-05T06:05:00Z"))).toBe("05/01/2026 12:05 AM");
    expect(formatDateTime(new Date("2026-01-05T18:00:00Z"))).toBe("05/01/2026 12:00 PM");
    expect(crCalendar(new Date("2026-12-01T05:59:59Z"))).toEqual({ year: 2026, month: 11, day: 30 });
    expect(crCalendar(new Date("2026-12-01T06:00:00Z"))).toEqual({ year: 2026, month: 12, day: 1 });
  });
});

describe("truncate", () => {
  it("cuts at 25 characters", () => {
    expect(truncate("a".repeat(25))).toBe("a".repeat(25));
    expect(truncate("a".repeat(26))).toBe("a".repeat(25) + "…");
    expect(truncate(null)).toBe("");
  });
});
