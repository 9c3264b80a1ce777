/**
 * readModel: the inverse of build.ts. Reads a v4.4 FE, TE, NC, ND, FEC, FEE, REP or
 * MensajeReceptor (signed or not; the signature is ignored here) through the safe XML intake and
 * returns the document model that buildXml turns back into the same bytes.
 *
 * The model carries inputs only (quantities, prices, rates, discounts, exonerations…); the amounts
 * the XML states (MontoTotal, SubTotal, Monto, every ResumenFactura total…) are computed by
 * app/domain/totals.ts when building. So that the business rules can compare what the document
 * *says* with what its lines add up to, readModel keeps those stated amounts in `stated`
 * (path → text, e.g. "ResumenFactura/TotalComprobante" → "1130.00000"); buildXml ignores it and
 * checkRules compares it (rules.ts, statedAmountErrors).
 *
 * Inputs that the XML does not carry are inferred: a percentage discount is read as its amount;
 * an IVA line's goods/service class comes from its unit (a `kind` override is not in the XML);
 * IVA devuelto is attributed to the 4 % IVA (CodigoTarifaIVA 04) lines when TotalIVADevuelto > 0.
 */
import { IVA_RATES, type TarifaCode, type TaxCode } from "../domain/totals.ts";
import type { IdType } from "./clave.ts";
import { ROOTS, type ComprobanteKind, type DocumentKind } from "./codes.ts";
import { HaciendaError } from "./errors.ts";
import type { Comprobante, Exoneration, HaciendaDocument, Line, LineTax, MensajeReceptor, OtherCharge, Party, Reference } from "./model.ts";
import { desglosePath, type StatedAmounts } from "./rules.ts";
import { childElements, parseXmlSafely, type XmlElement } from "./safe-xml.ts";

export type { StatedAmounts } from "./rules.ts";

/** A document model read from XML, with the amounts the XML states. */
export type ReadDocument = HaciendaDocument & { stated?: StatedAmounts };

type El = XmlElement;

const KIND_BY_NS = new Map<string, DocumentKind>(Object.entries(ROOTS).map(([k, v]) => [v.ns, k as DocumentKind]));

function kids(parent: El | undefined, name: string): El[] {
  return parent ? childElements(parent, name) : [];
}

function child(parent: El | undefined, name: string): El | undefined {
  if (!parent) return undefined;
  for (let c = (parent as unknown as Node).firstChild; c; c = c.nextSibling)
    if (c.nodeType === 1 && (c as unknown as El).localName === name) return c as unknown as El;
  return undefined;
}

function textOf(el: El): string {
  return (el as unknown as Node).textContent ?? "";
}

/** Text of an optional child element (undefined when absent). */
function opt(parent: El | undefined, name: string): string | undefined {
  const el = child(parent, name);
  return el ? textOf(el) : undefined;
}

/** Text of a required child element; a missing one is a Spanish error naming it. */
function req(parent: El | undefined, name: string, path: string): string {
  const el = child(parent, name);
  if (!el)
    throw new HaciendaError("XML_MALFORMED", `Falta el campo ${path} en el XML: no se puede leer el documento para revisar sus reglas.`);
  return textOf(el);
}

function date(value: string, path: string): Date {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new HaciendaError("XML_MALFORMED", `El campo ${path} no es una fecha válida: "${value}".`);
  return d;
}

/** Sets `key` only when the value is defined (keeps the model free of `undefined` keys). */
function put<T extends object, K extends keyof T>(obj: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) obj[key] = value;
}

function isZero(value: string): boolean {
  return /^[+-]?0*(?:\.0*)?$/.test(value.trim());
}

