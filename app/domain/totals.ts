/**
 * Invoice math for Hacienda v4.4 comprobantes — the one place where line amounts and ResumenFactura
 * totals are computed. Pure; strings in, strings out (5 decimals, half-up); never JS floats.
 * Rules and the points where the product spec differs: docs/decisions/010-totals-and-rounding.md.
 */
import { dec, Decimal, money, round, sum, ZERO } from "./decimal.ts";

export type TaxCode = "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "12" | "99";
export type TarifaCode = "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09" | "10" | "11";

/** CodigoTarifaIVA → rate in percent (Nota 8.1). */
export const IVA_RATES: Record<TarifaCode, string> = {
  "01": "0",
  "02": "1",
  "03": "2",
  "04": "4",
  "05": "0",
  "06": "4",
  "07": "8",
  "08": "13",
  "09": "0.5",
  "10": "0",
  "11": "0",
};

/** Units of measure that denote services (Nota 15); every other unit is goods (mercancías). */
export const SERVICE_UNITS: ReadonlySet<string> = new Set(["Sp", "Spe", "St", "Al", "Alc", "Cm", "I", "Os"]);

/** Taxes that are part of the IVA taxable base (BaseImponible = SubTotal + these). */
const ONE_HUNDREDTH = new Decimal("0.01");
const BASE_TAX_CODES = new Set<string>(["02", "04", "05", "12"]);
const IVA_CODES = new Set<string>(["01", "07"]);

export interface DiscountInput {
  /** CodigoDescuento (Nota 20). */
  code: string;
  /** Fixed amount, or */
  amount?: string;
  /** percentage of MontoTotal (0–100). */
  percent?: string;
}

export interface TaxInput {
  code: TaxCode;
  /** Required for IVA (01, 07). */
  tarifaCode?: TarifaCode;
  /** Rate in percent; defaults to IVA_RATES[tarifaCode]. For non-IVA taxes: percent of SubTotal. */
  rate?: string;
  /** Explicit tax amount (specific taxes computed outside, e.g. per unit). */
  amount?: string;
  /** Exoneration: TarifaExonerada in rate points (≤ rate). MontoExoneracion = BaseImponible × TarifaExonerada / 100. */
  exoneration?: { tarifaExonerada: string };
}

export interface LineInput {
  quantity: string;
  unitPrice: string;
  unit: string;
  /** Overrides the goods/services classification by unit. */
  kind?: "goods" | "service";
  discounts?: DiscountInput[];
  taxes: TaxInput[];
  impuestoAsumidoEmisorFabrica?: string;
  /** Private health service eligible for IVA devuelto when paid by card (Ley 9635, Transitorio). */
  healthService?: boolean;
}

export interface OtherChargeInput {
  /** TipoDocumentoOC (Nota 16); 06 = impuesto de servicio 10%. */
  code: string;
  amount?: string;
  /** Percent of TotalVentaNeta (PorcentajeOC), e.g. "10" for the service charge. */
  percent?: string;
}

export type LineCategory = "gravado" | "exento" | "exonerado" | "noSujeto";

export interface TaxTotals {
  code: TaxCode;
  tarifaCode?: TarifaCode;
  /** Rate with 2 decimals, as written in Tarifa. */
  rate?: string;
  monto: string;
  exoneration?: { tarifaExonerada: string; monto: string };
}

export interface LineTotals {
  kind: "goods" | "service";
  montoTotal: string;
  discounts: Array<{ code: string; amount: string }>;
  subTotal: string;
  baseImponible: string;
  taxes: TaxTotals[];
  impuestoAsumidoEmisorFabrica: string;
  impuestoNeto: string;
  montoTotalLinea: string;
  /** Portions of MontoTotal per category (gravado and exonerado split by TarifaExonerada / Tarifa). */
  split: Record<LineCategory, string>;
}

export interface ResumenTotals {
  totalServGravados: string;
  totalServExentos: string;
  totalServExonerado: string;
  totalServNoSujeto: string;
  totalMercanciasGravadas: string;
  totalMercanciasExentas: string;
  totalMercExonerada: string;
  totalMercNoSujeta: string;
  totalGravado: string;
  totalExento: string;
  totalExonerado: string;
  totalNoSujeto: string;
  totalVenta: string;
  totalDescuentos: string;
  totalVentaNeta: string;
  totalDesgloseImpuesto: Array<{ code: TaxCode; tarifaCode?: TarifaCode; total: string }>;
  totalImpuesto: string;
  totalImpAsumEmisorFabrica: string;
  totalIVADevuelto: string;
  totalOtrosCargos: string;
  totalComprobante: string;
}

export interface DocumentTotals {
  lines: LineTotals[];
  otherCharges: Array<{ code: string; percent?: string; amount: string }>;
  resumen: ResumenTotals;
}

