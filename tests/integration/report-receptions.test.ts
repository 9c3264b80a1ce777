// The reports of received documents (issue 12 point 8; issue 13 points 3 and 4; docs/decisions/154,
// 153, 176) with known data (tests/fixtures/received-reports.ts: documents in colones and in dollars,
// a credit note, a pending one, one the company rejected and one Hacienda rejected): the figures on
// the screen (the loader's view), in the summary band and in the .xlsx read back with exceljs agree
// to the céntimo with the figures worked out by hand. Also: the reception filter, the purchases'
// sorting (screen, Excel and both ways of reading the export), the IVA summary's received purchases
// and creditable IVA by tariff, the expenses report and the dashboard counting accepted received
// documents alike, tenancy and the plan rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { companies, receivedDocuments } from "../../db/schema/index.ts";
import { rows } from "../../db/client.ts";
import { receivedRowsSql, type ReceivedReportRow } from "../../db/queries/reports.ts";
import { expensesOfMonth } from "../../db/queries/dashboard.ts";
import { orderedBatches } from "../../app/server/reports/rows.server.ts";
import type { ReportView } from "../../app/server/reports/report.server.ts";
import * as receptionsRoute from "../../app/routes/reports/report-document-receptions.tsx";
import * as purchasesRoute from "../../app/routes/reports/report-purchases.tsx";
import * as expensesRoute from "../../app/routes/reports/report-expenses.tsx";
import * as ivaRoute from "../../app/routes/reports/report-iva.tsx";
import * as excelRoute from "../../app/routes/reports/report-excel.tsx";
import { issuingCompany } from "../fixtures/issuing.ts";
import { RECEIVED_OCTOBER, seedReceivedReportData } from "../fixtures/received-reports.ts";
import { SUPPLIER } from "../fixtures/receptions.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: Awaited<ReturnType<typeof issuingCompany>>;
let seeded: Awaited<ReturnType<typeof seedReceivedReportData>>;
let browser: Browser;

const OCT = "desde=01-10-2026&hasta=31-10-2026";

beforeAll(async () => {
  database = await createTestDatabase();
  a = await issuingCompany(database.db);
  seeded = await seedReceivedReportData(database.db, { companyId: a.company.id, receiver: { name: a.company.name, id: a.company.identification } });
  browser = await signedIn(database.db, a.user.id, a.company.id);
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

/** "₡1.135.750,00" or "-₡900.000,00" → "1135750.00" / "-900000.00". */
const plain = (text: string) => text.replace("₡", "").replace(/\./g, "").replace(",", ".");
const money = (text: string) => (/^-?₡/.test(text) ? plain(text) : text);

async function view(route: { loader: (args: never) => unknown }, path: string, b = browser): Promise<ReportView> {
  const r = await call(b, route.loader as never, { path });
  expect(r.status, path).toBe(200);
  return r.data as ReportView;
}
const summaryOf = (v: ReportView, group = 0) => Object.fromEntries(v.summary[group].items.map((i) => [i.label, money(i.text)]));
const asText = (o: Record<string, string | number>) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, String(x)]));
function tableOf(v: ReportView, key = "documents") {
  const t = v.tables.find((x) => x.key === key)!;
  const headers = t.headers.map((h) => h.text);
  return t.rows.map((r) => Object.fromEntries(r.map((c, i) => [headers[i], money(c.text)])));
}
const cents = (v: unknown) => (typeof v === "number" ? v.toFixed(2) : String(v));

async function sheetOf(path: string, first: string) {
  const r = await call(browser, excelRoute.loader as never, { path });
  expect(r.status, path).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  const filename = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") ?? "")![1];
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await r.response.arrayBuffer()) as never);
  const ws = wb.worksheets[0];
  const labels = new Map<string, unknown>();
  let headerRow = 0;
  ws.eachRow((row, n) => {
    const x = row.getCell(1).value;
    if (!headerRow && x === first) headerRow = n;
    if (!headerRow && typeof x === "string" && !labels.has(x) && row.getCell(2).value !== null && row.getCell(2).value !== undefined) labels.set(x, row.getCell(2).value);
  });
  expect(headerRow, `${path}: header ${first}`).toBeGreaterThan(0);
  const headers = (ws.getRow(headerRow).values as unknown[]).slice(1).map(String);
  const data: Record<string, unknown>[] = [];
  for (let n = headerRow + 1; n <= ws.rowCount; n++) {
    const values = (ws.getRow(n).values as unknown[]).slice(1);
    if (values.length) data.push(Object.fromEntries(headers.map((h, i) => [h, values[i] ?? null])));
  }
  return { filename, labels, headers, data, ws, headerRow };
}

