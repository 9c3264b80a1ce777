/**
 * Builds the unsigned v4.4 XML of every document Colibrí issues. Element order follows the official
 * 2026 XSDs; amounts come from app/domain/totals.ts. The output is
 *   <?xml version="1.0" encoding="utf-8"?> + the root element in Canonical XML form
 * (see xml.ts), so the signer can digest the root's bytes directly.
 */
import { dec, fixed, type Decimal } from "../domain/decimal.ts";
import { computeTotals, fillPayments, type DocumentTotals } from "../domain/totals.ts";
import { formatFechaEmision } from "./clave.ts";
import { ROOTS, type ComprobanteKind } from "./codes.ts";
import type { Comprobante, HaciendaDocument, Line, MensajeReceptor, Party } from "./model.ts";
import { escapeAttr, escapeText, leaf, optLeaf, rawLeaf, XmlBuildError } from "./xml.ts";

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** Which optional parts each kind's schema has. */
const HAS = {
  activityEmisor: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec", "fee"]),
  activityReceptor: new Set<ComprobanteKind>(["fe", "nc", "nd", "fec"]),
  partyDetails: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec", "fee"]),
  receptorUbicacion: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec"]),
  emisorForeign: new Set<ComprobanteKind>(["fec"]),
  receptorForeign: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fee"]),
  tariffHeading: new Set<ComprobanteKind>(["nc", "nd", "fee"]),
  transactionType: new Set<ComprobanteKind>(["fe", "nc", "nd", "fec", "fee"]),
  ivaFabrica: new Set<ComprobanteKind>(["fe", "te", "nc", "nd"]),
  baseImponible: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec"]),
  exoneration: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec"]),
  impuestoAsumido: new Set<ComprobanteKind>(["fe", "te", "nc", "nd"]),
  impuestoNeto: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec", "rep"]),
  otrosCargos: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec", "fee"]),
  exoneradoNoSujeto: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec"]),
  ivaDevuelto: new Set<ComprobanteKind>(["fe", "te", "nc", "nd"]),
  others: new Set<ComprobanteKind>(["fe", "te", "nc", "nd", "fec", "fee"]),
};

/** Decimal written with `places` decimals when it has at most that many; as is otherwise (the schema then rejects it). */
const PLAIN_DECIMAL = /^\d+(?:\.(\d*))?$/;

function num(value: string, places: number, field: string): string {
  const m = typeof value === "string" ? PLAIN_DECIMAL.exec(value) : null;
  if (m) {
    const frac = m[1] ?? "";
    if (frac.length <= places) {
      let int = m[1] === undefined ? value : value.slice(0, value.length - frac.length - 1);
      int = int.replace(/^0+(?=\d)/, "");
      return `${int}.${frac.padEnd(places, "0")}`;
    }
  }
  let d: Decimal;
  try {
    d = dec(value, field);
  } catch {
    throw new XmlBuildError(field, `El campo ${field} debe ser un número (recibido: "${value}").`);
  }
  return d.decimalPlaces() <= places ? d.toFixed(places) : d.toFixed();
}

function party(out: string[], tag: "Emisor" | "Receptor", p: Party, kind: ComprobanteKind) {
  const path = tag;
  out.push(`<${tag}>`);
  leaf(out, "Nombre", p.name, `${path}/Nombre`);
  out.push("<Identificacion>");
  leaf(out, "Tipo", p.id.type, `${path}/Identificacion/Tipo`);
  leaf(out, "Numero", p.id.number, `${path}/Identificacion/Numero`);
  out.push("</Identificacion>");
  if (HAS.partyDetails.has(kind)) {
    if (tag === "Emisor") optLeaf(out, "Registrofiscal8707", p.registroFiscal8707, `${path}/Registrofiscal8707`);
    optLeaf(out, "NombreComercial", p.tradeName, `${path}/NombreComercial`);
    if (p.location && (tag === "Emisor" || HAS.receptorUbicacion.has(kind))) {
      const l = p.location;
      out.push("<Ubicacion>");
      leaf(out, "Provincia", l.province, `${path}/Ubicacion/Provincia`);
      leaf(out, "Canton", l.canton, `${path}/Ubicacion/Canton`);
      leaf(out, "Distrito", l.district, `${path}/Ubicacion/Distrito`);
      optLeaf(out, "Barrio", l.barrio, `${path}/Ubicacion/Barrio`);
      leaf(out, "OtrasSenas", l.otherSigns, `${path}/Ubicacion/OtrasSenas`);
      out.push("</Ubicacion>");
    }
    if ((tag === "Emisor" && HAS.emisorForeign.has(kind)) || (tag === "Receptor" && HAS.receptorForeign.has(kind)))
      optLeaf(out, "OtrasSenasExtranjero", p.foreignAddress, `${path}/OtrasSenasExtranjero`);
    if (p.phone) {
      out.push("<Telefono>");
      leaf(out, "CodigoPais", p.phone.countryCode, `${path}/Telefono/CodigoPais`);
      leaf(out, "NumTelefono", p.phone.number, `${path}/Telefono/NumTelefono`);
      out.push("</Telefono>");
    }
  }
  const emails = tag === "Receptor" ? p.emails.slice(0, 1) : p.emails;
  for (const e of emails) leaf(out, "CorreoElectronico", e, `${path}/CorreoElectronico`);
  out.push(`</${tag}>`);
}

