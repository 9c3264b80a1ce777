/**
 * Invoice math for Hacienda v4.4 comprobantes — the one place where line amounts and ResumenFactura
 * totals are computed. Pure; strings in, strings out (5 decimals, half-up); never JS floats.
 * Rules and the points where the product spec differs: docs/decisions/010-totals-and-rounding.md.
 */
import { add5, fx, fxCmp, fxDiv, fxFixed, fxMul, fxOf5, fxSign, money, money5, round5, type Fx, type Money5 } from "./decimal.ts";

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

/**
 * Units of measure that denote services (Nota 15); every other unit is goods (mercancías). Only the
 * fallback for a line without a CABYS code: the Anexo splits goods and services by CABYS (below).
 */
export const SERVICE_UNITS: ReadonlySet<string> = new Set(["Sp", "Spe", "St", "Al", "Alc", "Cm", "I", "Os"]);

/**
 * CodigoTarifaIVA → ResumenFactura category when the line is not exonerated (Nota 8.1, A44 p.71;
 * ResumenFactura, A44 pp.50–52): 01 (0 %, art. 32 RLIVA) and 11 (0 % sin derecho a crédito) are
 * "no sujeto" — TotalServNoSujeto/TotalMercNoSujeta name exactly "los códigos de tarifa del IVA 01
 * y 11 de la nota 8.1" (p.51, p.52); 10 (tarifa exenta, Ley 9635 art. 8) is "exento"; every other
 * rate, 0 % transitorio (05) included, is "gravado". docs/decisions/130.
 */
export const TARIFA_CATEGORY: Readonly<Record<TarifaCode, "gravado" | "exento" | "noSujeto">> = {
  "01": "noSujeto",
  "02": "gravado",
  "03": "gravado",
  "04": "gravado",
  "05": "gravado",
  "06": "gravado",
  "07": "gravado",
  "08": "gravado",
  "09": "gravado",
  "10": "exento",
  "11": "noSujeto",
};

/** CodigoTarifaIVA reserved for notas de crédito y débito (Nota 8.1 footnotes 29–31, A44 p.71). */
export const NOTES_ONLY_TARIFAS: ReadonlySet<string> = new Set(["05", "06", "07"]);

/** Taxes that are part of the IVA taxable base (BaseImponible = SubTotal + these). */
const ONE_HUNDREDTH: Fx = { m: 1n, e: 2 };
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
  /** 13-digit CABYS code: its first digit decides goods (0–4) or services (5–9) (A44 pp.50–52). */
  cabys?: string;
  /** Without a CABYS code: overrides the goods/services classification by unit. */
  kind?: "goods" | "service";
  /** IVACobradoFabrica (Nota 21): 01 IVA cobrado a nivel de fábrica, 02 exento por ese sistema. */
  ivaCobradoFabrica?: string;
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

const CABYS_RE = /^\d{13}$/;

/**
 * Goods or services, as the Anexo splits ResumenFactura (TotalServ* / TotalMerc*, A44 pp.50–52):
 * a CABYS code starting with 5, 6, 7, 8 or 9 is a service, 0–4 a good. A line without a valid
 * CABYS code (old data, a quotation, a REP line) falls back to `kind`, then to its unit of
 * measure — and says so (kindWarnings).
 */
export function lineKind(line: Pick<LineInput, "unit" | "kind" | "cabys">): "goods" | "service" {
  const c = line.cabys;
  if (c !== undefined && CABYS_RE.test(c)) return c.charCodeAt(0) >= 53 /* "5" */ ? "service" : "goods";
  return line.kind ?? (SERVICE_UNITS.has(line.unit) ? "service" : "goods");
}

/** Whether a line's goods/services class comes from its CABYS code (else from the unit: a warning). */
export function hasCabys(line: Pick<LineInput, "cabys">): boolean {
  return line.cabys !== undefined && CABYS_RE.test(line.cabys);
}

export interface LineWarning {
  /** 1-based line number. */
  line: number;
  message: string;
}

