import type { Route } from "./+types/dashboard";
import { CHART_COLORS, ExpensesPie, IncomeExpenseChart, MonthSalesChart, Sparkline } from "../../components/charts.tsx";
import { AppForm } from "../../components/form.tsx";
import { formatMoney } from "../../domain/format.ts";
import { requestContext } from "../../server/context.ts";
import { monthFigures } from "../../server/dashboard-figures.server.ts";
import { shownAdvertisement } from "../../server/advertisement.server.ts";
import { db } from "../../server/db.server.ts";
import { env } from "../../server/env.server.ts";
import { keyExpiryText } from "../../domain/config-texts.ts";
import { KeyExpiryBanner } from "../../components/key-expiry-banner.tsx";
import { PendingBanner } from "../../components/pending-banner.tsx";
import { costaRicaDay, pendingText } from "../../domain/document-status.ts";
import { deadlineBanner } from "../../domain/reception-deadline.ts";
import { Link } from "react-router";

/**
 * The pending received documents whose deadline is still open: issued last month or this one (a
 * month's documents can be rejected until the 8th business day of the next; docs/decisions/172).
 */
function pendingLink(day: string) {
  const [year, month] = day.split("-").map(Number);
  const prev = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return `/message-receptors?filter=pendiente&from=${ymd(prev.year, prev.month, 1)}&to=${ymd(year, month, last)}`;
}

export async function loader({ context }: Route.LoaderArgs) {
  const { user, company, banners } = context.get(requestContext);
  const day = costaRicaDay(new Date());
  // The documents waiting, the key's expiry and which advertisement is shown came with the session
  // (docs/decisions/147); the advertisement itself is read only when this user has not closed it.
  const adCode = banners!.advertisementCode;
  const [{ figures, expenses, deadlines }, ad] = await Promise.all([
    // Read again only when the company's figures, or its received documents waiting for acceptance
    // (issue 12 item 4), changed: the version came with the session (docs/decisions/200, 202).
    monthFigures(db(), { companyId: company!.id, version: banners!.figuresVersion, day }),
    adCode !== null && adCode !== user!.advertisementCode ? shownAdvertisement(db(), env().superAdminEmail) : undefined,
  ]);
  const showAd = ad && ad.code !== user!.advertisementCode ? { title: ad.title, html: ad.contentHtml, code: ad.code } : null;
  return {
    figures,
    expenses,
    ad: showAd,
    pending: pendingText(banners!.pending),
    receptions: deadlineBanner(deadlines, day),
    receptionsLink: pendingLink(day),
    keyWarning: keyExpiryText(banners!.keyNotAfter, new Date()),
    companyId: company!.id,
    isAdmin: user!.isAdmin,
  };
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
      {loaderData.receptions ? (
        <p className={`rounded-md p-3 text-sm ${loaderData.receptions.urgent ? "bg-danger/10 text-danger" : "bg-warning/10"}`} role="status" data-reception-deadlines>
          {loaderData.receptions.text}{" "}
          <Link to={loaderData.receptionsLink} className="font-medium underline">
            Ver documentos recibidos
          </Link>
        </p>
      ) : null}
      {ad && (
        <div className="confirm-panel" data-advertisement>
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
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
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
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
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
