// The items report (spec part 2 "Reports": code, Cabys, description, times invoiced 'N veces',
// subtotal, discount, VAT, total; the Cabys tooltip shows code, name and tax rate percent, 'S/C' when
// none; 'No hay items'). The lines of the invoices and tickets of the range, grouped by item, in
// colones with each document's rate (docs/decisions/152-report-figures.md).
import { rows } from "../../../db/client.ts";
import { itemsRowsSql, itemsSummary, type ItemReportRow } from "../../../db/queries/reports.ts";
import { REPORT_MESSAGES, timesInvoiced } from "../../domain/reports.ts";
import { orderedBatches } from "./rows.server.ts";
import type { ReportDefinition } from "./report.server.ts";

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
  },
  async summary(db, q) {
    const s = await itemsSummary(db, q);
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
  },
};