const consecutive = (key: keyof typeof seeded.docs) => seeded.docs[key].consecutivo;

describe("reception report (/report-document-receptions)", () => {
  it("accepted and pending documents; dollars at their own rate, the credit note negative; the company's and Hacienda's rejections left out; screen, summary and Excel agree to the céntimo", async () => {
    const v = await view(receptionsRoute, `/report-document-receptions?${OCT}`);
    expect(v.title).toBe("Reporte de documentos recibidos");
    expect(summaryOf(v)).toEqual(asText(RECEIVED_OCTOBER.receptions.summary));
    const t = tableOf(v);
    expect(v.tables[0].headers.map((h) => h.text)).toEqual(["Consecutivo", "Emisor", "Cédula Emisor", "Fecha", "Subtotal", "Descuento", "IVA", "IVA Devuelto", "Total"]);
    expect(t.map((r) => r.Consecutivo)).toEqual(RECEIVED_OCTOBER.receptions.rows.map((r) => consecutive(r.key)));
    expect(t.map((r) => ({ Subtotal: r.Subtotal, IVA: r.IVA, Total: r.Total }))).toEqual(RECEIVED_OCTOBER.receptions.rows.map(({ Subtotal, IVA, Total }) => ({ Subtotal, IVA, Total })));
    expect(t[0]).toMatchObject({ "Cédula Emisor": SUPPLIER.id, Fecha: "03/10/2026", Descuento: "0.00", "IVA Devuelto": "0.00" });
    // The issuer's name cut at 25 characters (full name in the tooltip); the consecutive opens the PDF.
    const first = v.tables[0].rows[0];
    expect(first[1]).toMatchObject({ text: "Proveedora del Valle Soci…", title: SUPPLIER.name });
    expect(first[0].href).toBe(`/message-receptors/${seeded.docs.r1.id}/pdf`);
    expect(v.notes.join(" ")).toMatch(/propio tipo de cambio/);

    const s = await sheetOf(`/report-document-receptions/excel?${OCT}`, "Consecutivo");
    expect(s.filename).toBe("reporte_recepciones.xlsx");
    for (const [label, value] of Object.entries(RECEIVED_OCTOBER.receptions.summary)) expect(cents(s.labels.get(label)), label).toBe(typeof value === "number" ? value.toFixed(2) : value);
    expect(s.data.map((r) => [r.Consecutivo, cents(r.Subtotal), cents(r.IVA), cents(r.Total)])).toEqual(RECEIVED_OCTOBER.receptions.rows.map((r) => [consecutive(r.key), r.Subtotal, r.IVA, r.Total]));
    expect(s.data[0].Emisor).toBe(SUPPLIER.name);
    expect(s.ws.getRow(s.headerRow + 1).getCell(4).value).toEqual(new Date(Date.UTC(2026, 9, 3)));
    const sum = (k: string) => (s.data.reduce((x, r) => x + Math.round(Number(r[k]) * 100), 0) / 100).toFixed(2);
    expect(sum("Total")).toBe(RECEIVED_OCTOBER.receptions.summary["Total Neto"]);
  });

  it("the filter: Rechazados shows the company's and Hacienda's rejections, Pendientes the pending one; a search and an empty range say 'No hay Documentos'", async () => {
    const rejected = await view(receptionsRoute, `/report-document-receptions?${OCT}&opcion=rechazado`);
    expect(summaryOf(rejected)).toEqual(asText(RECEIVED_OCTOBER.receptions.rejected));
    expect(tableOf(rejected).map((r) => r.Consecutivo)).toEqual([consecutive("r4"), consecutive("r7")]);
    expect(rejected.excelHref).toBe(`/report-document-receptions/excel?${OCT}&opcion=rechazado`);
    const file = await sheetOf(rejected.excelHref, "Consecutivo");
    expect(file.data.map((r) => r.Consecutivo)).toEqual([consecutive("r4"), consecutive("r7")]);
    const pending = await view(receptionsRoute, `/report-document-receptions?${OCT}&opcion=pendiente`);
    expect(summaryOf(pending)).toEqual(asText(RECEIVED_OCTOBER.receptions.pending));
    const acceptedOnly = await view(receptionsRoute, `/report-document-receptions?${OCT}&opcion=aceptado`);
    expect(tableOf(acceptedOnly).map((r) => r.Consecutivo)).toEqual([consecutive("r1"), consecutive("r2"), consecutive("r3")]);
    // Search: the consecutive's digits; a word matching nothing.
    const one = await view(receptionsRoute, `/report-document-receptions?${OCT}&search=${consecutive("r2")}`);
    expect(tableOf(one).map((r) => r.Consecutivo)).toEqual([consecutive("r2")]);
    const byName = await view(receptionsRoute, `/report-document-receptions?${OCT}&search=proveed`);
    expect(summaryOf(byName).Cantidad).toBe("4");
    const none = await view(receptionsRoute, `/report-document-receptions?${OCT}&search=zzzz`);
    expect(none.tables[0].rows).toHaveLength(0);
    expect(none.tables[0].empty).toBe("No hay Documentos");
    const september = await view(receptionsRoute, "/report-document-receptions?desde=01-09-2026&hasta=30-09-2026");
    expect(summaryOf(september).Cantidad).toBe("0");
  });
});

