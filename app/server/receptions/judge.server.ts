// How Colibrí judges an XML a supplier sent (issue 12 item 2; DESIGN §5: received documents are
// judged with Hacienda's tolerance, never with the exact rules for documents Colibrí issues). The ONE
// place the reception code asks the Hacienda engine about a received file: parse (hostile input
// refused by app/hacienda/safe-xml.ts), signature verification (app/hacienda/verify.ts) and the
// received-document rules — all through the engine's judgeReceivedDocument (app/hacienda/received.ts,
// decision 134: schema and the fiscal rules in received mode), the one place those rules live; this
// file adds only what a reception needs beyond them (who may be answered, plain-Spanish reasons)
// (docs/decisions/170, 177).
import path from "node:path";
import { isHaciendaError } from "../../hacienda/errors.ts";
import { parseReceived, type ReceivedKind, type ReceivedSummary } from "../../hacienda/parse.ts";
import { judgeReceivedDocument, type JudgeDeps, type ReceivedJudgement, type ReceivedProblem } from "../../hacienda/received.ts";
import { loadSchemaFolder, loadSchemaSet } from "../../hacienda/xsd/load.server.ts";
import { dec } from "../../domain/decimal.ts";

let schemas: JudgeDeps | undefined;
/** The v4.4 schemas (HACIENDA_XSD_DIR, as for issuing) and, when present, the v4.3 ones (HACIENDA_XSD43_DIR): compiled once per process (per worker). */
function receivedSchemas(): JudgeDeps {
  if (!schemas) {
    const schemas44 = loadSchemaSet(process.env.HACIENDA_XSD_DIR ?? path.resolve("../shared/hacienda/xsd/v4.4-2026"));
    let schemas43: JudgeDeps["schemas43"];
    try {
      schemas43 = loadSchemaFolder(process.env.HACIENDA_XSD43_DIR ?? path.resolve("../shared/hacienda/xsd/v4.3"));
    } catch {
      schemas43 = undefined; // judged without it: a 4.3 document's schema is then not checked
    }
    schemas = { schemas44, schemas43 };
  }
  return schemas;
}

/** The engine's schema and rule problems, in one plain-Spanish reason (at most three, most serious first). */
function engineProblems(problems: ReceivedProblem[]): string | null {
  if (!problems.length) return null;
  const shown = problems.slice(0, 3).map((p) => `${p.path ? `${p.path}: ` : ""}${p.message}`);
  const more = problems.length > 3 ? ` (y ${problems.length - 3} más)` : "";
  return `${problems[0].title}: ${shown.join(" ")}${more}. Hacienda no aceptaría este comprobante: pida al emisor uno corregido.`;
}

/** Kinds a company receives and answers with a MensajeReceptor. */
export const ANSWERABLE_KINDS: ReadonlySet<ReceivedKind> = new Set(["FE", "NC", "ND"]);

export type Judgement =
  /** A supplier's comprobante the company may accept or reject. */
  | { ok: true; role: "comprobante"; summary: ReceivedSummary; facts: ComprobanteFacts }
  /** Hacienda's answer to a supplier's comprobante (paired with it by clave). */
  | { ok: true; role: "respuesta"; summary: ReceivedSummary; accepted: boolean; detail: string | null }
  /** Refused: a plain-Spanish reason, nothing is stored. */
  | { ok: false; message: string };

const NOT_ANSWERABLE: Partial<Record<ReceivedKind, string>> = {
  TE: "Es un tiquete electrónico: no identifica al receptor, así que no se acepta ni se rechaza ante Hacienda. Pida al proveedor una factura electrónica a nombre de la empresa.",
  FEC: "Es una factura electrónica de compra: la emite el propio comprador, no un proveedor, y no se acepta ni se rechaza.",
  FEE: "Es una factura electrónica de exportación: su receptor está en el extranjero, no es un documento que la empresa deba aceptar.",
  REP: "Es un recibo electrónico de pago: no se acepta ni se rechaza con un mensaje de receptor.",
  MR: "Es un mensaje de receptor (la aceptación o el rechazo de un comprobante), no un comprobante. Suba la factura del proveedor.",
};

/** What the list, the PDF and the reports need beyond the engine's summary. */
export interface ComprobanteFacts {
  /** ResumenFactura/TotalExonerado (0 when absent). */
  exonerated: string;
  saleCondition: string | null;
  /** CodigoActividadEmisor (4.4) or CodigoActividad (4.3). */
  issuerActivity: string | null;
}

const tag = (text: string, name: string) => new RegExp(`<(?:[A-Za-z_][\\w.-]{0,40}:)?${name}>([^<]{0,200})</`).exec(text)?.[1]?.trim() || null;

