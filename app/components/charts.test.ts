// The dashboard charts (issue 14 point 10): server-rendered SVG with a ₡ axis of rounded ticks,
// month and day labels, a legend, each value in a <title> and the numbers in a table.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ExpensesPie, IncomeExpenseChart, MonthSalesChart, niceTicks, Sparkline, tickLabel } from "./charts.tsx";

const months = [
  { label: "Jun", incomes: "350000", expenses: "120000" },
  { label: "Jul", incomes: "820000", expenses: "240000" },
  { label: "Ago", incomes: "0", expenses: "0" },
  { label: "Set", incomes: "1250000", expenses: "300000" },
  { label: "Oct", incomes: "970000.5", expenses: "410000" },
  { label: "Nov", incomes: "1480000", expenses: "150000" },
];

describe("axis", () => {
  it("rounded ticks from zero past the largest value", () => {
    expect(niceTicks(1630000)).toEqual([0, 500000, 1000000, 1500000, 2000000]);
    expect(niceTicks(9)).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(niceTicks(0)).toEqual([0, 1000]);
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
  });
  it("₡ labels with a decimal comma", () => {
    expect([0, 500, 250000, 1500000, 2000000].map(tickLabel)).toEqual(["₡0", "₡500", "₡250 mil", "₡1,5 M", "₡2 M"]);
  });
});

describe("charts", () => {
  it("the numbers' table scrolls inside its card, so millions never widen a phone's page", () => {
    const html = renderToStaticMarkup(createElement(IncomeExpenseChart, { months }));
    expect(html).toMatch(/<div class="overflow-x-auto"><table class="table/);
  });
  it("no inline style attribute (the CSP allows none): legend colours are SVG fills", () => {
    const html = [
      renderToStaticMarkup(createElement(IncomeExpenseChart, { months })),
      renderToStaticMarkup(createElement(ExpensesPie, { expenses: [{ name: "Alquiler", total: "450000" }], empty: "" })),
    ].join("");
    expect(html).not.toMatch(/<[^>]+\sstyle="/);
    expect(html).toContain('fill="');
  });
  it("'Ingresos vs Gastos': a stacked bar per month with labels, axis, legend, titles and the table", () => {
    const html = renderToStaticMarkup(createElement(IncomeExpenseChart, { months }));
    for (const m of months) expect(html).toContain(`>${m.label}</text>`);
    for (const t of ["₡0", "₡500 mil", "₡1 M", "₡1,5 M", "₡2 M"]) expect(html).toContain(`>${t}</text>`);
    expect(html).toContain("Ingresos</li>");
    expect(html).toContain("Gastos</li>");
    expect(html).toContain("<title>Oct: ingresos ₡970.000,50</title>");
    expect(html).toContain("<title>Oct: gastos ₡410.000,00</title>");
    expect(html).toMatch(/<th scope="row" class="font-normal">Set<\/th><td[^>]*>₡1\.250\.000,00<\/td><td[^>]*>₡300\.000,00<\/td>/);
    expect(html).not.toMatch(/<script/);
    // Heights are proportional to the axis: Nov's two parts reach 1 630 000 of 2 000 000 × 180 px.
    const nov = /data-month="Nov"><rect[^>]*height="([\d.]+)"[^>]*>.*?<rect[^>]*height="([\d.]+)"/.exec(html)!;
    expect(Number(nov[1]) + Number(nov[2])).toBeCloseTo((1630000 / 2000000) * 180, 1);
  });

  it("'Ventas por mes': this month against the last, running totals by day, with day labels", () => {
    const days = Array.from({ length: 31 }, (_, i) => ({ day: i + 1, thisMonth: i === 0 ? "1000" : i === 9 ? "500" : "0", lastMonth: i === 4 ? "2000" : "0" }));
    const html = renderToStaticMarkup(createElement(MonthSalesChart, { days }));
    expect(html).toContain("Mes actual</li>");
    expect(html).toContain("Mes anterior</li>");
    expect(html).toContain("<title>Día 10: mes actual ₡1.500,00, mes anterior ₡2.000,00</title>");
    for (const d of [1, 5, 10, 15, 20, 25, 30]) expect(html).toContain(`>${d}</text>`);
  });

  it("coordinates to two decimals, and each series one polyline that meets its days' points", () => {
    const days = Array.from({ length: 30 }, (_, i) => ({ day: i + 1, thisMonth: String(1000 + i * 7), lastMonth: String(3000 / (i + 3)) }));
    const sales = renderToStaticMarkup(createElement(MonthSalesChart, { days }));
    const html = sales + renderToStaticMarkup(createElement(IncomeExpenseChart, { months }));
    const numbers = [...html.matchAll(/\s(?:x|y|x1|x2|y1|y2|cx|cy|width|height)="([\d.]+)%?"/g)].map((m) => m[1]);
    expect(numbers.length).toBeGreaterThan(100);
    for (const n of numbers) expect(n).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(sales).not.toContain("<line x1=\"1"); // no segment per day: only the grid's lines
    const series = [...sales.matchAll(/<polyline points="([^"]+)"([^>]*)>/g)];
    expect(series).toHaveLength(2);
    const [before, now] = series.map((m) => ({ points: m[1].split(" ").map((p) => p.split(",").map(Number)), attrs: m[2] }));
    expect(before.attrs).toContain('stroke="#94A3B8"');
    expect(before.attrs).toContain('stroke-dasharray="4 3"');
    expect(now.attrs).toContain('stroke="#7367F0"');
    for (const s of [before, now]) {
      expect(s.attrs).toContain('vector-effect="non-scaling-stroke"');
      expect(s.points).toHaveLength(30);
      s.points.forEach(([x], i) => expect(x).toBeCloseTo((i / 29) * 1000, 1));
    }
    // The plot spans the chart's width after the ₡ labels, so a day's point is where its circle is.
    expect(sales).toMatch(/<svg x="14%" width="86%" height="200" viewBox="0 0 1000 200" preserveAspectRatio="none"/);
    const circles = [...sales.matchAll(/<circle cx="([\d.]+)%" cy="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(circles).toHaveLength(30);
    circles.forEach(([cx, cy], i) => {
      expect(cy).toBe(now.points[i][1]);
      expect(cx).toBeCloseTo(14 + (now.points[i][0] / 1000) * 86, 1);
    });
    expect(sales.match(/<(line|polyline|circle|text|g|rect|title)\b/g)!.length, "elements of the sales chart").toBeLessThan(100);
  });

  it("'Gastos mes actual': a donut with a slice per category and its list; the text when there are none", () => {
    const html = renderToStaticMarkup(createElement(ExpensesPie, { empty: "Este mes no has registrado gastos.", expenses: [{ name: "Alquiler", total: "300000" }, { name: "Papelería", total: "100000" }] }));
    expect(html).toContain("<title>Alquiler: ₡300.000,00 (75 %)</title>");
    expect(html).toContain('stroke-dasharray="75 25"');
    expect(html).toContain("Papelería");
    expect(renderToStaticMarkup(createElement(ExpensesPie, { empty: "Este mes no has registrado gastos.", expenses: [] }))).toContain("Este mes no has registrado gastos.");
  });

  it("a card's sparkline is the month so far, not daily spikes", () => {
    const html = renderToStaticMarkup(createElement(Sparkline, { values: ["100", "0", "0", "100"] }));
    const pts = /<polyline points="([^"]+)"/.exec(html)![1].split(" ").map((p) => Number(p.split(",")[1]));
    expect(pts[1]).toBe(pts[2]);
    expect(pts[3]).toBeLessThan(pts[0]);
  });
});
