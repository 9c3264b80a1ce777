// 'Exportar a Excel' (spec part 2 "Reports", §9; DESIGN §5; docs/decisions/151-report-foundation.md):
// a real .xlsx written by exceljs' streaming WorkbookWriter straight into the response while the
// rows are read from the database in batches (a cursor on PostgreSQL, keyset pages on PGlite), so
// memory stays flat however many rows the report has. At the top: the title, the company, the
// period, the search and the summary band; then the tables. Money cells are numbers in colones with
// a ₡ format, dates are dates, counts are numbers.
import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import ExcelJS from "exceljs";
import type { RouterContextProvider } from "react-router";
import { data } from "react-router";
import type { Db } from "../../../db/client.ts";
import { crCalendar } from "../../domain/format.ts";
import { requestContext } from "../context.ts";
import { db } from "../db.server.ts";
import { parseReportRequest, type CellKind, type ReportDefinition, type ReportSummary, type FixedTable, type ParsedReport } from "./report.server.ts";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const MONEY_FORMAT = '"₡"#,##0.00;-"₡"#,##0.00';
export const DATE_FORMAT = "dd/mm/yyyy";

type Value = string | number | null;

/** A cell's value as written: money and counts are numbers, a yyyy-MM-dd day is a date (midnight UTC: Excel has no zones). */
export function excelValue(kind: CellKind, value: Value): string | number | Date | null {
  if (value === null || value === undefined || value === "") return null;
  if (kind === "money" || kind === "count") return Number(value);
  if (kind === "date") {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
    return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : String(value);
  }
  return String(value);
}

// One style object per kind of cell, shared by every cell: exceljs caches a style by its object,
// so a shared object costs a lookup while a new one per cell is rendered and indexed each time
// (about half the export's CPU time for 100,000 rows).
const STYLES: Record<CellKind | "header" | "bold" | "title", Partial<ExcelJS.Style>> = {
  text: {},
  count: {},
  money: { numFmt: MONEY_FORMAT },
  date: { numFmt: DATE_FORMAT },
  header: { font: { bold: true }, fill: { type: "pattern", pattern: "solid", fgColor: { argb: "FFE2E8F0" } }, alignment: { vertical: "middle", wrapText: true } },
  bold: { font: { bold: true } },
  title: { font: { bold: true, size: 14 } },
};
const BOLD_MONEY: Partial<ExcelJS.Style> = { numFmt: MONEY_FORMAT, font: { bold: true } };

interface Sheet {
  addRow(values: unknown[]): { getCell(i: number): { style: Partial<ExcelJS.Style> }; commit(): void };
}

function writeRow(ws: Sheet, kinds: CellKind[], values: Value[], style?: "header" | "bold" | "title") {
  const row = ws.addRow(values.map((v, i) => excelValue(kinds[i] ?? "text", v)));
  for (let i = 0; i < values.length; i++) {
    const kind = kinds[i] ?? "text";
    row.getCell(i + 1).style = style === "bold" && kind === "money" ? BOLD_MONEY : style ? STYLES[style] : STYLES[kind];
  }
  row.commit();
}

export interface WorkbookInput<Row> {
  def: ReportDefinition<Row>;
  parsed: ParsedReport;
  companyName: string;
  summary: ReportSummary;
  fixed: FixedTable[];
  db: Db;
  /** Called after each batch: waits while the reader is behind; false stops (the reader went away). */
  pace?: () => Promise<boolean>;
}

type Line = { kinds: CellKind[]; values: Value[]; style?: "header" | "bold" | "title" };

/** Everything above the main table: title, company, period, criteria, notes, summary, fixed tables. */
function headLines<Row>(input: WorkbookInput<Row>): Line[] {
  const { def, parsed, summary } = input;
  const out: Line[] = [];
  const line = (value: Value, style?: Line["style"]) => out.push({ kinds: ["text"], values: [value], style });
  line(def.title, "title");
  line(input.companyName);
  line(parsed.periodLabel);
  const filter = parsed.query.filter && def.filter ? `${def.filter.label}: ${def.filter.options.find((o) => o.value === parsed.query.filter)?.label ?? ""}` : "";
  const criteria = [parsed.query.search ? `Búsqueda: ${parsed.query.search}` : "", filter].filter(Boolean).join(" · ");
  if (criteria) line(criteria);
  for (const note of [...def.notes, ...(summary.notice ? [summary.notice] : [])]) line(note);
  line(null);
  for (const g of summary.groups) {
    if (g.title) line(g.title, "bold");
    for (const item of g.items) out.push({ kinds: ["text", item.kind], values: [item.label, item.value] });
    line(null);
  }
  for (const t of input.fixed) {
    if (t.title) line(t.title, "bold");
    const kinds = t.headers.map((h) => h.kind);
    out.push({ kinds: t.headers.map(() => "text"), values: t.headers.map((h) => h.header), style: "header" });
    if (t.rows.length === 0) line(t.empty);
    for (const r of t.rows) out.push({ kinds, values: r.values });
    if (t.footer && t.rows.length) out.push({ kinds, values: t.footer, style: "bold" });
    line(null);
  }
  return out;
}

