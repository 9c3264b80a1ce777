// The report foundation (spec part 2 "Reports"; DESIGN §5; docs/decisions/151-report-foundation.md).
// A report is a declaration (ReportDefinition): its title, texts, period (a day range, a year or a
// month), filter, columns, and three functions over db/queries/reports.ts — the summary (SQL
// aggregates, with how many rows the table has), a page of rows, and every row in batches for the
// export. From it this module serves both the screen (loadReport: one serialisable view the
// ReportScreen component renders) and the Excel file (excelResponse: streamed while the rows are
// read). Adding a report: a definition in app/server/reports/<name>.server.ts, its entry in
// registry.server.ts, a ten-line route module, two lines in app/routes.ts and one in access.ts.
import { data, type RouterContextProvider } from "react-router";
import type { Db } from "../../../db/client.ts";
import { withCustomPlans } from "../../../db/custom-plans.ts";
import { crCalendar, formatMoney } from "../../domain/format.ts";
import { DEFAULT_PAGE_SIZE, lastPage, PAGE_SIZES } from "../../domain/pagination.ts";
import { parseMonth, parseRange, parseYear, monthRange, MONTH_NAMES, REPORT_MESSAGES, showDay, type DayRange } from "../../domain/reports.ts";
import { requestContext } from "../context.ts";
import { db } from "../db.server.ts";
import type { ReportQuery } from "../../../db/queries/reports.ts";

/** How a cell is shown and written: money is colones (decimal string), date yyyy-MM-dd, count an integer. */
export type CellKind = "text" | "money" | "date" | "count";

export interface Column<Row> {
  header: string;
  kind: CellKind;
  /** The value: a decimal string for money, yyyy-MM-dd for a date, a number for a count, text. */
  value: (row: Row) => string | number | null;
  /** What the screen shows instead of the value (e.g. '3 veces'); the Excel file keeps the value. */
  display?: (row: Row) => string;
  /** A link on the screen (detail page, client). */
  href?: (row: Row) => string | null;
  /** A tooltip on the screen (the full name, the CABYS description). */
  title?: (row: Row) => string | null;
  /** The screen truncates the text at this many characters (spec §9: 25 for client names). */
  truncate?: number;
  /** Excel column width (characters). */
  width?: number;
  /** The table can be sorted by this column: its key in the report's `sorts` (the header is a link). */
  sort?: string;
}

export interface SummaryItem {
  label: string;
  kind: "money" | "count";
  value: string | number;
}

export interface SummaryGroup {
  title?: string;
  items: SummaryItem[];
}

/** A table of the report: its columns, and either a paged source (the main table) or fixed rows. */
export interface TableDefinition<Row> {
  key: string;
  title?: string;
  columns: Column<Row>[];
  empty: string;
  /** A last row of totals (the same cells kinds), or none. */
  footer?: (string | number | null)[];
}

export interface ReportSummary {
  groups: SummaryGroup[];
  /** Rows of the main table (for its pages). */
  rows: number;
  /** The main table's totals row, when it has one. */
  footer?: (string | number | null)[];
  /** A notice about what this report cannot show yet. */
  notice?: string;
}

export interface ReportDefinition<Row> {
  key: string;
  /** The screen's URL (spec's route); the export is `${path}/excel`. */
  path: string;
  title: string;
  /** The Excel file's name (spec §9). */
  fileName: string;
  /** Lines under the title: what the figures are (conversion, notes, exclusions). */
  notes: string[];
  period: "range" | "year" | "month";
  search: boolean;
  filter?: { param: string; label: string; all: string; options: { value: string; label: string }[] };
  /** Columns the table can be sorted by (`orden=<key>&dir=asc|desc`); without one, the report's own order. */
  sorts?: readonly string[];
  /** The paged main table: its columns, its empty text. */
  main?: TableDefinition<Row> & {
    page: (db: Db, q: ReportQuery, cut: { offset: number; limit: number }) => Promise<Row[]>;
    batches: (db: Db, q: ReportQuery) => AsyncIterable<Row[]>;
    /**
     * A page and the summary from one query (window aggregates), for a report whose rows are
     * themselves aggregates (items): the screen then groups once instead of twice. Without rows
     * (an empty report, or a page past the end) `summary.rows` still says how many there are.
     */
    pageWithSummary?: (db: Db, q: ReportQuery, cut: { offset: number; limit: number }) => Promise<{ rows: Row[]; summary: ReportSummary }>;
  };
  summary: (db: Db, q: ReportQuery) => Promise<ReportSummary>;
  /** Small fixed tables (the IVA summary's), computed in SQL. */
  tables?: (db: Db, q: ReportQuery) => Promise<FixedTable[]>;
}

