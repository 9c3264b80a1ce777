// A received document as a DocumentView (app/domain/document-view.ts), so the same PDF renderer as
// issued documents prints it (issue 12 item 6; docs/decisions/084): the supplier as the issuing
// company, the company as its client, the lines read back from the stored XML, the stored totals,
// the clave and Hacienda's verdict on it. No public page: no QR code.
import { saleConditions } from "../../../db/seed/reference-data.ts";
import { Decimal } from "../../domain/decimal.ts";
import { DOCUMENT_KIND_LABELS, saleConditionLabel, type DocumentKind, type DocumentView, type HaciendaStatus } from "../../domain/document-view.ts";
import { currencySymbol } from "../../domain/receptions.ts";
import type { ReceivedRow } from "./process.server.ts";
import { readStoredReceived } from "./judge.server.ts";

const KIND: Record<string, DocumentKind> = { FE: "fe", NC: "nc", ND: "nd" };

/** Tax rate of a line from its amounts (the summary carries the tax, not the rate): percent, 2 decimals at most. */
function rateOf(subtotal: string | null, discount: string | null, tax: string | null): string {
  try {
    const base = new Decimal(subtotal ?? "0").minus(new Decimal(discount ?? "0"));
    if (base.isZero() || !tax) return "0";
    return base.isZero() ? "0" : new Decimal(tax).div(base).times(100).toDecimalPlaces(2).toString();
  } catch {
    return "0";
  }
}

export function receivedDocumentView(row: ReceivedRow): DocumentView {
  const s = readStoredReceived(new Uint8Array(row.uploadXml));
  const kind = KIND[row.kind] ?? "fe";
  const data = (row.data ?? {}) as { CondicionVenta?: string | null; Emisor?: { CorreoElectronico?: string | null } };
  const saleName = saleConditions.find((c) => c.code === data.CondicionVenta)?.name ?? data.CondicionVenta ?? "";
  return {
    kind,
    kindLabel: `${DOCUMENT_KIND_LABELS[kind]} recibida`,
    consecutive: row.consecutive ?? "",
    clave: row.clave,
    issueDate: row.issuedAt,
    haciendaStatus: (row.issuerStatus === "aceptado" || row.issuerStatus === "rechazado" ? row.issuerStatus : null) as HaciendaStatus,
    company: {
      name: row.issuerName,
      fantasyName: null,
      identification: { type: row.issuerIdType ?? "02", number: row.issuerId },
      phone: null,
      email: s.issuer?.email ?? data.Emisor?.CorreoElectronico ?? null,
      address: null,
      logo: null,
      invoiceFormat: "2",
    },
    client: {
      name: row.receiverName ?? "",
      identification: row.receiverId ? { type: s.receiver?.idType ?? "02", number: row.receiverId } : null,
      email: s.receiver?.email ?? null,
      phone: null,
      address: null,
      generic: false,
    },
    currency: { code: row.currency, symbol: currencySymbol(row.currency).trim() },
    exchangeRate: row.exchangeRate,
    saleCondition: saleConditionLabel(saleName, null),
    payments: [],
    paymentTermDays: null,
    dueDate: null,
    lines: s.lines.map((l) => ({
      code: "",
      cabys: l.code ?? "",
      description: l.description ?? "",
      quantity: l.quantity ?? "0",
      unit: l.unit ?? "",
      unitPrice: l.unitPrice ?? "0",
      discount: l.discount ?? "0",
      taxRate: rateOf(l.subtotal, l.discount, l.tax),
      taxAmount: l.tax ?? "0",
      exoneration: "0",
      lineTotal: l.lineTotal ?? "0",
    })),
    totals: {
      subtotal: row.subtotal,
      discount: row.discount,
      tax: row.tax,
      exonerated: row.exonerated,
      ivaDevuelto: row.ivaDevuelto,
      otherCharges: row.otherCharges,
      total: row.total,
    },
    totalColones: row.currency === "CRC" ? null : new Decimal(row.total).times(row.exchangeRate).toFixed(5),
    references: [],
    note: null,
    terms: null,
    publicUrl: "",
  };
}