describe("purchases report (/report-purchases)", () => {
  it("accepted documents only; the spec's columns; screen, summary and Excel agree to the céntimo", async () => {
    const v = await view(purchasesRoute, `/report-purchases?${OCT}`);
    expect(v.title).toBe("Reporte de compras");
    expect(summaryOf(v)).toEqual(asText(RECEIVED_OCTOBER.purchases.summary));
    expect(v.tables[0].headers.map((h) => h.text)).toEqual(["Cliente", "Emisor", "Cédula", "Fecha/Hora", "Tipo", "Nº.Documento", "Condición", "Tasa", "Subtotal", "Descuento", "Exonerado", "IVA", "Total"]);
    const t = tableOf(v);
    expect(t.map((r) => r["Nº.Documento"])).toEqual([consecutive("r1"), consecutive("r2"), consecutive("r3")]);
    expect(t[1]).toMatchObject({ Cédula: SUPPLIER.id, "Fecha/Hora": "06/10/2026 09:00 AM", Tipo: "Factura electrónica", Condición: "Contado", Tasa: "505.25", Subtotal: "454725000.00", IVA: "59114250.00", Exonerado: "0.00", Total: "513839250.00" });
    expect(t[2]).toMatchObject({ Tipo: "Nota de crédito", Tasa: "1", Total: "-1017000.00" });
    expect(v.tables[0].rows[0][0].text).toBe(a.company.name.length > 25 ? `${a.company.name.slice(0, 25)}…` : a.company.name);

    const s = await sheetOf(`/report-purchases/excel?${OCT}`, "Cliente");
    expect(s.filename).toBe("reporte_compras.xlsx");
    for (const [label, value] of Object.entries(RECEIVED_OCTOBER.purchases.summary)) expect(cents(s.labels.get(label)), label).toBe(typeof value === "number" ? value.toFixed(2) : value);
    expect(s.data.map((r) => [r["Nº.Documento"], cents(r.Subtotal), cents(r.IVA), cents(r.Total)])).toEqual(t.map((r) => [r["Nº.Documento"], r.Subtotal, r.IVA, r.Total]));
    const sum = (k: string) => (s.data.reduce((x, r) => x + Math.round(Number(r[k]) * 100), 0) / 100).toFixed(2);
    expect(sum("Total")).toBe(RECEIVED_OCTOBER.purchases.summary["Total Neto"]);
    expect(sum("Subtotal")).toBe(RECEIVED_OCTOBER.purchases.summary["Subtotal Ventas"]);
  });

  it("sorts by subtotal, discount, tax and total both ways (header links keep the range); the Excel file and both ways of reading the export follow the sort", async () => {
    const v = await view(purchasesRoute, `/report-purchases?${OCT}`);
    const totalHeader = v.tables[0].headers.find((h) => h.text === "Total")!;
    expect(totalHeader.href).toBe(`/report-purchases?${OCT}&orden=total&dir=asc`);
    expect(v.tables[0].headers.filter((h) => h.href).map((h) => h.text)).toEqual(["Subtotal", "Descuento", "IVA", "Total"]);
    const asc = await view(purchasesRoute, totalHeader.href!);
    expect(tableOf(asc).map((r) => r["Nº.Documento"])).toEqual(RECEIVED_OCTOBER.purchases.byTotalAsc.map((k) => consecutive(k)));
    const ascHeader = asc.tables[0].headers.find((h) => h.text === "Total")!;
    expect(ascHeader.sorted).toBe("asc");
    expect(ascHeader.href).toBe(`/report-purchases?${OCT}&orden=total&dir=desc`);
    const desc = await view(purchasesRoute, ascHeader.href!);
    expect(tableOf(desc).map((r) => r["Nº.Documento"])).toEqual(RECEIVED_OCTOBER.purchases.byTotalDesc.map((k) => consecutive(k)));
    expect(summaryOf(desc)).toEqual(asText(RECEIVED_OCTOBER.purchases.summary));
    expect(desc.excelHref).toBe(`/report-purchases/excel?${OCT}&orden=total&dir=desc`);
    const file = await sheetOf(desc.excelHref, "Cliente");
    expect(file.data.map((r) => r["Nº.Documento"])).toEqual(RECEIVED_OCTOBER.purchases.byTotalDesc.map((k) => consecutive(k)));
    const byTax = await view(purchasesRoute, `/report-purchases?${OCT}&orden=iva&dir=desc`);
    expect(tableOf(byTax).map((r) => r.IVA)).toEqual(["59114250.00", "127000.00", "-117000.00"]);
    // An unknown sort is the default order.
    const unknown = await view(purchasesRoute, `/report-purchases?${OCT}&orden=emisor`);
    expect(tableOf(unknown).map((r) => r["Nº.Documento"])).toEqual([consecutive("r1"), consecutive("r2"), consecutive("r3")]);
    // The export's batches (keyset pages of 1 and the driver's cursor) read the sorted rows alike.
    const q = { companyId: a.company.id, range: { from: "2026-10-01", to: "2026-11-30" }, search: "", filter: null, sort: { key: "subtotal", dir: "desc" as const } };
    const paged = (await rows<ReceivedReportRow>(database.db, receivedRowsSql(q, "purchases", { offset: 0, limit: 100 }))).map((r) => r.number);
    expect(paged).toHaveLength(4);
    for (const keyset of [true, false]) {
      const read: string[] = [];
      for await (const batch of orderedBatches<ReceivedReportRow>(database.db, (cut) => receivedRowsSql(q, "purchases", cut), { batch: 1, keyset })) read.push(...batch.map((r) => r.number));
      expect(read, `keyset ${keyset}`).toEqual(paged);
    }
  });
});