function line(out: string[], l: Line, n: number, t: DocumentTotals["lines"][number], kind: ComprobanteKind) {
  const p = `LineaDetalle ${n}`;
  out.push("<LineaDetalle>");
  rawLeaf(out, "NumeroLinea", String(n));
  if (kind !== "rep") {
    if (HAS.tariffHeading.has(kind)) optLeaf(out, "PartidaArancelaria", l.tariffHeading, `${p}/PartidaArancelaria`);
    optLeaf(out, "CodigoCABYS", l.cabys ?? "", `${p}/CodigoCABYS`);
    for (const c of l.commercialCodes ?? []) {
      out.push("<CodigoComercial>");
      leaf(out, "Tipo", c.type, `${p}/CodigoComercial/Tipo`);
      leaf(out, "Codigo", c.code, `${p}/CodigoComercial/Codigo`);
      out.push("</CodigoComercial>");
    }
    leaf(out, "Cantidad", num(l.quantity, 3, `${p}/Cantidad`));
    leaf(out, "UnidadMedida", l.unit, `${p}/UnidadMedida`);
    if (HAS.transactionType.has(kind)) optLeaf(out, "TipoTransaccion", l.transactionType, `${p}/TipoTransaccion`);
    optLeaf(out, "UnidadMedidaComercial", l.commercialUnit, `${p}/UnidadMedidaComercial`);
  }
  leaf(out, "Detalle", l.description, `${p}/Detalle`);
  if (kind !== "rep") {
    for (const s of l.serialNumbers ?? []) leaf(out, "NumeroVINoSerie", s, `${p}/NumeroVINoSerie`);
    optLeaf(out, "RegistroMedicamento", l.medicineRegistry, `${p}/RegistroMedicamento`);
    optLeaf(out, "FormaFarmaceutica", l.pharmaceuticalForm, `${p}/FormaFarmaceutica`);
    leaf(out, "PrecioUnitario", num(l.unitPrice, 5, `${p}/PrecioUnitario`));
  }
  rawLeaf(out, "MontoTotal", t.montoTotal);
  if (kind !== "rep")
    (l.discounts ?? []).forEach((d, i) => {
      out.push("<Descuento>");
      rawLeaf(out, "MontoDescuento", t.discounts[i].amount);
      leaf(out, "CodigoDescuento", d.code, `${p}/Descuento/CodigoDescuento`);
      optLeaf(out, "CodigoDescuentoOTRO", d.codeOther, `${p}/Descuento/CodigoDescuentoOTRO`);
      optLeaf(out, "NaturalezaDescuento", d.nature, `${p}/Descuento/NaturalezaDescuento`);
      out.push("</Descuento>");
    });
  rawLeaf(out, "SubTotal", t.subTotal);
  if (HAS.ivaFabrica.has(kind)) optLeaf(out, "IVACobradoFabrica", l.ivaCobradoFabrica, `${p}/IVACobradoFabrica`);
  if (HAS.baseImponible.has(kind)) rawLeaf(out, "BaseImponible", t.baseImponible);
  l.taxes.forEach((tax, i) => {
    const tt = t.taxes[i];
    out.push("<Impuesto>");
    leaf(out, "Codigo", tax.code, `${p}/Impuesto/Codigo`);
    optLeaf(out, "CodigoImpuestoOTRO", tax.codeOther, `${p}/Impuesto/CodigoImpuestoOTRO`);
    optLeaf(out, "CodigoTarifaIVA", tax.tarifaCode, `${p}/Impuesto/CodigoTarifaIVA`);
    optLeaf(out, "Tarifa", tt.rate, `${p}/Impuesto/Tarifa`);
    rawLeaf(out, "Monto", tt.monto);
    if (tax.exoneration && HAS.exoneration.has(kind)) {
      const e = tax.exoneration;
      const ep = `${p}/Impuesto/Exoneracion`;
      out.push("<Exoneracion>");
      leaf(out, "TipoDocumentoEX1", e.docType, `${ep}/TipoDocumentoEX1`);
      optLeaf(out, "TipoDocumentoOTRO", e.docTypeOther, `${ep}/TipoDocumentoOTRO`);
      leaf(out, "NumeroDocumento", e.number, `${ep}/NumeroDocumento`);
      optLeaf(out, "Articulo", e.article, `${ep}/Articulo`);
      optLeaf(out, "Inciso", e.inciso, `${ep}/Inciso`);
      leaf(out, "NombreInstitucion", e.institution, `${ep}/NombreInstitucion`);
      optLeaf(out, "NombreInstitucionOtros", e.institutionOther, `${ep}/NombreInstitucionOtros`);
      leaf(out, "FechaEmisionEX", formatFechaEmision(e.issuedAt));
      rawLeaf(out, "TarifaExonerada", tt.exoneration!.tarifaExonerada);
      rawLeaf(out, "MontoExoneracion", tt.exoneration!.monto);
      out.push("</Exoneracion>");
    }
    out.push("</Impuesto>");
  });
  if (HAS.impuestoAsumido.has(kind)) rawLeaf(out, "ImpuestoAsumidoEmisorFabrica", t.impuestoAsumidoEmisorFabrica);
  if (HAS.impuestoNeto.has(kind)) rawLeaf(out, "ImpuestoNeto", t.impuestoNeto);
  rawLeaf(out, "MontoTotalLinea", t.montoTotalLinea);
  out.push("</LineaDetalle>");
}

