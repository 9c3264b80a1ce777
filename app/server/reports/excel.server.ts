// 'Exportar a Excel' (spec part 2 "Reports", §9; DESIGN §5; docs/decisions/151-report-foundation.md):
// a real .xlsx written by exceljs' streaming WorkbookWriter straight into the response while the
// rows are read from the database in batches (a cursor on PostgreSQL, keyset pages on PGlite), so
// memory stays flat however many rows the report has. At the top: the title, the company, the
// period, the search and the summary band; then the tables. Money cells are numbers in colones with
// a ₡ format, dates are dates, counts are numbers.
import { PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import ExcelJS from "exceljs";
import type { RouterContextProvider } from "react-router";
import { data } from "react-router";
import type { Db } from "../../../db/client.ts";
import { withCustomPlans } from "../../../db/custom-plans.ts";
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

/**
 * A worksheet's XML on its way into the zip, in place of exceljs' own StreamBuf (which handed every
 * 64 kB to the compressor whether or not it kept up — 15 MB of XML waited there during a 100,000-row
 * export —, and copied each row's XML into a Buffer of its own and then into a new 64 kB one). Here
 * the rows' XML strings are gathered into one Buffer per ~32,000 characters, and the writer asks
 * `room()` before each batch of rows: it answers once at most SHEET_XML_READY characters wait for
 * the compressor, so the compressor always has work while the next rows are read and written, and
 * the waiting XML stays small (it waits as strings on the heap: a megabyte of them lived long enough
 * to be copied into the collector's old generation).
 */
export class SheetXmlStream extends Transform {
  private parts: string[] = [];
  private size = 0;
  private waiting: (() => void) | null = null;
  constructor() {
    super({ writableHighWaterMark: SHEET_XML_BUFFER, readableHighWaterMark: 64 * 1024, decodeStrings: false });
    const wake = () => this.wake(true);
    this.on("drain", wake);
    this.on("close", wake);
  }
  /** Resolves once at most SHEET_XML_READY characters wait for the compressor (at once if so), or the stream is closed. */
  room(): Promise<void> {
    if (this.destroyed || this.writableLength <= SHEET_XML_READY) return Promise.resolve();
    return new Promise((resolve) => {
      const before = this.waiting;
      this.waiting = () => {
        before?.();
        resolve();
      };
    });
  }
  private wake(always = false) {
    if (this.waiting && (always || this.writableLength <= SHEET_XML_READY)) {
      const w = this.waiting;
      this.waiting = null;
      w();
    }
  }
  // exceljs also writes its StringBuf (a reused buffer): copy it now, before exceljs reuses it.
  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const data = typeof chunk === "string" || Buffer.isBuffer(chunk) ? chunk : (chunk as { toBuffer(): Buffer }).toBuffer();
    return super.write(data, encoding as BufferEncoding, callback as (error?: Error | null) => void);
  }
  override _transform(chunk: string | Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (typeof chunk === "string") {
      this.parts.push(chunk);
      this.size += chunk.length;
      if (this.size >= 32_000) this.flushParts();
    } else {
      this.flushParts();
      this.push(chunk);
    }
    callback();
    // The compressor took some: the writer may go on.
    this.wake();
  }
  override _flush(callback: TransformCallback) {
    this.flushParts();
    callback();
  }
  private flushParts() {
    if (!this.parts.length) return;
    this.push(Buffer.from(this.parts.join(""), "utf8"));
    this.parts = [];
    this.size = 0;
  }
}

/** The most of a worksheet's XML (characters) that may wait for the compressor: write() says false beyond. */
export const SHEET_XML_BUFFER = 256 * 1024;
/** The writer writes its next batch of rows once at most this much of the XML waits for the compressor. */
export const SHEET_XML_READY = 64 * 1024;

