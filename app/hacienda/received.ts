/**
 * Judging a document someone sent us (a supplier's comprobante, a MensajeReceptor, Hacienda's
 * MensajeHacienda) as Hacienda would: one call for the CLI (`validate --received`) and the
 * reception screens. docs/decisions/134.
 *
 *   const j = judgeReceivedDocument(bytes, { schemas44, schemas43 });
 *   j.ok        // nothing wrong
 *   j.summary   // parseReceived's summary (kind, version, clave, parties, totals, signature verdict)
 *   j.model     // the v4.4 document model with the amounts it states (readModel), when v4.4
 *   j.problems  // what is wrong: { kind, code, title, path, message } in Spanish, most serious first
 *   j.warnings  // accepted but worth telling (same shape)
 *   j.notes     // what could not be checked and why (e.g. no 4.2 schema here)
 *
 * Received mode of the business rules (rules.ts): amounts of systems that round to 2 decimals are
 * accepted within Hacienda's margin (A44 p.12), codes of the catalogue before TRIBU-CR are accepted
 * with a warning; the signature policy is not judged (Hacienda accepted documents with the v4.1,
 * v4.3 and v4.4 policies, NOTES §5) — the exact checks stay for what Colibrí issues. Pure: schemas
 * are injected (xsd/load.server.ts reads them), the signature is verifyXml's verdict as
 * parseReceived gives it.
 */
import { HaciendaError } from "./errors.ts";
import { parseReceived, type ReceivedSummary } from "./parse.ts";
import { readModel, type ReadDocument } from "./read-model.ts";
import { checkRules, ruleWarnings, type RuleError } from "./rules.ts";
import { validateSchema, type CompiledSchemaSet } from "./xsd/index.ts";

export type ReceivedProblemKind = "no-comprobante" | "firma" | "esquema" | "reglas";

export interface ReceivedProblem {
  kind: ReceivedProblemKind;
  /** Stable code for programs: NO_COMPROBANTE (or the intake's error code), FIRMA, FIRMANTE, ESQUEMA, REGLAS, AVISO. */
  code: string;
  /** Spanish heading of the kind, for a screen that groups problems. */
  title: string;
  /** The field ("ResumenFactura/TotalComprobante"), "" for the whole document. */
  path: string;
  /** Spanish, what is wrong and, where it helps, what to do. */
  message: string;
}

export interface ReceivedJudgement {
  /** No problem found (warnings and notes do not count). */
  ok: boolean;
  summary: ReceivedSummary | null;
  /** The v4.4 model read back from the XML, with `stated` amounts; null for other versions or unreadable documents. */
  model: ReadDocument | null;
  problems: ReceivedProblem[];
  warnings: ReceivedProblem[];
  notes: string[];
}

export interface JudgeDeps {
  /** The v4.4 schemas (2026 revision: it accepts everything the 2024 set accepts). */
  schemas44?: CompiledSchemaSet;
  /** The v4.3 schemas, for older comprobantes. */
  schemas43?: CompiledSchemaSet;
}

export const RECEIVED_TITLES: Record<ReceivedProblemKind, string> = {
  "no-comprobante": "No es un comprobante electrónico",
  firma: "Firma no válida",
  esquema: "No cumple el formato de Hacienda (esquema XSD)",
  reglas: "Montos o datos que Hacienda rechaza",
};

const problem = (kind: ReceivedProblemKind, code: string, path: string, message: string): ReceivedProblem => ({ kind, code, title: RECEIVED_TITLES[kind], path, message });

/** Who must have signed each kind of document (A44 p.59 FEC by its receptor; MR by the receiver who answers). */
function expectedSigner(s: ReceivedSummary): { id: string | null; who: string } | null {
  if (s.kind === "MH") return null; // Hacienda's own certificate
  if (s.kind === "FEC") return { id: s.receiver?.id ?? null, who: "el receptor (quien emite la factura de compra)" };
  if (s.kind === "MR") return { id: s.receiver?.id ?? null, who: "el receptor que responde (NumeroCedulaReceptor)" };
  return { id: s.issuer?.id ?? null, who: "el emisor" };
}

export function judgeReceivedDocument(input: string | Uint8Array, deps: JudgeDeps = {}): ReceivedJudgement {
  const out: ReceivedJudgement = { ok: false, summary: null, model: null, problems: [], warnings: [], notes: [] };
  let summary: ReceivedSummary;
  try {
    summary = parseReceived(input);
  } catch (err) {
    if (err instanceof HaciendaError) {
      out.problems.push(problem("no-comprobante", err.code === "XML_UNKNOWN_ROOT" ? "NO_COMPROBANTE" : err.code, "", err.message));
      return out;
    }
    throw err;
  }
  out.summary = summary;

  // Signature: xmlsec1-equivalent verdict (verify.ts); the policy is not judged.
  for (const e of summary.signature.errors) out.problems.push(problem("firma", "FIRMA", "ds:Signature", e));
  const signer = expectedSigner(summary);
  const cedula = summary.signature.signerCedula;
  // A warning, not a problem: a company may sign with its representative's Firma Digital (BCCR),
  // whose cédula is not the company's (A44 p.83); the library has no way to check that authority.
  if (signer?.id && cedula && cedula.replace(/^0+/, "") !== signer.id.replace(/^0+/, ""))
    out.warnings.push(
      problem(
        "firma",
        "FIRMANTE",
        "ds:Signature",
        `La firma es del certificado de la cédula ${cedula}, no de ${signer.who} (${signer.id}): confirme que quien firmó representa a ${signer.id}.`,
      ),
    );

  // Schema.
  const xml = typeof input === "string" ? input : new TextDecoder("utf-8").decode(input);
  const set = summary.version === "4.4" ? deps.schemas44 : summary.version === "4.3" ? deps.schemas43 : undefined;
  if (set) for (const e of validateSchema(xml, set, { unsigned: false })) out.problems.push(problem("esquema", "ESQUEMA", e.path, e.message));
  else out.notes.push(`No se revisó el esquema: no hay esquemas de la versión ${summary.version} disponibles aquí.`);

  // Business rules (v4.4 documents; MensajeHacienda is Hacienda's own answer).
  if (summary.version !== "4.4") out.notes.push(`Las reglas de negocio de la versión 4.4 no se aplican a un documento de la versión ${summary.version}.`);
  else if (summary.kind !== "MH") {
    try {
      const model = readModel(xml);
      out.model = model;
      for (const e of checkRules(model, { mode: "received" })) out.problems.push(rule(e));
      for (const w of ruleWarnings(model)) out.warnings.push(problem("reglas", "AVISO", w.path, w.message));
    } catch (err) {
      // Unreadable as a model: the schema errors say why; without them, say it here.
      if (!(err instanceof HaciendaError)) throw err;
      if (!out.problems.some((p) => p.kind === "esquema")) out.problems.push(problem("reglas", "REGLAS", "", err.message));
    }
  }
  out.ok = out.problems.length === 0;
  return out;
}

function rule(e: RuleError): ReceivedProblem {
  return problem("reglas", "REGLAS", e.path, e.message);
}