export class TotalsError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
  }
}

export function lineKind(line: Pick<LineInput, "unit" | "kind">): "goods" | "service" {
  return line.kind ?? (SERVICE_UNITS.has(line.unit) ? "service" : "goods");
}

const IVA_RATE_DECIMALS = new Map(Object.entries(IVA_RATES).map(([k, v]) => [k, new Decimal(v)]));

function taxRate(t: TaxInput, field: string): Decimal | undefined {
  if (t.rate !== undefined) return dec(t.rate, `${field}/Tarifa`);
  if (t.tarifaCode) {
    const r = IVA_RATE_DECIMALS.get(t.tarifaCode);
    if (r === undefined) throw new TotalsError(`${field}/CodigoTarifaIVA`, `El campo ${field}/CodigoTarifaIVA "${t.tarifaCode}" no existe: use un código de 01 a 11.`);
    return r;
  }
  return undefined;
}

interface LineDecimals {
  split: Record<LineCategory, Decimal>;
  discounts: Decimal[];
  /** Net tax (Monto − MontoExoneracion) per tax, in input order. */
  taxNet: Decimal[];
  impuestoNeto: Decimal;
  asumido: Decimal;
}

/** Computes one line. `n` is the 1-based line number, used in messages. */
export function computeLine(line: LineInput, n = 1): LineTotals {
  return computeLineD(line, n).out;
}

function computeLineD(line: LineInput, n: number): { out: LineTotals; d: LineDecimals } {
  const f = `LineaDetalle ${n}`;
  const qty = dec(line.quantity, `${f}/Cantidad`);
  const price = dec(line.unitPrice, `${f}/PrecioUnitario`);
  if (qty.lte(0)) throw new TotalsError(`${f}/Cantidad`, `El campo ${f}/Cantidad debe ser mayor que cero.`);
  if (price.lt(0)) throw new TotalsError(`${f}/PrecioUnitario`, `El campo ${f}/PrecioUnitario no puede ser negativo.`);
  const montoTotal = round(qty.times(price));
  const discounts = (line.discounts ?? []).map((d, i) => {
    let amount: Decimal;
    if (d.amount !== undefined) amount = round(dec(d.amount, `${f}/Descuento ${i + 1}/MontoDescuento`));
    else if (d.percent !== undefined) {
      const pct = dec(d.percent, `${f}/Descuento ${i + 1}/porcentaje`);
      if (pct.lt(0) || pct.gt(100)) throw new TotalsError(`${f}/Descuento`, `El porcentaje de descuento de la ${f} debe estar entre 0 y 100.`);
      amount = round(montoTotal.times(pct).times(ONE_HUNDREDTH));
    } else throw new TotalsError(`${f}/Descuento`, `El descuento ${i + 1} de la ${f} necesita un monto o un porcentaje.`);
    if (amount.lt(0)) throw new TotalsError(`${f}/Descuento`, `El descuento ${i + 1} de la ${f} no puede ser negativo.`);
    return { code: d.code, amount };
  });
  const totalDiscount = sum(discounts.map((d) => d.amount));
  if (totalDiscount.gt(montoTotal))
    throw new TotalsError(`${f}/Descuento`, `Los descuentos de la ${f} (${money(totalDiscount)}) superan el monto de la línea (${money(montoTotal)}): redúzcalos.`);
  const subTotal = montoTotal.minus(totalDiscount);

  // Non-IVA taxes first: some of them form part of the IVA base.
  const computed = new Map<TaxInput, Decimal>();
  for (const t of line.taxes) {
    if (IVA_CODES.has(t.code)) continue;
    const rate = taxRate(t, `${f}/Impuesto`);
    let m: Decimal;
    if (t.amount !== undefined) m = round(dec(t.amount, `${f}/Impuesto/Monto`));
    else if (rate) m = round(subTotal.times(rate).times(ONE_HUNDREDTH));
    else throw new TotalsError(`${f}/Impuesto`, `El impuesto ${t.code} de la ${f} necesita una tarifa o un monto.`);
    computed.set(t, m);
  }
  const baseImponible = subTotal.plus(sum(line.taxes.filter((t) => BASE_TAX_CODES.has(t.code)).map((t) => computed.get(t)!)));

  let exoneratedFraction = ZERO;
  let category: LineCategory = "exento";
  let hasIva = false;
  const taxes: TaxTotals[] = [];
  let exonerationTotal = ZERO;
  let grossTax = ZERO;
  const taxNet: Decimal[] = [];
  for (const t of line.taxes) {
    const rate = taxRate(t, `${f}/Impuesto`);
    let monto: Decimal;
    if (IVA_CODES.has(t.code)) {
      if (!t.tarifaCode) throw new TotalsError(`${f}/Impuesto/CodigoTarifaIVA`, `El IVA de la ${f} necesita CodigoTarifaIVA: elija la tarifa.`);
      hasIva = true;
      monto = t.amount !== undefined ? round(dec(t.amount)) : round(baseImponible.times(rate!).times(ONE_HUNDREDTH));
      category = t.tarifaCode === "11" ? "noSujeto" : t.tarifaCode === "10" || t.tarifaCode === "01" ? "exento" : "gravado";
    } else monto = computed.get(t)!;
    const out: TaxTotals = { code: t.code, tarifaCode: t.tarifaCode, rate: rate?.toFixed(2), monto: money(monto) };
    grossTax = grossTax.plus(monto);
    let net = monto;
    if (t.exoneration) {
      const te = dec(t.exoneration.tarifaExonerada, `${f}/Exoneracion/TarifaExonerada`);
      if (!rate || te.gt(rate) || te.lt(0))
        throw new TotalsError(
          `${f}/Exoneracion/TarifaExonerada`,
          `La tarifa exonerada de la ${f} (${te.toFixed(2)}%) no puede superar la tarifa del impuesto (${rate?.toFixed(2) ?? "0"}%): corrija el porcentaje de exoneración.`,
        );
      const mExo = round(baseImponible.times(te).times(ONE_HUNDREDTH));
      exonerationTotal = exonerationTotal.plus(mExo);
      net = monto.minus(mExo);
      out.exoneration = { tarifaExonerada: te.toFixed(2), monto: money(mExo) };
      if (IVA_CODES.has(t.code) && rate.gt(0)) exoneratedFraction = te.div(rate);
    }
    taxNet.push(net);
    taxes.push(out);
  }
  if (!hasIva) category = "exento";
  const asumido = line.impuestoAsumidoEmisorFabrica ? round(dec(line.impuestoAsumidoEmisorFabrica)) : ZERO;
  const impuestoNeto = grossTax.minus(exonerationTotal).minus(asumido);
  if (impuestoNeto.lt(0)) throw new TotalsError(`${f}/ImpuestoNeto`, `El impuesto neto de la ${f} resulta negativo: revise la exoneración y el impuesto asumido.`);

  const split: Record<LineCategory, Decimal> = { gravado: ZERO, exento: ZERO, exonerado: ZERO, noSujeto: ZERO };
  if (category === "gravado" && exoneratedFraction.gt(0)) {
    split.exonerado = round(montoTotal.times(exoneratedFraction));
    split.gravado = montoTotal.minus(split.exonerado);
  } else split[category] = montoTotal;

  const out: LineTotals = {
    kind: lineKind(line),
    montoTotal: money(montoTotal),
    discounts: discounts.map((d) => ({ code: d.code, amount: money(d.amount) })),
    subTotal: money(subTotal),
    baseImponible: money(baseImponible),
    taxes,
    impuestoAsumidoEmisorFabrica: money(asumido),
    impuestoNeto: money(impuestoNeto),
    montoTotalLinea: money(subTotal.plus(impuestoNeto)),
    split: { gravado: money(split.gravado), exento: money(split.exento), exonerado: money(split.exonerado), noSujeto: money(split.noSujeto) },
  };
  return { out, d: { split, discounts: discounts.map((x) => x.amount), taxNet, impuestoNeto, asumido } };
}