/**
 * A streaming WorkbookWriter whose worksheets are written through SheetXmlStream. exceljs (pinned
 * at 4.4.0) opens each worksheet's part with its `_openStream(path)`: the stream is appended to the
 * zip and announces 'zipped' when finished, as exceljs' own does. The streams are returned so the
 * writer can wait on them.
 */
function workbookWriter(stream: NodeJS.WritableStream): { wb: ExcelJS.stream.xlsx.WorkbookWriter; sheets: SheetXmlStream[] } {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: stream as never, useStyles: true, useSharedStrings: false });
  const sheets: SheetXmlStream[] = [];
  const internal = wb as unknown as { zip: { append(source: NodeJS.ReadableStream, data: { name: string }): void }; _openStream(path: string): SheetXmlStream };
  if (typeof internal._openStream !== "function" || typeof internal.zip?.append !== "function") throw new Error("exceljs: WorkbookWriter._openStream no encontrado (¿otra versión de exceljs?)");
  internal._openStream = (path: string) => {
    const sheet = new SheetXmlStream();
    internal.zip.append(sheet, { name: path });
    sheet.on("finish", () => sheet.emit("zipped"));
    sheets.push(sheet);
    return sheet;
  };
  return { wb, sheets };
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

/** Resolves when the stream has drained, or is closed (then there is nothing to wait for). */
export function drained(stream: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

/**
 * Waits until the compressor has little of the worksheets' XML left to do (SheetXmlStream.room);
 * false when a worksheet's stream is gone (the file's reader went away): nothing more is written.
 */
async function caughtUp(sheets: SheetXmlStream[]): Promise<boolean> {
  for (const sheet of sheets) {
    await sheet.room();
    if (sheet.destroyed) return false;
  }
  return true;
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
  const { wb, sheets } = workbookWriter(stream);
  // The file's stream closed before the end (its reader went away): nothing will take the
  // worksheets' XML any more, so the writer must not wait for them — it stops.
  stream.once("close", () => sheets.forEach((s) => s.destroy()));
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
      // The next batch is read while this one is written: a database round trip (two for the
      // sales reports: their rows, then their notes' totals) would otherwise leave the writer idle
      // once per batch.
      const batches = main.batches(input.db, parsed.query)[Symbol.asyncIterator]();
      const ahead = () => {
        const p = batches.next();
        p.catch(() => {}); // awaited below; a failure is not "unhandled" while this batch is written
        return p;
      };
      try {
        for (let next = ahead(); ; ) {
          const { done, value: batch } = await next;
          if (done) break;
          next = ahead();
          // While the compressor is behind, write no more rows: the XML waiting for it stays small,
          // however fast the database answers.
          if (!(await caughtUp(sheets))) return { rows: count };
          // Each row leaves its batch as it is written, so it dies young: a batch kept whole lived
          // through the collector's young generation and was copied to the old one, a megabyte
          // each time (the heap then grew by 60–100 MB during an export of 100,000 rows).
          for (let i = 0; i < batch.length; i++) {
            const r = batch[i];
            (batch as (Row | undefined)[])[i] = undefined;
            writeRow(ws, kinds, main.columns.map((c) => c.value(r)));
          }
          count += batch.length;
          // Let the compressor and the response run between batches: PGlite answers on this thread,
          // so without a turn of the event loop nothing would leave until the last row.
          await yieldToEventLoop();
          // The reader went away: stop reading rows, write nothing more.
          if (input.pace && !(await input.pace())) return { rows: count };
        }
      } finally {
        // Stopped early (or failed): the batch being read ahead is dropped and the rows' cursor closed.
        await batches.return?.(undefined).catch(() => {});
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
export function excelResponse<Row>(def: ReportDefinition<Row>, request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  // Its queries, those that stream the rows included, are planned for the period and company (docs/decisions/179).
  return withCustomPlans(() => excelStream(def, request, context));
}

async function excelStream<Row>(def: ReportDefinition<Row>, request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
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
    if (out.writableNeedDrain) await drained(out);
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
