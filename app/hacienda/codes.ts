/** Hacienda v4.4 document kinds, roots, namespaces and code tables used by the builder and rules. */

export type ComprobanteKind = "fe" | "te" | "nc" | "nd" | "fec" | "fee" | "rep";
export type DocumentKind = ComprobanteKind | "mr";

const NS_BASE = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/";

export const ROOTS: Record<DocumentKind, { root: string; ns: string; docType: string; label: string }> = {
  fe: { root: "FacturaElectronica", ns: NS_BASE + "facturaElectronica", docType: "01", label: "Factura electrónica" },
  nd: { root: "NotaDebitoElectronica", ns: NS_BASE + "notaDebitoElectronica", docType: "02", label: "Nota de débito electrónica" },
  nc: { root: "NotaCreditoElectronica", ns: NS_BASE + "notaCreditoElectronica", docType: "03", label: "Nota de crédito electrónica" },
  te: { root: "TiqueteElectronico", ns: NS_BASE + "tiqueteElectronico", docType: "04", label: "Tiquete electrónico" },
  fec: { root: "FacturaElectronicaCompra", ns: NS_BASE + "facturaElectronicaCompra", docType: "08", label: "Factura electrónica de compra" },
  fee: { root: "FacturaElectronicaExportacion", ns: NS_BASE + "facturaElectronicaExportacion", docType: "09", label: "Factura electrónica de exportación" },
  rep: { root: "ReciboElectronicoPago", ns: NS_BASE + "reciboElectronicoPago", docType: "10", label: "Recibo electrónico de pago" },
  // MensajeReceptor's consecutivo type depends on Mensaje: 1 → 05, 2 → 06, 3 → 07.
  mr: { root: "MensajeReceptor", ns: NS_BASE + "mensajeReceptor", docType: "05", label: "Mensaje receptor" },
};

export const MR_DOC_TYPE: Record<1 | 2 | 3, "05" | "06" | "07"> = { 1: "05", 2: "06", 3: "07" };

/** CondicionVenta values each kind accepts (XSD enumerations). */
export const SALE_CONDITIONS: Record<ComprobanteKind, readonly string[]> = {
  fe: ["01", "02", "03", "04", "05", "06", "07", "08", "10", "12", "13", "14", "15", "99"],
  te: ["01", "02", "03", "04", "05", "06", "07", "08", "10", "13", "14", "15", "99"],
  nc: ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "99"],
  nd: ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "99"],
  fec: ["01", "02", "03", "04", "05", "06", "07", "08", "10", "13", "14", "15", "99"],
  fee: ["01", "02", "03", "04", "05", "06", "07", "08", "10", "13", "14", "15", "99"],
  rep: ["09", "11"],
};

export const PAYMENT_METHODS = ["01", "02", "03", "04", "05", "06", "07", "99"] as const;

/** TipoDocumentoEX1 (Nota 10.1), as the v4.4 schema (2026 revision) lists them. */
export const EXONERATION_DOC_TYPES: Readonly<Record<string, string>> = {
  "01": "Compras autorizadas por la Dirección General de Tributación",
  "02": "Ventas exentas a diplomáticos",
  "03": "Autorizado por Ley Especial",
  "04": "Exenciones Dirección General de Hacienda Autorización Local Genérica",
  "05": "Exenciones Dirección General de Hacienda Transitorio V (servicios de ingeniería, arquitectura, topografía obra civil)",
  "06": "Servicios turísticos inscritos ante el Instituto Costarricense de Turismo (ICT)",
  "07": "Transitorio XVII (Recolección, Clasificación, almacenamiento de Reciclaje y reutilizable)",
  "08": "Exoneración a Zona Franca",
  "09": "Exoneración de servicios complementarios para la exportación articulo 11 RLIVA",
  "10": "Órgano de las corporaciones municipales",
  "11": "Exenciones Dirección General de Hacienda Autorización de Impuesto Local Concreta",
  "99": "Otros",
};

/** TipoDocumentoEX1 reserved for notas de crédito y débito (Nota 10.1 footnotes 38–41, A44 p.74). */
export const NOTES_ONLY_EXONERATIONS: ReadonlySet<string> = new Set(["01", "05", "06", "07"]);

/**
 * The exoneration document types a kind of document may use, in code order, as [code, name] pairs
 * (notes-only ones only on NC and ND).
 */
export function exonerationDocTypesFor(kind: string): Array<[string, string]> {
  const notes = kind === "nc" || kind === "nd";
  return Object.entries(EXONERATION_DOC_TYPES)
    .filter(([code]) => notes || !NOTES_ONLY_EXONERATIONS.has(code))
    .sort(([a], [b]) => a.localeCompare(b));
}

/** NombreInstitucion (Nota 23), as the v4.4 schema (2026 revision) lists them. */
export const EXONERATION_INSTITUTIONS: Readonly<Record<string, string>> = {
  "01": "Ministerio de Hacienda",
  "02": "Ministerio de Relaciones Exteriores y Culto",
  "03": "Ministerio de Agricultura y Ganadería",
  "04": "Ministerio de Economía, Industria y Comercio",
  "05": "Cruz Roja Costarricense",
  "06": "Benemérito Cuerpo de Bomberos de Costa Rica",
  "07": "Asociación Obras del Espíritu Santo",
  "08": "Federación Cruzada Nacional de protección al Anciano (Fecrunapa)",
  "09": "Escuela de Agricultura de la Región Húmeda (EARTH)",
  "10": "Instituto Centroamericano de Administración de Empresas (INCAE)",
  "11": "Junta de Protección Social (JPS)",
  "12": "Autoridad Reguladora de los Servicios Públicos (Aresep)",
  "99": "Otros",
};
