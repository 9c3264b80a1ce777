/** Reading submitted comprobantes and writing the sandbox's MensajeHacienda v4.4. */
import { DOMParser } from "@xmldom/xmldom";
import type { Verdict } from "./state.ts";

export const MENSAJE_HACIENDA_NS = "https://cdn.comprobanteselectronicos.go.cr/xml-schemas/v4.4/mensajeHacienda";

export const SANDBOX_ACCEPTED_TEXT =
  "Este comprobante fue aceptado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios";
export const SANDBOX_PROCESSED_TEXT =
  "Este comprobante fue procesado en el ambiente de pruebas, por lo cual no tiene validez para fines tributarios";

export interface ComprobanteFacts {
  root: string;
  namespace: string;
  clave?: string;
  emisor: { nombre?: string; tipo?: string; numero?: string };
  receptor: { nombre?: string; tipo?: string; numero?: string };
  totalImpuesto?: string;
  total?: string;
  numeroConsecutivoReceptor?: string;
}

type El = { localName: string | null; firstChild: unknown; nextSibling: unknown; nodeType: number; textContent: string | null; namespaceURI: string | null };

function child(parent: unknown, name: string): El | undefined {
  for (let n = (parent as El | undefined)?.firstChild as El | null; n; n = n.nextSibling as El | null) {
    if (n.nodeType === 1 && n.localName === name) return n;
  }
  return undefined;
}

function text(parent: unknown, ...path: string[]): string | undefined {
  let cur: unknown = parent;
  for (const p of path) {
    cur = child(cur, p);
    if (!cur) return undefined;
  }
  return ((cur as El).textContent ?? "").trim();
}

/** Throws (with a Spanish message) when the XML is not well formed. */
export function readComprobante(xml: string): ComprobanteFacts {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level: string, msg: string) => {
      if (level !== "warning") errors.push(msg);
    },
  }).parseFromString(xml, "text/xml");
  const root = doc.documentElement as unknown as El | null;
  if (errors.length || !root) {
    throw new Error(`El comprobante XML no está bien formado${errors[0] ? `: ${errors[0]}` : ""}.`);
  }
  const facts: ComprobanteFacts = {
    root: root.localName ?? "",
    namespace: root.namespaceURI ?? "",
    clave: text(root, "Clave"),
    emisor: {},
    receptor: {},
  };
  if (facts.root === "MensajeReceptor") {
    facts.emisor = { numero: text(root, "NumeroCedulaEmisor") };
    facts.receptor = { numero: text(root, "NumeroCedulaReceptor") };
    facts.total = text(root, "TotalFactura");
    facts.totalImpuesto = text(root, "MontoTotalImpuesto");
    facts.numeroConsecutivoReceptor = text(root, "NumeroConsecutivoReceptor");
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
  }
  return facts;
}

/** Escapes element text the way C14N prints it (so the signer's canonical fast path applies). */
export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
}

/** Hacienda-style DetalleMensaje: the sandbox sentence, then `codigo, mensaje, fila, columna` rows. */
export function detalleMensaje(verdict: Verdict): string {
  if (verdict.estado === "aceptado") return SANDBOX_ACCEPTED_TEXT;
  const rows = verdict.errores.map((e) => `${e.codigo}, "${e.mensaje.replace(/"/g, "'")}", ${e.fila}, ${e.columna}`);
  return [
    SANDBOX_PROCESSED_TEXT,
    "",
    "El comprobante electrónico tiene los siguientes errores:",
    "",
    "[",
    "codigo, mensaje, fila, columna",
    ...rows,
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
