// The dashboard's charts (spec part 1 §2.3 Dashboard; issue 14 point 10; docs/decisions/167):
// server-rendered SVG, no chart JavaScript, drawn the way a charting library would — value axis in ₡
// with rounded ticks, category labels, a legend, each mark's value in a <title> (shown on hover) and
// the numbers in a table behind the chart for screen readers and anyone who wants them. Horizontal
// positions are percentages of the chart's width and vertical ones pixels, so the text keeps its
// size from a 360 px phone to a wide screen and on paper.
import { formatMoney } from "../domain/format-money.ts";

export const CHART_COLORS = { incomes: "#28C76F", expenses: "#EA5455", thisMonth: "#7367F0", lastMonth: "#94A3B8" } as const;
const PIE_COLORS = ["#7367F0", "#28C76F", "#FF9F43", "#00CFE8", "#EA5455", "#A8AAAE", "#1F9D57", "#E83E8C"];
const GRID = "#E2E8F0";
/** The left part of a chart (percent of its width) kept for the ₡ labels: marks start after it. */
const GUTTER = 14;
const MUTED = "#64748B";

/**
 * A coordinate to two decimals: a hundredth of a pixel, or of a percent of the width, is finer than any
 * screen draws, and full doubles ("16.866666666666667%") made the dashboard's SVG half its bytes.
 */
const at = (n: number) => Math.round(n * 100) / 100;

const num = (v: string | number) => {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Rounded ticks from 0 to at least `max` (1, 2, 2.5 or 5 times a power of ten apart), about `count`
 * of them; `max` ≤ 0 gives 0 and 1000.
 */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1000];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2; v += step) ticks.push(Math.round(v * 100) / 100);
  if (ticks[ticks.length - 1] < max) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/** A tick's label: '₡0', '₡500', '₡250 mil', '₡1,5 M' (Costa Rican style, decimal comma). */
export function tickLabel(v: number): string {
  const short = (n: number) => String(Math.round(n * 10) / 10).replace(".", ",");
  if (v >= 1_000_000) return `₡${short(v / 1_000_000)} M`;
  if (v >= 1_000) return `₡${short(v / 1_000)} mil`;
  return `₡${short(v)}`;
}

/** A legend's colour square: an SVG fill, not a style attribute (the CSP allows no inline styles: style-src 'self'). */
function Swatch({ color }: { color: string }) {
  return (
    <svg width="10" height="10" viewBox="0 0 10 10" className="flex-none print:[print-color-adjust:exact]" aria-hidden="true">
      <rect width="10" height="10" rx="2" fill={color} />
    </svg>
  );
}