/** Line, otros cargos and ResumenFactura totals of a comprobante, exactly as the builder writes them (MedioPago aside). */
export function comprobanteTotals(doc: Comprobante): DocumentTotals {
  const paidByCard = HAS.ivaDevuelto.has(doc.kind) && doc.payments.length > 0 && doc.payments.every((p) => p.code === "02");
  const lines = doc.kind === "rep" ? doc.lines.map((l) => ({ ...l, quantity: "1", unit: l.unit || "Os", discounts: [] })) : doc.lines;
  return computeTotals(lines, HAS.otrosCargos.has(doc.kind) ? (doc.otherCharges ?? []) : [], { paidByCard, noSujetoTotals: HAS.exoneradoNoSujeto.has(doc.kind) });
}

/** Totals of a comprobante, exactly as the builder writes them. */
export function documentTotals(doc: Comprobante): DocumentTotals & { payments: Array<{ code: string; other?: string; amount: string }> } {
  const totals = comprobanteTotals(doc);
  return { ...totals, payments: fillPayments(totals.resumen.totalComprobante, doc.payments) };
}

function buildComprobante(doc: Comprobante): string {
  const kind = doc.kind;
  const info = ROOTS[kind];
  if (!info || kind === ("mr" as string)) throw new XmlBuildError("kind", `Tipo de comprobante desconocido: ${String(kind)}.`);
  const totals = documentTotals(doc);
  const out: string[] = [XML_DECLARATION, `<${info.root} xmlns="${info.ns}">`];
  leaf(out, "Clave", doc.clave);
  leaf(out, "ProveedorSistemas", doc.providerId, "ProveedorSistemas");
  if (HAS.activityEmisor.has(kind)) optLeaf(out, "CodigoActividadEmisor", doc.activityCode, "CodigoActividadEmisor");
  if (HAS.activityReceptor.has(kind)) optLeaf(out, "CodigoActividadReceptor", doc.receiverActivityCode, "CodigoActividadReceptor");
  leaf(out, "NumeroConsecutivo", doc.consecutivo);
  leaf(out, "FechaEmision", formatFechaEmision(doc.issuedAt));
  party(out, "Emisor", doc.issuer, kind);
  if (doc.receiver) party(out, "Receptor", doc.receiver, kind);
  leaf(out, "CondicionVenta", doc.saleCondition, "CondicionVenta");
  if (kind !== "rep") {
    optLeaf(out, "CondicionVentaOtros", doc.saleConditionOther, "CondicionVentaOtros");
    if (doc.creditDays !== undefined) leaf(out, "PlazoCredito", String(doc.creditDays), "PlazoCredito");
  }
  if (doc.lines.length) {
    out.push("<DetalleServicio>");
    doc.lines.forEach((l, i) => line(out, l, i + 1, totals.lines[i], kind));
    out.push("</DetalleServicio>");
  }
  if (HAS.otrosCargos.has(kind))
    (doc.otherCharges ?? []).forEach((c, i) => {
      const p = `OtrosCargos ${i + 1}`;
      out.push("<OtrosCargos>");
      leaf(out, "TipoDocumentoOC", c.code, `${p}/TipoDocumentoOC`);
      optLeaf(out, "TipoDocumentoOTROS", c.codeOther, `${p}/TipoDocumentoOTROS`);
      if (c.thirdParty) {
        out.push("<IdentificacionTercero>");
        leaf(out, "Tipo", c.thirdParty.id.type, `${p}/IdentificacionTercero/Tipo`);
        leaf(out, "Numero", c.thirdParty.id.number, `${p}/IdentificacionTercero/Numero`);
        out.push("</IdentificacionTercero>");
        leaf(out, "NombreTercero", c.thirdParty.name, `${p}/NombreTercero`);
      }
      leaf(out, "Detalle", c.detail, `${p}/Detalle`);
      optLeaf(out, "PorcentajeOC", totals.otherCharges[i].percent);
      rawLeaf(out, "MontoCargo", totals.otherCharges[i].amount);
      out.push("</OtrosCargos>");
    });
  const r = totals.resumen;
  out.push("<ResumenFactura><CodigoTipoMoneda>");
  leaf(out, "CodigoMoneda", doc.currency.code, "CodigoMoneda");
  leaf(out, "TipoCambio", num(doc.currency.rate, 5, "TipoCambio"));
  out.push("</CodigoTipoMoneda>");
  if (kind !== "rep") {
    const x = HAS.exoneradoNoSujeto.has(kind);
    rawLeaf(out, "TotalServGravados", r.totalServGravados);
    rawLeaf(out, "TotalServExentos", r.totalServExentos);
    if (x) rawLeaf(out, "TotalServExonerado", r.totalServExonerado);
    if (x) rawLeaf(out, "TotalServNoSujeto", r.totalServNoSujeto);
    rawLeaf(out, "TotalMercanciasGravadas", r.totalMercanciasGravadas);
    rawLeaf(out, "TotalMercanciasExentas", r.totalMercanciasExentas);
    if (x) rawLeaf(out, "TotalMercExonerada", r.totalMercExonerada);
    if (x) rawLeaf(out, "TotalMercNoSujeta", r.totalMercNoSujeta);
    rawLeaf(out, "TotalGravado", r.totalGravado);
    rawLeaf(out, "TotalExento", r.totalExento);
    if (x) rawLeaf(out, "TotalExonerado", r.totalExonerado);
    if (x) rawLeaf(out, "TotalNoSujeto", r.totalNoSujeto);
  }
  rawLeaf(out, "TotalVenta", r.totalVenta);
  if (kind !== "rep") rawLeaf(out, "TotalDescuentos", r.totalDescuentos);
  rawLeaf(out, "TotalVentaNeta", r.totalVentaNeta);
  for (const g of r.totalDesgloseImpuesto) {
    out.push("<TotalDesgloseImpuesto>");
    leaf(out, "Codigo", g.code);
    optLeaf(out, "CodigoTarifaIVA", g.tarifaCode);
    rawLeaf(out, "TotalMontoImpuesto", g.total);
    out.push("</TotalDesgloseImpuesto>");
  }
  rawLeaf(out, "TotalImpuesto", r.totalImpuesto);
  if (kind !== "rep") {
    rawLeaf(out, "TotalImpAsumEmisorFabrica", r.totalImpAsumEmisorFabrica);
    if (HAS.ivaDevuelto.has(kind)) rawLeaf(out, "TotalIVADevuelto", r.totalIVADevuelto);
    rawLeaf(out, "TotalOtrosCargos", r.totalOtrosCargos);
  }
  for (const pm of totals.payments) {
    out.push("<MedioPago>");
    leaf(out, "TipoMedioPago", pm.code, "MedioPago/TipoMedioPago");
    optLeaf(out, "MedioPagoOtros", pm.other, "MedioPago/MedioPagoOtros");
    rawLeaf(out, "TotalMedioPago", pm.amount);
    out.push("</MedioPago>");
  }
  rawLeaf(out, "TotalComprobante", r.totalComprobante);
  out.push("</ResumenFactura>");
  (doc.references ?? []).forEach((ref, i) => {
    const p = `InformacionReferencia ${i + 1}`;
    out.push("<InformacionReferencia>");
    leaf(out, "TipoDocIR", ref.docType, `${p}/TipoDocIR`);
    optLeaf(out, "TipoDocRefOTRO", ref.docTypeOther, `${p}/TipoDocRefOTRO`);
    optLeaf(out, "Numero", ref.number, `${p}/Numero`);
    leaf(out, "FechaEmisionIR", formatFechaEmision(ref.issuedAt));
    optLeaf(out, "Codigo", ref.code, `${p}/Codigo`);
    optLeaf(out, "CodigoReferenciaOTRO", ref.codeOther, `${p}/CodigoReferenciaOTRO`);
    optLeaf(out, "Razon", ref.reason, `${p}/Razon`);
    out.push("</InformacionReferencia>");
  });
  if (HAS.others.has(kind) && doc.others?.length) {
    out.push("<Otros>");
    for (const o of doc.others) {
      const attr = o.code !== undefined ? ` codigo="${escapeAttr(o.code, "Otros/OtroTexto/codigo")}"` : "";
      out.push(`<OtroTexto${attr}>`);
      out.push(escapeText(o.text, "Otros/OtroTexto"));
      out.push("</OtroTexto>");
    }
    out.push("</Otros>");
  }
  out.push(`</${info.root}>`);
  return out.join("");
}

