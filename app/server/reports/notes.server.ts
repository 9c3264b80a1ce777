// The notes report (spec part 2 "Reports": filter Todo/NCS/NDS, separate summaries for credit and
// debit notes — Cantidad, Subtotal, Descuentos, IVA, IVA Devuelto, Total Neto —; columns Consecutivo,
// Tipo, Pertenece a (a link to the invoice or ticket, FE-/TE-/FEC- and its number), Cliente, Cédula
// Cliente, Fecha, Subtotal, Descuento, IVA, Iva Devuelto, Total; 'No hay notas').
// The total is TotalComprobante, already net of IVA devuelto (docs/decisions/152-report-figures.md).
import { rows } from "../../../db/client.ts";
import { linkableClientIds } from "../../../db/queries/clients.ts";
import { detailTypeOf } from "../../../db/queries/document-lists.ts";
import { documentSearch, notesRowsSql, notesSummary, type NoteReportRow, type ReportQuery } from "../../../db/queries/reports.ts";
import { belongsTo, REPORT_MESSAGES } from "../../domain/reports.ts";
import { orderedBatches } from "./rows.server.ts";
import type { Column, ReportDefinition, SummaryGroup } from "./report.server.ts";

export type NoteRow = NoteReportRow & { linkClient: boolean };

const KIND = { nc: "Nota de Crédito", nd: "Nota de Débito" } as Record<string, string>;

/** The kinds the notes report reads (the filter: one of them, or both). */
const kindsOf = (q: ReportQuery) => (q.filter === "nc" || q.filter === "nd" ? [q.filter] : ["nc", "nd"]);

const parentLabel = (r: NoteReportRow) => (r.parent_kind && r.parent_number ? belongsTo(r.parent_kind, r.parent_number) : r.ref_number ? belongsTo(r.ref_doc_type ?? "", r.ref_number) : "");

const columns: Column<NoteRow>[] = [
  { header: "Consecutivo", kind: "text", value: (r) => r.number, href: (r) => `/detail/note/${r.id}`, width: 24 },
  { header: "Tipo", kind: "text", value: (r) => KIND[r.kind] ?? r.kind, width: 16 },
  { header: "Pertenece a", kind: "text", value: parentLabel, href: (r) => (r.parent_id && r.parent_kind ? `/detail/${detailTypeOf(r.parent_kind)}/${r.parent_id}` : null), width: 18 },
  { header: "Cliente", kind: "text", value: (r) => r.client_name, href: (r) => (r.linkClient ? `/client-detail/${r.client_id}` : null), truncate: 25, width: 32 },
  { header: "Cédula Cliente", kind: "text", value: (r) => r.client_identification, width: 16 },
  { header: "Fecha", kind: "date", value: (r) => r.day },
  { header: "Subtotal", kind: "money", value: (r) => r.subtotal },
  { header: "Descuento", kind: "money", value: (r) => r.discount },
  { header: "IVA", kind: "money", value: (r) => r.tax },
  { header: "Iva Devuelto", kind: "money", value: (r) => r.iva_devuelto },
  { header: "Total", kind: "money", value: (r) => r.total },
];

export const notesReport: ReportDefinition<NoteRow> = {
  key: "notes",
  path: "/report-notes",
  title: "Reporte de notas",
  fileName: "reporte_notas.xlsx",
  notes: [REPORT_MESSAGES.converted, "El total es el total del comprobante, ya neto del IVA devuelto.", REPORT_MESSAGES.noRejected],
  period: "range",
  search: true,
  filter: {
    param: "tipo",
    label: "Tipo",
    all: "Todo",
    options: [
      { value: "nc", label: "NCS" },
      { value: "nd", label: "NDS" },
    ],
  },
  main: {
    key: "notes",
    columns,
    empty: "No hay notas",
    async page(db, query, cut) {
      const q = await documentSearch(db, query, kindsOf(query));
      const raw = await rows<NoteReportRow>(db, notesRowsSql(q, cut));
      const linkable = await linkableClientIds(db, { companyId: q.companyId, ids: raw.flatMap((r) => (r.client_id ? [Number(r.client_id)] : [])) });
      return raw.map((r) => ({ ...r, linkClient: r.client_id !== null && linkable.has(Number(r.client_id)) }));
    },
    async *batches(db, query) {
      const q = await documentSearch(db, query, kindsOf(query));
      for await (const batch of orderedBatches<NoteReportRow>(db, (cut) => notesRowsSql(q, cut))) yield batch.map((r) => ({ ...r, linkClient: false }));
    },
  },
  async summary(db, query) {
    const q = await documentSearch(db, query, kindsOf(query));
    const s = await notesSummary(db, q);
    const group = (title: string, k: typeof s.nc): SummaryGroup => ({
      title,
      items: [
        { label: "Cantidad", kind: "count", value: k.quantity },
        { label: "Subtotal", kind: "money", value: k.subtotal },
        { label: "Descuentos", kind: "money", value: k.discount },
        { label: "IVA", kind: "money", value: k.tax },
        { label: "IVA Devuelto", kind: "money", value: k.iva_devuelto },
        { label: "Total Neto", kind: "money", value: k.total },
      ],
    });
    const groups = [...(q.filter !== "nd" ? [group("Notas de crédito", s.nc)] : []), ...(q.filter !== "nc" ? [group("Notas de débito", s.nd)] : [])];
    return { rows: (q.filter !== "nd" ? s.nc.quantity : 0) + (q.filter !== "nc" ? s.nd.quantity : 0), groups };
  },
};