function readParty(el: El, path: string): Party {
  const idEl = child(el, "Identificacion");
  const p: Party = {
    name: req(el, "Nombre", `${path}/Nombre`),
    id: { type: req(idEl, "Tipo", `${path}/Identificacion/Tipo`) as IdType, number: req(idEl, "Numero", `${path}/Identificacion/Numero`) },
    emails: kids(el, "CorreoElectronico").map(textOf),
  };
  put(p, "registroFiscal8707", opt(el, "Registrofiscal8707"));
  put(p, "tradeName", opt(el, "NombreComercial"));
  const u = child(el, "Ubicacion");
  if (u) {
    const loc: NonNullable<Party["location"]> = {
      province: req(u, "Provincia", `${path}/Ubicacion/Provincia`),
      canton: req(u, "Canton", `${path}/Ubicacion/Canton`),
      district: req(u, "Distrito", `${path}/Ubicacion/Distrito`),
      otherSigns: req(u, "OtrasSenas", `${path}/Ubicacion/OtrasSenas`),
    };
    put(loc, "barrio", opt(u, "Barrio"));
    p.location = loc;
  }
  put(p, "foreignAddress", opt(el, "OtrasSenasExtranjero"));
  const t = child(el, "Telefono");
  if (t) p.phone = { countryCode: req(t, "CodigoPais", `${path}/Telefono/CodigoPais`), number: req(t, "NumTelefono", `${path}/Telefono/NumTelefono`) };
  return p;
}

function readExoneration(el: El, path: string): Exoneration {
  const e: Exoneration = {
    docType: req(el, "TipoDocumentoEX1", `${path}/TipoDocumentoEX1`),
    number: req(el, "NumeroDocumento", `${path}/NumeroDocumento`),
    institution: req(el, "NombreInstitucion", `${path}/NombreInstitucion`),
    issuedAt: date(req(el, "FechaEmisionEX", `${path}/FechaEmisionEX`), `${path}/FechaEmisionEX`),
    tarifaExonerada: req(el, "TarifaExonerada", `${path}/TarifaExonerada`),
  };
  put(e, "docTypeOther", opt(el, "TipoDocumentoOTRO"));
  put(e, "article", opt(el, "Articulo"));
  put(e, "inciso", opt(el, "Inciso"));
  put(e, "institutionOther", opt(el, "NombreInstitucionOtros"));
  return e;
}

const IVA = new Set(["01", "07"]);

