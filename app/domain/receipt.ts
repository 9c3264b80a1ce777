// The receipt layout for thermal printers (issue 14 point 6, docs/decisions/165): the print format
// a company chooses in its general configuration, and what a receipt prints, as plain strings, for
// both the HTML print page and the narrow PDF. Pure: formats stored values (DocumentView), computes
// nothing.
import { formatDateTime, formatMoney } from "./format.ts";
import { formatQuantity, formatRate, GENERIC_CLIENT_LABEL, identificationText, isZero, money, type DocumentView } from "./document-view.ts";
import { LEGAL_NOTICE } from "./legal.ts";

export { isPrintFormat, PRINT_FORMATS, RECEIPT_WIDTHS, type PrintFormat } from "./print-formats.ts";

export interface ReceiptLine {
  description: string;
  /** '2 × ₡450.000,00', then the discount and the tax. */
  detail: string;
  total: string;
}

export interface Receipt {
  company: { name: string; lines: string[] };
  title: string;
  facts: Array<{ label: string; value: string }>;
  clave: string;
  client: string[];
  lines: ReceiptLine[];
  totals: Array<{ label: string; value: string; strong?: boolean }>;
  note: string | null;
  publicUrl: string;
  legal: string | null;
}

/** What a receipt prints: company, consecutive and clave, client, lines, totals, payment, the legal notice. */
export function receiptOf(view: DocumentView): Receipt {
  const c = view.company;
  const t = view.totals;
  const facts = [
    { label: view.kind === "qt" ? "Número" : "Consecutivo", value: view.consecutive },
    { label: "Fecha", value: formatDateTime(view.issueDate) },
  ];
  if (view.kind !== "qt") {
    facts.push({ label: "Condición", value: view.saleCondition });
    if (view.payments.length) facts.push({ label: view.payments.length > 1 ? "Pago" : "Pago", value: view.payments.join("; ") });
  }
  const client = view.client.generic
    ? []
    : [`${view.kind === "fec" ? "Proveedor" : "Cliente"}: ${view.client.name || GENERIC_CLIENT_LABEL}`, identificationText(view.client.identification)].filter(Boolean);
  const totals: Receipt["totals"] = [{ label: "Subtotal", value: money(view, t.subtotal) }];
  if (!isZero(t.discount)) totals.push({ label: "Descuento", value: money(view, t.discount) });
  totals.push({ label: "IVA", value: money(view, t.tax) });
  if (!isZero(t.exonerated)) totals.push({ label: "Exonerado", value: money(view, t.exonerated) });
  if (!isZero(t.ivaDevuelto)) totals.push({ label: "IVA devuelto", value: money(view, t.ivaDevuelto) });
  if (!isZero(t.otherCharges)) totals.push({ label: "Otros cargos", value: money(view, t.otherCharges) });
  totals.push({ label: "Total", value: money(view, t.total), strong: true });
  if (view.totalColones !== null && view.currency.code !== "CRC") totals.push({ label: "Total en colones", value: formatMoney(view.totalColones, "₡") });
  return {
    company: {
      name: c.fantasyName || c.name,
      lines: [c.fantasyName ? c.name : "", identificationText(c.identification), c.phone ? `Tel. ${c.phone}` : "", c.email ?? "", c.address ?? ""].filter(Boolean),
    },
    title: view.kindLabel,
    facts,
    clave: view.clave,
    client,
    lines: view.lines.map((l) => ({
      description: l.description,
      detail: [
        `${formatQuantity(l.quantity)} × ${money(view, l.unitPrice)}`,
        isZero(l.discount) ? "" : `desc. ${money(view, l.discount)}`,
        `IVA ${formatRate(l.taxRate)}`,
        isZero(l.exoneration) ? "" : `exon. ${money(view, l.exoneration)}`,
      ]
        .filter(Boolean)
        .join(" · "),
      total: money(view, l.lineTotal),
    })),
    totals,
    note: view.note,
    publicUrl: view.publicUrl,
    legal: view.kind === "qt" ? null : LEGAL_NOTICE,
  };
}
