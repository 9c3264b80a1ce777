// The reports (issue 13; docs/decisions/151–153) with known data (tests/fixtures/reports.ts: credit
// and debit notes, a dollar invoice and a dollar note at its own rate, an exonerated line, IVA
// devuelto, a rejected invoice and a rejected note that must not count): for each report the figures
// on the screen (the loader's view), in the summary band and in the .xlsx read back with exceljs
// agree to the céntimo with the figures worked out by hand. Also: the range (default, typed, bad),
// search, the notes filter, pages, tenancy, the plan rules, and the keyset batches of the export.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { eq, sql } from "drizzle-orm";
import { companies, documentLines, items } from "../../db/schema/index.ts";
import { rows } from "../../db/client.ts";
import { salesRowsSql, type SalesReportRow } from "../../db/queries/reports.ts";
import { orderedBatches } from "../../app/server/reports/rows.server.ts";
import { excelResponse, SHEET_XML_BUFFER, writeReportWorkbook } from "../../app/server/reports/excel.server.ts";
import { parseReportRequest, type ReportDefinition } from "../../app/server/reports/report.server.ts";
import { PassThrough, Readable } from "node:stream";
import { createHash } from "node:crypto";
import { invoicesReport } from "../../app/server/reports/sales.server.ts";
import { requestContext } from "../../app/server/context.ts";
import { RouterContextProvider } from "react-router";
import type { ReportView } from "../../app/server/reports/report.server.ts";
import * as invoicesRoute from "../../app/routes/reports/report-invoices.tsx";
import * as ticketsRoute from "../../app/routes/reports/report-tickets.tsx";
import * as notesRoute from "../../app/routes/reports/report-notes.tsx";
import * as expensesRoute from "../../app/routes/reports/report-expenses.tsx";
import * as itemsRoute from "../../app/routes/reports/report-items.tsx";
import * as ivaRoute from "../../app/routes/reports/report-iva.tsx";
import * as excelRoute from "../../app/routes/reports/report-excel.tsx";
import { issuingCompany } from "../fixtures/issuing.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import { OCTOBER, seedReportData } from "../fixtures/reports.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let seeded: Awaited<ReturnType<typeof seedReportData>>;
let browser: Browser;

const OCT = "desde=01-10-2026&hasta=31-10-2026";

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  seeded = await seedReportData(database.db, { companyId: a.company.id, userId: a.user.id, clientId: a.client.id, genericId: a.generic.id, providerId: a.provider.id });
  browser = await signedIn(database.db, a.user.id, a.company.id);
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

/** "₡1.135.750,00" → "1135750.00" (the screen's money back to a decimal string). */
const plain = (text: string) => text.replace("₡", "").replace(/\./g, "").replace(",", ".");

async function view(route: { loader: (args: never) => unknown }, path: string): Promise<ReportView> {
  const r = await call(browser, route.loader as never, { path });
  expect(r.status, path).toBe(200);
  return r.data as ReportView;
}

function summaryOf(v: ReportView, group = 0): Record<string, string> {
  return Object.fromEntries(v.summary[group].items.map((i) => [i.label, /^-?₡/.test(i.text) ? plain(i.text) : i.text]));
}

const expectSummary = (v: ReportView, expected: Record<string, string | number>, group = 0) => expect(summaryOf(v, group)).toEqual(Object.fromEntries(Object.entries(expected).map(([k, x]) => [k, String(x)])));

/** The table's rows as texts (money as decimal strings). */
function tableOf(v: ReportView, key?: string) {
  const t = key ? v.tables.find((x) => x.key === key)! : v.tables[0];
  const headers = t.headers.map((h) => h.text);
  return t.rows.map((r) => Object.fromEntries(r.map((c, i) => [headers[i], /^-?₡/.test(c.text) ? plain(c.text) : c.text])));
}

interface Sheet {
  /** Column A label → column B value of the rows above the table (the first of each label). */
  labels: Map<string, unknown>;
  headerRow: number;
  headers: string[];
  data: Record<string, unknown>[];
  sheet: ExcelJS.Worksheet;
}

async function excel(path: string): Promise<{ sheet: Sheet; filename: string; bytes: Buffer }> {
  const r = await call(browser, excelRoute.loader as never, { path });
  expect(r.status, path).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  const filename = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") ?? "")![1];
  const bytes = Buffer.from(await r.response.arrayBuffer());
  expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.worksheets[0];
  return { sheet: readSheet(ws, "Consecutivo"), filename, bytes };
}