function Legend({ items }: { items: { label: string; color: string }[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" data-legend>
      {items.map((i) => (
        <li key={i.label} className="flex items-center gap-1">
          <Swatch color={i.color} />
          {i.label}
        </li>
      ))}
    </ul>
  );
}

/** The numbers behind a chart: a table, collapsed under 'Ver datos' (open to screen readers and without JavaScript). */
function DataTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: string[][] }) {
  return (
    <details className="mt-2 text-sm print:hidden" data-chart-table>
      <summary className="cursor-pointer text-xs text-slate-600">Ver datos</summary>
      {/* Millions in two amount columns are wider than a phone: the table scrolls, never the page. */}
      <div className="overflow-x-auto">
        <table className="table mt-1 [&_td]:px-1.5 [&_th]:px-1.5">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={c} scope="col" className={i ? "text-right" : undefined}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r[0]}>
                {r.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="font-normal">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="whitespace-nowrap text-right">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** Horizontal grid lines with their ₡ labels above them at the left; returns the y of a value. */
function ValueAxis({ ticks, top, height }: { ticks: number[]; top: number; height: number }) {
  const max = ticks[ticks.length - 1];
  const y = (v: number) => at(top + height - (v / max) * height);
  return (
    <g data-value-axis>
      {ticks.map((t) => (
        <g key={t}>
          <line x1="0%" x2="100%" y1={y(t)} y2={y(t)} stroke={GRID} strokeWidth="1" />
          <text x="0" y={at(y(t) - 3)} fontSize="11" fill={MUTED}>
            {tickLabel(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

/**
 * 'Ingresos vs Gastos': one stacked bar per month (incomes below, expenses on top), month labels,
 * the ₡ axis, the legend, each part's value in its <title>, and the table.
 */
export function IncomeExpenseChart({ months }: { months: { label: string; incomes: string; expenses: string }[] }) {
  const H = 220;
  const top = 16;
  const plot = H - top - 24;
  const totals = months.map((m) => Math.max(0, num(m.incomes)) + Math.max(0, num(m.expenses)));
  const ticks = niceTicks(Math.max(0, ...totals));
  const max = ticks[ticks.length - 1];
  const px = (v: number) => at((Math.max(0, v) / max) * plot);
  const slot = (100 - GUTTER) / Math.max(1, months.length);
  return (
    <figure data-chart="ingresos-gastos">
      <Legend
        items={[
          { label: "Ingresos", color: CHART_COLORS.incomes },
          { label: "Gastos", color: CHART_COLORS.expenses },
        ]}
      />
      <svg width="100%" height={H} role="img" aria-label={`Ingresos y gastos de ${months.map((m) => m.label).join(", ")}`} className="mt-1 block overflow-visible print:[print-color-adjust:exact]">
        <ValueAxis ticks={ticks} top={top} height={plot} />
        {months.map((m, i) => {
          const hi = px(num(m.incomes));
          const he = px(num(m.expenses));
          const base = top + plot;
          const x = `${at(GUTTER + (i + 0.3) * slot)}%`;
          const w = `${at(slot * 0.4)}%`;
          return (
            <g key={m.label} data-month={m.label}>
              <rect x={x} width={w} y={at(base - hi)} height={hi} fill={CHART_COLORS.incomes}>
                <title>{`${m.label}: ingresos ${formatMoney(m.incomes)}`}</title>
              </rect>
              <rect x={x} width={w} y={at(base - hi - he)} height={he} fill={CHART_COLORS.expenses}>
                <title>{`${m.label}: gastos ${formatMoney(m.expenses)}`}</title>
              </rect>
              <text x={`${at(GUTTER + (i + 0.5) * slot)}%`} y={H - 6} fontSize="12" textAnchor="middle" fill={MUTED}>
                {m.label}
              </text>
            </g>
          );
        })}
      </svg>
      <DataTable caption="Ingresos y gastos por mes" columns={["Mes", "Ingresos", "Gastos"]} rows={months.map((m) => [m.label, formatMoney(m.incomes), formatMoney(m.expenses)])} />
    </figure>
  );
}

/** Running totals: what a day's line shows is the month so far. */
const cumulative = (values: string[]) => {
  let sum = 0;
  return values.map((v) => (sum += num(v)));
};

/**
 * 'Ventas por mes': this month's sales so far against last month's, day by day (running totals), with
 * the ₡ axis, day labels, the legend and a <title> on each day's point.
 */
export function MonthSalesChart({ days }: { days: { day: number; thisMonth: string; lastMonth: string }[] }) {
  const H = 200;
  const top = 16;
  const plot = H - top - 24;
  const now = cumulative(days.map((d) => d.thisMonth));
  const before = cumulative(days.map((d) => d.lastMonth));
  const ticks = niceTicks(Math.max(0, ...now, ...before));
  const max = ticks[ticks.length - 1];
  const y = (v: number) => at(top + plot - (Math.max(0, v) / max) * plot);
  const x = (i: number) => at(GUTTER + (days.length > 1 ? (i / (days.length - 1)) * (100 - GUTTER) : (100 - GUTTER) / 2));
  // One polyline per series, in a plot of its own whose width stretches to the chart's (percentages and
  // pixels cannot mix in one list of points): x from 0 to 1000 across the days, y in the chart's pixels,
  // and a stroke that keeps its width however the plot is stretched.
  const span = days.length > 1 ? days.length - 1 : 0;
  const line = (values: number[], color: string, dashed = false) => (
    <polyline
      points={values.map((v, i) => `${span ? at((i / span) * 1000) : 500},${y(v)}`).join(" ")}
      fill="none"
      stroke={color}
      strokeWidth="2"
      strokeDasharray={dashed ? "4 3" : undefined}
      strokeLinecap="round"
      strokeLinejoin="round"
      vectorEffect="non-scaling-stroke"
    />
  );
  return (
    <figure data-chart="ventas-por-mes">
      <Legend
        items={[
          { label: "Mes actual", color: CHART_COLORS.thisMonth },
          { label: "Mes anterior", color: CHART_COLORS.lastMonth },
        ]}
      />
      <svg width="100%" height={H} role="img" aria-label="Ventas acumuladas por día: mes actual y mes anterior" className="mt-1 block overflow-visible print:[print-color-adjust:exact]">
        <ValueAxis ticks={ticks} top={top} height={plot} />
        <svg x={`${GUTTER}%`} width={`${100 - GUTTER}%`} height={H} viewBox={`0 0 1000 ${H}`} preserveAspectRatio="none" overflow="visible" data-series>
          {line(before, CHART_COLORS.lastMonth, true)}
          {line(now, CHART_COLORS.thisMonth)}
        </svg>
        {days.map((d, i) => (
          <circle key={d.day} cx={`${x(i)}%`} cy={y(now[i])} r="6" fill="transparent">
            <title>{`Día ${d.day}: mes actual ${formatMoney(now[i].toFixed(2))}, mes anterior ${formatMoney(before[i].toFixed(2))}`}</title>
          </circle>
        ))}
        {days
          .filter((d) => d.day === 1 || d.day % 5 === 0)
          .map((d) => (
            <text key={d.day} x={`${x(d.day - 1)}%`} y={H - 6} fontSize="11" textAnchor="middle" fill={MUTED}>
              {d.day}
            </text>
          ))}
      </svg>
    </figure>
  );
}

/** A stat card's small area chart of the month so far (running totals): a trend, not spikes. */
export function Sparkline({ values, color = CHART_COLORS.incomes, label }: { values: string[]; color?: string; label?: string }) {
  const h = 40;
  const run = cumulative(values);
  const max = Math.max(1, ...run);
  const w = 120;
  const step = run.length > 1 ? w / (run.length - 1) : w;
  const pts = run.map((v, i) => `${(i * step).toFixed(1)},${(h - (v / max) * (h - 4) - 2).toFixed(1)}`);
  return (
    <svg viewBox={`0 0 ${w} ${h}`} className="h-10 w-full print:[print-color-adjust:exact]" preserveAspectRatio="none" aria-hidden="true" data-sparkline>
      {label ? <title>{label}</title> : null}
      <polygon points={`0,${h} ${pts.join(" ")} ${w},${h}`} fill={color} fillOpacity="0.18" />
      <polyline points={pts.join(" ")} fill="none" stroke={color} strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** 'Gastos mes actual': a donut of the month's expenses by category and its list (name, amount, share). */
export function ExpensesPie({ expenses, empty }: { expenses: { name: string; total: string }[]; empty: string }) {
  const values = expenses.map((e) => Math.max(0, num(e.total)));
  const sum = values.reduce((a, b) => a + b, 0);
  if (!expenses.length || sum <= 0) return <p className="mt-2 text-sm text-slate-500">{empty}</p>;
  const r = 15.915; // circumference 100: stroke lengths are percentages
  let offset = 25; // start at 12 o'clock
  const share = (v: number) => Math.round((v / sum) * 1000) / 10;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-4" data-chart="gastos-mes">
      <svg viewBox="0 0 42 42" width="120" height="120" role="img" aria-label="Gastos del mes por categoría" className="flex-none print:[print-color-adjust:exact]">
        <circle cx="21" cy="21" r={r} fill="none" stroke={GRID} strokeWidth="7" />
        {expenses.map((e, i) => {
          const pct = (values[i] / sum) * 100;
          const el = (
            <circle key={e.name} cx="21" cy="21" r={r} fill="none" stroke={PIE_COLORS[i % PIE_COLORS.length]} strokeWidth="7" strokeDasharray={`${pct} ${100 - pct}`} strokeDashoffset={offset}>
              <title>{`${e.name}: ${formatMoney(e.total)} (${String(share(values[i])).replace(".", ",")} %)`}</title>
            </circle>
          );
          offset -= pct;
          return el;
        })}
      </svg>
      <ul className="min-w-0 flex-1 basis-56 space-y-1 text-sm" data-expense-list>
        {expenses.map((e, i) => (
          <li key={e.name} className="flex items-center justify-between gap-2">
            <span className="flex min-w-0 items-center gap-1">
              <Swatch color={PIE_COLORS[i % PIE_COLORS.length]} />
              <span className="truncate">{e.name}</span>
            </span>
            <span className="whitespace-nowrap">
              {formatMoney(e.total)} <span className="text-xs text-slate-500">({String(share(values[i])).replace(".", ",")} %)</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
