/**
 * Business rules of Hacienda v4.4 that the XSDs cannot express. Each failure is `{ path, message }`
 * with a plain-Spanish message that names the field and says what to do. Every rule, its source
 * (Anexo page or real-document evidence) and the points the Anexo leaves open:
 * docs/decisions/130-fiscal-rules-and-sources.md.
 *
 * Two modes: "issued" (default) for the documents Colibrí builds — exact 5-decimal arithmetic and
 * the codes Hacienda requires today; "received" for a supplier's document, judged with
 * Hacienda's tolerance — amounts of systems that round to 2 decimals (A44 p.12) and activity codes
 * of the catalogue before TRIBU-CR are accepted.
 */
import { isCiiu4, isLegacyActivityCode } from "../domain/activity-codes.ts";
import { Decimal } from "../domain/decimal.ts";
import { CEDULA_JURIDICA } from "../domain/identification.ts";
import { IVA_RATES, kindWarnings, NOTES_ONLY_TARIFAS, TotalsError } from "../domain/totals.ts";
import { comprobanteTotals } from "./build.ts";
import { padIssuerId } from "./clave.ts";
import { NOTES_ONLY_EXONERATIONS, PAYMENT_METHODS, ROOTS, SALE_CONDITIONS } from "./codes.ts";
import type { Comprobante, HaciendaDocument, Identification, MensajeReceptor } from "./model.ts";

export interface RuleError {
  path: string;
  message: string;
}

/** "issued": a document Colibrí builds (exact); "received": someone else's, judged as Hacienda does. */
export type RuleMode = "issued" | "received";

/**
 * Amounts a document states (read from its XML by read-model.ts): path → text as written, e.g.
 * "ResumenFactura/TotalComprobante" → "1130.00000". A model built in Colibrí has none.
 */