export interface TotalsOptions {
  /**
   * IVA devuelto applies: the document is paid by card (MedioPago 02). Then the IVA of health-service
   * lines (healthService: true) at the 4 % rate (CodigoTarifaIVA 04) is refunded (TotalIVADevuelto).
   */
  paidByCard?: boolean;
}

export function computeTotals(lines: LineInput[], otherCharges: OtherChargeInput[] = [], opts: TotalsOptions = {}): DocumentTotals {
  const computed = lines.map((l, i) => computeLineD(l, i + 1));
  const lt = computed.map((c) => c.out);
  const ld = computed.map((c) => c.d);
  const acc = {
    service: { gravado: ZERO, exento: ZERO, exonerado: ZERO, noSujeto: ZERO },
    goods: { gravado: ZERO, exento: ZERO, exonerado: ZERO, noSujeto: ZERO },
  };
  ld.forEach((l, i) => {
    const a = acc[lt[i].kind];
    for (const cat of ["gravado", "exento", "exonerado", "noSujeto"] as const) if (!l.split[cat].isZero()) a[cat] = a[cat].plus(l.split[cat]);
  });
  const { gravado: servG, exento: servE, exonerado: servX, noSujeto: servN } = acc.service;
  const { gravado: merG, exento: merE, exonerado: merX, noSujeto: merN } = acc.goods;
  const totalGravado = servG.plus(merG);
  const totalExento = servE.plus(merE);
  const totalExonerado = servX.plus(merX);
  const totalNoSujeto = servN.plus(merN);
  const totalVenta = totalGravado.plus(totalExento).plus(totalExonerado).plus(totalNoSujeto);
  const totalDescuentos = sum(ld.flatMap((l) => l.discounts));
  const totalVentaNeta = totalVenta.minus(totalDescuentos);

  const desglose = new Map<string, { code: TaxCode; tarifaCode?: TarifaCode; total: Decimal }>();
  let totalIVADevuelto = ZERO;
  lt.forEach((l, i) =>
    l.taxes.forEach((t, j) => {
      const key = `${t.code}/${t.tarifaCode ?? ""}`;
      let g = desglose.get(key);
      if (!g) desglose.set(key, (g = { code: t.code, tarifaCode: t.tarifaCode, total: ZERO }));
      g.total = g.total.plus(ld[i].taxNet[j]);
      if (opts.paidByCard && lines[i].healthService && IVA_CODES.has(t.code) && t.tarifaCode === "04") totalIVADevuelto = totalIVADevuelto.plus(ld[i].taxNet[j]);
    }),
  );
  const totalImpuesto = sum(ld.map((l) => l.impuestoNeto));
  const totalAsumido = sum(ld.map((l) => l.asumido));

  const charges = otherCharges.map((c, i) => {
    let amount: Decimal;
    if (c.amount !== undefined) amount = round(dec(c.amount, `OtrosCargos ${i + 1}/MontoCargo`));
    else if (c.percent !== undefined) amount = round(totalVentaNeta.times(dec(c.percent, `OtrosCargos ${i + 1}/PorcentajeOC`)).times(ONE_HUNDREDTH));
    else throw new TotalsError(`OtrosCargos`, `El otro cargo ${i + 1} necesita un monto o un porcentaje.`);
    if (amount.lt(0)) throw new TotalsError("OtrosCargos", `El otro cargo ${i + 1} no puede ser negativo.`);
    return { code: c.code, percent: c.percent !== undefined ? dec(c.percent).toFixed(5) : undefined, amount };
  });
  const totalOtrosCargos = sum(charges.map((c) => c.amount));
  const totalComprobante = totalVentaNeta.plus(totalImpuesto).plus(totalOtrosCargos).minus(totalIVADevuelto);

  return {
    lines: lt,
    otherCharges: charges.map((c) => ({ code: c.code, percent: c.percent, amount: money(c.amount) })),
    resumen: {
      totalServGravados: money(servG),
      totalServExentos: money(servE),
      totalServExonerado: money(servX),
      totalServNoSujeto: money(servN),
      totalMercanciasGravadas: money(merG),
      totalMercanciasExentas: money(merE),
      totalMercExonerada: money(merX),
      totalMercNoSujeta: money(merN),
      totalGravado: money(totalGravado),
      totalExento: money(totalExento),
      totalExonerado: money(totalExonerado),
      totalNoSujeto: money(totalNoSujeto),
      totalVenta: money(totalVenta),
      totalDescuentos: money(totalDescuentos),
      totalVentaNeta: money(totalVentaNeta),
      totalDesgloseImpuesto: [...desglose.values()].map((g) => ({ code: g.code, tarifaCode: g.tarifaCode, total: money(g.total) })),
      totalImpuesto: money(totalImpuesto),
      totalImpAsumEmisorFabrica: money(totalAsumido),
      totalIVADevuelto: money(totalIVADevuelto),
      totalOtrosCargos: money(totalOtrosCargos),
      totalComprobante: money(totalComprobante),
    },
  };
}