/** Reads a report sheet: the label/value rows at the top, then the table whose first header is `first`. */
function readSheet(ws: ExcelJS.Worksheet, first: string): Sheet {
  const labels = new Map<string, unknown>();
  let headerRow = 0;
  ws.eachRow((row, n) => {
    const a = row.getCell(1).value;
    if (!headerRow && a === first) headerRow = n;
    // The first time a label appears (the IVA summary's purchases repeat 'Base imponible').
    if (!headerRow && typeof a === "string" && !labels.has(a) && row.getCell(2).value !== null && row.getCell(2).value !== undefined) labels.set(a, row.getCell(2).value);
  });
  const headers = headerRow ? (ws.getRow(headerRow).values as unknown[]).slice(1).map(String) : [];
  const data: Record<string, unknown>[] = [];
  for (let n = headerRow + 1; headerRow && n <= ws.rowCount; n++) {
    const values = (ws.getRow(n).values as unknown[]).slice(1);
    if (!values.length) continue;
    data.push(Object.fromEntries(headers.map((h, i) => [h, values[i] ?? null])));
  }
  return { labels, headerRow, headers, data, sheet: ws };
}

const cents = (v: unknown) => (typeof v === "number" ? v.toFixed(2) : String(v));

describe("invoices report", () => {
  it("screen, summary band and Excel agree to the céntimo with the hand-worked figures (notes netted, dollars converted, rejected left out)", async () => {
    const v = await view(invoicesRoute, `/report-invoices?${OCT}`);
    expect(v.periodLabel).toBe("Del 01-10-2026 al 31-10-2026");
    expect(v.period).toEqual({ kind: "range", desde: "01-10-2026", hasta: "31-10-2026" });
    expectSummary(v, OCTOBER.invoices.summary);
    const rowsShown = tableOf(v);
    expect(rowsShown).toHaveLength(4);
    const { fe1, fe2, fe3, fe5 } = OCTOBER.invoices.rows;
    const expected = [fe1, fe2, fe3, fe5].map((x) => ({ "Total NC": x.ncTotal, "Total ND": x.ndTotal, Subtotal: x.subtotal, Descuento: x.discount, IVA: x.tax, "IVA Devuelto": x.ivaDevuelto, Total: x.total }));
    expect(rowsShown.map((r) => ({ "Total NC": r["Total NC"], "Total ND": r["Total ND"], Subtotal: r.Subtotal, Descuento: r.Descuento, IVA: r.IVA, "IVA Devuelto": r["IVA Devuelto"], Total: r.Total }))).toEqual(expected);
    // Links: the consecutive to the detail, the client to its page; the hotel's long name cut at 25.
    const t = v.tables[0];
    expect(t.rows[0][0].href).toBe(`/detail/invoice/${seeded.ids.fe1.documentId}`);
    expect(t.rows[0][1].href).toBe(`/client-detail/${a.client.id}`);
    expect(t.rows[1][1]).toMatchObject({ text: "Hotel Playa Hermosa de Gu…", title: "Hotel Playa Hermosa de Guanacaste Sociedad Anónima", href: `/client-detail/${seeded.hotel.id}` });
    expect(t.rows.map((r) => r[0].text)).not.toContain(seeded.ids.fe4.consecutivo);
    expect(t.rows.map((r) => r[3].text)).toEqual(["02/10/2026", "05/10/2026", "08/10/2026", "12/10/2026"]);

    const { sheet, filename } = await excel(`/report-invoices/excel?${OCT}`);
    expect(filename).toBe("reporte_facturas.xlsx");
    for (const [label, value] of Object.entries(OCTOBER.invoices.summary)) expect(cents(sheet.labels.get(label)), label).toBe(typeof value === "number" ? value.toFixed(2) : value);
    expect(sheet.labels.get("Del 01-10-2026 al 31-10-2026")).toBeUndefined();
    expect(sheet.headers).toEqual(["Consecutivo", "Cliente", "Cédula Cliente", "Fecha", "Total NC", "Total ND", "Subtotal", "Descuento", "IVA", "IVA Devuelto", "Total"]);
    expect(sheet.data).toHaveLength(4);
    expect(sheet.data.map((r) => ({ "Total NC": cents(r["Total NC"]), "Total ND": cents(r["Total ND"]), Subtotal: cents(r.Subtotal), Descuento: cents(r.Descuento), IVA: cents(r.IVA), "IVA Devuelto": cents(r["IVA Devuelto"]), Total: cents(r.Total) }))).toEqual(expected);
    // Money is a number with the ₡ format, the date a date; the client's full name.
    const firstData = sheet.sheet.getRow(sheet.headerRow + 1);
    expect(typeof firstData.getCell(11).value).toBe("number");
    expect(firstData.getCell(11).numFmt).toContain("₡");
    expect(firstData.getCell(4).value).toEqual(new Date(Date.UTC(2026, 9, 2)));
    expect(firstData.getCell(4).numFmt).toBe("dd/mm/yyyy");
    expect(sheet.data[1].Cliente).toBe("Hotel Playa Hermosa de Guanacaste Sociedad Anónima");
    // The rows add up to the summary exactly.
    const sum = (k: string) => sheet.data.reduce((s, r) => s + Math.round(Number(r[k]) * 100), 0) / 100;
    expect(sum("Total").toFixed(2)).toBe(OCTOBER.invoices.summary["Total Neto"]);
    expect(sum("IVA").toFixed(2)).toBe(OCTOBER.invoices.summary.IVA);
  });

  it("search narrows rows and summary alike; no match shows the empty text; Excel follows the same search", async () => {
    const v = await view(invoicesRoute, `/report-invoices?${OCT}&search=hotel`);
    expect(tableOf(v)).toHaveLength(1);
    expectSummary(v, { Cantidad: 1, "Subtotal Ventas": "45425.00", Descuentos: "0.00", IVA: "5905.25", "IVA Devuelto": "0.00", "Total Neto": "51330.25" });
    expect(v.excelHref).toBe("/report-invoices/excel?desde=01-10-2026&hasta=31-10-2026&search=hotel");
    const { sheet } = await excel(v.excelHref);
    expect(sheet.data).toHaveLength(1);
    expect(cents(sheet.data[0].Total)).toBe("51330.25");
    expect(sheet.labels.get("Búsqueda: hotel")).toBeUndefined();
    // A beginning finds it too when no whole word does ("guanac" → Guanacaste), as in the lists.
    const beginning = await view(invoicesRoute, `/report-invoices?${OCT}&search=guanac`);
    expect(tableOf(beginning).map((r) => r.Total)).toEqual(["51330.25"]);
    expect(summaryOf(beginning).Cantidad).toBe("1");
    const none = await view(invoicesRoute, `/report-invoices?${OCT}&search=zzzz`);
    expect(none.tables[0].rows).toHaveLength(0);
    expect(none.tables[0].empty).toBe("No hay facturas");
    expectSummary(none, { Cantidad: 0, "Subtotal Ventas": "0.00", Descuentos: "0.00", IVA: "0.00", "IVA Devuelto": "0.00", "Total Neto": "0.00" });
    const emptyFile = await excel(`/report-invoices/excel?${OCT}&search=zzzz`);
    expect(emptyFile.sheet.data.map((r) => r.Consecutivo)).toEqual(["No hay facturas"]);
  });

  it("the default range is the current month, shown dd-MM-yyyy; a bad range says so, keeps what was typed and shows the current month", async () => {
    const now = new Date();
    const cr = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Costa_Rica", year: "numeric", month: "2-digit" }).format(now).split("-");
    const last = new Date(Date.UTC(Number(cr[0]), Number(cr[1]), 0)).getUTCDate();
    const v = await view(invoicesRoute, "/report-invoices");
    expect(v.period).toEqual({ kind: "range", desde: `01-${cr[1]}-${cr[0]}`, hasta: `${last}-${cr[1]}-${cr[0]}` });
    expect(v.error).toBeNull();
    const bad = await view(invoicesRoute, "/report-invoices?desde=31-02-2026&hasta=05-10-2026");
    expect(bad.error).toBe("Escriba las fechas como dd-mm-aaaa (por ejemplo 01-11-2026).");
    expect(bad.period).toEqual({ kind: "range", desde: "31-02-2026", hasta: "05-10-2026" });
    expect(bad.periodLabel).toBe(`Del 01-${cr[1]}-${cr[0]} al ${last}-${cr[1]}-${cr[0]}`);
    const reversed = await view(invoicesRoute, "/report-invoices?desde=31-10-2026&hasta=01-10-2026");
    expect(reversed.error).toBe("La fecha inicial debe ser anterior o igual a la final.");
    // One day: the 2nd of October in Costa Rica only (FE1).
    const day = await view(invoicesRoute, "/report-invoices?desde=02-10-2026&hasta=02-10-2026");
    expect(summaryOf(day).Cantidad).toBe("1");
  });
});

