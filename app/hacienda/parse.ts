/**
 * Reads a comprobante or message someone sent us (supplier invoices, Hacienda answers) into a
 * flat summary: FE, ND, NC, TE, FEC, FEE, REP, MensajeReceptor and MensajeHacienda, versions
 * 4.2, 4.3 and 4.4, detected by namespace. Amounts stay decimal strings as written (never
 * floats). Hostile or foreign input is refused by safe-xml.ts / here with a Spanish error.
 * The signature verdict comes from verifyXml over the same parsed document.
 */
import Decimal from "decimal.js";
import { HaciendaError } from "./errors.ts";
import { parseXmlTreeSafely } from "./safe-xml.ts";
import { verifyTree, type VerifyOptions, type VerifyResult } from "./verify.ts";
import { elementsOf, firstElement, textOf, type XmlTreeElement } from "./xml-tree.ts";

type XmlElement = XmlTreeElement;

export type ReceivedKind = "FE" | "ND" | "NC" | "TE" | "FEC" | "FEE" | "REP" | "MR" | "MH";
export type ReceivedVersion = "4.2" | "4.3" | "4.4";

const ROOTS: Record<string, { kind: ReceivedKind; since: ReceivedVersion }> = {
  FacturaElectronica: { kind: "FE", since: "4.2" },
  NotaDebitoElectronica: { kind: "ND", since: "4.2" },
  NotaCreditoElectronica: { kind: "NC", since: "4.2" },
  TiqueteElectronico: { kind: "TE", since: "4.2" },
  FacturaElectronicaCompra: { kind: "FEC", since: "4.3" },
  FacturaElectronicaExportacion: { kind: "FEE", since: "4.3" },
  ReciboElectronicoPago: { kind: "REP", since: "4.4" },
  MensajeReceptor: { kind: "MR", since: "4.2" },
  MensajeHacienda: { kind: "MH", since: "4.2" },
};

const NAMESPACE = /^(?:https:\/\/cdn\.comprobanteselectronicos\.go\.cr\/xml-schemas\/v(4\.[34])|https:\/\/tribunet\.hacienda\.go\.cr\/docs\/esquemas\/2017\/v(4\.2))\/([A-Za-z]+)$/;

export interface ReceivedParty {
  name: string | null;
  /** TipoIdentificacion code: 01 física, 02 jurídica, 03 DIMEX, 04 NITE, 05 extranjero, 06 no contribuyente. */
  idType: string | null;
  id: string | null;
  email: string | null;
}

export interface ReceivedLine {
  number: string | null;
  /** CodigoCABYS (4.4), Codigo (4.3) or Codigo/Codigo (4.2). */
  code: string | null;
  description: string | null;
  quantity: string | null;
  unit: string | null;
  unitPrice: string | null;
  discount: string | null;
  subtotal: string | null;
  /** ImpuestoNeto when present, else the sum of the Impuesto/Monto of the line. */
  tax: string | null;
  lineTotal: string | null;
  /** The IVA tariff of the line: CodigoTarifaIVA (4.4) or CodigoTarifa (4.3) of its Impuesto with Codigo 01; null without IVA. */
  ivaTariff: string | null;
}

export interface ReceivedTotals {
  totalVenta: string | null;
  totalDescuentos: string | null;
  totalVentaNeta: string | null;
  totalImpuesto: string | null;
  totalIVADevuelto: string | null;
  totalOtrosCargos: string | null;
  totalComprobante: string | null;
}

export interface ReceivedMessage {
  /** 1 aceptado, 2 aceptación parcial (MR only), 3 rechazado. */
  mensaje: string | null;
  /** MensajeHacienda's EstadoMensaje, e.g. "aceptado" / "rechazado". */
  estado: string | null;
  detalle: string | null;
  montoTotalImpuesto: string | null;
  totalFactura: string | null;
}