// A fixed table's rows are already values (row[i] is column i's value).
export type FixedRow = { values: (string | number | null)[]; href?: (string | null)[]; title?: (string | null)[] };
export interface FixedTable {
  key: string;
  title?: string;
  headers: { header: string; kind: CellKind; width?: number }[];
  rows: FixedRow[];
  empty: string;
  footer?: (string | number | null)[];
}

/** At most this many rows on the printable page ('Imprimir'); more: the Excel export. */
export const PRINT_MAX_ROWS = 2000;

// ---------------------------------------------------------------------------------------------
// The request

export interface ParsedReport {
  query: ReportQuery;
  period: { kind: "range"; desde: string; hasta: string } | { kind: "year"; anio: string } | { kind: "month"; mes: string };
  periodLabel: string;
  error: string | null;
  page: number;
  perPage: number;
  print: boolean;
  /** The query string that keeps the period, search and filter (for links: Excel, print, pages). */
  keep: URLSearchParams;
}

/** Reads the period, search, filter and page of a report URL; `today` is Costa Rica's calendar day. */
export function parseReportRequest<Row>(def: ReportDefinition<Row>, url: URL, companyId: number, today: { year: number; month: number }): ParsedReport {
  const params = url.searchParams;
  const keep = new URLSearchParams();
  let range: DayRange;
  let period: ParsedReport["period"];
  let periodLabel: string;
  let error: string | null;
  if (def.period === "year") {
    const y = parseYear(params, today);
    range = { from: `${y.year}-01-01`, to: `${y.year}-12-31` };
    period = { kind: "year", anio: y.typed };
    periodLabel = `Año ${y.year}`;
    error = y.error;
    if (params.get("anio")) keep.set("anio", y.typed);
  } else if (def.period === "month") {
    const m = parseMonth(params, today);
    range = monthRange(m.year, m.month);
    period = { kind: "month", mes: m.typed };
    periodLabel = `${MONTH_NAMES[m.month - 1]} de ${m.year}`;
    error = m.error;
    if (params.get("mes")) keep.set("mes", m.typed);
  } else {
    const r = parseRange(params, today);
    range = r.range;
    period = { kind: "range", ...r.typed };
    periodLabel = `Del ${showDay(range.from)} al ${showDay(range.to)}`;
    error = r.error;
    if (!r.error && (params.get("desde") || params.get("hasta"))) {
      keep.set("desde", r.typed.desde);
      keep.set("hasta", r.typed.hasta);
    }
  }
  const search = def.search ? (params.get("search") ?? "").trim().slice(0, 100) : "";
  if (search) keep.set("search", search);
  const rawFilter = def.filter ? (params.get(def.filter.param) ?? "") : "";
  const filter = def.filter?.options.some((o) => o.value === rawFilter) ? rawFilter : null;
  if (filter && def.filter) keep.set(def.filter.param, filter);
  const rawSort = def.sorts ? (params.get("orden") ?? "") : "";
  const sort = def.sorts?.includes(rawSort) ? { key: rawSort, dir: params.get("dir") === "desc" ? ("desc" as const) : ("asc" as const) } : null;
  if (sort) {
    keep.set("orden", sort.key);
    keep.set("dir", sort.dir);
  }
  const perPageRaw = Number(params.get("perPage") ?? DEFAULT_PAGE_SIZE);
  const perPage = (PAGE_SIZES as readonly number[]).includes(perPageRaw) ? perPageRaw : DEFAULT_PAGE_SIZE;
  const pageRaw = Number(params.get("page") ?? 1);
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 && pageRaw <= 1_000_000 ? pageRaw : 1;
  return { query: { companyId, range, search, filter, sort }, period, periodLabel, error, page, perPage, print: params.get("imprimir") === "1", keep };
}

