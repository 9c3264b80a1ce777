// Dashboard figures from daily sums (pure): the four cards, sales this and last month, and
// incomes vs expenses for the last six months. Amounts are decimal strings in colones.
import Decimal from "decimal.js";

export interface DailySum {
  kind: "fe" | "te" | "nc" | "expense";
  /** YYYY-MM-DD in Costa Rica. */
  day: string;
  total: string;
}

export interface DashboardFigures {
  invoices: string;
  tickets: string;
  incomes: string;
  expenses: string;
  salesThisMonth: string;
  salesLastMonth: string;
  dailySales: { day: number; thisMonth: string; lastMonth: string }[];
  months: { label: string; incomes: string; expenses: string }[];
  series: Record<"invoices" | "tickets" | "incomes" | "expenses", string[]>;
}

const MONTHS = ["Ene", "Feb", "Mar", "Abr", "May", "Jun", "Jul", "Ago", "Set", "Oct", "Nov", "Dic"];

function monthKey(year: number, month: number) {
  return `${year}-${String(month).padStart(2, "0")}`;
}

/**
 * The figures of the current month `today` (Costa Rica calendar). `sums` may hold several rows per
 * kind and day, in any order; they are added up. Only the days of the current and the previous month
 * are read one by one (cards, sparklines, sales by day); every other row counts only in its month
 * (`day`'s YYYY-MM), so older months can come as one row per kind and month (db/queries/dashboard.ts
 * dailySums).
 */
export function dashboardFigures(sums: DailySum[], today: { year: number; month: number }): DashboardFigures {
  const current = monthKey(today.year, today.month);
  const prev = today.month === 1 ? monthKey(today.year - 1, 12) : monthKey(today.year, today.month - 1);
  const z = () => new Decimal(0);
  const card = { invoices: z(), tickets: z(), nc: z(), expenses: z() };
  const daily = new Map<string, { fe: Decimal; te: Decimal; nc: Decimal; expense: Decimal }>();
  const monthly = new Map<string, { incomes: Decimal; expenses: Decimal }>();
  for (const s of sums) {
    const v = new Decimal(s.total);
    const m = s.day.slice(0, 7);
    const d = daily.get(s.day) ?? { fe: z(), te: z(), nc: z(), expense: z() };
    d[s.kind] = d[s.kind].plus(v);
    daily.set(s.day, d);
    const mm = monthly.get(m) ?? { incomes: z(), expenses: z() };
    if (s.kind === "expense") mm.expenses = mm.expenses.plus(v);
    else if (s.kind === "nc") mm.incomes = mm.incomes.minus(v);
    else mm.incomes = mm.incomes.plus(v);
    monthly.set(m, mm);
    if (m === current) {
      if (s.kind === "fe") card.invoices = card.invoices.plus(v);
      if (s.kind === "te") card.tickets = card.tickets.plus(v);
      if (s.kind === "nc") card.nc = card.nc.plus(v);
      if (s.kind === "expense") card.expenses = card.expenses.plus(v);
    }
  }
  const sales = (key: string, day: number) => {
    const d = daily.get(`${key}-${String(day).padStart(2, "0")}`);
    return d ? d.fe.plus(d.te).minus(d.nc) : z();
  };
  const dailySales = Array.from({ length: 31 }, (_, i) => ({ day: i + 1, thisMonth: sales(current, i + 1).toFixed(2), lastMonth: sales(prev, i + 1).toFixed(2) }));
  const months: DashboardFigures["months"] = [];
  for (let i = 5; i >= 0; i--) {
    let y = today.year;
    let mo = today.month - i;
    while (mo < 1) {
      mo += 12;
      y -= 1;
    }
    const mm = monthly.get(monthKey(y, mo));
    months.push({ label: MONTHS[mo - 1], incomes: (mm?.incomes ?? z()).toFixed(2), expenses: (mm?.expenses ?? z()).toFixed(2) });
  }
  const dayValues = (pick: (d: { fe: Decimal; te: Decimal; nc: Decimal; expense: Decimal }) => Decimal) =>
    Array.from({ length: 31 }, (_, i) => {
      const d = daily.get(`${current}-${String(i + 1).padStart(2, "0")}`);
      return (d ? pick(d) : z()).toFixed(2);
    });
  const incomes = card.invoices.plus(card.tickets).minus(card.nc);
  return {
    invoices: card.invoices.toFixed(2),
    tickets: card.tickets.toFixed(2),
    incomes: incomes.toFixed(2),
    expenses: card.expenses.toFixed(2),
    salesThisMonth: incomes.toFixed(2),
    salesLastMonth: dailySales.reduce((a, d) => a.plus(d.lastMonth), z()).toFixed(2),
    dailySales,
    months,
    series: {
      invoices: dayValues((d) => d.fe),
      tickets: dayValues((d) => d.te),
      incomes: dayValues((d) => d.fe.plus(d.te).minus(d.nc)),
      expenses: dayValues((d) => d.expense),
    },
  };
}
