import { describe, expect, it } from "vitest";
import { dashboardFigures } from "./dashboard.ts";

describe("dashboardFigures", () => {
  it("is all zero without documents", () => {
    const f = dashboardFigures([], { year: 2026, month: 11 });
    expect([f.invoices, f.tickets, f.incomes, f.expenses]).toEqual(["0.00", "0.00", "0.00", "0.00"]);
    expect(f.months).toHaveLength(6);
    expect(f.months[5].label).toBe("Nov");
  });
  it("sums the current month per kind; credit notes reduce incomes; last month for comparison", () => {
    const f = dashboardFigures(
      [
        { kind: "fe", day: "2026-11-02", total: "1000.50" },
        { kind: "fe", day: "2026-11-03", total: "499.50" },
        { kind: "te", day: "2026-11-03", total: "200" },
        { kind: "nc", day: "2026-11-04", total: "100" },
        { kind: "expense", day: "2026-11-05", total: "300" },
        { kind: "fe", day: "2026-10-31", total: "700" },
      ],
      { year: 2026, month: 11 },
    );
    expect(f.invoices).toBe("1500.00");
    expect(f.tickets).toBe("200.00");
    expect(f.incomes).toBe("1600.00");
    expect(f.expenses).toBe("300.00");
    expect(f.salesLastMonth).toBe("700.00");
    expect(f.months[4]).toEqual({ label: "Oct", incomes: "700.00", expenses: "0.00" });
    expect(f.series.invoices[1]).toBe("1000.50");
  });
  it("counts a month's row (its first day) only in its month, and several rows of one kind and day together", () => {
    const days = [
      { kind: "fe", day: "2026-08-01", total: "100" },
      { kind: "fe", day: "2026-08-17", total: "200.25" },
      { kind: "nc", day: "2026-08-20", total: "50" },
      { kind: "expense", day: "2026-08-03", total: "70.10" },
      { kind: "expense", day: "2026-08-03", total: "0.40" },
    ] as const;
    const month = [
      { kind: "fe", day: "2026-08-01", total: "300.25" },
      { kind: "nc", day: "2026-08-01", total: "50" },
      { kind: "expense", day: "2026-08-01", total: "70.50" },
    ] as const;
    const today = { year: 2026, month: 11 };
    expect(dashboardFigures([...month], today)).toEqual(dashboardFigures([...days], today));
    expect(dashboardFigures([...month], today).months[2]).toEqual({ label: "Ago", incomes: "250.25", expenses: "70.50" });
  });
  it("handles January (previous month in the previous year)", () => {
    const f = dashboardFigures([{ kind: "te", day: "2025-12-31", total: "50" }], { year: 2026, month: 1 });
    expect(f.salesLastMonth).toBe("50.00");
    expect(f.months[4].label).toBe("Dic");
  });
});
