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
