// Receiving supplier documents (issue 12 items 2 and 5; docs/decisions/171): the same intake for an
// upload and for the mailbox. Each file (or each XML inside a .zip) is judged (judge.server.ts:
// parsed, signature verified, received-document rules), checked to be addressed to this company and
// not received before, and stored byte for byte — or refused with a plain-Spanish reason, storing
// nothing. Every stored document gets a job that asks Hacienda for its verdict; a MensajeHacienda
// that comes along is not taken as that verdict (anyone can sign one).
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { companies, receivedDocuments } from "../../../db/schema/index.ts";
import { enqueue } from "../../../jobs/runner.ts";
import { costaRicaDay } from "../../domain/document-status.ts";
import { formatDate } from "../../domain/format.ts";
import { rejectionDeadline } from "../../domain/reception-deadline.ts";
import { ivaByTariff, messageAmounts, RECEPTION_MESSAGES, type ReceptionDecision } from "../../domain/receptions.ts";
import { dec, money } from "../../domain/decimal.ts";
import type { ReceivedSummary } from "../../hacienda/parse.ts";
import { expandFiles, type IncomingFile } from "./files.server.ts";
import type { ComprobanteFacts } from "./judge.server.ts";
import { judgeOffThread } from "../engine/pool.server.ts";

export interface FileOutcome {
  /** The file's name as shown (inside a .zip: the entry's name, with `from` the archive's). */
  name: string;
  from?: string;
  ok: boolean;
  message: string;
  clave?: string;
  documentId?: number;
  /** A decision that does not fit this document: the decision's form field it belongs to ('_form': the whole decision). */
  field?: string;
}

export interface IntakeReport {
  /** Documents stored by this intake. */
  stored: { id: number; clave: string; name: string }[];
  outcomes: FileOutcome[];
  /** Files inside archives that were not XML (ignored). */
  skipped: number;
}

export interface IntakeInput {
  companyId: number;
  userId: number | null;
  source: "upload" | "email";
  files: IncomingFile[];
  now: Date;
  /** Category and tax condition stored with pending documents (upload form, or the company's defaults for e-mail). */
  expenseCategoryId?: number | null;
  taxCondition?: string | null;
  /** The decision taken in the upload form (1–3): checked against each document before storing it. */
  decision?: ReceptionDecision | null;
}

/** Identifications compared as Hacienda does: digits only, without leading zeros. */
export function sameIdentification(a: string | null | undefined, b: string | null | undefined): boolean {
  const norm = (v: string | null | undefined) => (v ?? "").replace(/\D/g, "").replace(/^0+/, "");
  return norm(a) !== "" && norm(a) === norm(b);
}

/** Job that asks Hacienda whether it accepted a supplier's document (pipeline.server.ts checkIssuerStatus). */
export const issuerCheckKey = (id: number) => `reception-issuer:${id}`;

type Judged = { name: string; from?: string; bytes: Uint8Array; summary: ReceivedSummary };