/**
 * Warnings (not errors) about how the totals classified lines: a line without a CABYS code is
 * counted as goods or services by its unit of measure, which Hacienda may see otherwise.
 */
export function kindWarnings(lines: ReadonlyArray<Pick<LineInput, "unit" | "kind" | "cabys">>): LineWarning[] {
  const out: LineWarning[] = [];
  lines.forEach((l, i) => {
    if (hasCabys(l)) return;
    const kind = lineKind(l) === "service" ? "servicio" : "mercancía";
    out.push({
      line: i + 1,
      message: `La línea ${i + 1} no tiene código CABYS: se contó como ${kind} por su unidad de medida (${l.unit || "sin unidad"}). Hacienda clasifica por el CABYS: indíquelo para que los totales de mercancías y servicios coincidan.`,
    });
  });
  return out;
}

const IVA_RATE_FX = new Map(Object.entries(IVA_RATES).map(([k, v]) => [k, fx(v)]));

function taxRate(t: TaxInput, field: string): Fx | undefined {
  if (t.rate !== undefined) return fx(t.rate, `${field}/Tarifa`);
  if (t.tarifaCode) {
    const r = IVA_RATE_FX.get(t.tarifaCode);
    if (r === undefined) throw new TotalsError(`${field}/CodigoTarifaIVA`, `El campo ${field}/CodigoTarifaIVA "${t.tarifaCode}" no existe: use un código de 01 a 11.`);
    return r;
  }
  return undefined;
}

/** round5(a × b / 100), with decimal.js's intermediate rounding (a.times(b).times(0.01)). */
function percentOf(a: Money5, b: Fx): Money5 {
  return round5(fxMul(fxMul(fxOf5(a), b), ONE_HUNDREDTH));
}

function sum5(values: Money5[]): Money5 {
  let s = 0n;
  for (const v of values) s = add5(s, v);
  return s;
}

interface LineDecimals {
  split: Record<LineCategory, Money5>;
  discounts: Money5[];
  /** Net tax (Monto − MontoExoneracion) per tax, in input order. */
  taxNet: Money5[];
  impuestoNeto: Money5;
  asumido: Money5;
}

/** Computes one line. `n` is the 1-based line number, used in messages. */
export function computeLine(line: LineInput, n = 1): LineTotals {
  return computeLineD(line, n).out;
}

