// The screen of every report (docs/decisions/151-report-foundation.md): the period (a dd-MM-yyyy
// range, a year or a month), the search and the filter in one GET form; 'Exportar a Excel' and
// 'Imprimir'; the summary band; the tables; the pages (only when there is more than one). Everything
// works without JavaScript (plain links and a GET form). With JavaScript the spec's loading texts
// show ('Preparando tu reporte...', 'Preparando excel...') and an export failure is a toast that can
// be closed. Printing (app.css @media print) keeps the summary on top and the tables, repeats the
// table headers on every A4 page and hides the navigation, the controls and the pager.
import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { PAGE_SIZES } from "../domain/pagination.ts";
import { REPORT_MESSAGES } from "../domain/reports.ts";
import type { CellView, ReportView, TableView } from "../server/reports/report.server.ts";
import { Pagination } from "./pagination.tsx";

function Cell({ cell }: { cell: CellView }) {
  const content = cell.href ? <Link to={cell.href}>{cell.text}</Link> : cell.text;
  return (
    <td className={cell.numeric || cell.title ? "whitespace-nowrap" + (cell.numeric ? " text-right" : "") : undefined} title={cell.title}>
      {content}
    </td>
  );
}

function ReportTable({ table }: { table: TableView }) {
  return (
    <section className="mt-4" aria-labelledby={table.title ? `${table.key}-title` : undefined}>
      {table.title ? (
        <h3 id={`${table.key}-title`} className="mb-2 font-semibold">
          {table.title}
        </h3>
      ) : null}
      <div className="overflow-x-auto">
        <table className="table report-table" data-report-table={table.key}>
          <thead>
            <tr>
              {table.headers.map((h, i) => (
                <th key={i} className={h.numeric ? "text-right" : undefined} aria-sort={h.sorted === "asc" ? "ascending" : h.sorted === "desc" ? "descending" : undefined}>
                  {h.href ? (
                    <Link to={h.href} data-sort-link>
                      {h.text}
                      {h.sorted === "asc" ? " ▲" : h.sorted === "desc" ? " ▼" : ""}
                    </Link>
                  ) : (
                    h.text
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.length === 0 && (
              <tr>
                <td colSpan={table.headers.length} className="text-center text-slate-500" data-empty>
                  {table.empty}
                </td>
              </tr>
            )}
            {table.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <Cell key={c} cell={cell} />
                ))}
              </tr>
            ))}
          </tbody>
          {table.footer ? (
            <tfoot>
              <tr className="font-semibold" data-report-footer>
                {table.footer.map((cell, c) => (
                  <Cell key={c} cell={cell} />
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </section>
  );
}

/** The file name a response offers (Content-Disposition), else the fallback. */
function fileNameOf(disposition: string | null, fallback: string) {
  const m = /filename="([^"]+)"/.exec(disposition ?? "");
  return m ? m[1] : fallback;
}

/**
 * 'Exportar a Excel': a plain download link. With JavaScript the file is fetched first so the page
 * can say 'Preparando excel...' meanwhile and show a failure as a toast; then it is saved.
 */
function ExcelLink({ href }: { href: string }) {
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  async function onClick(e: React.MouseEvent<HTMLAnchorElement>) {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    if (state === "busy") return;
    setState("busy");
    try {
      const res = await fetch(href, { credentials: "same-origin" });
      if (!res.ok || !(res.headers.get("content-type") ?? "").includes("spreadsheetml")) throw new Error(String(res.status));
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = fileNameOf(res.headers.get("content-disposition"), "reporte.xlsx");
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState("idle");
    } catch {
      setState("failed");
    }
  }
  return (
    <>
      <a className="btn btn-primary" href={href} download onClick={onClick} aria-busy={state === "busy" || undefined} data-excel-link>
        {state === "busy" ? REPORT_MESSAGES.preparingExcel : "Exportar a Excel"}
      </a>
      {state === "failed" ? (
        <div className="fixed right-4 top-4 z-[60]" role="alert">
          <div className="flex items-start gap-3 rounded-md bg-danger px-4 py-3 text-sm text-white shadow-lg" data-report-error>
            <span>{REPORT_MESSAGES.exportFailed}</span>
            <button type="button" className="font-bold" aria-label="Cerrar" onClick={() => setState("idle")}>
              ×
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}

/** 'Imprimir' on the printable page: the browser's print dialog (with JavaScript), after the spec's 1 s delay. */
function PrintButton() {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return <span className="text-sm text-slate-600">Use la opción Imprimir de su navegador (Ctrl+P).</span>;
  return (
    <button type="button" className="btn btn-primary" onClick={() => setTimeout(() => window.print(), 1000)} data-print-button>
      Imprimir
    </button>
  );
}

function PeriodFields({ view }: { view: ReportView }) {
  const p = view.period;
  if (p.kind === "year")
    return (
      <label className="flex flex-col gap-1">
        <span>Año</span>
        <input name="anio" className="input w-28" inputMode="numeric" pattern="\d{4}" maxLength={4} defaultValue={p.anio} aria-invalid={view.error ? true : undefined} />
      </label>
    );
  if (p.kind === "month")
    return (
      <label className="flex flex-col gap-1">
        <span>Mes</span>
        <input name="mes" type="month" className="input w-44" defaultValue={p.mes} aria-invalid={view.error ? true : undefined} />
      </label>
    );
  return (
    <>
      <label className="flex flex-col gap-1">
        <span>Desde</span>
        <input name="desde" className="input w-36" placeholder="dd-mm-aaaa" inputMode="numeric" maxLength={10} defaultValue={p.desde} aria-invalid={view.error ? true : undefined} />
      </label>
      <label className="flex flex-col gap-1">
        <span>Hasta</span>
        <input name="hasta" className="input w-36" placeholder="dd-mm-aaaa" inputMode="numeric" maxLength={10} defaultValue={p.hasta} aria-invalid={view.error ? true : undefined} />
      </label>
    </>
  );
}

export function ReportScreen({ view }: { view: ReportView }) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === view.path;
  return (
    <div className={`card report ${view.print ? "report-print" : ""}`} data-report={view.key}>
      <div className="report-heading mb-3">
        <div className="text-sm text-slate-600">{view.companyName}</div>
        <div className="font-semibold" data-report-period>
          {view.periodLabel}
        </div>
        {view.search ? <div className="text-sm text-slate-600">Búsqueda: {view.search}</div> : null}
        {view.filter?.value ? (
          <div className="text-sm text-slate-600">
            {view.filter.label}: {view.filter.options.find((o) => o.value === view.filter!.value)?.label}
          </div>
        ) : null}
      </div>
      {view.print ? (
        <div className="mb-4 flex flex-wrap items-center gap-2" data-no-print>
          <Link className="btn btn-outline" to={view.backHref}>
            Volver al reporte
          </Link>
          <PrintButton />
          {view.printCapped ? <p className="w-full text-sm text-warning">{REPORT_MESSAGES.printAll}</p> : null}
        </div>
      ) : (
        <div data-no-print>
          <Form method="get" action={view.path} className="mb-3 flex flex-wrap items-end gap-2" role="search" aria-label="Filtros del reporte">
            <PeriodFields view={view} />
            {view.search !== null ? (
              <label className="flex flex-col gap-1">
                <span>Buscar</span>
                <input type="search" name="search" defaultValue={view.search} className="input w-56" />
              </label>
            ) : null}
            {view.filter ? (
              <label className="flex flex-col gap-1">
                <span>{view.filter.label}</span>
                <select name={view.filter.param} defaultValue={view.filter.value ?? ""} className="input w-32">
                  <option value="">{view.filter.all}</option>
                  {view.filter.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {view.paged ? (
              <label className="flex flex-col gap-1">
                <span>Mostrar</span>
                <select name="perPage" defaultValue={view.perPage} className="input w-20">
                  {PAGE_SIZES.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <button type="submit" className="btn btn-outline">
              Aplicar
            </button>
          </Form>
          {view.error ? (
            <p className="mb-3 rounded-md bg-danger/10 p-3 text-sm text-danger" role="alert" data-report-error-message>
              {view.error} {REPORT_MESSAGES.defaultUsed}
            </p>
          ) : null}
          <div className="mb-4 flex flex-wrap items-center gap-2">
            <ExcelLink href={view.excelHref} />
            <Link className="btn btn-outline" to={view.printHref} data-print-link>
              Imprimir
            </Link>
            {loading ? (
              <span className="text-sm text-slate-600" role="status" data-report-loading>
                {REPORT_MESSAGES.preparing}
              </span>
            ) : null}
          </div>
        </div>
      )}
      {view.notes.length ? (
        <ul className="mb-3 list-disc pl-5 text-xs text-slate-600" data-report-notes>
          {view.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}
      {view.notice ? (
        <p className="mb-3 rounded-md bg-warning/10 p-3 text-sm text-slate-700" data-report-notice>
          {view.notice}
        </p>
      ) : null}
      <div className="report-summary grid gap-3 sm:grid-cols-2" data-summary>
        {view.summary.map((g, gi) => (
          <section key={gi} className="rounded-md border border-slate-200 p-3" aria-label={g.title ?? "Resumen"}>
            {g.title ? <h2 className="mb-2 text-sm font-semibold">{g.title}</h2> : null}
            <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
              {g.items.map((item) => (
                <div key={item.label} data-summary-item={item.label}>
                  <dt className="text-slate-500">{item.label}</dt>
                  <dd className="font-semibold">{item.text}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      {view.tables.map((t) => (
        <ReportTable key={t.key} table={t} />
      ))}
      {!view.print ? <Pagination page={view.page} lastPage={view.lastPage} /> : null}
    </div>
  );
}