/**
 * Writes the whole workbook into `stream` (ended when done); the main table's rows as they are read.
 * The summary and fixed tables may still be on their way: the file's first entries (theme, package
 * relations) go out at once, so the browser's download starts while the database adds them up.
 */
export async function writeReportWorkbook<Row>(
  stream: NodeJS.WritableStream,
  pending: Omit<WorkbookInput<Row>, "summary" | "fixed"> & { summary: ReportSummary | Promise<ReportSummary>; fixed: FixedTable[] | Promise<FixedTable[]> },
): Promise<{ rows: number }> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: stream as never, useStyles: true, useSharedStrings: false });
  wb.creator = "Colibrí";
  await yieldToEventLoop();
  const [summary, fixed] = await Promise.all([pending.summary, pending.fixed]);
  const input: WorkbookInput<Row> = { ...pending, summary, fixed };
  const { def, parsed } = input;
  const main = def.main;
  const head = headLines(input);
  const widths = (main ? main.columns : (input.fixed[0]?.headers ?? [])).map((c) => c.width ?? (c.kind === "money" ? 16 : c.kind === "date" || c.kind === "count" ? 12 : 24));
  // The main table's header row stays in view while scrolling.
  const ws = wb.addWorksheet(def.title.slice(0, 31), { views: main ? [{ state: "frozen", ySplit: head.length + 1 }] : [] }) as unknown as Sheet & { columns: unknown; commit(): void };
  ws.columns = widths.map((width) => ({ width: Math.max(width, 12) }));
  for (const l of head) writeRow(ws, l.kinds, l.values, l.style);
  let count = 0;
  if (main) {
    const kinds = main.columns.map((c) => c.kind);
    writeRow(ws, main.columns.map(() => "text"), main.columns.map((c) => c.header), "header");
    if (summary.rows > 0) {
      for await (const batch of main.batches(input.db, parsed.query)) {
        for (const r of batch) writeRow(ws, kinds, main.columns.map((c) => c.value(r)));
        count += batch.length;
        // Let the compressor and the response run between batches: PGlite answers on this thread,
        // so without a turn of the event loop nothing would leave until the last row.
        await yieldToEventLoop();
        // The reader went away: stop reading rows, write nothing more.
        if (input.pace && !(await input.pace())) return { rows: count };
      }
    }
    if (count === 0) writeRow(ws, ["text"], [main.empty]);
    else if (summary.footer) writeRow(ws, kinds, summary.footer, "bold");
  }
  ws.commit();
  await wb.commit();
  return { rows: count };
}

/**
 * The 'Exportar a Excel' response of a report: the guard, its request (the same parameters as the
 * screen), then the workbook streamed at once: the summary and fixed tables (SQL) at its top as
 * soon as they are ready, then the rows while they are read.
 */
export async function excelResponse<Row>(def: ReportDefinition<Row>, request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  const { company } = context.get(requestContext);
  if (!company) throw data("No encontrado", { status: 404 });
  const parsed = parseReportRequest(def, new URL(request.url), company.id, crCalendar(new Date()));
  const database = db();
  const summary = def.summary(database, parsed.query);
  const fixed = def.tables ? def.tables(database, parsed.query) : Promise.resolve([] as FixedTable[]);
  // The response starts before these answer: a failure cuts the download (the writer below destroys
  // the stream); the page's script then shows the error toast, a browser without it a failed download.
  summary.catch(() => {});
  fixed.catch(() => {});
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const pace = async () => {
    if (out.destroyed) return false;
    if (out.writableNeedDrain) await Promise.race([once(out, "drain"), once(out, "close")]);
    return !out.destroyed;
  };
  request.signal?.addEventListener("abort", () => out.destroy());
  writeReportWorkbook(out, { def, parsed, companyName: company.name, summary, fixed, db: database, pace }).catch((error) => {
    console.error(`[reportes] Excel de ${def.key}: ${(error as Error).message}`);
    out.destroy(error as Error);
  });
  return new Response(Readable.toWeb(out) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${def.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