function computeLineD(line: LineInput, n: number): { out: LineTotals; d: LineDecimals } {
  const f = `LineaDetalle ${n}`;
  const qty = fx(line.quantity, `${f}/Cantidad`);
  const price = fx(line.unitPrice, `${f}/PrecioUnitario`);
  if (fxSign(qty) <= 0) throw new TotalsError(`${f}/Cantidad`, `El campo ${f}/Cantidad debe ser mayor que cero.`);
  if (fxSign(price) < 0) throw new TotalsError(`${f}/PrecioUnitario`, `El campo ${f}/PrecioUnitario no puede ser negativo.`);
  const montoTotal = round5(fxMul(qty, price));
  const discounts = (line.discounts ?? []).map((d, i) => {
    let amount: Money5;
    if (d.amount !== undefined) amount = round5(fx(d.amount, `${f}/Descuento ${i + 1}/MontoDescuento`));
    else if (d.percent !== undefined) {
      const pct = fx(d.percent, `${f}/Descuento ${i + 1}/porcentaje`);
      if (fxSign(pct) < 0 || fxCmp(pct, HUNDRED) > 0) throw new TotalsError(`${f}/Descuento`, `El porcentaje de descuento de la ${f} debe estar entre 0 y 100.`);
      amount = percentOf(montoTotal, pct);
    } else throw new TotalsError(`${f}/Descuento`, `El descuento ${i + 1} de la ${f} necesita un monto o un porcentaje.`);
    if (amount < 0n) throw new TotalsError(`${f}/Descuento`, `El descuento ${i + 1} de la ${f} no puede ser negativo.`);
    return { code: d.code, amount };
  });
  const totalDiscount = sum5(discounts.map((d) => d.amount));
  if (totalDiscount > montoTotal)
    throw new TotalsError(`${f}/Descuento`, `Los descuentos de la ${f} (${money5(totalDiscount)}) superan el monto de la línea (${money5(montoTotal)}): redúzcalos.`);
  const subTotal = add5(montoTotal, -totalDiscount);

  // Non-IVA taxes first: some of them form part of the IVA base.
  const computed = new Map<TaxInput, Money5>();
  let baseTaxes = 0n;
  for (const t of line.taxes) {
    if (IVA_CODES.has(t.code)) continue;
    const rate = taxRate(t, `${f}/Impuesto`);
    let m: Money5;
    if (t.amount !== undefined) m = round5(fx(t.amount, `${f}/Impuesto/Monto`));
    else if (rate) m = percentOf(subTotal, rate);
    else throw new TotalsError(`${f}/Impuesto`, `El impuesto ${t.code} de la ${f} necesita una tarifa o un monto.`);
    computed.set(t, m);
    if (BASE_TAX_CODES.has(t.code)) baseTaxes = add5(baseTaxes, m);
  }
  const baseImponible = add5(subTotal, baseTaxes);

  let exoneratedFraction: Fx | undefined;
  let category: LineCategory = "exento";
  let hasIva = false;
  const taxes: TaxTotals[] = [];
  let exonerationTotal = 0n;
  let grossTax = 0n;
  const taxNet: Money5[] = [];
  for (const t of line.taxes) {
    const rate = taxRate(t, `${f}/Impuesto`);
    let monto: Money5;
    if (IVA_CODES.has(t.code)) {
      if (!t.tarifaCode) throw new TotalsError(`${f}/Impuesto/CodigoTarifaIVA`, `El IVA de la ${f} necesita CodigoTarifaIVA: elija la tarifa.`);
      hasIva = true;
      monto = t.amount !== undefined ? round5(fx(t.amount)) : percentOf(baseImponible, rate!);
      category = TARIFA_CATEGORY[t.tarifaCode] ?? "gravado";
    } else monto = computed.get(t)!;
    const out: TaxTotals = { code: t.code, tarifaCode: t.tarifaCode, rate: rate ? fxFixed(rate, 2) : undefined, monto: money5(monto) };
    grossTax = add5(grossTax, monto);
    let net = monto;
    if (t.exoneration) {
      const te = fx(t.exoneration.tarifaExonerada, `${f}/Exoneracion/TarifaExonerada`);
      if (!rate || fxCmp(te, rate) > 0 || fxSign(te) < 0)
        throw new TotalsError(
          `${f}/Exoneracion/TarifaExonerada`,
          `La tarifa exonerada de la ${f} (${fxFixed(te, 2)}%) no puede superar la tarifa del impuesto (${rate ? fxFixed(rate, 2) : "0"}%): corrija el porcentaje de exoneración.`,
        );
      const mExo = percentOf(baseImponible, te);
      exonerationTotal = add5(exonerationTotal, mExo);
      net = add5(monto, -mExo);
      out.exoneration = { tarifaExonerada: fxFixed(te, 2), monto: money5(mExo) };
      if (IVA_CODES.has(t.code) && fxSign(rate) > 0) exoneratedFraction = fxDiv(te, rate);
    }
    taxNet.push(net);
    taxes.push(out);
  }
  if (!hasIva) category = "exento";
  // IVA cobrado a nivel de fábrica (Nota 21): such goods are left out of TotalMercanciasGravadas
  // (A44 p.51) and, with code 02, must carry tarifa 10 exenta (A44 p.36): they count as exento.
  // docs/decisions/131.
  if (category === "gravado" && line.ivaCobradoFabrica) category = "exento";
  const asumido = line.impuestoAsumidoEmisorFabrica ? round5(fx(line.impuestoAsumidoEmisorFabrica)) : 0n;
  const impuestoNeto = add5(add5(grossTax, -exonerationTotal), -asumido);
  if (impuestoNeto < 0n) throw new TotalsError(`${f}/ImpuestoNeto`, `El impuesto neto de la ${f} resulta negativo: revise la exoneración y el impuesto asumido.`);
  // TotalDesgloseImpuesto groups "Impuestos Netos", i.e. Monto − exoneración − impuesto asumido por
  // el emisor o cobrado a nivel de fábrica, per tax code (A44 p.53), so that it adds up to
  // TotalImpuesto. The line's asumido is taken from its IVA first, then from its other taxes, in
  // order (the Anexo states the amount per line, not per tax). docs/decisions/131.
  if (asumido > 0n) {
    let left = asumido;
    const order = line.taxes.map((_, j) => j).sort((a, b) => Number(!IVA_CODES.has(line.taxes[a].code)) - Number(!IVA_CODES.has(line.taxes[b].code)));
    for (const j of order) {
      if (left === 0n) break;
      const take = taxNet[j] < left ? taxNet[j] : left;
      taxNet[j] = add5(taxNet[j], -take);
      left = add5(left, -take);
    }
  }

  const split: Record<LineCategory, Money5> = { gravado: 0n, exento: 0n, exonerado: 0n, noSujeto: 0n };
  if (category === "gravado" && exoneratedFraction && fxSign(exoneratedFraction) > 0) {
    split.exonerado = round5(fxMul(fxOf5(montoTotal), exoneratedFraction));
    split.gravado = add5(montoTotal, -split.exonerado);
  } else split[category] = montoTotal;

  const out: LineTotals = {
    kind: lineKind(line),
    montoTotal: money5(montoTotal),
    discounts: discounts.map((d) => ({ code: d.code, amount: money5(d.amount) })),
    subTotal: money5(subTotal),
    baseImponible: money5(baseImponible),
    taxes,
    impuestoAsumidoEmisorFabrica: money5(asumido),
    impuestoNeto: money5(impuestoNeto),
    montoTotalLinea: money5(add5(subTotal, impuestoNeto)),
    split: { gravado: money5(split.gravado), exento: money5(split.exento), exonerado: money5(split.exonerado), noSujeto: money5(split.noSujeto) },
  };
  return { out, d: { split, discounts: discounts.map((x) => x.amount), taxNet, impuestoNeto, asumido } };
}

