/**
 * Business rules of Hacienda v4.4 that the XSDs cannot express. Each failure is `{ path, message }`
 * with a plain-Spanish message that names the field and says what to do.
 */
import { Decimal } from "../domain/decimal.ts";
import { computeTotals, IVA_RATES, TotalsError } from "../domain/totals.ts";
import { comprobanteTotals } from "./build.ts";
import { PAYMENT_METHODS, SALE_CONDITIONS } from "./codes.ts";
import type { Comprobante, HaciendaDocument, Identification, MensajeReceptor } from "./model.ts";

export interface RuleError {
  path: string;
  message: string;
}

/**
 * Amounts a document states (read from its XML by read-model.ts): path → text as written, e.g.
 * "ResumenFactura/TotalComprobante" → "1130.00000". A model built in Colibrí has none.
 */
export type StatedAmounts = Record<string, string>;

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const EMAIL_RE = /^\s*\w+([-+.']\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*\s*$/;
const ID_LENGTHS: Record<string, [number, number]> = { "01": [9, 9], "02": [10, 10], "03": [11, 12], "04": [10, 10] };
const REFERENCE_REQUIRED = new Set(["nc", "nd", "fec", "rep"]);
const ACTIVITY_REQUIRED = new Set(["fe", "te", "fee"]);

function decimals(s: string): number {
  const dot = s.indexOf(".");
  return dot < 0 ? 0 : s.length - dot - 1;
}

function checkId(errors: RuleError[], path: string, label: string, id: Identification) {
  const len = ID_LENGTHS[id.type];
  if (len && !/^\d+$/.test(id.number))
    errors.push({ path: `${path}/Numero`, message: `La identificación de ${label} debe contener solo dígitos, sin guiones ni espacios.` });
  else if (len && (id.number.length < len[0] || id.number.length > len[1]))
    errors.push({
      path: `${path}/Numero`,
      message: `La identificación de ${label} (tipo ${id.type}) debe tener ${len[0] === len[1] ? len[0] : `${len[0]} a ${len[1]}`} dígitos; tiene ${id.number.length}.`,
    });
}

function comprobanteRules(doc: Comprobante, math: boolean): RuleError[] {
  const e: RuleError[] = [];
  const k = doc.kind;

  // Header
  if (doc.activityCode !== undefined && !/^\d{6}$/.test(doc.activityCode))
    e.push({ path: "CodigoActividadEmisor", message: "El campo CodigoActividadEmisor debe tener exactamente 6 dígitos: use el código de actividad inscrito en Hacienda." });
  if (ACTIVITY_REQUIRED.has(k) && !doc.activityCode)
    e.push({ path: "CodigoActividadEmisor", message: "Falta el campo CodigoActividadEmisor: indique la actividad económica del emisor (6 dígitos)." });
  if (doc.receiverActivityCode !== undefined && !/^\d{6}$/.test(doc.receiverActivityCode))
    e.push({ path: "CodigoActividadReceptor", message: "El campo CodigoActividadReceptor debe tener exactamente 6 dígitos." });
  if (k === "fec" && !doc.receiverActivityCode)
    e.push({ path: "CodigoActividadReceptor", message: "La factura de compra necesita CodigoActividadReceptor: indique la actividad económica de su empresa." });
  if (!doc.providerId) e.push({ path: "ProveedorSistemas", message: "Falta el campo ProveedorSistemas: indique la identificación del proveedor del sistema (o la del emisor si es desarrollo propio)." });

  // Parties
  checkId(e, "Emisor/Identificacion", "el emisor", doc.issuer.id);
  if ((k === "fe" || k === "fec" || k === "rep") && !doc.receiver)
    e.push({ path: "Receptor", message: "Este comprobante necesita un receptor: seleccione el cliente con su identificación." });
  if (doc.receiver) {
    checkId(e, "Receptor/Identificacion", "el receptor", doc.receiver.id);
    if (k === "fe" && doc.receiver.id.type === "05" && doc.saleCondition !== "12")
      e.push({ path: "Receptor/Identificacion/Tipo", message: "Un receptor extranjero no domiciliado (tipo 05) solo se admite en factura con CondicionVenta 12; use un tiquete o una factura de exportación." });
    for (const m of doc.receiver.emails)
      if (!EMAIL_RE.test(m)) e.push({ path: "Receptor/CorreoElectronico", message: `El correo del receptor "${m}" no es válido: corríjalo.` });
  }
  if (k !== "fec" && k !== "nc" && k !== "nd" && doc.issuer.emails.length === 0)
    e.push({ path: "Emisor/CorreoElectronico", message: "Falta el correo electrónico del emisor: agréguelo en los datos de la empresa." });
  if (doc.issuer.emails.length > 4) e.push({ path: "Emisor/CorreoElectronico", message: "El emisor admite como máximo 4 correos electrónicos: quite los sobrantes." });
  for (const m of doc.issuer.emails)
    if (!EMAIL_RE.test(m)) e.push({ path: "Emisor/CorreoElectronico", message: `El correo del emisor "${m}" no es válido: corríjalo.` });

  // Sale condition
  const allowed = SALE_CONDITIONS[k];
  if (k === "rep" && !allowed.includes(doc.saleCondition))
    e.push({ path: "CondicionVenta", message: "El recibo electrónico de pago solo admite CondicionVenta 09 (pago de servicios al Estado) u 11 (pago de venta a crédito hasta 90 días)." });
  else if (!allowed.includes(doc.saleCondition))
    e.push({ path: "CondicionVenta", message: `La CondicionVenta "${doc.saleCondition}" no se admite en este comprobante: use una de ${allowed.join(", ")}.` });
  if (doc.saleCondition === "02" && !(doc.creditDays && doc.creditDays > 0))
    e.push({ path: "PlazoCredito", message: "Una venta a crédito (CondicionVenta 02) necesita PlazoCredito: indique los días de crédito (1 o más)." });
  if (doc.creditDays !== undefined && (!Number.isInteger(doc.creditDays) || doc.creditDays < 0 || doc.creditDays > 99999))
    e.push({ path: "PlazoCredito", message: "El campo PlazoCredito debe ser un número entero de días entre 0 y 99999." });
  if (doc.saleCondition === "99" && !(doc.saleConditionOther && doc.saleConditionOther.length >= 5))
    e.push({ path: "CondicionVentaOtros", message: "Con CondicionVenta 99 (otros) describa la condición en CondicionVentaOtros (5 a 100 caracteres)." });

  // Currency
  const rate = doc.currency.rate;
  if (!NUMBER_RE.test(rate ?? "") || new Decimal(rate).lte(0))
    e.push({ path: "CodigoTipoMoneda/TipoCambio", message: "El tipo de cambio es obligatorio y debe ser mayor que cero: indíquelo." });
  else if (doc.currency.code === "CRC" && !new Decimal(rate).eq(1))
    e.push({ path: "CodigoTipoMoneda/TipoCambio", message: "En colones (CRC) el tipo de cambio debe ser 1." });
  else if (decimals(rate) > 5) e.push({ path: "CodigoTipoMoneda/TipoCambio", message: "El tipo de cambio admite como máximo 5 decimales." });

  // Lines
  if (doc.lines.length === 0) e.push({ path: "DetalleServicio", message: "El documento debe contener minimo un artículo." });
  if (doc.lines.length > 1000) e.push({ path: "DetalleServicio", message: "Un comprobante admite como máximo 1000 líneas: divídalo en varios." });
  doc.lines.forEach((l, i) => {
    const p = `DetalleServicio/LineaDetalle[${i + 1}]`;
    const label = `la línea ${i + 1}`;
    if (k !== "rep" && !/^\d{13}$/.test(l.cabys ?? ""))
      e.push({ path: `${p}/CodigoCABYS`, message: `El código CABYS de ${label} debe tener 13 dígitos: elija el producto o servicio del catálogo CABYS.` });
    if (!NUMBER_RE.test(l.quantity) || new Decimal(l.quantity).lte(0))
      e.push({ path: `${p}/Cantidad`, message: `La cantidad de ${label} debe ser un número mayor que cero.` });
    else if (decimals(l.quantity) > 3) e.push({ path: `${p}/Cantidad`, message: `La cantidad de ${label} admite como máximo 3 decimales.` });
    if (!NUMBER_RE.test(l.unitPrice) || new Decimal(l.unitPrice).lt(0))
      e.push({ path: `${p}/PrecioUnitario`, message: `El precio unitario de ${label} debe ser un número igual o mayor que cero.` });
    else if (decimals(l.unitPrice) > 5) e.push({ path: `${p}/PrecioUnitario`, message: `El precio unitario de ${label} admite como máximo 5 decimales.` });
    if ((l.description ?? "").trim().length < 3)
      e.push({ path: `${p}/Detalle`, message: `La descripción de ${label} debe tener al menos 3 caracteres.` });
    if (k !== "rep" && l.taxes.length === 0)
      e.push({ path: `${p}/Impuesto`, message: `La ${label.slice(3)} necesita al menos un impuesto: elija la tarifa de IVA (use "exento" si no lleva IVA).` });
    if ((l.discounts?.length ?? 0) > 5) e.push({ path: `${p}/Descuento`, message: `La ${label.slice(3)} admite como máximo 5 descuentos.` });
    for (const d of l.discounts ?? [])
      if (d.code === "99" && !(d.codeOther && d.codeOther.length >= 5))
        e.push({ path: `${p}/Descuento/CodigoDescuentoOTRO`, message: `El descuento "otros" de ${label} necesita una descripción en CodigoDescuentoOTRO.` });
    for (const t of l.taxes) {
      if ((t.code === "01" || t.code === "07") && !t.tarifaCode)
        e.push({ path: `${p}/Impuesto/CodigoTarifaIVA`, message: `El IVA de ${label} necesita CodigoTarifaIVA: elija la tarifa.` });
      if (t.exoneration) {
        if (k === "fee") e.push({ path: `${p}/Impuesto/Exoneracion`, message: "La factura de exportación no admite exoneraciones: quítela." });
        const r = t.rate ?? (t.tarifaCode ? IVA_RATES[t.tarifaCode] : undefined);
        const te = t.exoneration.tarifaExonerada;
        if (!NUMBER_RE.test(te) || new Decimal(te).lt(0) || r === undefined || new Decimal(te).gt(r))
          e.push({
            path: `${p}/Impuesto/Exoneracion/TarifaExonerada`,
            message: `El porcentaje de exoneración de ${label} debe estar entre 0 y la tarifa del impuesto (${r ?? "0"}%): corríjalo.`,
          });
        if (r !== undefined && new Decimal(r).eq(0))
          e.push({ path: `${p}/Impuesto/Exoneracion`, message: `La exoneración de ${label} solo aplica cuando la tarifa de IVA es mayor que 0.` });
      }
    }
  });

  // References
  const refs = doc.references ?? [];
  if (REFERENCE_REQUIRED.has(k) && refs.length === 0)
    e.push({
      path: "InformacionReferencia",
      message:
        k === "nc" || k === "nd"
          ? "Las notas de crédito y débito necesitan la referencia al documento que modifican: indique tipo, número, fecha, código y razón."
          : "Este comprobante necesita al menos una referencia (InformacionReferencia): indíquela.",
    });
  if (refs.length > 10) e.push({ path: "InformacionReferencia", message: "Se admiten como máximo 10 referencias: quite las sobrantes." });
  refs.forEach((r, i) => {
    if ((k === "nc" || k === "nd") && !r.code)
      e.push({ path: `InformacionReferencia[${i + 1}]/Codigo`, message: "Indique el código de referencia (por ejemplo 01 anula, 02 corrige monto, 06 devolución)." });
    if (k === "rep" && !r.number) e.push({ path: `InformacionReferencia[${i + 1}]/Numero`, message: "El recibo de pago necesita la clave del comprobante que se paga." });
    if (r.docType === "99" && !(r.docTypeOther && r.docTypeOther.length >= 5))
      e.push({ path: `InformacionReferencia[${i + 1}]/TipoDocRefOTRO`, message: "Con tipo de documento 99 describa el documento en TipoDocRefOTRO." });
  });

  // Payments and totals (the math itself can reject: discounts above the amount, exoneration above the rate…)
  if (doc.payments.length > 4) e.push({ path: "ResumenFactura/MedioPago", message: "Se admiten como máximo 4 medios de pago: quite los sobrantes." });
  if (k === "rep" && doc.payments.length === 0) e.push({ path: "ResumenFactura/MedioPago", message: "El recibo de pago necesita al menos un medio de pago." });
  for (const pm of doc.payments) {
    if (!(PAYMENT_METHODS as readonly string[]).includes(pm.code))
      e.push({ path: "ResumenFactura/MedioPago/TipoMedioPago", message: `El medio de pago "${pm.code}" no existe: use 01 efectivo, 02 tarjeta, 03 cheque, 04 transferencia, 05 recaudado por terceros, 06 SINPE Móvil, 07 plataforma digital o 99 otros.` });
    if (pm.code === "99" && !(pm.other && pm.other.length >= 3))
      e.push({ path: "ResumenFactura/MedioPago/MedioPagoOtros", message: "Con medio de pago 99 (otros) descríbalo en MedioPagoOtros." });
  }
  if (e.length === 0 && math) {
    try {
      const t = computeTotals(doc.lines, doc.otherCharges ?? []);
      const specified = doc.payments.filter((p) => p.amount !== undefined);
      if (doc.payments.length > 1 || specified.length === 1) {
        if (specified.length !== doc.payments.length)
          e.push({ path: "ResumenFactura/MedioPago/TotalMedioPago", message: "Con varios medios de pago indique el monto de cada uno." });
        else {
          // Compared against the total the builder computes (which may subtract IVA devuelto).
          const card = doc.payments.every((p) => p.code === "02");
          const total = card ? computeTotals(doc.lines, doc.otherCharges ?? [], { paidByCard: true }).resumen.totalComprobante : t.resumen.totalComprobante;
          const s = specified.reduce((a, p) => a.plus(NUMBER_RE.test(p.amount!) ? p.amount! : "NaN"), new Decimal(0));
          if (!s.eq(total))
            e.push({
              path: "ResumenFactura/MedioPago/TotalMedioPago",
              message: `Los montos de los medios de pago suman ${s.toFixed(5)} y deben sumar el total del comprobante (${total}): corríjalos.`,
            });
        }
      }
      const stated = (doc as Comprobante & { stated?: StatedAmounts }).stated;
      if (stated) e.push(...statedAmountErrors(doc, stated));
    } catch (err) {
      if (err instanceof TotalsError) e.push({ path: err.field, message: err.message });
      else if (err instanceof Error && /El campo/.test(err.message)) e.push({ path: "", message: err.message });
      else throw err;
    }
  }
  return e;
}

/** Key of a TotalDesgloseImpuesto group in StatedAmounts (groups are matched by código and tarifa). */
export function desglosePath(code: string, tarifaCode: string | undefined): string {
  return `ResumenFactura/TotalDesgloseImpuesto[Codigo=${code}${tarifaCode ? `,CodigoTarifaIVA=${tarifaCode}` : ""}]/TotalMontoImpuesto`;
}

/** Every amount the builder writes for `doc`, keyed like StatedAmounts, as totals.ts computes it. */
export function computedAmounts(doc: Comprobante): StatedAmounts {
  const t = comprobanteTotals(doc);
  const out: StatedAmounts = {};
  t.lines.forEach((l, i) => {
    const p = `DetalleServicio/LineaDetalle[${i + 1}]`;
    out[`${p}/MontoTotal`] = l.montoTotal;
    out[`${p}/SubTotal`] = l.subTotal;
    out[`${p}/BaseImponible`] = l.baseImponible;
    l.taxes.forEach((x, j) => {
      out[`${p}/Impuesto[${j + 1}]/Monto`] = x.monto;
      if (x.exoneration) out[`${p}/Impuesto[${j + 1}]/Exoneracion/MontoExoneracion`] = x.exoneration.monto;
    });
    out[`${p}/ImpuestoNeto`] = l.impuestoNeto;
    out[`${p}/MontoTotalLinea`] = l.montoTotalLinea;
  });
  t.otherCharges.forEach((c, i) => (out[`OtrosCargos[${i + 1}]/MontoCargo`] = c.amount));
  const r = t.resumen;
  const fields: Record<string, string> = {
    TotalServGravados: r.totalServGravados,
    TotalServExentos: r.totalServExentos,
    TotalServExonerado: r.totalServExonerado,
    TotalServNoSujeto: r.totalServNoSujeto,
    TotalMercanciasGravadas: r.totalMercanciasGravadas,
    TotalMercanciasExentas: r.totalMercanciasExentas,
    TotalMercExonerada: r.totalMercExonerada,
    TotalMercNoSujeta: r.totalMercNoSujeta,
    TotalGravado: r.totalGravado,
    TotalExento: r.totalExento,
    TotalExonerado: r.totalExonerado,
    TotalNoSujeto: r.totalNoSujeto,
    TotalVenta: r.totalVenta,
    TotalDescuentos: r.totalDescuentos,
    TotalVentaNeta: r.totalVentaNeta,
    TotalImpuesto: r.totalImpuesto,
    TotalImpAsumEmisorFabrica: r.totalImpAsumEmisorFabrica,
    TotalIVADevuelto: r.totalIVADevuelto,
    TotalOtrosCargos: r.totalOtrosCargos,
    TotalComprobante: r.totalComprobante,
  };
  for (const [k, v] of Object.entries(fields)) out[`ResumenFactura/${k}`] = v;
  for (const g of r.totalDesgloseImpuesto) out[desglosePath(g.code, g.tarifaCode)] = g.total;
  return out;
}

/**
 * Compares the amounts a document states with those its lines give (totals.ts, the same math the
 * builder uses). One error per differing field, naming it.
 */
export function statedAmountErrors(doc: Comprobante, stated: StatedAmounts): RuleError[] {
  const computed = computedAmounts(doc);
  const e: RuleError[] = [];
  const isLine = (path: string) => path.startsWith("DetalleServicio/");
  const source = (path: string) =>
    isLine(path) ? "el cálculo de la línea da" : path.startsWith("OtrosCargos") ? "el cálculo del cargo da" : "las líneas suman";
  for (const [path, said] of Object.entries(stated)) {
    const want = computed[path];
    if (want === undefined) {
      // A stated group or field the lines do not produce (e.g. a TotalDesgloseImpuesto for a rate no line uses).
      if (!NUMBER_RE.test(said) || !new Decimal(said).isZero())
        e.push({ path, message: `${path} dice ${said} pero las líneas no producen ese monto (0.00000): corríjalo o quítelo.` });
      continue;
    }
    if (!NUMBER_RE.test(said) || !new Decimal(said).eq(want))
      e.push({ path, message: `${path} dice ${said} pero ${source(path)} ${want}: corrija el monto o las líneas.` });
  }
  for (const [path, want] of Object.entries(computed))
    if (path.includes("TotalDesgloseImpuesto") && !(path in stated) && !new Decimal(want).isZero() && "ResumenFactura/TotalImpuesto" in stated)
      e.push({ path, message: `Falta ${path}: las líneas suman ${want} de ese impuesto; agréguelo al desglose.` });
  return e;
}

function mrRules(m: MensajeReceptor): RuleError[] {
  const e: RuleError[] = [];
  if (![1, 2, 3].includes(m.message)) e.push({ path: "Mensaje", message: "El mensaje debe ser 1 (aceptado), 2 (aceptado parcialmente) o 3 (rechazado)." });
  if (m.message !== 1 && !(m.detail && m.detail.trim()))
    e.push({ path: "DetalleMensaje", message: "Al aceptar parcialmente o rechazar un comprobante indique el motivo en DetalleMensaje." });
  const expected = { 1: "05", 2: "06", 3: "07" }[m.message];
  if (!/^\d{20}$/.test(m.receiverConsecutivo) || m.receiverConsecutivo.slice(8, 10) !== expected)
    e.push({ path: "NumeroConsecutivoReceptor", message: `El consecutivo del mensaje debe tener 20 dígitos y tipo ${expected} para este mensaje.` });
  if (!/^[a-zA-Z0-9]{50}$/.test(m.clave)) e.push({ path: "Clave", message: "La clave del comprobante recibido debe tener 50 caracteres: cópiela del XML recibido." });
  if (m.activityCode !== undefined && !/^\d{6}$/.test(m.activityCode))
    e.push({ path: "CodigoActividad", message: "El campo CodigoActividad debe tener exactamente 6 dígitos." });
  if (m.message !== 3 && m.taxCondition === undefined && m.taxTotal !== undefined && new Decimal(m.taxTotal).gt(0))
    e.push({ path: "CondicionImpuesto", message: "Indique la condición del impuesto (CondicionImpuesto 01 a 05) del comprobante aceptado." });
  for (const [field, v] of [["TotalFactura", m.total], ["MontoTotalImpuesto", m.taxTotal], ["MontoTotalImpuestoAcreditar", m.creditableTax], ["MontoTotalDeGastoAplicable", m.applicableExpense]] as const)
    if (v !== undefined && (!NUMBER_RE.test(v) || new Decimal(v).lt(0)))
      e.push({ path: field, message: `El campo ${field} debe ser un número igual o mayor que cero.` });
  return e;
}

export interface RuleOptions {
  /**
   * Also run the invoice math (discount ≤ amount, exoneration ≤ rate, MedioPago adds up to
   * TotalComprobante) and, for a model read from XML (read-model.ts, `stated`), compare every
   * amount the document states with what totals.ts computes (statedAmountErrors). Default true.
   * validateDocument passes false because the builder runs the same math and raises the same
   * Spanish errors.
   */
  math?: boolean;
}

/** Business rules of the document (no XML involved). Returns [] when it can be built. */
export function checkRules(doc: HaciendaDocument, opts: RuleOptions = {}): RuleError[] {
  return doc.kind === "mr" ? mrRules(doc) : comprobanteRules(doc, opts.math ?? true);
}