export interface ReceivedSummary {
  kind: ReceivedKind;
  rootName: string;
  version: ReceivedVersion;
  namespace: string;
  clave: string | null;
  /** NumeroConsecutivo, or NumeroConsecutivoReceptor for a MensajeReceptor. */
  consecutive: string | null;
  /** FechaEmision (FechaEmisionDoc for a MensajeReceptor) as written. */
  issueDate: string | null;
  issuer: ReceivedParty | null;
  receiver: ReceivedParty | null;
  currency: string;
  exchangeRate: string;
  totals: ReceivedTotals | null;
  lines: ReceivedLine[];
  message: ReceivedMessage | null;
  signature: {
    valid: boolean;
    errors: string[];
    signerSubject: string | null;
    signerCedula: string | null;
    signingTime: string | null;
    detail: VerifyResult;
  };
}

const val = (parent: XmlElement | undefined, name: string): string | null => {
  const t = textOf(firstElement(parent, name)).trim();
  return t ? t : null;
};

function party(el: XmlElement | undefined): ReceivedParty | null {
  if (!el) return null;
  const ident = firstElement(el, "Identificacion");
  const foreign = val(el, "IdentificacionExtranjero");
  return {
    name: val(el, "Nombre"),
    idType: val(ident, "Tipo"),
    id: val(ident, "Numero") ?? foreign,
    email: val(el, "CorreoElectronico"),
  };
}

function sum(values: Array<string | null>): string | null {
  const present = values.filter((v): v is string => v !== null);
  if (present.length === 0) return null;
  try {
    return present.reduce((acc, v) => acc.plus(new Decimal(v)), new Decimal(0)).toFixed(5);
  } catch {
    return null;
  }
}

function line(el: XmlElement): ReceivedLine {
  const codigo = firstElement(el, "Codigo");
  const code = val(el, "CodigoCABYS") ?? (codigo && elementsOf(codigo).length > 0 ? val(codigo, "Codigo") : textOf(codigo).trim() || null);
  const discounts = elementsOf(el, "Descuento").map((d) => val(d, "MontoDescuento"));
  return {
    number: val(el, "NumeroLinea"),
    code,
    description: val(el, "Detalle"),
    quantity: val(el, "Cantidad"),
    unit: val(el, "UnidadMedida"),
    unitPrice: val(el, "PrecioUnitario"),
    discount: sum(discounts) ?? val(el, "MontoDescuento"),
    subtotal: val(el, "SubTotal"),
    tax: val(el, "ImpuestoNeto") ?? sum(elementsOf(el, "Impuesto").map((i) => val(i, "Monto"))),
    lineTotal: val(el, "MontoTotalLinea"),
    ivaTariff: ivaTariffOf(elementsOf(el, "Impuesto")),
  };
}

function ivaTariffOf(taxes: XmlElement[]): string | null {
  const iva = taxes.find((t) => val(t, "Codigo") === "01");
  return iva ? (val(iva, "CodigoTarifaIVA") ?? val(iva, "CodigoTarifa")) : null;
}

function unknownRoot(name: string, ns: string): never {
  throw new HaciendaError(
    "XML_UNKNOWN_ROOT",
    `El XML no es un comprobante electrónico de Hacienda (elemento raíz «${name}»${ns ? ` con espacio de nombres «${ns}»` : " sin espacio de nombres"}). Se aceptan facturas, tiquetes, notas de crédito y débito, facturas de compra y de exportación, recibos de pago y mensajes de receptor o de Hacienda, versiones 4.2 a 4.4.`,
  );
}

/**
 * Parses a received document (string or bytes, ≤ 5 MB). Throws HaciendaError for refused input.
 * `options` go to the signature check (verify.ts; e.g. `strict` for a document Colibrí issued).
 */