function buildMensajeReceptor(m: MensajeReceptor): string {
  const info = ROOTS.mr;
  const out: string[] = [XML_DECLARATION, `<${info.root} xmlns="${info.ns}">`];
  leaf(out, "Clave", m.clave);
  leaf(out, "NumeroCedulaEmisor", m.issuerId, "NumeroCedulaEmisor");
  leaf(out, "FechaEmisionDoc", formatFechaEmision(m.issuedAt));
  leaf(out, "Mensaje", String(m.message), "Mensaje");
  optLeaf(out, "DetalleMensaje", m.detail, "DetalleMensaje");
  if (m.taxTotal !== undefined) leaf(out, "MontoTotalImpuesto", fixed(m.taxTotal, 5));
  optLeaf(out, "CodigoActividad", m.activityCode, "CodigoActividad");
  optLeaf(out, "CondicionImpuesto", m.taxCondition, "CondicionImpuesto");
  if (m.creditableTax !== undefined) leaf(out, "MontoTotalImpuestoAcreditar", fixed(m.creditableTax, 5));
  if (m.applicableExpense !== undefined) leaf(out, "MontoTotalDeGastoAplicable", fixed(m.applicableExpense, 5));
  leaf(out, "TotalFactura", fixed(m.total, 5));
  leaf(out, "NumeroCedulaReceptor", m.receiverId, "NumeroCedulaReceptor");
  leaf(out, "NumeroConsecutivoReceptor", m.receiverConsecutivo, "NumeroConsecutivoReceptor");
  out.push(`</${info.root}>`);
  return out.join("");
}

/**
 * Unsigned XML of the document: the XML declaration followed by the root element in canonical form.
 * Throws XmlBuildError / TotalsError (Spanish messages naming the field) on unusable input.
 */
export function buildXml(doc: HaciendaDocument): string {
  return doc.kind === "mr" ? buildMensajeReceptor(doc) : buildComprobante(doc);
}

/** The canonical root element (what the signer digests): buildXml without the declaration. */
export function stripDeclaration(xml: string): string {
  return xml.startsWith(XML_DECLARATION) ? xml.slice(XML_DECLARATION.length) : xml;
}
