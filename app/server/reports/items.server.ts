// The items report (spec part 2 "Reports": code, Cabys, description, times invoiced 'N veces',
// subtotal, discount, VAT, total; the Cabys tooltip shows code, name and tax rate percent, 'S/C' when
// none; 'No hay items'). The lines of the invoices and tickets of the range, grouped by item, in
// colones with each document's rate (docs/decisions/152-report-figures.md).
import { rows } from "../../../db/client.ts";
import { itemsRowsSql, itemsSummary, type ItemReportRow, type ItemTotals } from "../../../db/queries/reports.ts";
import { REPORT_MESSAGES, timesInvoiced } from "../../domain/reports.ts";
import { orderedBatches } from "./rows.server.ts";
import type { ReportDefinition, ReportSummary } from "./report.server.ts";

function summaryOf(s: ItemTotals): ReportSummary {
  return {
    rows: s.items,
    groups: [
      {
        items: [
          { label: "Artículos", kind: "count", value: s.items },
          { label: "Subtotal", kind: "money", value: s.subtotal },
          { label: "Descuentos", kind: "money", value: s.discount },
          { label: "IVA", kind: "money", value: s.tax },
          { label: "Total", kind: "money", value: s.total },
        ],
      },
    ],
  };
}

type WithTotals = ItemReportRow & { t_items: number; t_subtotal: string; t_discount: string; t_tax: string; t_total: string };

/** '13 %' from a rate such as "13.0000" or "0.5000". */
const percent = (rate: string | null) => (rate === null ? "" : `${String(Number(rate)).replace(".", ",")} %`);

export const itemsReport: ReportDefinition<ItemReportRow> = {
  key: "items",
  path: "/report-items",
  title: "Reporte de artículos",
  fileName: "reporte-productos.xlsx",
  notes: [REPORT_MESSAGES.converted, "Líneas de facturas y tiquetes del periodo, por artículo.", REPORT_MESSAGES.noRejected],
  period: "range",
  search: true,
  main: {
    key: "items",
    empty: "No hay items",
    columns: [
      { header: "Código", kind: "text", value: (r) => r.code ?? "", width: 14 },
      {
        header: "Cabys",
        kind: "text",
        value: (r) => r.cabys ?? "S/C",
        title: (r) => (r.cabys ? `${r.cabys} — ${r.cabys_name ?? "Código no encontrado en el catálogo CABYS"}${r.cabys_rate !== null ? ` — IVA ${percent(r.cabys_rate)}` : ""}` : "S/C"),
        width: 16,
      },
      { header: "Descripción", kind: "text", value: (r) => r.description, width: 40 },
      { header: "Facturado", kind: "count", value: (r) => Number(r.times), display: (r) => timesInvoiced(Number(r.times)) },
      { header: "Subtotal", kind: "money", value: (r) => r.subtotal },
      { header: "Descuento", kind: "money", value: (r) => r.discount },
      { header: "IVA", kind: "money", value: (r) => r.tax },
      { header: "Total", kind: "money", value: (r) => r.total },
    ],
    page: (db, q, cut) => rows<ItemReportRow>(db, itemsRowsSql(q, cut)),
    batches: (db, q) => orderedBatches<ItemReportRow>(db, (cut) => itemsRowsSql(q, cut)),
    async pageWithSummary(db, q, cut) {
      const page = await rows<WithTotals>(db, itemsRowsSql(q, cut, true));
      if (!page.length) return { rows: [], summary: summaryOf(await itemsSummary(db, q)) };
      const t = page[0];
      return { rows: page, summary: summaryOf({ items: Number(t.t_items), subtotal: t.t_subtotal, discount: t.t_discount, tax: t.t_tax, total: t.t_total }) };
    },
  },
  summary: async (db, q) => summaryOf(await itemsSummary(db, q)),
};