export interface PaymentInput {
  /** TipoMedioPago (Nota 6). */
  code: string;
  other?: string;
  /** Omit on a single method to have it filled with TotalComprobante. */
  amount?: string;
}

/**
 * Fills MedioPago amounts: a single method without amount gets the whole TotalComprobante; with
 * several methods every amount is required and they must add up to TotalComprobante.
 */
export function fillPayments(total: string, payments: PaymentInput[]): Array<{ code: string; other?: string; amount: string }> {
  if (payments.length === 0) return [];
  if (payments.length > 4) throw new TotalsError("MedioPago", "Se admiten como máximo 4 medios de pago: quite los sobrantes.");
  if (payments.length === 1 && payments[0].amount === undefined) return [{ ...payments[0], amount: money(total) }];
  const out = payments.map((p, i) => {
    if (p.amount === undefined) throw new TotalsError("MedioPago", `Indique el monto del medio de pago ${i + 1}: con varios medios de pago cada uno necesita su monto.`);
    return { ...p, amount: money(p.amount) };
  });
  const s = sum(out.map((p) => dec(p.amount)));
  if (!s.eq(dec(total)))
    throw new TotalsError("MedioPago", `Los montos de los medios de pago suman ${money(s)} y deben sumar el total del comprobante (${money(total)}): corríjalos.`);
  return out;
}