export type StatedAmounts = Record<string, string>;

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** A number written as zero ("0", "0.00000", "+.0"). */
const ZERO_RE = /^[+-]?(?:0+(?:\.0*)?|\.0+)$/;
const EMAIL_RE = /^\s*\w+([-+.']\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*\s*$/;
const ID_LENGTHS: Record<string, [number, number]> = { "01": [9, 9], "02": [10, 10], "03": [11, 12], "04": [10, 10] };
const REFERENCE_REQUIRED = new Set(["nc", "nd", "fec", "rep"]);
const ACTIVITY_REQUIRED = new Set(["fe", "te", "fee"]);
/** The documents that modify another: the only ones where note-only codes are allowed (A44 p.71, p.74). */
const NOTES = new Set(["nc", "nd"]);
/** CondicionVenta that may go without MedioPago: the credit ones (A44 p.54). */
export const CREDIT_SALE_CONDITIONS: ReadonlySet<string> = new Set(["02", "08", "10"]);
/** TipoDocumentoOC that allow a document without detail lines (A44 p.26, p.47). */
const CHARGES_WITHOUT_LINES = new Set(["04", "08", "09", "10"]);
/** TipoDocIR a Recibo Electrónico de Pago may refer to (A44 p.56). */
const REP_REFERENCE_DOC_TYPES = new Set(["01", "02", "03", "04", "08"]);
/** At most 15 OtrosCargos (A44 p.47; XSD maxOccurs 15). */
export const MAX_OTHER_CHARGES = 15;

function decimals(s: string): number {
  const dot = s.indexOf(".");
  return dot < 0 ? 0 : s.length - dot - 1;
}

function checkId(errors: RuleError[], path: string, label: string, id: Identification) {
  const len = ID_LENGTHS[id.type];
  if (id.type === "02" && CEDULA_JURIDICA.test(id.number)) return;
  if (id.type === "02" && !/^\d+$/.test(id.number))
    errors.push({
      path: `${path}/Numero`,
      message: `La cédula jurídica de ${label} debe tener 10 caracteres sin guiones: 4 dígitos y luego 6 dígitos o letras mayúsculas (por ejemplo 3101123456 o 3101A00001).`,
    });
  else if (len && !/^\d+$/.test(id.number))
    errors.push({ path: `${path}/Numero`, message: `La identificación de ${label} debe contener solo dígitos, sin guiones ni espacios.` });
  else if (len && (id.number.length < len[0] || id.number.length > len[1]))
    errors.push({
      path: `${path}/Numero`,
      message: `La identificación de ${label} (tipo ${id.type}) debe tener ${len[0] === len[1] ? len[0] : `${len[0]} a ${len[1]}`} dígitos; tiene ${id.number.length}.`,
    });
}

function activityRule(e: RuleError[], path: string, code: string | undefined, whose: string, mode: RuleMode) {
  if (code === undefined) return;
  if (isCiiu4(code)) return;
  // Received documents issued before TRIBU-CR carry the old six-digit codes, and the XSD only asks
  // for six characters: accepted (warned, see ruleWarnings).
  if (mode === "received" && isLegacyActivityCode(code)) return;
  e.push({
    path,
    message: isLegacyActivityCode(code)
      ? `El código de actividad ${code} (${path}) es del catálogo anterior a TRIBU-CR: Hacienda exige el código CIIU 4 de la forma 0000.0 (por ejemplo 6201.0). Elija la nueva actividad en los datos ${whose} y vuelva a emitir.`
      : `El campo ${path} debe tener un código de actividad CIIU 4 de la forma 0000.0 (por ejemplo 6201.0): indique la actividad inscrita en Hacienda${whose ? ` en los datos ${whose}` : ""}.`,
  });
}

/**
 * The clave carries the issue date, the issuer's identification and the consecutivo: they must
 * agree with the XML (A44 pp.64–68, Nota 3/4.1). Issued documents always agree (the clave is built
 * from the same values); this catches a received or hand-made document that does not.
 */
function claveRules(e: RuleError[], doc: Comprobante) {
  const c = doc.clave;
  if (!/^[a-zA-Z0-9]{50}$/.test(c ?? "")) {
    e.push({ path: "Clave", message: "La clave debe tener 50 caracteres (dígitos, o letras en la identificación del emisor)." });
    return;
  }
  if (c.slice(21, 41) !== doc.consecutivo)
    e.push({ path: "Clave", message: `La clave no coincide con NumeroConsecutivo: la clave trae ${c.slice(21, 41)} y el documento ${doc.consecutivo}.` });
  const type = ROOTS[doc.kind].docType;
  if (/^\d{20}$/.test(doc.consecutivo) && doc.consecutivo.slice(8, 10) !== type)
    e.push({ path: "NumeroConsecutivo", message: `El NumeroConsecutivo ${doc.consecutivo} tiene el tipo de documento ${doc.consecutivo.slice(8, 10)}; para ${ROOTS[doc.kind].label} debe ser ${type}.` });
  const t = doc.issuedAt.getTime();
  if (!Number.isNaN(t)) {
    // Costa Rica is UTC−6 all year (no daylight saving since 1992): the calendar day without Intl.
    const cr = new Date(t - 6 * 3_600_000);
    const two = (n: number) => (n < 10 ? `0${n}` : String(n));
    const day = two(cr.getUTCDate());
    const month = two(cr.getUTCMonth() + 1);
    const year = two(cr.getUTCFullYear() % 100);
    if (c.slice(3, 9) !== `${day}${month}${year}`)
      e.push({ path: "Clave", message: `La fecha de la clave (${c.slice(3, 5)}/${c.slice(5, 7)}/${c.slice(7, 9)}) no coincide con FechaEmision (${day}/${month}/${year}, hora de Costa Rica).` });
  }
  // The identification in the clave is whoever issues and signs: for an FEC the buyer (receptor), decision 087.
  const owner = doc.kind === "fec" ? doc.receiver : doc.issuer;
  if (owner) {
    let padded: string | null = null;
    try {
      padded = padIssuerId(owner.id.number, owner.id.type);
    } catch {
      padded = null; // the identification rules already say what is wrong with it
    }
    if (padded !== null && c.slice(9, 21).toUpperCase() !== padded.toUpperCase())
      e.push({
        path: "Clave",
        message: `La identificación de la clave (${c.slice(9, 21)}) no coincide con la del ${doc.kind === "fec" ? "receptor que emite la factura de compra" : "emisor"} (${owner.id.number}).`,
      });
  }
  if (!/^[123]$/.test(c[41])) e.push({ path: "Clave", message: `La situación de la clave (${c[41]}) debe ser 1 normal, 2 contingencia o 3 sin internet.` });
}

function comprobanteRules(doc: Comprobante, math: boolean, mode: RuleMode): RuleError[] {
  const e: RuleError[] = [];
  const k = doc.kind;

  // Header
  claveRules(e, doc);
  activityRule(e, "CodigoActividadEmisor", doc.activityCode, k === "fec" ? "del proveedor" : "de la empresa", mode);
  if (ACTIVITY_REQUIRED.has(k) && !doc.activityCode)
    e.push({ path: "CodigoActividadEmisor", message: "Falta el campo CodigoActividadEmisor: indique la actividad económica del emisor (código CIIU 4, por ejemplo 6201.0)." });
  activityRule(e, "CodigoActividadReceptor", doc.receiverActivityCode, k === "fec" ? "de la empresa" : "del cliente", mode);
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

  // Lines (FE, TE, NC and ND may have none when an OtrosCargos 04, 08, 09 or 10 stands alone: A44 p.26)
  const charges = doc.otherCharges ?? [];
  const linesOptional = (k === "fe" || k === "te" || k === "nc" || k === "nd") && charges.some((c) => CHARGES_WITHOUT_LINES.has(c.code));
  if (doc.lines.length === 0 && !linesOptional) e.push({ path: "DetalleServicio", message: "El documento debe contener minimo un artículo." });
  if (doc.lines.length > 1000) e.push({ path: "DetalleServicio", message: "Un comprobante admite como máximo 1000 líneas: divídalo en varios." });
  const note = NOTES.has(k);
  doc.lines.forEach((l, i) => {
    const p = `DetalleServicio/LineaDetalle[${i + 1}]`;
    const label = `la línea ${i + 1}`;
    if (k !== "rep" && !/^\d{13}$/.test(l.cabys ?? ""))
      e.push({ path: `${p}/CodigoCABYS`, message: `El código CABYS de ${label} debe tener 13 dígitos: elija el producto o servicio del catálogo CABYS.` });
    if (!NUMBER_RE.test(l.quantity) || new Decimal(l.quantity).lte(0))
      e.push({ path: `${p}/Cantidad`, message: `La cantidad de ${label} debe ser un número mayor que cero.` });
    else if (decimals(l.quantity) > 3) e.push({ path: `${p}/Cantidad`, message: `La cantidad de ${label} admite como máximo 3 decimales.` });
    // PrecioUnitario "mayor a cero" (A44 p.35); REP lines state the amount paid instead.
    if (!NUMBER_RE.test(l.unitPrice) || new Decimal(l.unitPrice).lt(0) || (k !== "rep" && ZERO_RE.test(l.unitPrice)))
      e.push({ path: `${p}/PrecioUnitario`, message: `El precio unitario de ${label} debe ser un número mayor que cero.` });
    else if (decimals(l.unitPrice) > 5) e.push({ path: `${p}/PrecioUnitario`, message: `El precio unitario de ${label} admite como máximo 5 decimales.` });
    if ((l.description ?? "").trim().length < 3)
      e.push({ path: `${p}/Detalle`, message: `La descripción de ${label} debe tener al menos 3 caracteres.` });
    if (k !== "rep" && l.taxes.length === 0)
      e.push({ path: `${p}/Impuesto`, message: `La ${label.slice(3)} necesita al menos un impuesto: elija la tarifa de IVA (use "exento" si no lleva IVA).` });
    if ((l.discounts?.length ?? 0) > 5) e.push({ path: `${p}/Descuento`, message: `La ${label.slice(3)} admite como máximo 5 descuentos.` });
    for (const d of l.discounts ?? [])
      if (d.code === "99" && !(d.codeOther && d.codeOther.length >= 5))
        e.push({ path: `${p}/Descuento/CodigoDescuentoOTRO`, message: `El descuento "otros" de ${label} necesita una descripción en CodigoDescuentoOTRO.` });
    if (l.ivaCobradoFabrica !== undefined && l.ivaCobradoFabrica !== "01" && l.ivaCobradoFabrica !== "02")
      e.push({ path: `${p}/IVACobradoFabrica`, message: `El campo IVACobradoFabrica de ${label} debe ser 01 (IVA cobrado a nivel de fábrica) o 02 (exento por ese sistema).` });
    for (const t of l.taxes) {
      if ((t.code === "01" || t.code === "07") && !t.tarifaCode)
        e.push({ path: `${p}/Impuesto/CodigoTarifaIVA`, message: `El IVA de ${label} necesita CodigoTarifaIVA: elija la tarifa.` });
      if (t.tarifaCode && NOTES_ONLY_TARIFAS.has(t.tarifaCode) && !note)
        e.push({
          path: `${p}/Impuesto/CodigoTarifaIVA`,
          message: `La tarifa de IVA ${t.tarifaCode} (transitoria) de ${label} solo se admite en notas de crédito y débito (Anexo 4.4, nota 8.1): elija la tarifa vigente.`,
        });
      // IVA cobrado a nivel de fábrica 02: "el producto se entenderá exento … deberá llenar … el código 10 de tarifa exenta" (A44 p.36).
      if (l.ivaCobradoFabrica === "02" && (t.code === "01" || t.code === "07") && t.tarifaCode && t.tarifaCode !== "10")
        e.push({
          path: `${p}/Impuesto/CodigoTarifaIVA`,
          message: `Con IVACobradoFabrica 02 (exento por el sistema de IVA a nivel de fábrica) el IVA de ${label} debe usar la tarifa 10 (exenta), no ${t.tarifaCode}.`,
        });
      if (t.exoneration) {
        if (k === "fee") e.push({ path: `${p}/Impuesto/Exoneracion`, message: "La factura de exportación no admite exoneraciones: quítela." });
        if (NOTES_ONLY_EXONERATIONS.has(t.exoneration.docType) && !note)
          e.push({
            path: `${p}/Impuesto/Exoneracion/TipoDocumentoEX1`,
            message: `El tipo de exoneración ${t.exoneration.docType} de ${label} solo se admite en notas de crédito y débito (Anexo 4.4, nota 10.1): elija el tipo de documento vigente de la exoneración.`,
          });
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

  // Otros cargos: at most 15 (A44 p.47).
  if (charges.length > MAX_OTHER_CHARGES)
    e.push({
      path: "OtrosCargos",
      message: `El comprobante tiene ${charges.length} otros cargos y Hacienda admite como máximo ${MAX_OTHER_CHARGES}: agrupe o quite ${charges.length - MAX_OTHER_CHARGES}.`,
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
    const rp = `InformacionReferencia[${i + 1}]`;
    if ((k === "nc" || k === "nd") && !r.code)
      e.push({ path: `${rp}/Codigo`, message: "Indique el código de referencia (por ejemplo 01 anula, 02 corrige monto, 06 devolución)." });
    if (k === "rep" && !r.number) e.push({ path: `${rp}/Numero`, message: "El recibo de pago necesita la clave del comprobante que se paga." });
    if (r.docType === "99" && !(r.docTypeOther && r.docTypeOther.length >= 5))
      e.push({ path: `${rp}/TipoDocRefOTRO`, message: "Con tipo de documento 99 describa el documento en TipoDocRefOTRO." });
    if (r.docType === "16" && k !== "fec")
      e.push({ path: `${rp}/TipoDocIR`, message: "El tipo de documento de referencia 16 (comprobante de proveedor no domiciliado) solo se admite en la factura electrónica de compra (Anexo 4.4, p. 56)." });
    if (r.docType === "09" && !note)
      e.push({ path: `${rp}/TipoDocIR`, message: "El tipo de documento de referencia 09 (devolución de mercadería) solo se admite en notas de crédito y débito (Anexo 4.4, nota 10)." });
    if (k === "rep" && !REP_REFERENCE_DOC_TYPES.has(r.docType))
      e.push({ path: `${rp}/TipoDocIR`, message: `El recibo de pago solo puede referirse a una factura (01), nota de débito (02), nota de crédito (03), tiquete (04) o comprobante de contingencia (08), no al tipo ${r.docType} (Anexo 4.4, p. 56).` });
    if (r.code === "12" && k !== "nc")
      e.push({ path: `${rp}/Codigo`, message: "El código de referencia 12 (crédito por exoneración posterior a la facturación) solo se admite en notas de crédito (Anexo 4.4, nota 9)." });
    if (r.code === "17" && k !== "rep")
      e.push({ path: `${rp}/Codigo`, message: "El código de referencia 17 (pago a comprobante electrónico) solo se admite en el recibo electrónico de pago." });
  });

  // Payments and totals (the math itself can reject: discounts above the amount, exoneration above the rate…)
  if (doc.payments.length > 4) e.push({ path: "ResumenFactura/MedioPago", message: "Se admiten como máximo 4 medios de pago: quite los sobrantes." });
  if (k === "rep" && doc.payments.length === 0) e.push({ path: "ResumenFactura/MedioPago", message: "El recibo de pago necesita al menos un medio de pago." });
  // MedioPago "es de carácter obligatorio en todos los casos, excepto cuando se utilice en el campo
  // condición de la venta, los códigos 02, 08 y 10, correspondientes a créditos" (A44 p.54).
  else if (doc.payments.length === 0 && !CREDIT_SALE_CONDITIONS.has(doc.saleCondition))
    e.push({
      path: "ResumenFactura/MedioPago",
      message: `Falta el medio de pago: con la condición de venta ${doc.saleCondition} (no es crédito) indique cómo se pagó (efectivo, tarjeta, transferencia, SINPE Móvil…). Solo las ventas a crédito (02, 08 y 10) pueden ir sin medio de pago.`,
    });
  for (const pm of doc.payments) {
    if (!(PAYMENT_METHODS as readonly string[]).includes(pm.code))
      e.push({ path: "ResumenFactura/MedioPago/TipoMedioPago", message: `El medio de pago "${pm.code}" no existe: use 01 efectivo, 02 tarjeta, 03 cheque, 04 transferencia, 05 recaudado por terceros, 06 SINPE Móvil, 07 plataforma digital o 99 otros.` });
    if (pm.code === "99" && !(pm.other && pm.other.length >= 3))
      e.push({ path: "ResumenFactura/MedioPago/MedioPagoOtros", message: "Con medio de pago 99 (otros) descríbalo en MedioPagoOtros." });
    if (pm.amount !== undefined && (!NUMBER_RE.test(pm.amount) || !new Decimal(pm.amount).gt(0)))
      e.push({ path: "ResumenFactura/MedioPago/TotalMedioPago", message: "El monto de cada medio de pago debe ser mayor que cero (Anexo 4.4, p. 55)." });
  }
  if (e.length === 0 && math) {
    try {
      const stated = (doc as Comprobante & { stated?: StatedAmounts }).stated;
      const t = comprobanteTotals(doc); // throws the Spanish TotalsError of impossible amounts
      const specified = doc.payments.filter((p) => p.amount !== undefined);
      if (doc.payments.length > 1 || specified.length === 1) {
        if (specified.length !== doc.payments.length)
          e.push({ path: "ResumenFactura/MedioPago/TotalMedioPago", message: "Con varios medios de pago indique el monto de cada uno." });
        else {
          // Compared against the total the builder computes (which may subtract IVA devuelto); a
          // received document against the total it states, with Hacienda's 2-decimal margin.
          const said = stated?.["ResumenFactura/TotalComprobante"];
          const total = mode === "received" && said !== undefined && NUMBER_RE.test(said) ? said : t.resumen.totalComprobante;
          const s = specified.reduce((a, p) => a.plus(NUMBER_RE.test(p.amount!) ? p.amount! : "NaN"), new Decimal(0));
          const off = s.minus(total).abs();
          if (mode === "received" ? off.gt(TWO_DECIMALS_MARGIN) : !off.isZero())
            e.push({
              path: "ResumenFactura/MedioPago/TotalMedioPago",
              message: `Los montos de los medios de pago suman ${s.toFixed(5)} y deben sumar el total del comprobante (${new Decimal(total).toFixed(5)}): corríjalos.`,
            });
        }
      }
      if (stated) e.push(...statedAmountErrors(doc, stated, mode));
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
 * Hacienda's margin for systems that work with 2 decimals: "Se incorpora márgenes de error en los
 * decimales, para que aquellos contribuyentes cuyos sistemas funcionan con dos decimales puedan
 * seguir trabajando … aplicando el método de redondeo a dos decimales" (A44 p.12). A field a
 * 2-decimal system computes from other rounded fields may be off by a few half-cents: 0.02 per
 * line amount, and 0.02 per line or charge added into a total. Received documents only.
 */
export const TWO_DECIMALS_MARGIN = new Decimal("0.02");

/** The margin a received amount gets (statedAmountErrors): per line field, or per term of a total. */
export function receivedMargin(path: string, terms: number): Decimal {
  if (path.startsWith("DetalleServicio/") || path.startsWith("OtrosCargos")) return TWO_DECIMALS_MARGIN;
  return TWO_DECIMALS_MARGIN.times(Math.max(1, terms));
}

/**
 * Compares the amounts a document states with those its lines give (totals.ts, the same math the
 * builder uses). One error per differing field, naming it. "issued": exactly, at 5 decimals;
 * "received": within Hacienda's 2-decimal margin (receivedMargin).
 */
export function statedAmountErrors(doc: Comprobante, stated: StatedAmounts, mode: RuleMode = "issued"): RuleError[] {
  const computed = computedAmounts(doc);
  const e: RuleError[] = [];
  const terms = doc.lines.length + (doc.otherCharges?.length ?? 0);
  const isLine = (path: string) => path.startsWith("DetalleServicio/");
  const source = (path: string) =>
    isLine(path) ? "el cálculo de la línea da" : path.startsWith("OtrosCargos") ? "el cálculo del cargo da" : "las líneas suman";
  const differs = (said: string, want: string, path: string) => {
    if (!NUMBER_RE.test(said)) return true;
    const d = new Decimal(said).minus(want).abs();
    return mode === "received" ? d.gt(receivedMargin(path, terms)) : !d.isZero();
  };
  for (const [path, said] of Object.entries(stated)) {
    const want = computed[path];
    if (want === undefined) {
      // A stated group or field the lines do not produce (e.g. a TotalDesgloseImpuesto for a rate no line uses).
      if (differs(said, "0", path)) e.push({ path, message: `${path} dice ${said} pero las líneas no producen ese monto (0.00000): corríjalo o quítelo.` });
      continue;
    }
    if (differs(said, want, path)) e.push({ path, message: `${path} dice ${said} pero ${source(path)} ${want}: corrija el monto o las líneas.` });
  }
  for (const [path, want] of Object.entries(computed))
    if (path.includes("TotalDesgloseImpuesto") && !(path in stated) && differs("0", want, path) && "ResumenFactura/TotalImpuesto" in stated)
      e.push({ path, message: `Falta ${path}: las líneas suman ${want} de ese impuesto; agréguelo al desglose.` });
  return e;
}

function mrRules(m: MensajeReceptor, mode: RuleMode): RuleError[] {
  const e: RuleError[] = [];
  if (![1, 2, 3].includes(m.message)) e.push({ path: "Mensaje", message: "El mensaje debe ser 1 (aceptado), 2 (aceptado parcialmente) o 3 (rechazado)." });
  if (m.message !== 1 && !(m.detail && m.detail.trim()))
    e.push({ path: "DetalleMensaje", message: "Al aceptar parcialmente o rechazar un comprobante indique el motivo en DetalleMensaje." });
  // DetalleMensaje "Deberá de contener un mínimo de 5 caracteres y un máximo de 160" (A44 p.60).
  else if (m.detail !== undefined && m.detail.trim().length < 5)
    e.push({ path: "DetalleMensaje", message: "El detalle del mensaje (DetalleMensaje) debe tener al menos 5 caracteres: explique el motivo en una frase." });
  const expected = { 1: "05", 2: "06", 3: "07" }[m.message];
  if (!/^\d{20}$/.test(m.receiverConsecutivo) || m.receiverConsecutivo.slice(8, 10) !== expected)
    e.push({ path: "NumeroConsecutivoReceptor", message: `El consecutivo del mensaje debe tener 20 dígitos y tipo ${expected} para este mensaje.` });
  if (!/^[a-zA-Z0-9]{50}$/.test(m.clave)) e.push({ path: "Clave", message: "La clave del comprobante recibido debe tener 50 caracteres: cópiela del XML recibido." });
  activityRule(e, "CodigoActividad", m.activityCode, "de la empresa", mode);
  if (m.message !== 3 && m.taxCondition === undefined && m.taxTotal !== undefined && new Decimal(m.taxTotal).gt(0))
    e.push({ path: "CondicionImpuesto", message: "Indique la condición del impuesto (CondicionImpuesto 01 a 05) del comprobante aceptado." });
  let numbersOk = true;
  for (const [field, v] of [["TotalFactura", m.total], ["MontoTotalImpuesto", m.taxTotal], ["MontoTotalImpuestoAcreditar", m.creditableTax], ["MontoTotalDeGastoAplicable", m.applicableExpense]] as const)
    if (v !== undefined && (!NUMBER_RE.test(v) || new Decimal(v).lt(0))) {
      numbersOk = false;
      e.push({ path: field, message: `El campo ${field} debe ser un número igual o mayor que cero.` });
    }
  // The creditable tax is part of the tax paid (A44 p.61: "no forme en su totalidad parte del crédito").
  if (numbersOk && m.creditableTax !== undefined && new Decimal(m.creditableTax).gt(m.taxTotal ?? "0"))
    e.push({
      path: "MontoTotalImpuestoAcreditar",
      message: `El impuesto a acreditar (${new Decimal(m.creditableTax).toFixed(5)}) no puede ser mayor que el impuesto total del comprobante (${new Decimal(m.taxTotal ?? "0").toFixed(5)}): corríjalo.`,
    });
  return e;
}

/** What a MensajeReceptor is compared with: the received comprobante (parse.ts's ReceivedSummary fits). */
export interface ReceivedFacts {
  clave: string | null;
  issuer: { id: string | null } | null;
  receiver: { id: string | null } | null;
  totals: { totalImpuesto: string | null; totalComprobante: string | null } | null;
}

/**
 * The MensajeReceptor against the comprobante it answers (A44 pp.60–61): same clave,
 * NumeroCedulaEmisor = the comprobante's issuer, NumeroCedulaReceptor = its receiver,
 * MontoTotalImpuesto = its TotalImpuesto, TotalFactura = its TotalComprobante. Pure; the reception
 * screens pass parseReceived(xml) of the stored supplier document.
 */
export function checkMensajeAgainstReceived(m: MensajeReceptor, received: ReceivedFacts): RuleError[] {
  const e: RuleError[] = [];
  if (received.clave !== null && m.clave !== received.clave)
    e.push({ path: "Clave", message: `La clave del mensaje (${m.clave}) no es la del comprobante recibido (${received.clave}).` });
  const issuer = received.issuer?.id ?? null;
  if (issuer !== null && m.issuerId !== issuer)
    e.push({ path: "NumeroCedulaEmisor", message: `NumeroCedulaEmisor (${m.issuerId}) debe ser la identificación del emisor del comprobante recibido (${issuer}).` });
  const receiver = received.receiver?.id ?? null;
  if (receiver !== null && m.receiverId !== receiver)
    e.push({ path: "NumeroCedulaReceptor", message: `NumeroCedulaReceptor (${m.receiverId}) debe ser la identificación del receptor del comprobante recibido (${receiver}): solo el receptor puede aceptarlo o rechazarlo.` });
  const same = (a: string | undefined, b: string | null | undefined) => a !== undefined && !!b && NUMBER_RE.test(a) && NUMBER_RE.test(b) && new Decimal(a).eq(b);
  const tax = received.totals?.totalImpuesto ?? null;
  if (tax !== null && NUMBER_RE.test(tax) && new Decimal(tax).gt(0) && !same(m.taxTotal, tax))
    e.push({ path: "MontoTotalImpuesto", message: `MontoTotalImpuesto (${m.taxTotal ?? "vacío"}) debe ser el impuesto total del comprobante recibido (${tax}).` });
  const total = received.totals?.totalComprobante ?? null;
  if (total !== null && !same(m.total, total))
    e.push({ path: "TotalFactura", message: `TotalFactura (${m.total}) debe ser el total del comprobante recibido (${total}).` });
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
  /** "issued" (default): a document Colibrí builds; "received": a supplier's, with Hacienda's tolerance. */
  mode?: RuleMode;
}

/**
 * The business rules of a document (no XML involved): the errors Hacienda would reject it for.
 * Returns [] when it can be built (issued) or passes (received). Pure: the sandbox and the
 * reception screens call it with readModel(xml) (a model with `stated` amounts).
 */
export function checkRules(doc: HaciendaDocument, opts: RuleOptions = {}): RuleError[] {
  const mode = opts.mode ?? "issued";
  return doc.kind === "mr" ? mrRules(doc, mode) : comprobanteRules(doc, opts.math ?? true, mode);
}

/**
 * What is accepted but worth telling (Hacienda answers such points as warnings inside an accepted
 * message): lines without a CABYS code classified by their unit, activity codes of the catalogue
 * before TRIBU-CR in a received document.
 */
export function ruleWarnings(doc: HaciendaDocument): RuleError[] {
  const w: RuleError[] = [];
  const legacy = (path: string, code: string | undefined) => {
    if (isLegacyActivityCode(code))
      w.push({ path, message: `El código de actividad ${code} (${path}) es del catálogo anterior a TRIBU-CR; hoy Hacienda usa códigos CIIU 4 (por ejemplo 6201.0).` });
  };
  if (doc.kind === "mr") {
    legacy("CodigoActividad", doc.activityCode);
    return w;
  }
  legacy("CodigoActividadEmisor", doc.activityCode);
  legacy("CodigoActividadReceptor", doc.receiverActivityCode);
  if (doc.kind !== "rep")
    for (const k of kindWarnings(doc.lines)) w.push({ path: `DetalleServicio/LineaDetalle[${k.line}]/CodigoCABYS`, message: k.message });
  return w;
}