describe("tickets report", () => {
  it("October: the one ticket; September: eleven tickets on two pages (pager only then), Excel holds all eleven", async () => {
    const v = await view(ticketsRoute, `/report-tickets?${OCT}`);
    expectSummary(v, OCTOBER.tickets.summary);
    expect(v.lastPage).toBe(1);
    const t = v.tables[0];
    expect(t.rows[0][1]).toMatchObject({ text: "Cliente genérico" });
    expect(t.rows[0][1].href).toBeUndefined();
    const sep = "desde=01-09-2026&hasta=30-09-2026";
    const p1 = await view(ticketsRoute, `/report-tickets?${sep}`);
    expect(p1.lastPage).toBe(2);
    expect(p1.tables[0].rows).toHaveLength(10);
    expectSummary(p1, { Cantidad: 11, "Subtotal Ventas": "11000.00", Descuentos: "0.00", IVA: "1430.00", "IVA Devuelto": "0.00", "Total Neto": "12430.00" });
    const p2 = await view(ticketsRoute, `/report-tickets?${sep}&page=2`);
    expect(p2.tables[0].rows).toHaveLength(1);
    expect(p2.tables[0].rows[0][0].text).toBe(seeded.ids.september[10].consecutivo);
    const { sheet, filename } = await excel(`/report-tickets/excel?${sep}`);
    expect(filename).toBe("reporte_tiquetes.xlsx");
    expect(sheet.data.map((r) => r.Consecutivo)).toEqual(seeded.ids.september.map((s) => s.consecutivo));
    // The printable page holds every row on one page.
    const print = await view(ticketsRoute, `/report-tickets?${sep}&imprimir=1`);
    expect(print.tables[0].rows).toHaveLength(11);
    expect(print.print).toBe(true);
    expect(print.lastPage).toBe(1);
  });
});