function readLine(el: El, n: number, kind: ComprobanteKind, stated: StatedAmounts): Line {
  const p = `DetalleServicio/LineaDetalle[${n}]`;
  const amount = (name: string) => {
    const v = opt(el, name);
    if (v !== undefined) stated[`${p}/${name}`] = v;
    return v;
  };
  const montoTotal = amount("MontoTotal");
  const l: Line = {
    // REP has no Cantidad, UnidadMedida nor PrecioUnitario: the builder uses 1 × "Os" and the amount.
    quantity: kind === "rep" ? "1" : req(el, "Cantidad", `${p}/Cantidad`),
    unit: kind === "rep" ? "Os" : req(el, "UnidadMedida", `${p}/UnidadMedida`),
    description: req(el, "Detalle", `${p}/Detalle`),
    unitPrice: kind === "rep" ? (montoTotal ?? req(el, "MontoTotal", `${p}/MontoTotal`)) : req(el, "PrecioUnitario", `${p}/PrecioUnitario`),
    taxes: [],
  };
  put(l, "tariffHeading", opt(el, "PartidaArancelaria"));
  put(l, "cabys", opt(el, "CodigoCABYS"));
  const codes = kids(el, "CodigoComercial");
  if (codes.length) l.commercialCodes = codes.map((c, i) => ({ type: req(c, "Tipo", `${p}/CodigoComercial[${i + 1}]/Tipo`), code: req(c, "Codigo", `${p}/CodigoComercial[${i + 1}]/Codigo`) }));
  put(l, "transactionType", opt(el, "TipoTransaccion"));
  put(l, "commercialUnit", opt(el, "UnidadMedidaComercial"));
  const serials = kids(el, "NumeroVINoSerie").map(textOf);
  if (serials.length) l.serialNumbers = serials;
  put(l, "medicineRegistry", opt(el, "RegistroMedicamento"));
  put(l, "pharmaceuticalForm", opt(el, "FormaFarmaceutica"));
  const discounts = kids(el, "Descuento");
  if (discounts.length)
    l.discounts = discounts.map((d, i) => {
      const dp = `${p}/Descuento[${i + 1}]`;
      const out: NonNullable<Line["discounts"]>[number] = { code: req(d, "CodigoDescuento", `${dp}/CodigoDescuento`), amount: req(d, "MontoDescuento", `${dp}/MontoDescuento`) };
      put(out, "codeOther", opt(d, "CodigoDescuentoOTRO"));
      put(out, "nature", opt(d, "NaturalezaDescuento"));
      return out;
    });
  amount("SubTotal");
  put(l, "ivaCobradoFabrica", opt(el, "IVACobradoFabrica"));
  amount("BaseImponible");
  l.taxes = kids(el, "Impuesto").map((t, i) => {
    const tp = `${p}/Impuesto[${i + 1}]`;
    const code = req(t, "Codigo", `${tp}/Codigo`) as TaxCode;
    const tax: LineTax = { code };
    put(tax, "codeOther", opt(t, "CodigoImpuestoOTRO"));
    put(tax, "tarifaCode", opt(t, "CodigoTarifaIVA") as TarifaCode | undefined);
    const rate = opt(t, "Tarifa");
    const monto = req(t, "Monto", `${tp}/Monto`);
    const standard = tax.tarifaCode ? IVA_RATES[tax.tarifaCode] : undefined;
    // The IVA rate follows from CodigoTarifaIVA; a different Tarifa is kept as an explicit rate.
    if (rate !== undefined && !(standard !== undefined && Number(rate) === Number(standard))) tax.rate = rate;
    if (!IVA.has(code) && rate === undefined) tax.amount = monto; // a tax without a rate: its amount is an input
    else stated[`${tp}/Monto`] = monto;
    const ex = child(t, "Exoneracion");
    if (ex) {
      tax.exoneration = readExoneration(ex, `${tp}/Exoneracion`);
      const m = opt(ex, "MontoExoneracion");
      if (m !== undefined) stated[`${tp}/Exoneracion/MontoExoneracion`] = m;
    }
    return tax;
  });
  const asumido = opt(el, "ImpuestoAsumidoEmisorFabrica");
  if (asumido !== undefined && !isZero(asumido)) l.impuestoAsumidoEmisorFabrica = asumido;
  amount("ImpuestoNeto");
  amount("MontoTotalLinea");
  return l;
}

const RESUMEN_FIELDS = [
  "TotalServGravados",
  "TotalServExentos",
  "TotalServExonerado",
  "TotalServNoSujeto",
  "TotalMercanciasGravadas",
  "TotalMercanciasExentas",
  "TotalMercExonerada",
  "TotalMercNoSujeta",
  "TotalGravado",
  "TotalExento",
  "TotalExonerado",
  "TotalNoSujeto",
  "TotalVenta",
  "TotalDescuentos",
  "TotalVentaNeta",
  "TotalImpuesto",
  "TotalImpAsumEmisorFabrica",
  "TotalIVADevuelto",
  "TotalOtrosCargos",
  "TotalComprobante",
] as const;