function requireCompany(context: Readonly<RouterContextProvider>) {
  const { company } = context.get(requestContext);
  if (!company) throw data("No encontrado", { status: 404 });
  return company;
}

// ---------------------------------------------------------------------------------------------
// The screen

export interface CellView {
  text: string;
  href?: string;
  title?: string;
  numeric?: boolean;
}

export interface TableView {
  key: string;
  title?: string;
  /** A sortable header links to the table sorted by it (`sorted`: its current direction). */
  headers: { text: string; numeric: boolean; href?: string; sorted?: "asc" | "desc" }[];
  rows: CellView[][];
  footer?: CellView[];
  empty: string;
}

export interface ReportView {
  key: string;
  path: string;
  title: string;
  companyName: string;
  notes: string[];
  period: ParsedReport["period"];
  periodLabel: string;
  error: string | null;
  search: string | null;
  filter: { param: string; label: string; all: string; value: string | null; options: { value: string; label: string }[] } | null;
  summary: { title?: string; items: { label: string; text: string }[] }[];
  notice: string | null;
  tables: TableView[];
  page: number;
  perPage: number;
  lastPage: number;
  print: boolean;
  /** The printable page holds only the first PRINT_MAX_ROWS rows. */
  printCapped: boolean;
  rowCount: number;
  /** The report has a paged main table (page size, pages). */
  paged: boolean;
  excelHref: string;
  printHref: string;
  backHref: string;
}

const numericKind = (k: CellKind) => k === "money" || k === "count";

/** How a value is shown: money as ₡1.234,50, a date as dd/MM/yyyy, a count as a number. */
export function showValue(kind: CellKind, value: string | number | null): string {
  if (value === null || value === undefined || value === "") return "";
  if (kind === "money") return formatMoney(String(value), "₡");
  if (kind === "date") {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
    return m ? `${m[3]}/${m[2]}/${m[1]}` : String(value);
  }
  return String(value);
}

function cellOf<Row>(c: Column<Row>, row: Row): CellView {
  const full = c.display ? c.display(row) : showValue(c.kind, c.value(row));
  const cut = c.truncate && full.length > c.truncate ? `${full.slice(0, c.truncate)}…` : full;
  const href = c.href?.(row) ?? undefined;
  const title = c.title?.(row) ?? (cut !== full ? full : undefined);
  return { text: cut, ...(href ? { href } : {}), ...(title ? { title } : {}), ...(numericKind(c.kind) ? { numeric: true } : {}) };
}

const footerCells = (kinds: CellKind[], footer: (string | number | null)[]) => footer.map((v, i) => ({ text: showValue(kinds[i] ?? "text", v), ...(numericKind(kinds[i] ?? "text") ? { numeric: true } : {}) }));

/** The screen of a report: the guard, its request, the summary (SQL), one page of rows, the fixed tables. */
export function loadReport<Row>(def: ReportDefinition<Row>, request: Request, context: Readonly<RouterContextProvider>): Promise<ReportView> {
  // A report's queries are planned for its period and company each time (docs/decisions/179).
  return withCustomPlans(() => reportView(def, request, context));
}

