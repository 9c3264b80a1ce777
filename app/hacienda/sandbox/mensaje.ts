/** Reading submitted comprobantes and writing the sandbox's MensajeHacienda v4.4. */
import { parseXmlTreeSafely } from "../safe-xml.ts";
import { firstElement, textOf, type XmlTreeElement } from "../xml-tree.ts";
import type { Verdict } from "./state.ts";

export const MENSAJE_HACIENDA_NS = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda";

export const SANDBOX_ACCEPTED_TEXT =
  "Este comprobante fue aceptado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios";
export const SANDBOX_PROCESSED_TEXT =
  "Este comprobante fue procesado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios";

/** The v4.4 documents the recepción API takes, by root element (their namespace is …/v4.4/<lowerCamel root>). */
export const RECEIVABLE_ROOTS: Readonly<Record<string, string>> = {
  FacturaElectronica: "01",
  NotaDebitoElectronica: "02",
  NotaCreditoElectronica: "03",
  TiqueteElectronico: "04",
  FacturaElectronicaCompra: "08",
  FacturaElectronicaExportacion: "09",
  ReciboElectronicoPago: "10",
  MensajeReceptor: "05",
};
const NS_V44 = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/";

export interface ComprobanteFacts {
  root: string;
  namespace: string;
  clave?: string;
  emisor: { nombre?: string; tipo?: string; numero?: string };
  receptor: { nombre?: string; tipo?: string; numero?: string };
  totalImpuesto?: string;
  total?: string;
  /** FechaEmision (comprobantes) as written. */
  fechaEmision?: string;
  /** NumeroConsecutivo (comprobantes). */
  numeroConsecutivo?: string;
  numeroConsecutivoReceptor?: string;
  /** MensajeReceptor: 1 aceptado, 2 parcial, 3 rechazado. */
  mensaje?: string;
  /** A v4.4 document the recepción API takes (RECEIVABLE_ROOTS with its v4.4 namespace). */
  receivable: boolean;
}

function text(parent: XmlTreeElement | undefined, ...path: string[]): string | undefined {
  let cur = parent;
  for (const p of path) {
    cur = firstElement(cur, p);
    if (!cur) return undefined;
  }
  return textOf(cur).trim();
}

/**
 * The facts the sandbox needs from a submitted document. Throws (with a Spanish message) when the
 * XML is refused by the safe intake: not well formed, a DTD, too large or too deep.
 */
export function readComprobante(xml: string): ComprobanteFacts {
  const { root } = parseXmlTreeSafely(xml);
  const facts: ComprobanteFacts = {
    root: root.local,
    namespace: root.ns,
    clave: text(root, "Clave"),
    emisor: {},
    receptor: {},
    receivable: root.local in RECEIVABLE_ROOTS && root.ns === NS_V44 + root.local.charAt(0).toLowerCase() + root.local.slice(1),
  };
  if (facts.root === "MensajeReceptor") {
    facts.emisor = { numero: text(root, "NumeroCedulaEmisor") };
    facts.receptor = { numero: text(root, "NumeroCedulaReceptor") };
    facts.total = text(root, "TotalFactura");
    facts.totalImpuesto = text(root, "MontoTotalImpuesto");
    facts.numeroConsecutivoReceptor = text(root, "NumeroConsecutivoReceptor");
    facts.mensaje = text(root, "Mensaje");
  } else {
    facts.emisor = {
      nombre: text(root, "Emisor", "Nombre"),
      tipo: text(root, "Emisor", "Identificacion", "Tipo"),
      numero: text(root, "Emisor", "Identificacion", "Numero"),
    };
    facts.receptor = {
      nombre: text(root, "Receptor", "Nombre"),
      tipo: text(root, "Receptor", "Identificacion", "Tipo"),
      numero: text(root, "Receptor", "Identificacion", "Numero"),
    };
    facts.total = text(root, "ResumenFactura", "TotalComprobante");
    facts.totalImpuesto = text(root, "ResumenFactura", "TotalImpuesto");
    facts.fechaEmision = text(root, "FechaEmision");
    facts.numeroConsecutivo = text(root, "NumeroConsecutivo");
  }
  return facts;
}

