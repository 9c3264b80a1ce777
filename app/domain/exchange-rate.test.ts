import { describe, expect, it } from "vitest";
import { crDate, displayDate, EXCHANGE_MESSAGES, parseRateDate } from "./exchange-rate.ts";

describe("exchange rate helpers", () => {
  it("dates", () => {
    expect(crDate(new Date("2026-01-01T05:59:00Z"))).toBe("2025-12-31");
    expect(displayDate("2026-11-02")).toBe("02/11/2026");
    expect(parseRateDate("2026-11-02T06:00:00.000Z")).toBe("2026-11-02");
    expect(parseRateDate("hoy")).toBeNull();
  });
  it("the warning names the date used", () => {
    expect(EXCHANGE_MESSAGES.stale("2026-10-30")).toBe("No se pudo obtener el tipo de cambio de hoy; se usa el del 30/10/2026.");
  });
});