function readComprobante(root: El, kind: ComprobanteKind): Comprobante & { stated: StatedAmounts } {
  const stated: StatedAmounts = {};
  const emisor = child(root, "Emisor");
  if (!emisor) throw new HaciendaError("XML_MALFORMED", "Falta el campo Emisor en el XML: no se puede leer el documento para revisar sus reglas.");
  const resumen = child(root, "ResumenFactura");
  if (!resumen) throw new HaciendaError("XML_MALFORMED", "Falta el campo ResumenFactura en el XML: no se puede leer el documento para revisar sus reglas.");
  const moneda = child(resumen, "CodigoTipoMoneda");
  const doc: Comprobante & { stated: StatedAmounts } = {
    kind,
    clave: req(root, "Clave", "Clave"),
    consecutivo: req(root, "NumeroConsecutivo", "NumeroConsecutivo"),
    issuedAt: date(req(root, "FechaEmision", "FechaEmision"), "FechaEmision"),
    providerId: req(root, "ProveedorSistemas", "ProveedorSistemas"),
    issuer: readParty(emisor, "Emisor"),
    saleCondition: req(root, "CondicionVenta", "CondicionVenta"),
    lines: [],
    currency: {
      code: req(moneda, "CodigoMoneda", "ResumenFactura/CodigoTipoMoneda/CodigoMoneda"),
      rate: req(moneda, "TipoCambio", "ResumenFactura/CodigoTipoMoneda/TipoCambio"),
    },
    payments: [],
    stated,
  };
  put(doc, "activityCode", opt(root, "CodigoActividadEmisor"));
  put(doc, "receiverActivityCode", opt(root, "CodigoActividadReceptor"));
  const receptor = child(root, "Receptor");
  if (receptor) doc.receiver = readParty(receptor, "Receptor");
  put(doc, "saleConditionOther", opt(root, "CondicionVentaOtros"));
  const plazo = opt(root, "PlazoCredito");
  if (plazo !== undefined) doc.creditDays = /^\d+$/.test(plazo) ? Number(plazo) : Number.NaN;

  doc.lines = kids(child(root, "DetalleServicio"), "LineaDetalle").map((l, i) => readLine(l, i + 1, kind, stated));

  const charges = kids(root, "OtrosCargos");
  if (charges.length)
    doc.otherCharges = charges.map((c, i) => {
      const p = `OtrosCargos[${i + 1}]`;
      const oc: OtherCharge = { code: req(c, "TipoDocumentoOC", `${p}/TipoDocumentoOC`), detail: req(c, "Detalle", `${p}/Detalle`) };
      put(oc, "codeOther", opt(c, "TipoDocumentoOTROS"));
      const tercero = child(c, "IdentificacionTercero");
      if (tercero)
        oc.thirdParty = {
          id: { type: req(tercero, "Tipo", `${p}/IdentificacionTercero/Tipo`) as IdType, number: req(tercero, "Numero", `${p}/IdentificacionTercero/Numero`) },
          name: req(c, "NombreTercero", `${p}/NombreTercero`),
        };
      const monto = req(c, "MontoCargo", `${p}/MontoCargo`);
      const pct = opt(c, "PorcentajeOC");
      if (pct !== undefined) {
        oc.percent = pct; // the amount follows from the percentage: compared, not copied
        stated[`${p}/MontoCargo`] = monto;
      } else oc.amount = monto;
      return oc;
    });

  for (const f of RESUMEN_FIELDS) {
    const v = opt(resumen, f);
    if (v !== undefined) stated[`ResumenFactura/${f}`] = v;
  }
  for (const g of kids(resumen, "TotalDesgloseImpuesto")) {
    const code = opt(g, "Codigo") ?? "";
    const tarifa = opt(g, "CodigoTarifaIVA");
    stated[desglosePath(code, tarifa)] = req(g, "TotalMontoImpuesto", "ResumenFactura/TotalDesgloseImpuesto/TotalMontoImpuesto");
  }
  doc.payments = kids(resumen, "MedioPago").map((m, i) => {
    const p = `ResumenFactura/MedioPago[${i + 1}]`;
    const pm: Comprobante["payments"][number] = { code: req(m, "TipoMedioPago", `${p}/TipoMedioPago`) };
    put(pm, "other", opt(m, "MedioPagoOtros"));
    put(pm, "amount", opt(m, "TotalMedioPago"));
    return pm;
  });
  // IVA devuelto (private health services at 4 % paid by card) is not flagged per line in the XML.
  const devuelto = stated["ResumenFactura/TotalIVADevuelto"];
  if (devuelto !== undefined && !isZero(devuelto))
    for (const l of doc.lines) if (l.taxes.some((t) => IVA.has(t.code) && t.tarifaCode === "04")) l.healthService = true;

  const refs = kids(root, "InformacionReferencia");
  if (refs.length)
    doc.references = refs.map((r, i) => {
      const p = `InformacionReferencia[${i + 1}]`;
      const ref: Reference = {
        docType: req(r, "TipoDocIR", `${p}/TipoDocIR`),
        issuedAt: date(req(r, "FechaEmisionIR", `${p}/FechaEmisionIR`), `${p}/FechaEmisionIR`),
      };
      put(ref, "docTypeOther", opt(r, "TipoDocRefOTRO"));
      put(ref, "number", opt(r, "Numero"));
      put(ref, "code", opt(r, "Codigo"));
      put(ref, "codeOther", opt(r, "CodigoReferenciaOTRO"));
      put(ref, "reason", opt(r, "Razon"));
      return ref;
    });
  const otros = kids(child(root, "Otros"), "OtroTexto");
  if (otros.length)
    doc.others = otros.map((o) => {
      const out: { text: string; code?: string } = { text: textOf(o) };
      if ((o as unknown as Element).hasAttribute("codigo")) out.code = (o as unknown as Element).getAttribute("codigo") ?? "";
      return out;
    });
  return doc;
}