describe("notes report", () => {
  it("separate credit and debit summaries, 'Pertenece a' with FE- and a link, the Todo/NCS/NDS filter, Excel alike", async () => {
    const v = await view(notesRoute, `/report-notes?${OCT}`);
    expect(v.summary.map((g) => g.title)).toEqual(["Notas de crédito", "Notas de débito"]);
    expectSummary(v, OCTOBER.notes.nc, 0);
    expectSummary(v, OCTOBER.notes.nd, 1);
    const shown = tableOf(v);
    expect(shown.map((r) => r.Tipo)).toEqual(["Nota de Crédito", "Nota de Débito", "Nota de Crédito"]);
    const fe1 = seeded.ids.fe1.consecutivo!;
    expect(shown[0]["Pertenece a"]).toBe(`FE-${fe1.slice(10)}`);
    expect(v.tables[0].rows[0][2].href).toBe(`/detail/invoice/${seeded.ids.fe1.documentId}`);
    expect(shown[2]).toMatchObject({ "Pertenece a": `FE-${seeded.ids.fe2.consecutivo!.slice(10)}`, Subtotal: "5100.00", IVA: "663.00", Total: "5763.00" });
    expect(shown.map((r) => r.Consecutivo)).not.toContain(seeded.ids.nc2.consecutivo);
    const nds = await view(notesRoute, `/report-notes?${OCT}&tipo=nd`);
    expect(tableOf(nds).map((r) => r.Tipo)).toEqual(["Nota de Débito"]);
    expect(nds.summary.map((g) => g.title)).toEqual(["Notas de débito"]);
    const ncs = await view(notesRoute, `/report-notes?${OCT}&tipo=nc`);
    expect(tableOf(ncs)).toHaveLength(2);
    expect(ncs.excelHref).toBe("/report-notes/excel?desde=01-10-2026&hasta=31-10-2026&tipo=nc");

    const r = await call(browser, excelRoute.loader as never, { path: `/report-notes/excel?${OCT}` });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await r.response.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    // Both summaries are at the top, each under its title.
    const column = (c: number) => {
      const out: unknown[] = [];
      ws.eachRow((row) => out.push(row.getCell(c).value));
      return out;
    };
    const a = column(1);
    const b = column(2);
    const ncAt = a.indexOf("Notas de crédito");
    const ndAt = a.indexOf("Notas de débito");
    expect(ncAt).toBeGreaterThan(0);
    expect(ndAt).toBeGreaterThan(ncAt);
    for (const [k, value] of Object.entries(OCTOBER.notes.nc)) expect(cents(b[a.indexOf(k, ncAt)]), k).toBe(typeof value === "number" ? value.toFixed(2) : value);
    for (const [k, value] of Object.entries(OCTOBER.notes.nd)) expect(cents(b[a.indexOf(k, ndAt)]), k).toBe(typeof value === "number" ? value.toFixed(2) : value);
    const sheet = readSheet(ws, "Consecutivo");
    expect(sheet.data.map((x) => [x.Tipo, x["Pertenece a"], cents(x.Total)])).toEqual(shown.map((x) => [x.Tipo, x["Pertenece a"], x.Total]));
  });
});

