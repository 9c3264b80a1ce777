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

  it("agrees with the time-zone database on every date since 1993, and uses it before", () => {
    const intl = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Costa_Rica", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const expected = (d: Date) => {
      const p = Object.fromEntries(intl.formatToParts(d).map((x) => [x.type, x.value]));
      const h = Number(p.hour);
      return `${p.day}/${p.month}/${p.year} ${String(h % 12 || 12).padStart(2, "0")}:${p.minute} ${h < 12 ? "AM" : "PM"}`;
    };
    const start = Date.UTC(1993, 0, 1, 6);
    const end = Date.UTC(2100, 0, 1);
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Random instants, and each hour of a day either side of midnight and noon in Costa Rica.
    const instants = Array.from({ length: 5000 }, () => new Date(start + Math.floor(random() * (end - start))));
    for (let h = 0; h < 48; h++) instants.push(new Date(Date.UTC(2026, 11, 31, h, 59, 59)), new Date(Date.UTC(2028, 1, 28, h)));
    for (const d of instants) expect(formatDateTime(d), d.toISOString()).toBe(expected(d));
    // 1991–92 had daylight saving: the time-zone database answers (UTC−5 on 1992-02-01).
    expect(formatDateTime(new Date("1992-02-01T05:30:00Z"))).toBe("01/02/1992 12:30 AM");
    // Not a date: an error, as from the time-zone database.
    expect(() => formatDate("not a date")).toThrow(RangeError);
  });
});

describe("truncate", () => {
  it("cuts at 25 characters", () => {
    expect(truncate("a".repeat(25))).toBe("a".repeat(25));
    expect(truncate("a".repeat(26))).toBe("a".repeat(25) + "…");
    expect(truncate(null)).toBe("");
  });
});
