// The reports of received documents (issue 12 point 8; spec part 2 "Reports"; docs/decisions/154):
// - Reception report (/report-document-receptions): summary Cantidad, Subtotal Ventas, Descuentos,
//   IVA, IVA Devuelto, Total Neto; columns Consecutivo, Emisor, Cédula Emisor, Fecha, Subtotal,
//   Descuento, IVA, IVA Devuelto, Total; 'No hay Documentos'; filter by acceptance.
// - Purchases report (/report-purchases): summary Cantidad, Subtotal Ventas, Descuentos, IVA, Total
//   Neto; columns Cliente, Emisor, Cédula, Fecha/Hora, Tipo, Nº.Documento, Condición, Tasa, Subtotal,
//   Descuento, Exonerado, IVA, Total; sortable on subtotal, discount, tax and total; the accepted
//   documents only.
// Amounts in colones with each document's own exchange rate, a credit note negative; the total is
// §5's net total (subtotal − discount + tax − IVA devuelto).
import { rows } from "../../../db/client.ts";
import { RECEPTION_REPORT_FILTERS, receivedRowsSql, receivedSummary, RECEIVED_SORTS, type ReceivedReportRow } from "../../../db/queries/reports.ts";
import { saleConditions } from "../../../db/seed/reference-data.ts";
import { orderedBatches } from "./rows.server.ts";
import type { Column, ReportDefinition } from "./report.server.ts";

export const RECEIVED_REPORT_NOTES = {
  converted: "Montos en colones: los documentos en otra moneda se convierten con su propio tipo de cambio. Las notas de crédito recibidas restan.",
  netTotal: "Total: subtotal menos descuento más IVA menos IVA devuelto.",
  receptions: "Sin filtro se incluyen los documentos aceptados y los pendientes; los rechazados (por la compañía o por Hacienda) solo aparecen con el filtro Rechazados.",
  purchases: "Solo documentos aceptados o aceptados parcialmente cuyo mensaje de receptor Hacienda no rechazó.",
} as const;

const KIND_LABELS: Record<string, string> = { FE: "Factura electrónica", NC: "Nota de crédito", ND: "Nota de débito" };
const saleConditionName = (code: string | null) => (code ? (saleConditions.find((c) => c.code === code)?.name ?? code) : "");
/** The exchange rate as written (trailing zeros dropped): '505.25', '1'. */
const rateText = (r: ReceivedReportRow) => String(r.rate).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
const pdfOf = (r: ReceivedReportRow) => `/message-receptors/${r.id}/pdf`;

const receptionColumns: Column<ReceivedReportRow>[] = [
  { header: "Consecutivo", kind: "text", value: (r) => r.number, href: pdfOf, width: 24 },
  { header: "Emisor", kind: "text", value: (r) => r.issuer_name, truncate: 25, width: 32 },
  { header: "Cédula Emisor", kind: "text", value: (r) => r.issuer_id, width: 16 },
  { header: "Fecha", kind: "date", value: (r) => r.day },
  { header: "Subtotal", kind: "money", value: (r) => r.subtotal },
  { header: "Descuento", kind: "money", value: (r) => r.discount },
  { header: "IVA", kind: "money", value: (r) => r.tax },
  { header: "IVA Devuelto", kind: "money", value: (r) => r.iva_devuelto },
  { header: "Total", kind: "money", value: (r) => r.total },
];

const purchaseColumns: Column<ReceivedReportRow>[] = [
  { header: "Cliente", kind: "text", value: (r) => r.receiver_name, truncate: 25, width: 32 },
  { header: "Emisor", kind: "text", value: (r) => r.issuer_name, truncate: 25, width: 32 },
  { header: "Cédula", kind: "text", value: (r) => r.issuer_id, width: 16 },
  { header: "Fecha/Hora", kind: "text", value: (r) => r.at, width: 20 },
  { header: "Tipo", kind: "text", value: (r) => KIND_LABELS[r.kind] ?? r.kind, width: 20 },
  { header: "Nº.Documento", kind: "text", value: (r) => r.number, href: pdfOf, width: 24 },
  { header: "Condición", kind: "text", value: (r) => saleConditionName(r.sale_condition), width: 14 },
  { header: "Tasa", kind: "text", value: rateText, width: 10 },
  { header: "Subtotal", kind: "money", value: (r) => r.subtotal, sort: "subtotal" },
  { header: "Descuento", kind: "money", value: (r) => r.discount, sort: "descuento" },
  { header: "Exonerado", kind: "money", value: (r) => r.exonerated },
  { header: "IVA", kind: "money", value: (r) => r.tax, sort: "iva" },
  { header: "Total", kind: "money", value: (r) => r.total, sort: "total" },
];

type Received = ReportDefinition<ReceivedReportRow>;

/** The table of a received-documents report: its rows for the screen and, in batches, for the Excel file. */
function receivedTable(scope: "receptions" | "purchases", columns: Column<ReceivedReportRow>[]): Received["main"] {
  return {
    key: "documents",
    columns,
    empty: "No hay Documentos",
    page: (db, q, cut) => rows<ReceivedReportRow>(db, receivedRowsSql(q, scope, cut)),
    batches: (db, q) => orderedBatches<ReceivedReportRow>(db, (cut) => receivedRowsSql(q, scope, cut)),
  };
}

/** The summary band: the reception report also shows the IVA devuelto. */
function receivedSummaryBand(scope: "receptions" | "purchases"): Received["summary"] {
  return async (db, q) => {
    const s = await receivedSummary(db, q, scope);
    return {
      rows: s.quantity,
      groups: [
        {
          items: [
            { label: "Cantidad", kind: "count", value: s.quantity },
            { label: "Subtotal Ventas", kind: "money", value: s.subtotal },
            { label: "Descuentos", kind: "money", value: s.discount },
            { label: "IVA", kind: "money", value: s.tax },
            ...(scope === "receptions" ? [{ label: "IVA Devuelto", kind: "money" as const, value: s.iva_devuelto }] : []),
            { label: "Total Neto", kind: "money", value: s.total },
          ],
        },
      ],
    };
  };
}

export const receptionsReport: ReportDefinition<ReceivedReportRow> = {
  key: "receptions",
  path: "/report-document-receptions",
  title: "Reporte de documentos recibidos",
  fileName: "reporte_recepciones.xlsx",
  notes: [RECEIVED_REPORT_NOTES.converted, RECEIVED_REPORT_NOTES.netTotal, RECEIVED_REPORT_NOTES.receptions],
  period: "range",
  search: true,
  filter: {
    param: "opcion",
    label: "Aceptación",
    all: "Aceptados y pendientes",
    options: RECEPTION_REPORT_FILTERS.map((value) => ({ value, label: { aceptado: "Aceptados", pendiente: "Pendientes", rechazado: "Rechazados" }[value] })),
  },
  main: receivedTable("receptions", receptionColumns),
  summary: receivedSummaryBand("receptions"),
};

export const purchasesReport: ReportDefinition<ReceivedReportRow> = {
  key: "purchases",
  path: "/report-purchases",
  title: "Reporte de compras",
  fileName: "reporte_compras.xlsx",
  notes: [RECEIVED_REPORT_NOTES.converted, RECEIVED_REPORT_NOTES.netTotal, RECEIVED_REPORT_NOTES.purchases],
  period: "range",
  search: true,
  sorts: Object.keys(RECEIVED_SORTS),
  main: receivedTable("purchases", purchaseColumns),
  summary: receivedSummaryBand("purchases"),
};