describe("items report", () => {
  it("one row per item with 'N veces', the CABYS tooltip or 'S/C', amounts in colones; Excel alike", async () => {
    const v = await view(itemsRoute, `/report-items?${OCT}`);
    expectSummary(v, OCTOBER.items.summary);
    const shown = tableOf(v);
    expect(shown.map((r) => ({ description: r["Descripción"], times: r.Facturado, subtotal: r.Subtotal, discount: r.Descuento, tax: r.IVA, total: r.Total }))).toEqual(
      OCTOBER.items.rows.map((x) => ({ description: x.description, times: x.times === 1 ? "1 vez" : `${x.times} veces`, subtotal: x.subtotal, discount: x.discount, tax: x.tax, total: x.total })),
    );
    const laptop = v.tables[0].rows[0];
    expect(laptop[1]).toMatchObject({ text: "4523000000100", title: "4523000000100 — Computadoras portátiles — IVA 13 %" });
    expect(laptop[0].text).toBe("LAP-14");
    const r = await call(browser, excelRoute.loader as never, { path: `/report-items/excel?${OCT}` });
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="reporte-productos.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await r.response.arrayBuffer()) as never);
    const sheet = readSheet(wb.worksheets[0], "Código");
    expect(sheet.data.map((x) => [x["Descripción"], x.Facturado, cents(x.Total)])).toEqual(OCTOBER.items.rows.map((x) => [x.description, x.times, x.total]));
    for (const [label, value] of Object.entries(OCTOBER.items.summary)) expect(cents(sheet.labels.get(label)), label).toBe(typeof value === "number" ? value.toFixed(2) : value);
    // A page past the end shows the last one (one query gives the page and the summary).
    const past = await view(itemsRoute, `/report-items?${OCT}&page=9`);
    expect([past.page, past.lastPage, past.tables[0].rows.length]).toEqual([1, 1, 5]);
    expectSummary(past, OCTOBER.items.summary);
    // Lines of a catalogue item are one row with the item's current code and name.
    const [item] = await database.db.insert(items).values({ companyId: a.company.id, code: "PORT-14", cabysCode: "4523000000100", name: "Portátil de catálogo", description: "Portátil", categoryId: 1, unitCode: "Unid", taxTypeId: 1, price: "450000" }).returning();
    const laptopLines = sql`description = 'Computadora portátil 14 pulgadas' and company_id = ${a.company.id}`;
    await database.db.update(documentLines).set({ itemId: item.id }).where(laptopLines);
    try {
      const catalogue = tableOf(await view(itemsRoute, `/report-items?${OCT}`));
      expect(catalogue.find((r) => r["Descripción"] === "Portátil de catálogo")).toMatchObject({ Código: "PORT-14", Facturado: "2 veces", Total: "971800.00" });
    } finally {
      await database.db.update(documentLines).set({ itemId: null }).where(laptopLines);
    }
    const noCabys = await view(itemsRoute, `/report-items?${OCT}&search=consulta`);
    expect(noCabys.tables[0].rows).toHaveLength(1);
    expect(noCabys.tables[0].rows[0][1].title).toBe("8620000000000 — Código no encontrado en el catálogo CABYS");
  });
});

describe("expenses report", () => {
  it("the year (default the current one), one row per category, Enero…Diciembre in colones, totals; Excel alike", async () => {
    const v = await view(expensesRoute, "/report-expenses?anio=2026");
    expect(v.periodLabel).toBe("Año 2026");
    expectSummary(v, OCTOBER.expenses2026.summary);
    const t = v.tables[0];
    expect(t.headers.map((h) => h.text)).toEqual(["Categoría", "Enero", "Febrero", "Marzo", "Abril", "Mayo", "Junio", "Julio", "Agosto", "Septiembre", "Octubre", "Noviembre", "Diciembre", "Total"]);
    const shown = tableOf(v);
    for (const [i, e] of OCTOBER.expenses2026.rows.entries()) {
      expect(shown[i].Categoría).toBe(e.name);
      expect(shown[i].Total).toBe(e.total);
      t.headers.slice(1, 13).forEach((h, m) => expect(shown[i][h.text], `${e.name} ${h.text}`).toBe((e.months as Record<number, string>)[m] ?? "0.00"));
    }
    expect(plain(t.footer![1].text)).toBe(OCTOBER.expenses2026.footer[0]);
    expect(plain(t.footer![10].text)).toBe(OCTOBER.expenses2026.footer[9]);
    expect(plain(t.footer![13].text)).toBe(OCTOBER.expenses2026.footer.total);
    // Costa Rica's year, as the report counts it (until 06:00 UTC on 1 January it is still the last one).
    expect((await view(expensesRoute, "/report-expenses")).period).toEqual({ kind: "year", anio: costaRicaDay(new Date()).slice(0, 4) });
    const bad = await view(expensesRoute, "/report-expenses?anio=20x6");
    expect(bad.error).toBe("Escriba un año entre 2000 y 2100.");
    const search = await view(expensesRoute, "/report-expenses?anio=2026&search=servi");
    expect(tableOf(search).map((r) => r.Categoría)).toEqual(["Servicios"]);
    const empty = await view(expensesRoute, "/report-expenses?anio=2024");
    expect(empty.tables[0].rows).toHaveLength(0);
    expect(empty.tables[0].empty).toBe("No hay Gastos");

    const r = await call(browser, excelRoute.loader as never, { path: "/report-expenses/excel?anio=2026" });
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="reporte-informe-gastos.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await r.response.arrayBuffer()) as never);
    const sheet = readSheet(wb.worksheets[0], "Categoría");
    expect(sheet.data.map((x) => [x["Categoría"], cents(x.Enero), cents(x.Octubre), cents(x.Total)])).toEqual([
      ["Alquiler", "300000.00", "300000.00", "600000.00"],
      ["Servicios", "0.00", "25250.00", "25250.00"],
      ["Total", "300000.00", "325250.00", "625250.00"],
    ]);
    expect(cents(sheet.labels.get("Total del año"))).toBe("625250.00");
  });
});