export function parseReceived(input: string | Uint8Array, options: VerifyOptions = {}): ReceivedSummary {
  const safe = parseXmlTreeSafely(input);
  const root = safe.root;
  const rootName = root.local;
  const ns = root.ns;
  const m = NAMESPACE.exec(ns);
  const known = ROOTS[rootName];
  if (!m || !known) unknownRoot(rootName, ns);
  const version = (m[1] ?? m[2]) as ReceivedVersion;
  const nsName = m[3]!;
  if (nsName !== rootName.charAt(0).toLowerCase() + rootName.slice(1) || version < known.since) unknownRoot(rootName, ns);

  const verdict = verifyTree(safe, options);
  const kind = known.kind;
  const summary: ReceivedSummary = {
    kind,
    rootName,
    version,
    namespace: ns,
    clave: val(root, "Clave"),
    consecutive: null,
    issueDate: null,
    issuer: null,
    receiver: null,
    currency: "CRC",
    exchangeRate: "1",
    totals: null,
    lines: [],
    message: null,
    signature: {
      valid: verdict.valid,
      errors: verdict.errors,
      signerSubject: verdict.certificate?.subject ?? null,
      signerCedula: verdict.certificate?.cedula ?? null,
      signingTime: verdict.signingTime,
      detail: verdict,
    },
  };

  if (kind === "MR") {
    summary.consecutive = val(root, "NumeroConsecutivoReceptor");
    summary.issueDate = val(root, "FechaEmisionDoc");
    summary.issuer = { name: null, idType: null, id: val(root, "NumeroCedulaEmisor"), email: null };
    summary.receiver = { name: null, idType: null, id: val(root, "NumeroCedulaReceptor"), email: null };
    summary.message = {
      mensaje: val(root, "Mensaje"),
      estado: null,
      detalle: val(root, "DetalleMensaje"),
      montoTotalImpuesto: val(root, "MontoTotalImpuesto"),
      totalFactura: val(root, "TotalFactura"),
    };
    return summary;
  }
  if (kind === "MH") {
    summary.issuer = { name: val(root, "NombreEmisor"), idType: val(root, "TipoIdentificacionEmisor"), id: val(root, "NumeroCedulaEmisor"), email: null };
    const receiverId = val(root, "NumeroCedulaReceptor");
    summary.receiver = receiverId || val(root, "NombreReceptor")
      ? { name: val(root, "NombreReceptor"), idType: val(root, "TipoIdentificacionReceptor"), id: receiverId, email: null }
      : null;
    summary.message = {
      mensaje: val(root, "Mensaje"),
      estado: val(root, "EstadoMensaje"),
      detalle: firstElement(root, "DetalleMensaje") ? textOf(firstElement(root, "DetalleMensaje")) : null,
      montoTotalImpuesto: val(root, "MontoTotalImpuesto"),
      totalFactura: val(root, "TotalFactura"),
    };
    return summary;
  }

  summary.consecutive = val(root, "NumeroConsecutivo");
  summary.issueDate = val(root, "FechaEmision");
  summary.issuer = party(firstElement(root, "Emisor"));
  summary.receiver = party(firstElement(root, "Receptor"));
  summary.lines = elementsOf(firstElement(root, "DetalleServicio"), "LineaDetalle").map(line);
  const resumen = firstElement(root, "ResumenFactura");
  // 4.3/4.4: ResumenFactura/CodigoTipoMoneda/{CodigoMoneda,TipoCambio}; 4.2: directly under ResumenFactura; may be absent ⇒ CRC 1.
  const moneda = firstElement(resumen, "CodigoTipoMoneda") ?? resumen;
  summary.currency = val(moneda, "CodigoMoneda") ?? "CRC";
  summary.exchangeRate = val(moneda, "TipoCambio") ?? "1";
  summary.totals = resumen
    ? {
        totalVenta: val(resumen, "TotalVenta"),
        totalDescuentos: val(resumen, "TotalDescuentos"),
        totalVentaNeta: val(resumen, "TotalVentaNeta"),
        totalImpuesto: val(resumen, "TotalImpuesto"),
        totalIVADevuelto: val(resumen, "TotalIVADevuelto"),
        totalOtrosCargos: val(resumen, "TotalOtrosCargos"),
        totalComprobante: val(resumen, "TotalComprobante"),
      }
    : null;
  return summary;
}