const HUNDRED: Fx = { m: 100n, e: 0 };

export interface TotalsOptions {
  /**
   * IVA devuelto applies: the document is paid by card (MedioPago 02). Then the IVA of health-service
   * lines (healthService: true) at the 4 % rate (CodigoTarifaIVA 04) is refunded (TotalIVADevuelto).
   */
  paidByCard?: boolean;
  /**
   * Whether the document has "no sujeto" totals (TotalServNoSujeto, TotalMercNoSujeta,
   * TotalNoSujeto). The FEE has none (A44 pp.51–52, column FEE = 4 "inexistente"): its 0 % lines
   * (tarifa 01) then count as exento. Default true. docs/decisions/130.
   */
  noSujetoTotals?: boolean;
}

export function computeTotals(lines: LineInput[], otherCharges: OtherChargeInput[] = [], opts: TotalsOptions = {}): DocumentTotals {
  const computed = lines.map((l, i) => computeLineD(l, i + 1));
  const lt = computed.map((c) => c.out);
  const ld = computed.map((c) => c.d);
  const acc = {
    service: { gravado: 0n, exento: 0n, exonerado: 0n, noSujeto: 0n },
    goods: { gravado: 0n, exento: 0n, exonerado: 0n, noSujeto: 0n },
  };
  ld.forEach((l, i) => {
    const a = acc[lt[i].kind];
    for (const cat of ["gravado", "exento", "exonerado", "noSujeto"] as const) if (l.split[cat] !== 0n) a[cat] = add5(a[cat], l.split[cat]);
  });
  if (opts.noSujetoTotals === false)
    for (const a of [acc.service, acc.goods]) {
      a.exento = add5(a.exento, a.noSujeto);
      a.noSujeto = 0n;
    }
  const { gravado: servG, exento: servE, exonerado: servX, noSujeto: servN } = acc.service;
  const { gravado: merG, exento: merE, exonerado: merX, noSujeto: merN } = acc.goods;
  const totalGravado = add5(servG, merG);
  const totalExento = add5(servE, merE);
  const totalExonerado = add5(servX, merX);
  const totalNoSujeto = add5(servN, merN);
  const totalVenta = add5(add5(add5(totalGravado, totalExento), totalExonerado), totalNoSujeto);
  const totalDescuentos = sum5(ld.flatMap((l) => l.discounts));
  const totalVentaNeta = add5(totalVenta, -totalDescuentos);

  const desglose = new Map<string, { code: TaxCode; tarifaCode?: TarifaCode; total: Money5 }>();
  let totalIVADevuelto = 0n;
  lt.forEach((l, i) =>
    l.taxes.forEach((t, j) => {
      const key = `${t.code}/${t.tarifaCode ?? ""}`;
      let g = desglose.get(key);
      if (!g) desglose.set(key, (g = { code: t.code, tarifaCode: t.tarifaCode, total: 0n }));
      g.total = add5(g.total, ld[i].taxNet[j]);
      if (opts.paidByCard && lines[i].healthService && IVA_CODES.has(t.code) && t.tarifaCode === "04") totalIVADevuelto = add5(totalIVADevuelto, ld[i].taxNet[j]);
    }),
  );
  const totalImpuesto = sum5(ld.map((l) => l.impuestoNeto));
  const totalAsumido = sum5(ld.map((l) => l.asumido));

  const charges = otherCharges.map((c, i) => {
    let amount: Money5;
    if (c.amount !== undefined) amount = round5(fx(c.amount, `OtrosCargos ${i + 1}/MontoCargo`));
    else if (c.percent !== undefined) amount = percentOf(totalVentaNeta, fx(c.percent, `OtrosCargos ${i + 1}/PorcentajeOC`));
    else throw new TotalsError(`OtrosCargos`, `El otro cargo ${i + 1} necesita un monto o un porcentaje.`);
    if (amount < 0n) throw new TotalsError("OtrosCargos", `El otro cargo ${i + 1} no puede ser negativo.`);
    return { code: c.code, percent: c.percent !== undefined ? fxFixed(fx(c.percent), 5) : undefined, amount };
  });
  const totalOtrosCargos = sum5(charges.map((c) => c.amount));
  const totalComprobante = add5(add5(add5(totalVentaNeta, totalImpuesto), totalOtrosCargos), -totalIVADevuelto);

  return {
    lines: lt,
    otherCharges: charges.map((c) => ({ code: c.code, percent: c.percent, amount: money5(c.amount) })),
    resumen: {
      totalServGravados: money5(servG),
      totalServExentos: money5(servE),
      totalServExonerado: money5(servX),
      totalServNoSujeto: money5(servN),
      totalMercanciasGravadas: money5(merG),
      totalMercanciasExentas: money5(merE),
      totalMercExonerada: money5(merX),
      totalMercNoSujeta: money5(merN),
      totalGravado: money5(totalGravado),
      totalExento: money5(totalExento),
      totalExonerado: money5(totalExonerado),
      totalNoSujeto: money5(totalNoSujeto),
      totalVenta: money5(totalVenta),
      totalDescuentos: money5(totalDescuentos),
      totalVentaNeta: money5(totalVentaNeta),
      totalDesgloseImpuesto: [...desglose.values()].map((g) => ({ code: g.code, tarifaCode: g.tarifaCode, total: money5(g.total) })),
      totalImpuesto: money5(totalImpuesto),
      totalImpAsumEmisorFabrica: money5(totalAsumido),
      totalIVADevuelto: money5(totalIVADevuelto),
      totalOtrosCargos: money5(totalOtrosCargos),
      totalComprobante: money5(totalComprobante),
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
  const s = sum5(out.map((p) => round5(fx(p.amount))));
  if (fxCmp(fxOf5(s), fx(total)) !== 0)
    throw new TotalsError("MedioPago", `Los montos de los medios de pago suman ${money5(s)} y deben sumar el total del comprobante (${money(total)}): corríjalos.`);
  return out;
}
