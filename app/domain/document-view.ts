// What a document representation prints (PDF, public page, e-mail): a pure view model built from
// stored values only (DESIGN §1 Money). Every amount is a decimal string exactly as stored
// (numeric(18,5)); renderers format it, they never compute it.
import { formatMoney } from "./format.ts";

export type DocumentKind = "fe" | "te" | "nc" | "nd" | "fec" | "qt";

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  fe: "Factura electrónica",
  te: "Tiquete electrónico",
  nc: "Nota de crédito electrónica",
  nd: "Nota de débito electrónica",
  fec: "Factura electrónica de compra",
  qt: "Cotización",
};

/** The e-mail template type of each kind (table email_templates, see config-setup.server.ts). */
export const DOCUMENT_KIND_TEMPLATE: Record<DocumentKind, string> = {
  fe: "invoice",
  te: "ticket",
  nc: "credit_note",
  nd: "debit_note",
  fec: "purchase_invoice",
  qt: "quotation",
};

export type HaciendaStatus = "por enviar" | "procesando" | "aceptado" | "rechazado" | null;

export interface PartyIdentification {
  /** Hacienda identification type code: 01 física, 02 jurídica, 03 DIMEX, 04 NITE, 05 extranjero. */
  type: string;
  number: string;
}

export const IDENTIFICATION_TYPE_LABELS: Record<string, string> = {
  "01": "Cédula física",
  "02": "Cédula jurídica",
  "03": "DIMEX",
  "04": "NITE",
  "05": "Extranjero",
};

export interface CompanyView {
  name: string;
  fantasyName: string | null;
  identification: PartyIdentification;
  phone: string | null;
  email: string | null;
  address: string | null;
  /** Logo bytes and MIME type (image/png or image/jpeg), or null. */
  logo: { bytes: Uint8Array; mime: string } | null;
  /** '1' standard; '2' adds the CABYS column. */
  invoiceFormat: "1" | "2";
}

export interface ClientView {
  name: string;
  identification: PartyIdentification | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  /** The company's generic client (tickets): printed as 'Cliente genérico' without details. */
  generic: boolean;
}

export interface LineView {
  code: string;
  cabys: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  discount: string;
  /** Tax rate in percent, e.g. "13". */
  taxRate: string;
  taxAmount: string;
  /** Exonerated amount ("0" when none). */
  exoneration: string;
  lineTotal: string;
}

export interface TotalsView {
  subtotal: string;
  discount: string;
  tax: string;
  exonerated: string;
  ivaDevuelto: string;
  otherCharges: string;
  total: string;
}

export interface ReferenceView {
  /** Label of the referenced document type, e.g. 'Factura electrónica'. */
  documentType: string;
  number: string;
  date: Date;
  /** Reference code label, e.g. 'Anula documento de referencia'. */
  code: string;
  reason: string;
}

export interface DocumentView {
  kind: DocumentKind;
  kindLabel: string;
  /** 20 digits (quotations: the internal number). */
  consecutive: string;
  /** 50 characters; empty for quotations. */
  clave: string;
  issueDate: Date;
  haciendaStatus: HaciendaStatus;
  company: CompanyView;
  client: ClientView;
  currency: { code: string; symbol: string };
  exchangeRate: string;
  /** Sale condition label, e.g. 'Contado', 'Crédito'. */
  saleCondition: string;
  /** Payment methods as printed (paymentMethodLabels); empty when the document carries none. */
  payments: string[];
  paymentTermDays: number | null;
  dueDate: Date | null;
  lines: LineView[];
  totals: TotalsView;
  /** Total in colones as stored, when the currency is not CRC; else null. */
  totalColones: string | null;
  references: ReferenceView[];
  note: string | null;
  terms: string | null;
  /** Absolute URL of the public query page (printed as a QR code); empty for a received document (no public page). */
  publicUrl: string;
}

export const GENERIC_CLIENT_LABEL = "Cliente genérico";

/** The sale condition printed: its name, and with 'Otros' (99) the description the XML carries. */
export function saleConditionLabel(name: string, other: string | null | undefined): string {
  const described = (other ?? "").trim();
  return described ? `${name}: ${described}` : name;
}

/**
 * The payment methods printed (the MedioPago of the XML): each name, a 'Otros' one with its
 * description, and each amount when there are several.
 */
export function paymentMethodLabels(payments: Array<{ name: string; other?: string; amount: string }>, symbol: string): string[] {
  return payments.map((p) => {
    const name = saleConditionLabel(p.name, p.other);
    return payments.length > 1 ? `${name} ${formatMoney(p.amount, symbol)}` : name;
  });
}

/**
 * The heading of the party box (PDF, detail preview, public page): a purchase invoice (fec) names
 * its provider, who sold to the company; every other document its client (the generic one without
 * its name).
 */
export function partyHeading(view: Pick<DocumentView, "kind" | "client">): { label: "Cliente" | "Proveedor"; name: string } {
  return { label: view.kind === "fec" ? "Proveedor" : "Cliente", name: view.client.generic ? GENERIC_CLIENT_LABEL : view.client.name };
}

/** Money of a document in its own currency, as stored. */
export function money(view: Pick<DocumentView, "currency">, amount: string): string {
  return formatMoney(amount, view.currency.symbol);
}

/** Amount shown for a line's quantity: stored decimals without trailing zeros, comma decimal. */
export function formatQuantity(q: string): string {
  const [i, f = ""] = q.split(".");
  const frac = f.replace(/0+$/, "");
  return frac ? `${i},${frac}` : i;
}

/** Rate in percent without trailing zeros: "13.00000" → "13 %". */
export function formatRate(rate: string): string {
  return `${formatQuantity(rate)} %`;
}

export function isZero(amount: string | null | undefined): boolean {
  return !amount || /^-?0*(\.0*)?$/.test(amount.trim());
}

export function identificationText(id: PartyIdentification | null): string {
  if (!id) return "";
  return `${IDENTIFICATION_TYPE_LABELS[id.type] ?? "Identificación"}: ${id.number}`;
}

/** File names of the attachments (hacienda NOTES §4): <clave>.pdf, <clave>.xml, <clave>_respuesta.xml. */
export function documentFileBase(view: Pick<DocumentView, "clave" | "consecutive" | "kind">): string {
  return view.clave || `cotizacion-${view.consecutive}`;
}