describe("IVA summary", () => {
  it("by tariff, net of notes, exonerated and IVA devuelto; purchases from the FEC (no received documents here); says it is a working aid; Excel alike", async () => {
    const v = await view(ivaRoute, "/report-iva?mes=2026-10");
    expect(v.periodLabel).toBe("Octubre de 2026");
    expect(v.notes[0]).toMatch(/^Ayuda de trabajo para revisar la declaración del IVA \(D-150\)/);
    expect(v.notice).toBeNull();
    expectSummary(v, OCTOBER.iva.summary, 0);
    expectSummary(v, { "Base imponible": "160000.00", "IVA de compras": "1600.00", "IVA acreditable (crédito fiscal)": "0.00" }, 1);
    const sales = tableOf(v, "sales-by-tariff");
    const byCode = Object.fromEntries(sales.map((r) => [r["Código"], r]));
    expect(sales.map((r) => r["Código"])).toEqual(["08", "04", "03", "02", "09", "01", "10", "11"]);
    for (const code of ["08", "04"] as const) {
      const e = OCTOBER.iva[code];
      expect(byCode[code], code).toMatchObject({ "Base imponible": e.base, IVA: e.tax, "Base exonerada": e.exBase, "IVA exonerado": e.exTax });
    }
    expect(byCode["10"]).toMatchObject({ Tarifa: "Exento", "Base imponible": "0.00" });
    const kinds = tableOf(v, "sales-by-kind");
    expect(kinds.map((r) => [r.Documento, r.Cantidad])).toEqual([
      ["Facturas electrónicas (FE)", "4"],
      ["Tiquetes electrónicos (TE)", "1"],
      ["Notas de débito (ND, suman)", "1"],
      ["Notas de crédito (NC, restan)", "2"],
    ]);
    expect(tableOf(v, "purchases-by-tariff")).toEqual([{ Código: "02", Tarifa: "1 % (tarifa reducida)", "Base imponible": "160000.00", IVA: "1600.00" }]);
    expect(tableOf(v, "received-by-tariff")).toEqual([]);
    // The previous month is the default (the one being declared).
    const def = await view(ivaRoute, "/report-iva");
    const cr = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Costa_Rica", year: "numeric", month: "2-digit" }).format(new Date()).split("-").map(Number);
    const prev = cr[1] === 1 ? `${cr[0] - 1}-12` : `${cr[0]}-${String(cr[1] - 1).padStart(2, "0")}`;
    expect(def.period).toEqual({ kind: "month", mes: prev });

    const r = await call(browser, excelRoute.loader as never, { path: "/report-iva/excel?mes=2026-10" });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await r.response.arrayBuffer()) as never);
    const sheet = readSheet(wb.worksheets[0], "Código");
    for (const [label, value] of Object.entries(OCTOBER.iva.summary)) expect(cents(sheet.labels.get(label)), label).toBe(typeof value === "number" ? value.toFixed(2) : value);
    const row08 = sheet.data.find((x) => x["Código"] === "08")!;
    expect([cents(row08["Base imponible"]), cents(row08.IVA), cents(row08["Base exonerada"]), cents(row08["IVA exonerado"])]).toEqual([OCTOBER.iva["08"].base, OCTOBER.iva["08"].tax, OCTOBER.iva["08"].exBase, OCTOBER.iva["08"].exTax]);
  });
});

