// What both representations (PDF and public page) print, as plain strings: the line table for the
// company's invoice format and the totals rows. Pure; formats stored values, computes nothing.
import { formatDate, formatDateTime, formatMoney } from "../domain/format.ts";
import { formatQuantity, formatRate, identificationText, isZero, money, type DocumentView } from "../domain/document-view.ts";

export interface Column {
  key: string;
  header: string;
  /** Relative width (flex) in the PDF. */
  width: number;
  align: "left" | "right";
}

export function lineColumns(view: DocumentView): Column[] {
  const cols: Column[] = [
    { key: "code", header: "Código", width: 1.3, align: "left" },
    ...(view.company.invoiceFormat === "2" ? [{ key: "cabys", header: "CABYS", width: 1.7, align: "left" as const }] : []),
    { key: "description", header: "Descripción", width: 3.6, align: "left" },
    { key: "quantity", header: "Cant.", width: 0.8, align: "right" },
    { key: "unit", header: "Unidad", width: 0.9, align: "left" },
    { key: "unitPrice", header: "Precio unitario", width: 1.6, align: "right" },
    { key: "discount", header: "Descuento", width: 1.4, align: "right" },
    { key: "tax", header: "IVA", width: 1.6, align: "right" },
    { key: "lineTotal", header: "Total", width: 1.7, align: "right" },
  ];
  return cols;
}

export function lineCells(view: DocumentView): Record<string, string>[] {
  return view.lines.map((l) => ({
    code: l.code,
    cabys: l.cabys,
    description: l.description,
    quantity: formatQuantity(l.quantity),
    unit: l.unit,
    unitPrice: money(view, l.unitPrice),
    discount: money(view, l.discount),
    tax: `${money(view, l.taxAmount)} (${formatRate(l.taxRate)})${isZero(l.exoneration) ? "" : ` − exon. ${money(view, l.exoneration)}`}`,
    lineTotal: money(view, l.lineTotal),
  }));
}

export interface TotalRow {
  label: string;
  value: string;
  strong?: boolean;
}

export function totalRows(view: DocumentView): TotalRow[] {
  const t = view.totals;
  const rows: TotalRow[] = [
    { label: "Subtotal", value: money(view, t.subtotal) },
    { label: "Descuento", value: money(view, t.discount) },
    { label: "IVA", value: money(view, t.tax) },
  ];
  if (!isZero(t.exonerated)) rows.push({ label: "Exonerado", value: money(view, t.exonerated) });
  if (!isZero(t.ivaDevuelto)) rows.push({ label: "IVA devuelto", value: money(view, t.ivaDevuelto) });
  if (!isZero(t.otherCharges)) rows.push({ label: "Otros cargos", value: money(view, t.otherCharges) });
  rows.push({ label: `Total ${view.currency.code}`, value: money(view, t.total), strong: true });
  if (view.totalColones !== null && view.currency.code !== "CRC") {
    rows.push({ label: "Tipo de cambio", value: formatMoney(view.exchangeRate, "₡") });
    rows.push({ label: "Total en colones", value: formatMoney(view.totalColones, "₡"), strong: true });
  }
  return rows;
}

const STATUS_LABELS: Record<string, string> = { "por enviar": "Por enviar", procesando: "Procesando", aceptado: "Aceptado", rechazado: "Rechazado" };

/** Header facts: label/value pairs in print order. */
export function documentFacts(view: DocumentView): TotalRow[] {
  const facts: TotalRow[] = [{ label: view.kind === "qt" ? "Número" : "Consecutivo", value: view.consecutive }];
  facts.push({ label: "Fecha de emisión", value: formatDateTime(view.issueDate) });
  if (view.kind !== "qt") facts.push({ label: "Condición de venta", value: view.saleCondition });
  if (view.kind !== "qt" && view.payments.length) facts.push({ label: view.payments.length > 1 ? "Medios de pago" : "Medio de pago", value: view.payments.join("; ") });
  if (view.paymentTermDays) facts.push({ label: "Plazo de crédito", value: `${view.paymentTermDays} días` });
  if (view.dueDate) facts.push({ label: view.kind === "qt" ? "Válida hasta" : "Vencimiento", value: formatDate(view.dueDate) });
  facts.push({ label: "Moneda", value: view.currency.code });
  if (view.haciendaStatus) facts.push({ label: "Estado Hacienda", value: STATUS_LABELS[view.haciendaStatus] ?? view.haciendaStatus });
  return facts;
}

export function companyLines(view: DocumentView): string[] {
  const c = view.company;
  return [
    identificationText(c.identification),
    c.phone ? `Teléfono: ${c.phone}` : "",
    c.email ? `Correo: ${c.email}` : "",
    c.address ? `Dirección: ${c.address}` : "",
  ].filter(Boolean);
}

export function clientLines(view: DocumentView): string[] {
  const c = view.client;
  if (c.generic) return [];
  return [
    identificationText(c.identification),
    c.phone ? `Teléfono: ${c.phone}` : "",
    c.email ? `Correo: ${c.email}` : "",
    c.address ? `Dirección: ${c.address}` : "",
  ].filter(Boolean);
}

export function referenceLines(view: DocumentView): string[] {
  return view.references.map((r) => `${r.documentType} ${r.number} del ${formatDate(r.date)} — ${r.code}: ${r.reason}`);
}