function storedValues(input: IntakeInput, doc: Judged & { facts: ComprobanteFacts }) {
  const s = doc.summary;
  const t = s.totals!;
  const issuedAt = new Date(s.issueDate!);
  const amount = (v: string | null | undefined) => money(dec(v && /^-?\d+(\.\d+)?$/.test(v) ? v : "0"));
  const lineSum = (pick: (l: ReceivedSummary["lines"][number]) => string | null) => s.lines.reduce((acc, l) => acc.plus(dec(pick(l) ?? "0")), dec("0"));
  return {
    companyId: input.companyId,
    clave: s.clave!,
    kind: s.kind,
    version: s.version,
    consecutive: s.consecutive,
    issuedAt,
    issuerName: s.issuer!.name!.slice(0, 200),
    issuerIdType: s.issuer!.idType,
    issuerId: s.issuer!.id!,
    receiverName: s.receiver?.name ?? null,
    receiverId: s.receiver?.id ?? null,
    currency: /^[A-Z]{3}$/.test(s.currency) ? s.currency : "CRC",
    exchangeRate: amount(s.exchangeRate || "1"),
    subtotal: t.totalVenta !== null ? amount(t.totalVenta) : money(lineSum((l) => l.subtotal)),
    discount: amount(t.totalDescuentos),
    tax: amount(t.totalImpuesto),
    ivaDevuelto: amount(t.totalIVADevuelto),
    exonerated: amount(doc.facts.exonerated),
    otherCharges: amount(t.totalOtrosCargos),
    total: amount(t.totalComprobante),
    lineCount: s.lines.length,
    data: {
      Emisor: { Nombre: s.issuer!.name, Identificacion: { Tipo: s.issuer!.idType, Numero: s.issuer!.id }, CorreoElectronico: s.issuer!.email },
      Receptor: { Nombre: s.receiver?.name ?? null, Identificacion: { Tipo: s.receiver?.idType ?? null, Numero: s.receiver?.id ?? null } },
      FechaEmision: s.issueDate,
      CondicionVenta: doc.facts.saleCondition,
      CodigoActividadEmisor: doc.facts.issuerActivity,
      // The IVA by tariff of the lines, for the IVA summary's purchases (decision 153).
      IvaPorTarifa: ivaByTariff(s.lines),
      TotalExonerado: doc.facts.exonerated,
      signer: { subject: s.signature.signerSubject, cedula: s.signature.signerCedula, signingTime: s.signature.signingTime },
    },
    source: input.source,
    uploadFilename: doc.name,
    uploadXml: Buffer.from(doc.bytes),
    // Hacienda's verdict on the supplier's document is the one the app asks Hacienda for (the
    // check-reception-issuer job), never a MensajeHacienda that came with the upload: its
    // signature proves only that someone signed it (docs/decisions/171).
    issuerResponseXml: null,
    issuerStatus: null,
    issuerDetail: null,
    issuerCheckedAt: null,
    message: 4,
    expenseCategoryId: input.decision?.expenseCategoryId ?? input.expenseCategoryId ?? null,
    taxCondition: input.decision?.taxCondition ?? input.taxCondition ?? null,
    rejectDeadline: rejectionDeadline(costaRicaDay(issuedAt)),
    status: "pendiente",
    createdAt: input.now,
    createdBy: input.userId,
  };
}

/** Why this document cannot take the upload form's decision, and the form field it concerns (checked before anything is stored). */
function decisionProblem(decision: ReceptionDecision, values: ReturnType<typeof storedValues>, today: string): { field: string; message: string } | null {
  if (decision.message !== 1 && values.rejectDeadline < today) return { field: "_form", message: RECEPTION_MESSAGES.deadlinePassed(formatDate(`${values.rejectDeadline}T12:00:00Z`)) };
  const amounts = messageAmounts(decision, { tax: values.tax, total: values.total });
  if (!amounts.ok) {
    const [field, message] = Object.entries(amounts.errors)[0]!;
    return { field, message };
  }
  return null;
}

/**
 * Judges, checks and stores the files. Never throws for bad input: every file gets an outcome.
 * Stored documents are pending (message 4); the caller processes them when a decision was taken.
 */