async function reportView<Row>(def: ReportDefinition<Row>, request: Request, context: Readonly<RouterContextProvider>): Promise<ReportView> {
  const company = requireCompany(context);
  const url = new URL(request.url);
  const p = parseReportRequest(def, url, company.id, crCalendar(new Date()));
  const database = db();
  const perPage = p.print ? PRINT_MAX_ROWS : p.perPage;
  const cutOf = (page: number) => ({ offset: (page - 1) * perPage, limit: perPage });
  const fixed = def.tables ? await def.tables(database, p.query) : [];
  let summary: ReportSummary;
  let rows: Row[] = [];
  let page = p.print ? 1 : p.page;
  const combined = def.main?.pageWithSummary;
  if (combined) {
    ({ rows, summary } = await combined(database, p.query, cutOf(page)));
    // A page past the end (the period or search changed): the last one.
    if (!rows.length && summary.rows > 0) ({ rows, summary } = await combined(database, p.query, cutOf((page = lastPage(summary.rows, perPage)))));
  } else {
    summary = await def.summary(database, p.query);
    page = Math.min(page, lastPage(summary.rows, perPage));
    if (def.main && summary.rows > 0) rows = await def.main.page(database, p.query, cutOf(page));
  }
  const withKeep = (extra: Record<string, string>) => {
    const q = new URLSearchParams(p.keep);
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    const s = q.toString();
    return s ? `?${s}` : "";
  };
  const last = lastPage(summary.rows, perPage);
  const tables: TableView[] = [];
  if (def.main) {
    tables.push({
      key: def.main.key,
      title: def.main.title,
      headers: def.main.columns.map((c) => {
        if (!c.sort) return { text: c.header, numeric: numericKind(c.kind) };
        const current = p.query.sort?.key === c.sort ? p.query.sort.dir : undefined;
        const href = `${def.path}${withKeep({ orden: c.sort, dir: current === "asc" ? "desc" : "asc" })}`;
        return { text: c.header, numeric: numericKind(c.kind), href, ...(current ? { sorted: current } : {}) };
      }),
      rows: rows.map((r) => def.main!.columns.map((c) => cellOf(c, r))),
      footer: summary.footer && rows.length ? footerCells(def.main.columns.map((c) => c.kind), summary.footer) : undefined,
      empty: def.main.empty,
    });
  }
  for (const t of fixed) {
    tables.push({
      key: t.key,
      title: t.title,
      headers: t.headers.map((h) => ({ text: h.header, numeric: numericKind(h.kind) })),
      rows: t.rows.map((r) => r.values.map((v, i) => ({ text: showValue(t.headers[i].kind, v), ...(r.href?.[i] ? { href: r.href[i]! } : {}), ...(r.title?.[i] ? { title: r.title[i]! } : {}), ...(numericKind(t.headers[i].kind) ? { numeric: true } : {}) }))),
      footer: t.footer && t.rows.length ? footerCells(t.headers.map((h) => h.kind), t.footer) : undefined,
      empty: t.empty,
    });
  }
  return {
    key: def.key,
    path: def.path,
    title: def.title,
    companyName: company.name,
    notes: def.notes,
    period: p.period,
    periodLabel: p.periodLabel,
    error: p.error,
    search: def.search ? p.query.search : null,
    filter: def.filter ? { ...def.filter, value: p.query.filter } : null,
    summary: summary.groups.map((g) => ({ title: g.title, items: g.items.map((i) => ({ label: i.label, text: i.kind === "money" ? formatMoney(String(i.value), "₡") : String(i.value) })) })),
    notice: summary.notice ?? null,
    tables,
    page,
    perPage: p.perPage,
    lastPage: p.print ? 1 : last,
    print: p.print,
    printCapped: p.print && summary.rows > PRINT_MAX_ROWS,
    rowCount: summary.rows,
    paged: !!def.main,
    excelHref: `${def.path}/excel${withKeep({})}`,
    printHref: `${def.path}${withKeep({ imprimir: "1" })}`,
    backHref: `${def.path}${withKeep({})}`,
  };
}

export { REPORT_MESSAGES };