describe("IVA summary with received documents", () => {
  it("the accepted received documents' base, IVA and creditable IVA by tariff (credit note subtracting, dollars converted), in the summary and the Excel file", async () => {
    const v = await view(ivaRoute, "/report-iva?mes=2026-10");
    expect(v.notice).toBeNull();
    expect(summaryOf(v, 1)).toEqual(RECEIVED_OCTOBER.iva.summary);
    const received = tableOf(v, "received-by-tariff");
    expect(received).toEqual([
      { Código: "08", Tarifa: "13 % (tarifa general)", "Base imponible": RECEIVED_OCTOBER.iva["08"].base, IVA: RECEIVED_OCTOBER.iva["08"].tax, "IVA acreditable": RECEIVED_OCTOBER.iva["08"].creditable },
      { Código: "04", Tarifa: expect.any(String), "Base imponible": RECEIVED_OCTOBER.iva["04"].base, IVA: RECEIVED_OCTOBER.iva["04"].tax, "IVA acreditable": RECEIVED_OCTOBER.iva["04"].creditable },
    ]);
    const r = await call(browser, excelRoute.loader as never, { path: "/report-iva/excel?mes=2026-10" });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await r.response.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    const cells: unknown[][] = [];
    ws.eachRow((row) => cells.push((row.values as unknown[]).slice(1)));
    const label = (l: string) => cells.find((c) => c[0] === l)?.[1];
    expect(cents(label("IVA acreditable (crédito fiscal)"))).toBe(RECEIVED_OCTOBER.iva.summary["IVA acreditable (crédito fiscal)"]);
    const creditableHeader = cells.findIndex((c) => c.includes("IVA acreditable"));
    expect(creditableHeader).toBeGreaterThan(0);
    expect(cells[creditableHeader + 1].slice(0, 5).map((x, i) => (i >= 2 ? cents(x) : x))).toEqual(["08", "13 % (tarifa general)", RECEIVED_OCTOBER.iva["08"].base, RECEIVED_OCTOBER.iva["08"].tax, RECEIVED_OCTOBER.iva["08"].creditable]);
  });

  it("a document stored before its tariffs were kept counts under 'Sin desglose por tarifa' with its totals", async () => {
    const other = await issuingCompany(database.db);
    const s = await seedReceivedReportData(database.db, { companyId: other.company.id, receiver: { name: other.company.name, id: other.company.identification } });
    const [r1] = await database.db.select({ data: receivedDocuments.data }).from(receivedDocuments).where(eq(receivedDocuments.id, s.docs.r1.id));
    const { IvaPorTarifa: _, ...older } = r1.data as Record<string, unknown>;
    await database.db.update(receivedDocuments).set({ data: older }).where(eq(receivedDocuments.id, s.docs.r1.id));
    const v = await view(ivaRoute, "/report-iva?mes=2026-10", await signedIn(database.db, other.user.id, other.company.id));
    const t = tableOf(v, "received-by-tariff");
    expect(t.find((r) => r.Código === "")).toEqual({ Código: "", Tarifa: "Sin desglose por tarifa", "Base imponible": "1150000.00", IVA: "127000.00", "IVA acreditable": "127000.00" });
    expect(t.find((r) => r.Código === "04")).toBeUndefined();
    expect(summaryOf(v, 1)).toEqual(RECEIVED_OCTOBER.iva.summary);
  });
});