describe("export batches", () => {
  it("keyset pages of 3 and the driver's own way (a cursor on PostgreSQL) read the same rows in the same order as the screen's pages", async () => {
    const q = { companyId: a.company.id, range: { from: "2026-09-01", to: "2026-10-31" }, search: "", filter: null };
    const paged = (await rows<SalesReportRow>(database.db, salesRowsSql(q, "te", { offset: 0, limit: 100 }))).map((r) => r.number);
    expect(paged).toHaveLength(12);
    for (const keyset of [true, false]) {
      const read: string[] = [];
      for await (const batch of orderedBatches<SalesReportRow>(database.db, (cut) => salesRowsSql(q, "te", cut), { batch: 3, keyset })) {
        expect(batch.length).toBeLessThanOrEqual(3);
        read.push(...batch.map((r) => r.number));
      }
      expect(read, `keyset ${keyset}`).toEqual(paged);
    }
  });
});

/** 120 hexadecimal digits that depend on n: text the compressor cannot shrink much. */
const noise = (n: number) => (createHash("sha256").update(`a${n}`).digest("hex") + createHash("sha256").update(`b${n}`).digest("hex")).slice(0, 120);

/**
 * A report of `total` made-up rows (a number and a 120-character text each) in batches of 250,
 * counting the rows the writer has taken and noting when it stopped asking for more.
 */
function madeUpReport(total: number) {
  const state = { taken: 0, closed: false };
  const def: ReportDefinition<{ n: number; text: string; k1: string; k2: string }> = {
    key: "made-up",
    path: "/report-invoices",
    title: "Filas de prueba",
    fileName: "prueba.xlsx",
    notes: [],
    period: "range",
    search: false,
    main: {
      key: "rows",
      empty: "No hay filas",
      columns: [
        { header: "Número", kind: "count", value: (r) => r.n },
        { header: "Texto", kind: "text", value: (r) => r.text },
      ],
      page: async () => [],
      async *batches() {
        try {
          for (let n = 0; n < total; n += 250) {
            const batch = Array.from({ length: Math.min(250, total - n) }, (_, i) => ({ n: n + i + 1, text: noise(n + i + 1), k1: "", k2: "" }));
            state.taken += batch.length;
            yield batch;
          }
        } finally {
          state.closed = true;
        }
      },
    },
    summary: async () => ({ groups: [], rows: total }),
  };
  return { def, state };
}

/** Resolves once `value()` has not changed for `quietMs` (or after `maxMs`). */
async function settled(value: () => number, quietMs = 600, maxMs = 20_000) {
  const start = Date.now();
  let last = value();
  let since = Date.now();
  while (Date.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 50));
    if (value() !== last) [last, since] = [value(), Date.now()];
    else if (Date.now() - since >= quietMs) return last;
  }
  return value();
}

describe("export memory", () => {
  it("the writer reads no more rows while the compressor is behind: with a reader that takes nothing it stops long before the last row, then finishes when read", async () => {
    const total = 120_000;
    const { def, state } = madeUpReport(total);
    const parsed = parseReportRequest(def, new URL(`http://localhost/report-invoices?${OCT}`), a.company.id, { year: 2026, month: 10 });
    const file = new PassThrough();
    const written = writeReportWorkbook(file, { def, parsed, companyName: "Prueba", summary: await def.summary(database.db as never, parsed.query), fixed: [], db: database.db });
    // Nobody reads the file: the zip's output (archiver keeps up to 1 MB of it), then the
    // compressor, then the worksheet's XML (SHEET_XML_BUFFER) fill up and the writer waits —
    // after some 30,000 of these rows (~40 compressed bytes each), not all 120,000: with
    // exceljs' StreamBuf it took them all, their XML piling up in front of the compressor.
    const waitingAt = await settled(() => state.taken);
    expect(waitingAt).toBeGreaterThan(SHEET_XML_BUFFER / 250);
    expect(waitingAt).toBeLessThan(total / 2);
    const chunks: Buffer[] = [];
    const ended = new Promise((r) => file.once("end", r));
    file.on("data", (c: Buffer) => chunks.push(c));
    expect(await written).toEqual({ rows: total });
    await ended;
    // Read back with exceljs' streaming reader: every row, in order.
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(Buffer.concat(chunks)), { worksheets: "emit", sharedStrings: "cache", styles: "ignore", hyperlinks: "ignore" });
    let inTable = false;
    let n = 0;
    let last: unknown[] = [];
    for await (const ws of reader) {
      for await (const row of ws as AsyncIterable<ExcelJS.Row>) {
        if (inTable) {
          n++;
          last = (row.values as unknown[]).slice(1);
          if (n === 1) expect(last).toEqual([1, noise(1)]);
        } else if (row.getCell(1).value === "Número") inTable = true;
      }
    }
    expect(n).toBe(total);
    expect(last).toEqual([total, noise(total)]);
  }, 60_000);

  it("a file whose stream is closed while the writer waits for the compressor: the writer stops and lets go of the rows", async () => {
    const total = 120_000;
    const { def, state } = madeUpReport(total);
    const parsed = parseReportRequest(def, new URL(`http://localhost/report-invoices?${OCT}`), a.company.id, { year: 2026, month: 10 });
    const file = new PassThrough();
    const written = writeReportWorkbook(file, { def, parsed, companyName: "Prueba", summary: await def.summary(database.db as never, parsed.query), fixed: [], db: database.db });
    const waitingAt = await settled(() => state.taken);
    expect(waitingAt).toBeLessThan(total);
    file.destroy();
    const done = await Promise.race([written, new Promise((r) => setTimeout(() => r("still waiting"), 10_000))]);
    // It held a batch, waiting to write it, and had read the next one ahead: those 500 rows are not written.
    expect(done).toEqual({ rows: state.taken - 500 });
    expect(state.closed).toBe(true);
  }, 60_000);

  it("a download cancelled while the writer waits for it stops the writer: it reads no more rows and lets go of them", async () => {
    const total = 200_000;
    const { def, state } = madeUpReport(total);
    const context = new RouterContextProvider();
    context.set(requestContext, { ip: "127.0.0.1", csrf: "", toasts: [], company: { id: a.company.id, name: a.company.name, active: true, permission: 1, currencySymbol: "₡" } });
    const res = await excelResponse(def, new Request(`http://localhost/report-invoices/excel?${OCT}`), context);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // The browser reads nothing more: the writer fills the buffers and waits for the compressor.
    const waitingAt = await settled(() => state.taken);
    expect(waitingAt).toBeLessThan(total);
    expect(state.closed).toBe(false);
    // Then it goes away: the wait ends, the rows' cursor is closed.
    await reader.cancel();
    await settled(() => Number(state.closed), 200, 10_000);
    expect(state.closed).toBe(true);
    expect(state.taken).toBeLessThanOrEqual(waitingAt + 250);
  }, 60_000);
});