function factsOf(bytes: Uint8Array): ComprobanteFacts {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const resumen = text.lastIndexOf("ResumenFactura>") >= 0 ? text.slice(text.indexOf("ResumenFactura>")) : "";
  const exonerated = tag(resumen, "TotalExonerado");
  return {
    exonerated: exonerated && /^\d{1,13}(\.\d{1,5})?$/.test(exonerated) ? exonerated : "0",
    saleCondition: tag(text, "CondicionVenta"),
    issuerActivity: tag(text, "CodigoActividadEmisor") ?? tag(text, "CodigoActividad"),
  };
}

/** Two amounts agree within one unit of the currency (suppliers' systems round line by line). */
const TOLERANCE = dec("1");

function refuse(message: string): Judgement {
  return { ok: false, message };
}

/** Received-mode checks of a comprobante already parsed: what a supplier's document must hold for us to answer it. */
function comprobanteProblems(s: ReceivedSummary): string | null {
  if (!s.signature.valid) {
    const why = s.signature.errors.slice(0, 3).join(" ");
    return `La firma del comprobante no es válida${why ? `: ${why}` : "."} El archivo fue modificado después de firmado o no es el original: pida al emisor el XML original.`;
  }
  if (!s.clave || !/^[A-Za-z0-9]{50}$/.test(s.clave)) return "El comprobante no trae una clave de 50 caracteres: no es un comprobante electrónico válido.";
  if (!s.consecutive || !/^\d{20}$/.test(s.consecutive)) return "El comprobante no trae un número consecutivo de 20 dígitos.";
  if (s.clave.slice(21, 41) !== s.consecutive) return "La clave del comprobante no corresponde a su número consecutivo: el archivo está alterado.";
  if (!s.issueDate || Number.isNaN(Date.parse(s.issueDate))) return "El comprobante no trae una fecha de emisión válida.";
  if (!s.issuer?.id || !s.issuer.name) return "El comprobante no identifica al emisor (nombre y cédula).";
  if (!s.receiver?.id) return "El comprobante no identifica al receptor: no está emitido a nombre de una empresa.";
  const t = s.totals;
  if (!t?.totalComprobante) return "El comprobante no trae el total (ResumenFactura/TotalComprobante).";
  try {
    const total = dec(t.totalComprobante);
    if (t.totalVentaNeta !== null && t.totalImpuesto !== null) {
      const expected = dec(t.totalVentaNeta)
        .plus(dec(t.totalImpuesto))
        .plus(dec(t.totalOtrosCargos ?? "0"))
        .minus(dec(t.totalIVADevuelto ?? "0"));
      if (expected.minus(total).abs().gt(TOLERANCE)) {
        return `Los totales del comprobante no cuadran: venta neta más impuestos y otros cargos suman ${expected.toFixed(2)} pero el total dice ${total.toFixed(2)}.`;
      }
    }
  } catch {
    return "Los montos del resumen del comprobante no son números válidos.";
  }
  return null;
}

/**
 * Judges one XML file (bytes as received). Never throws for bad input: hostile, foreign or broken
 * files come back as { ok: false, message } in plain Spanish.
 */
export async function judgeReceivedXml(bytes: Uint8Array): Promise<Judgement> {
  let judged: ReceivedJudgement;
  try {
    judged = judgeReceivedDocument(bytes, receivedSchemas());
  } catch (error) {
    if (isHaciendaError(error)) return refuse(error.message);
    return refuse("El archivo no se pudo leer como un comprobante electrónico. Pida al emisor el XML original.");
  }
  const summary = judged.summary;
  if (!summary) return refuse(judged.problems[0]?.message ?? "El archivo no se pudo leer como un comprobante electrónico. Pida al emisor el XML original.");
  if (summary.kind === "MH") {
    if (!summary.signature.valid) return refuse("La respuesta de Hacienda (MensajeHacienda) no tiene una firma válida: no se puede confiar en ella.");
    if (!summary.clave) return refuse("La respuesta de Hacienda no indica la clave del comprobante.");
    const accepted = summary.message?.mensaje === "1";
    return { ok: true, role: "respuesta", summary, accepted, detail: summary.message?.detalle ?? null };
  }
  if (!ANSWERABLE_KINDS.has(summary.kind)) return refuse(NOT_ANSWERABLE[summary.kind] ?? "Este tipo de documento no se acepta ni se rechaza.");
  const problem = comprobanteProblems(summary) ?? engineProblems(judged.problems.filter((p) => p.kind !== "firma"));
  if (problem) return refuse(problem);
  return { ok: true, role: "comprobante", summary, facts: factsOf(bytes) };
}

/**
 * A stored received document read back for display (its PDF): the engine's summary of the bytes as
 * stored. Throws HaciendaError for unreadable bytes (never the case for what the intake stored).
 */
export function readStoredReceived(bytes: Uint8Array): ReceivedSummary {
  return parseReceived(bytes);
}