/** Escapes element text the way C14N prints it (so the signer's canonical fast path applies). */
export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
}

const row = (e: Verdict["errores"][number]) => `${e.codigo}, "${e.mensaje.replace(/"/g, "'")}", ${e.fila}, ${e.columna}`;

/**
 * Hacienda-style DetalleMensaje: the sandbox sentence, then `codigo, mensaje, fila, columna` rows.
 * An accepted document's warnings follow its sentence (as in CRLibre/API_Hacienda#50, a -16
 * "extemporánea" inside an accepted answer); a rejection lists its errors (and warnings) in brackets.
 */
export function detalleMensaje(verdict: Verdict): string {
  const avisos = verdict.avisos ?? [];
  if (verdict.estado === "aceptado") {
    if (avisos.length === 0) return SANDBOX_ACCEPTED_TEXT;
    return [SANDBOX_ACCEPTED_TEXT, "", "codigo, mensaje, fila, columna", ...avisos.map(row)].join("\n");
  }
  return [
    SANDBOX_PROCESSED_TEXT,
    "",
    "El comprobante electrónico tiene los siguientes errores:",
    "",
    "[",
    "codigo, mensaje, fila, columna",
    ...verdict.errores.map(row),
    ...avisos.map(row),
    "]",
  ].join("\n");
}

function decimal(v: string | undefined): string {
  return v && /^\d{1,13}(\.\d{1,5})?$/.test(v) ? v : "0";
}

/** The unsigned MensajeHacienda v4.4 (element order of MensajeHacienda_V4.4.xsd). */
export function buildMensajeHacienda(facts: ComprobanteFacts, clave: string, verdict: Verdict): string {
  const parts: string[] = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<MensajeHacienda xmlns="${MENSAJE_HACIENDA_NS}">`,
    `<Clave>${escapeXml(clave)}</Clave>`,
    `<NombreEmisor>${escapeXml((facts.emisor.nombre ?? "").slice(0, 100))}</NombreEmisor>`,
    `<TipoIdentificacionEmisor>${escapeXml(facts.emisor.tipo && /^0[1-6]$/.test(facts.emisor.tipo) ? facts.emisor.tipo : "01")}</TipoIdentificacionEmisor>`,
    `<NumeroCedulaEmisor>${escapeXml((facts.emisor.numero ?? "").slice(0, 20))}</NumeroCedulaEmisor>`,
  ];
  if (facts.receptor.nombre) parts.push(`<NombreReceptor>${escapeXml(facts.receptor.nombre.slice(0, 100))}</NombreReceptor>`);
  if (facts.receptor.tipo && /^0[1-6]$/.test(facts.receptor.tipo)) {
    parts.push(`<TipoIdentificacionReceptor>${facts.receptor.tipo}</TipoIdentificacionReceptor>`);
  }
  if (facts.receptor.numero) parts.push(`<NumeroCedulaReceptor>${escapeXml(facts.receptor.numero.slice(0, 20))}</NumeroCedulaReceptor>`);
  parts.push(
    `<Mensaje>${verdict.estado === "aceptado" ? 1 : 3}</Mensaje>`,
    `<EstadoMensaje>${verdict.estado === "aceptado" ? "Aceptado" : "Rechazado"}</EstadoMensaje>`,
    `<DetalleMensaje>${escapeXml(detalleMensaje(verdict))}</DetalleMensaje>`,
  );
  if (facts.totalImpuesto) parts.push(`<MontoTotalImpuesto>${decimal(facts.totalImpuesto)}</MontoTotalImpuesto>`);
  parts.push(`<TotalFactura>${decimal(facts.total)}</TotalFactura>`, `</MensajeHacienda>`);
  return parts.join("");
}