describe("export failures", () => {
  it("a failure while the file is written cuts the download (the stream errors): never a silently broken file", async () => {
    const failing = { ...invoicesReport, summary: async () => Promise.reject(new Error("sin conexión")) };
    const context = new RouterContextProvider();
    context.set(requestContext, { ip: "127.0.0.1", csrf: "", toasts: [], company: { id: a.company.id, name: a.company.name, active: true, permission: 1, currencySymbol: "₡" } });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const res = await excelResponse(failing, new Request(`http://localhost/report-invoices/excel?${OCT}`), context);
      expect(res.status).toBe(200);
      await expect(res.arrayBuffer()).rejects.toThrow();
    } finally {
      console.error = original;
    }
    expect(String(errors[0])).toContain("sin conexión");
  });
});

describe("tenancy and plans", () => {
  it("another company sees none of these figures; plan 2 reaches only the expenses report and its Excel; plan 5 reads reports", async () => {
    const other = await issuingCompany(database.db);
    const ob = await signedIn(database.db, other.user.id, other.company.id);
    const r = await call(ob, invoicesRoute.loader as never, { path: `/report-invoices?${OCT}` });
    expect((r.data as ReportView).tables[0].rows).toHaveLength(0);
    const x = await call(ob, excelRoute.loader as never, { path: "/report-expenses/excel?anio=2026" });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await x.response.arrayBuffer()) as never);
    expect(readSheet(wb.worksheets[0], "Categoría").data.map((d) => d["Categoría"])).toEqual(["No hay Gastos"]);

    const u2 = await createUser(database.db);
    const plan2 = await createCompany(database.db, { permission: 2, userIds: [u2.id] });
    const b2 = await signedIn(database.db, u2.id, plan2.id);
    expect((await call(b2, expensesRoute.loader as never, { path: "/report-expenses" })).status).toBe(200);
    expect((await call(b2, excelRoute.loader as never, { path: "/report-expenses/excel" })).status).toBe(200);
    for (const path of ["/report-invoices", "/report-invoices/excel", "/report-iva", "/report-notes/excel", "/report-items"]) {
      const denied = await call(b2, invoicesRoute.loader as never, { path });
      expect(denied.status, path).toBe(302);
      expect(denied.location, path).toBe("/dashboard");
    }
    await database.db.update(companies).set({ permission: 5 }).where(eq(companies.id, a.company.id));
    try {
      expect((await call(browser, invoicesRoute.loader as never, { path: `/report-invoices?${OCT}` })).status).toBe(200);
      expect((await call(browser, excelRoute.loader as never, { path: `/report-invoices/excel?${OCT}` })).status).toBe(200);
    } finally {
      await database.db.update(companies).set({ permission: 1 }).where(eq(companies.id, a.company.id));
    }
  });
});