function readMensajeReceptor(root: El): MensajeReceptor {
  const mensaje = req(root, "Mensaje", "Mensaje");
  const m: MensajeReceptor = {
    kind: "mr",
    clave: req(root, "Clave", "Clave"),
    issuerId: req(root, "NumeroCedulaEmisor", "NumeroCedulaEmisor"),
    issuedAt: date(req(root, "FechaEmisionDoc", "FechaEmisionDoc"), "FechaEmisionDoc"),
    message: (/^\d+$/.test(mensaje) ? Number(mensaje) : Number.NaN) as 1 | 2 | 3,
    total: req(root, "TotalFactura", "TotalFactura"),
    receiverId: req(root, "NumeroCedulaReceptor", "NumeroCedulaReceptor"),
    receiverConsecutivo: req(root, "NumeroConsecutivoReceptor", "NumeroConsecutivoReceptor"),
  };
  put(m, "detail", opt(root, "DetalleMensaje"));
  put(m, "taxTotal", opt(root, "MontoTotalImpuesto"));
  put(m, "activityCode", opt(root, "CodigoActividad"));
  put(m, "taxCondition", opt(root, "CondicionImpuesto"));
  put(m, "creditableTax", opt(root, "MontoTotalImpuestoAcreditar"));
  put(m, "applicableExpense", opt(root, "MontoTotalDeGastoAplicable"));
  return m;
}

/**
 * The document model of a v4.4 XML that Colibrí can issue (FE, TE, NC, ND, FEC, FEE, REP,
 * MensajeReceptor). Hostile input is refused by the safe intake (HaciendaError); a root that is
 * not one of those v4.4 documents is XML_UNKNOWN_ROOT.
 */
export function readModel(xml: string | Uint8Array): ReadDocument {
  const { root } = parseXmlSafely(xml);
  const kind = KIND_BY_NS.get(root.namespaceURI ?? "");
  if (!kind || ROOTS[kind].root !== root.localName)
    throw new HaciendaError(
      "XML_UNKNOWN_ROOT",
      `El XML no es un comprobante v4.4 que Colibrí emita (raíz ${root.localName ?? "?"}, espacio de nombres ${root.namespaceURI ?? "ninguno"}): se esperaba FacturaElectronica, TiqueteElectronico, NotaCreditoElectronica, NotaDebitoElectronica, FacturaElectronicaCompra, FacturaElectronicaExportacion, ReciboElectronicoPago o MensajeReceptor v4.4.`,
    );
  return kind === "mr" ? readMensajeReceptor(root) : readComprobante(root, kind);
}
