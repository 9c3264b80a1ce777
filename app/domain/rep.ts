/**
 * The Recibo Electrónico de Pago (REP, document type 10) a payment issues when the invoice's sale
 * condition requires one. Pure: which payments need a REP, and its lines. docs/decisions/135.
 *
 * Anexo 4.4 (A44): an FE sold with CondicionVenta 08 (servicios prestados al Estado, a crédito) is
 * paid with a REP whose CondicionVenta is 09, one sold with 10 (venta a crédito en IVA hasta 90
 * días, art. 27 LIVA) with 11 (nota 5 footnotes 19 and 21, p.69). "En el caso del Recibo
 * Electrónico de Pago [la línea] representa el pago de un comprobante a crédito para … los códigos
 * 08 y 10" (p.26); its Detalle names "el pago al comprobante original, indicando al menos el número
 * de cuota" (p.28); MontoTotal is "el monto a pagar sobre el bien o servicio originalmente facturado
 * sin incluir impuestos" (p.35) and the Impuesto is required for 08 and 10 (p.37). The 2026 revision
 * adds reference code 17 "Pago a comprobante electrónico" (REP only, xsd/v4.4-2026).
 */
import { Decimal } from "./decimal.ts";
import type { DraftTotals } from "./document-draft.ts";
import type { LineInput, TarifaCode } from "./totals.ts";
import { IVA_RATES } from "./totals.ts";

/** Invoice CondicionVenta → the REP's CondicionVenta. */
export const REP_SALE_CONDITIONS: Readonly<Record<string, "09" | "11">> = { "08": "09", "10": "11" };

/** The REP's CondicionVenta when a payment on this document needs a REP, else null. */
export function repSaleCondition(kind: string, saleCondition: string | null | undefined): "09" | "11" | null {
  if (kind !== "fe" || !saleCondition) return null;
  return REP_SALE_CONDITIONS[saleCondition] ?? null;
}

export const REP_MESSAGES = {
  /** The payment form, before saving. */
  notice: "Esta factura es a crédito con la condición de venta que exige un recibo electrónico de pago: al registrar el pago Colibrí emite el recibo (REP) y lo envía a Hacienda.",
  unsupported:
    "No se emitió el recibo electrónico de pago: la factura tiene exoneraciones, impuestos distintos del IVA o IVA devuelto, que Colibrí aún no reparte en un recibo. Emítalo en el sistema de Hacienda.",
  noHacienda: "La empresa no envía comprobantes a Hacienda: no se emite recibo electrónico de pago.",
  cannotDelete: "Este pago tiene un recibo electrónico de pago emitido a Hacienda: no se puede eliminar.",
  recorded: (consecutivo: string) => `Pago registrado. Se emitió el recibo electrónico de pago ${consecutivo} y se enviará a Hacienda.`,
} as const;

export interface RepLine {
  description: string;
  /** The base paid (MontoTotal, without tax), 5 decimals. */
  amount: string;
  tarifaCode: TarifaCode;
}

const TINY = new Decimal("0.00001");

/**
 * The base `b` (5 decimals) of a payment share `gross` at IVA `rate` (percent): the largest `b` with
 * b + round5(b × rate / 100) ≤ gross — equal to gross whenever such a `b` exists (a REP line's
 * MontoTotalLinea is the base plus the IVA the builder computes from it, half-up at 5 decimals).
 */
export function baseOfGross(gross: string, rate: string): string {
  const g = new Decimal(gross);
  const r = new Decimal(rate).div(100);
  const total = (b: Decimal) => b.plus(b.times(r).toDecimalPlaces(5, Decimal.ROUND_HALF_UP));
  let b = g.div(r.plus(1)).toDecimalPlaces(5, Decimal.ROUND_HALF_UP);
  while (total(b).gt(g)) b = b.minus(TINY);
  while (total(b.plus(TINY)).lte(g)) b = b.plus(TINY);
  return b.toFixed(5);
}

/**
 * The lines of the REP for a payment of `amount` on an invoice (its draft's lines and totals): one
 * line per IVA rate of the invoice, sharing the payment in proportion to what each rate adds up to
 * (base plus tax), the last share taking the rounding remainder; each line's base from baseOfGross.
 * Null when the invoice has what a REP line cannot carry here: exonerations, taxes other than IVA,
 * IVA devuelto, otros cargos.
 */
export function repLines(invoice: { lines: LineInput[]; totals: DraftTotals }, amount: string, description: string): RepLine[] | null {
  const r = invoice.totals.resumen;
  if (!new Decimal(r.totalIVADevuelto).isZero() || !new Decimal(r.totalOtrosCargos).isZero()) return null;
  const groups = new Map<TarifaCode, Decimal>();
  for (let i = 0; i < invoice.lines.length; i++) {
    const line = invoice.lines[i];
    const t = invoice.totals.lines[i];
    if (line.taxes.length !== 1) return null;
    const tax = line.taxes[0];
    if ((tax.code !== "01" && tax.code !== "07") || !tax.tarifaCode || tax.exoneration || tax.rate !== undefined || tax.amount !== undefined) return null;
    groups.set(tax.tarifaCode, (groups.get(tax.tarifaCode) ?? new Decimal(0)).plus(t.subTotal).plus(t.impuestoNeto));
  }
  const total = [...groups.values()].reduce((a, b) => a.plus(b), new Decimal(0));
  if (total.isZero()) return null;
  const paid = new Decimal(amount);
  const codes = [...groups.keys()].sort();
  let left = paid;
  return codes.map((code, i) => {
    const share = i === codes.length - 1 ? left : paid.times(groups.get(code)!).div(total).toDecimalPlaces(5, Decimal.ROUND_HALF_UP);
    left = left.minus(share);
    const label = codes.length > 1 ? `${description} (IVA ${IVA_RATES[code]} %)` : description;
    return { description: label.slice(0, 200), amount: baseOfGross(share.toFixed(5), IVA_RATES[code]), tarifaCode: code };
  });
}