export async function ingestReceivedFiles(db: Db, input: IntakeInput): Promise<IntakeReport> {
  const [company] = await db
    .select({ identification: companies.identification, name: companies.name })
    .from(companies)
    .where(eq(companies.id, input.companyId));
  if (!company) throw new Error(`company ${input.companyId} not found`);
  const today = costaRicaDay(input.now);
  // Within one budget for the whole upload or message (INTAKE_LIMITS): past it, one refusal and nothing stored.
  const { files, skipped } = await expandFiles(input.files, { skipNonXml: input.source === "email" });
  const outcomes: FileOutcome[] = [];
  const comprobantes: Array<Judged & { facts: ComprobanteFacts }> = [];
  // Hacienda's answers that came along, by clave: judged, then only noted (not the verdict).
  const answers = new Map<string, { name: string; from?: string }>();

  // Judged on worker threads, several at once (app/server/engine/pool.server.ts); outcomes keep the files' order.
  const judged = await Promise.all(files.map((f) => ("bytes" in f ? judgeOffThread(f.bytes) : null)));
  for (const [i, f] of files.entries()) {
    if (!("bytes" in f)) {
      outcomes.push({ name: f.name, from: f.from, ok: false, message: f.problem });
      continue;
    }
    const j = judged[i]!;
    if (!j.ok) outcomes.push({ name: f.name, from: f.from, ok: false, message: j.message });
    else if (j.role === "respuesta") answers.set(j.summary.clave!, { name: f.name, from: f.from });
    else comprobantes.push({ name: f.name, from: f.from, bytes: f.bytes, summary: j.summary, facts: j.facts });
  }

  const stored: IntakeReport["stored"] = [];
  const paired = new Set<string>();
  // One transaction for the upload's documents (one commit instead of one per file): a refused file
  // writes nothing, and a database failure stores none of them.
  await db.transaction(async (tx) => {
    for (const doc of comprobantes) {
      const s = doc.summary;
      const fail = (message: string, field?: string) => outcomes.push({ name: doc.name, from: doc.from, ok: false, message, clave: s.clave ?? undefined, ...(field ? { field } : {}) });
      if (!sameIdentification(s.receiver?.id, company.identification)) {
        fail(`El comprobante está emitido a ${s.receiver?.name ?? "otro receptor"} (cédula ${s.receiver?.id ?? "sin indicar"}), no a ${company.name} (cédula ${company.identification}). Revise que está en la empresa correcta.`);
        continue;
      }
      if (answers.has(s.clave!)) paired.add(s.clave!);
      const values = storedValues(input, doc);
      if (input.decision) {
        const problem = decisionProblem(input.decision, values, today);
        if (problem) {
          fail(problem.message, problem.field);
          continue;
        }
      }
      const [row] = await tx.insert(receivedDocuments).values(values).onConflictDoNothing().returning({ id: receivedDocuments.id });
      if (row) await enqueue(tx, "check-reception-issuer", { companyId: input.companyId, id: row.id, attempt: 0 }, { runAt: input.now, uniqueKey: issuerCheckKey(row.id), maxAttempts: 1000 });
      if (!row) {
        fail(`Este comprobante ya fue recibido (clave ${s.clave}).`);
        continue;
      }
      stored.push({ id: row.id, clave: s.clave!, name: doc.name });
      outcomes.push({ name: doc.name, from: doc.from, ok: true, message: `Recibido: ${s.issuer?.name ?? ""}, ${s.consecutive ?? ""}`.trim(), clave: s.clave!, documentId: row.id });
    }
  });

  // Hacienda's answers that came without their comprobante: the verdict is asked of Hacienda for
  // one received before, so the answer itself is not needed.
  for (const [clave, answer] of answers) {
    if (paired.has(clave)) continue;
    const [row] = await db
      .select({ id: receivedDocuments.id })
      .from(receivedDocuments)
      .where(and(eq(receivedDocuments.companyId, input.companyId), eq(receivedDocuments.clave, clave)));
    if (row) outcomes.push({ name: answer.name, from: answer.from, ok: true, message: RECEPTION_MESSAGES.answerNotNeeded, clave, documentId: row.id });
    else outcomes.push({ name: answer.name, from: answer.from, ok: false, clave, message: "Es la respuesta de Hacienda (MensajeHacienda) de un comprobante que no viene en esta subida ni se recibió antes: súbala junto con el XML del comprobante." });
  }
  return { stored, outcomes, skipped };
}

/**
 * Takes back a document an intake has just stored, while it is still pending and no decision touched
 * it: the integrator API's upload-and-decide whose processing failed after the intake (decision 186),
 * so a refused call stores nothing and a retry with its Idempotency-Key starts over. Its pending
 * check of Hacienda's verdict finds no row and ends ('skipped'). True when it was removed.
 */
export async function withdrawReceived(db: Db, opts: { companyId: number; id: number }): Promise<boolean> {
  const gone = await db
    .delete(receivedDocuments)
    .where(and(eq(receivedDocuments.id, opts.id), eq(receivedDocuments.companyId, opts.companyId), eq(receivedDocuments.message, 4), isNull(receivedDocuments.processedAt)))
    .returning({ id: receivedDocuments.id });
  return gone.length > 0;
}
