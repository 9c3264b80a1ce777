import { eq } from "drizzle-orm";
import type { Route } from "./+types/dashboard";
import { advertisements } from "../../../db/schema/index.ts";
import { dailySums, expensesOfMonth } from "../../../db/queries/dashboard.ts";
import { CHART_COLORS, ExpensesPie, IncomeExpenseChart, MonthSalesChart, Sparkline } from "../../components/charts.tsx";
import { AppForm } from "../../components/form.tsx";
import { dashboardFigures } from "../../domain/dashboard.ts";
import { crCalendar, formatMoney } from "../../domain/format.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { keyExpiryWarning } from "../../server/hacienda-config.server.ts";
import { KeyExpiryBanner } from "../../components/key-expiry-banner.tsx";
import { PendingBanner } from "../../components/pending-banner.tsx";
import { pendingBannerText } from "../../server/hacienda-pipeline.server.ts";

/** Midnight in Costa Rica (UTC−6, no daylight saving) of the first day of a month. */
const crMonthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1, 6));

export async function loader({ context }: Route.LoaderArgs) {
  const { user, company } = context.get(requestContext);
  const today = crCalendar(new Date());
  const since = crMonthStart(today.year, today.month - 6);
  const [sums, expenses, [ad], pending] = await Promise.all([
    dailySums(db(), { companyId: company!.id, since }),
    expensesOfMonth(db(), { companyId: company!.id, from: crMonthStart(today.year, today.month) }),
    db().select().from(advertisements).where(eq(advertisements.active, true)).limit(1),
    pendingBannerText(db(), company!.id),
  ]);
  const showAd = ad && ad.code !== user!.advertisementCode ? { title: ad.title, html: ad.contentHtml, code: ad.code } : null;
  return { figures: dashboardFigures(sums, today), expenses, ad: showAd, pending, keyWarning: await keyExpiryWarning(db(), company!.id, new Date()), companyId: company!.id, isAdmin: user!.isAdmin };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { figures: f, expenses, ad } = loaderData;
  const cards = [
    { label: "Facturas", value: f.invoices, series: f.series.invoices, color: "#28C76F" },
    { label: "Tiquetes", value: f.tickets, series: f.series.tickets, color: "#00CFE8" },
    { label: "Ingresos", value: f.incomes, series: f.series.incomes, color: CHART_COLORS.thisMonth },
    { label: "Gastos", value: f.expenses, series: f.series.expenses, color: CHART_COLORS.expenses },
  ];
  return (
    <div className="space-y-4">
      <KeyExpiryBanner warning={loaderData.keyWarning} companyId={loaderData.companyId} isAdmin={loaderData.isAdmin} />
      <PendingBanner text={loaderData.pending} />
      {ad && (
        <div className="confirm-panel" data-advertisement style={{ position: "fixed", inset: 0, zIndex: 50, display: "flex", alignItems: "center", justifyContent: "center", background: "rgb(15 23 42 / 0.45)" }}>
          <div className="card max-w-lg" role="dialog" aria-modal="true" aria-label={ad.title}>
            <h2 className="text-lg font-semibold">{ad.title}</h2>
            <div className="prose mt-2 text-sm" dangerouslySetInnerHTML={{ __html: ad.html }} />
            <AppForm action="/advertisement-seen" className="mt-4 text-right">
              <input type="hidden" name="code" value={ad.code} />
              <button type="submit" className="btn btn-primary">
                Cerrar
              </button>
            </AppForm>
          </div>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="card" data-stat={c.label}>
            <div className="text-sm text-slate-500">{c.label}</div>
            <div className="text-xl font-semibold" data-amount>
              {formatMoney(c.value, "₡")}
            </div>
            <Sparkline values={c.series} color={c.color} label={`${c.label} del mes, acumulado por día`} />
          </div>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="card lg:col-span-2">
          <h2 className="font-semibold">Ventas por mes</h2>
          <div className="mt-2 flex gap-6 text-sm">
            <div>
              Mes actual: <strong>{formatMoney(f.salesThisMonth, "₡")}</strong>
            </div>
            <div>
              Mes anterior: <strong>{formatMoney(f.salesLastMonth, "₡")}</strong>
            </div>
          </div>
          <MonthSalesChart days={f.dailySales} />
        </div>
        <div className="card">
          <h2 className="font-semibold">Gastos mes actual</h2>
          <ExpensesPie expenses={expenses} empty="Este mes no has registrado gastos." />
        </div>
      </div>
      <div className="card">
        <h2 className="font-semibold">Ingresos vs Gastos</h2>
        <IncomeExpenseChart months={f.months} />
      </div>
    </div>
  );
}