describe("accepted received documents as expenses", () => {
  it("the expenses report and the dashboard count the accepted received documents with a category, once, like an expense of that category", async () => {
    const v = await view(expensesRoute, "/report-expenses?anio=2026");
    const row = tableOf(v, "expenses").find((r) => r["Categoría"] === "Mercadería")!;
    expect(row.Octubre).toBe(RECEIVED_OCTOBER.expenses.october);
    // R6 (November, accepted, expense 900 000); the pending and the rejected ones never.
    expect(row.Noviembre).toBe("900000.00");
    expect(summaryOf(v).Gastos).toBe(String(RECEIVED_OCTOBER.expenses.count + 1));
    const pie = await expensesOfMonth(database.db, { companyId: a.company.id, from: new Date("2026-10-01T06:00:00Z") });
    expect(pie).toEqual([{ name: "Mercadería", total: RECEIVED_OCTOBER.expenses.october }]);
    const s = await sheetOf("/report-expenses/excel?anio=2026", "Categoría");
    expect(cents(s.data.find((r) => r["Categoría"] === "Mercadería")!.Octubre)).toBe(RECEIVED_OCTOBER.expenses.october);
  });
});

describe("tenancy and plans", () => {
  it("another company sees none of these documents; plan 2 (reception only) is sent to the dashboard from both reports and their Excel; plan 5 reads them", async () => {
    const u = await createUser(database.db);
    const empty = await createCompany(database.db, { userIds: [u.id] });
    const b = await signedIn(database.db, u.id, empty.id);
    expect((await view(purchasesRoute, `/report-purchases?${OCT}`, b)).tables[0].rows).toHaveLength(0);
    expect((await view(receptionsRoute, `/report-document-receptions?${OCT}`, b)).rowCount).toBe(0);

    const u2 = await createUser(database.db);
    const plan2 = await createCompany(database.db, { permission: 2, userIds: [u2.id] });
    const b2 = await signedIn(database.db, u2.id, plan2.id);
    for (const path of ["/report-purchases", "/report-purchases/excel", "/report-document-receptions", "/report-document-receptions/excel"]) {
      const denied = await call(b2, purchasesRoute.loader as never, { path });
      expect(denied.status, path).toBe(302);
      expect(denied.location, path).toBe("/dashboard");
    }
    await database.db.update(companies).set({ permission: 5 }).where(eq(companies.id, a.company.id));
    try {
      expect((await call(browser, purchasesRoute.loader as never, { path: `/report-purchases?${OCT}` })).status).toBe(200);
      const file = await call(browser, excelRoute.loader as never, { path: `/report-document-receptions/excel?${OCT}` });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.response.arrayBuffer()).subarray(0, 2).toString("latin1")).toBe("PK");
    } finally {
      await database.db.update(companies).set({ permission: 1 }).where(eq(companies.id, a.company.id));
    }
  });
});
