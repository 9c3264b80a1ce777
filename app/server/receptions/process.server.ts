// Processing received documents (issue 12 item 3; docs/decisions/173): the user accepts, partially
// accepts or rejects one pending document or the ticked ones. Each document changes in its own
// transaction with its row locked. When Hacienda is known to have accepted the supplier's document,
// the same transaction numbers the MensajeReceptor with the company's CCE/CPCE/RCE counter (05/06/07,
// takeNextNumber: gapless), builds it with the received document's amounts, tax and issuer,
// validates it against the v4.4 XSD, signs it with the company key, stores the signed bytes and
// queues its submission (pipeline.server.ts). When that is not known yet, the decision is kept
// ('esperando') and the message is prepared by the job that asks Hacienda, once it answers.
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../../db/client.ts";
import { companies, expenseCategories, receivedDocuments } from "../../../db/schema/index.ts";
import { enqueue } from "../../../jobs/runner.ts";
import { costaRicaDay } from "../../domain/document-status.ts";
import { formatDate } from "../../domain/format.ts";
import { messageAmounts, RECEPTION_MESSAGES, type ReceptionDecision } from "../../domain/receptions.ts";
import { buildXml } from "../../hacienda/build.ts";
import { buildConsecutivo, type DocTypeCode } from "../../hacienda/clave.ts";
import type { MensajeReceptor } from "../../hacienda/model.ts";
import type { SigningKey } from "../../hacienda/p12.ts";
import { validateDocument } from "../../hacienda/validate.ts";
import type { CompiledSchemaSet } from "../../hacienda/xsd/index.ts";
import { takeNextNumber } from "../counters.server.ts";
import { appSchemaSet } from "../document-form.server.ts";
import { companyHacienda, signingKeyFor, SigningKeyError } from "../signing-key.server.ts";
import { issuerCheckKey } from "./intake.server.ts";
import { signOffThread } from "../engine/pool.server.ts";

/** MensajeReceptor document type of each acceptance condition (NOTES §4): 05 CCE, 06 CPCE, 07 RCE. */
export const MESSAGE_DOC_TYPE: Record<1 | 2 | 3, DocTypeCode> = { 1: "05", 2: "06", 3: "07" };

export const submitReceptionKey = (id: number) => `reception-submit:${id}`;

export type ReceivedRow = typeof receivedDocuments.$inferSelect;

export class ProcessError extends Error {
  constructor(
    message: string,
    readonly field: string = "_form",
  ) {
    super(message);
  }
}

export interface ProcessInput {
  companyId: number;
  userId: number | null;
  ids: number[];
  decision: ReceptionDecision;
  now: Date;
  schemaSet?: CompiledSchemaSet;
  /** The company's signing key (default: signing-key.server.ts). Resolved before any transaction. */
  keyFor?: (companyId: number) => Promise<SigningKey>;
}

export interface ProcessOutcome {
  id: number;
  ok: boolean;
  message: string;
  /** The document's status after processing. */
  status?: string;
  /** The form field an error belongs to (one document). */
  field?: string;
}

export type ProcessResult = { ok: true; outcomes: ProcessOutcome[] } | { ok: false; notFound?: boolean; errors: Record<string, string> };

export async function categoryOf(db: DbOrTx, companyId: number, id: number) {
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [row] = await db.select().from(expenseCategories).where(and(eq(expenseCategories.id, id), eq(expenseCategories.companyId, companyId)));
  return row;
}

async function keyOrError(db: Db, input: Pick<ProcessInput, "companyId" | "now" | "keyFor">): Promise<SigningKey | string> {
  try {
    return input.keyFor ? await input.keyFor(input.companyId) : await signingKeyFor(db, input.companyId, input.now);
  } catch (error) {
    if (error instanceof SigningKeyError) return error.message;
    throw error;
  }
}

/**
 * Numbers, builds, validates and signs the MensajeReceptor of a decided document (on its locked row)
 * and queues its submission. Throws ProcessError (Spanish) when the message cannot be built: the
 * transaction then rolls back, counter included.
 */
export async function prepareMessageInTx(tx: Tx, row: ReceivedRow, key: SigningKey, opts: { now: Date; schemaSet: CompiledSchemaSet }): Promise<void> {
  const message = row.message as 1 | 2 | 3;
  const docType = MESSAGE_DOC_TYPE[message];
  if (!docType) throw new ProcessError(RECEPTION_MESSAGES.notPending);
  const [company] = await tx
    .select({ identification: companies.identification, activity: companies.economicActivityCode })
    .from(companies)
    .where(eq(companies.id, row.companyId));
  const hc = await companyHacienda(tx, row.companyId, opts.now);
  const branch = hc?.branch ?? 1;
  const terminal = hc?.terminal ?? 1;
  const model = (sequence: number): MensajeReceptor => ({
    kind: "mr",
    clave: row.clave,
    issuerId: row.issuerId,
    issuedAt: opts.now,
    message,
    ...(row.messageDetail ? { detail: row.messageDetail } : {}),
    ...(Number(row.tax) > 0 ? { taxTotal: row.tax } : {}),
    ...(company?.activity && /^\d{6}$/.test(company.activity) ? { activityCode: company.activity } : {}),
    ...(row.taxCondition ? { taxCondition: row.taxCondition } : {}),
    ...(row.creditableTax !== null ? { creditableTax: row.creditableTax } : {}),
    ...(row.applicableExpense !== null ? { applicableExpense: row.applicableExpense } : {}),
    total: row.total,
    receiverId: (company?.identification ?? "").replace(/\D/g, ""),
    receiverConsecutivo: buildConsecutivo({ branch, terminal, docType, sequence }),
  });
  // Validated before the counter is touched (decision 070): validity never depends on the number.
  const checked = validateDocument(model(1), opts.schemaSet);
  if (!checked.ok) throw new ProcessError(`El mensaje de receptor no es válido: ${checked.errors.map((e) => e.message).join(" ")}`);
  const number = await takeNextNumber(tx, { companyId: row.companyId, branch, terminal, docType });
  const mr = model(number);
  const signed = await signOffThread(buildXml(mr), key, opts.now);
  await tx
    .update(receivedDocuments)
    .set({
      status: "por enviar",
      branch,
      terminal,
      messageDocType: docType,
      messageNumber: number,
      messageConsecutive: mr.receiverConsecutivo,
      messageIssuedAt: opts.now,
      sendXml: Buffer.from(signed, "utf8"),
      lastError: null,
    })
    .where(eq(receivedDocuments.id, row.id));
  await enqueue(tx, "submit-reception", { companyId: row.companyId, id: row.id }, { runAt: opts.now, uniqueKey: submitReceptionKey(row.id), maxAttempts: 1000 });
}

/**
 * Applies a decision to pending documents of the company. One document: its errors keyed by form
 * field (nothing changes). Several: each gets an outcome; those that can change, change.
 */
export async function processReceptions(db: Db, input: ProcessInput): Promise<ProcessResult> {
  const { companyId, decision, now } = input;
  const ids = [...new Set(input.ids)].filter((id) => Number.isInteger(id) && id > 0);
  if (ids.length === 0) return { ok: false, errors: { _form: RECEPTION_MESSAGES.selectRows } };
  if (!(await categoryOf(db, companyId, decision.expenseCategoryId))) return { ok: false, errors: { expense_category: RECEPTION_MESSAGES.categoryInvalid } };
  if (ids.length > 1 && (decision.creditableTax !== null || decision.applicableExpense !== null)) return { ok: false, errors: { _form: RECEPTION_MESSAGES.amountsForOne } };
  const schemaSet = input.schemaSet ?? appSchemaSet();
  const today = costaRicaDay(now);
  let key: SigningKey | string | undefined;

  const outcomes: ProcessOutcome[] = [];
  for (const id of ids) {
    // The key is needed only when a message can be signed now; resolved outside any transaction.
    const [peek] = await db
      .select({ issuerStatus: receivedDocuments.issuerStatus })
      .from(receivedDocuments)
      .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)));
    if (!peek) {
      if (ids.length === 1) return { ok: false, notFound: true, errors: { _form: RECEPTION_MESSAGES.notFound } };
      outcomes.push({ id, ok: false, message: RECEPTION_MESSAGES.notFound });
      continue;
    }
    if (peek.issuerStatus === "aceptado" && key === undefined) key = await keyOrError(db, input);
    try {
      const status = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(receivedDocuments)
          .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)))
          .for("update");
        if (!row) throw new ProcessError(RECEPTION_MESSAGES.notFound);
        if (row.message !== 4) throw new ProcessError(RECEPTION_MESSAGES.notPending);
        if (row.issuerStatus === "rechazado") throw new ProcessError(RECEPTION_MESSAGES.issuerRejected);
        if (decision.message !== 1 && row.rejectDeadline < today) throw new ProcessError(RECEPTION_MESSAGES.deadlinePassed(formatDate(`${row.rejectDeadline}T12:00:00Z`)));
        const amounts = messageAmounts(decision, { tax: row.tax, total: row.total });
        if (!amounts.ok) {
          const [field, message] = Object.entries(amounts.errors)[0]!;
          throw new ProcessError(message, field);
        }
        const decided = {
          message: decision.message,
          messageDetail: decision.detail,
          expenseCategoryId: decision.expenseCategoryId,
          taxCondition: decision.taxCondition,
          creditableTax: amounts.creditableTax,
          applicableExpense: amounts.applicableExpense,
          processedAt: now,
          processedBy: input.userId,
        };
        if (row.issuerStatus === "aceptado") {
          if (typeof key !== "object") throw new ProcessError(key ?? RECEPTION_MESSAGES.noKey);
          await tx.update(receivedDocuments).set(decided).where(eq(receivedDocuments.id, row.id));
          await prepareMessageInTx(tx, { ...row, ...decided }, key, { now, schemaSet });
          return "por enviar";
        }
        await tx
          .update(receivedDocuments)
          .set({ ...decided, status: "esperando" })
          .where(eq(receivedDocuments.id, row.id));
        await enqueue(tx, "check-reception-issuer", { companyId, id: row.id, attempt: 0 }, { runAt: now, uniqueKey: issuerCheckKey(row.id), maxAttempts: 1000 });
        return "esperando";
      });
      outcomes.push({ id, ok: true, status, message: status === "esperando" ? RECEPTION_MESSAGES.waitingIssuer : RECEPTION_MESSAGES.processed });
    } catch (error) {
      if (!(error instanceof ProcessError)) throw error;
      if (ids.length === 1) return { ok: false, errors: { [error.field]: error.message } };
      outcomes.push({ id, ok: false, message: error.message, field: error.field });
    }
  }
  return { ok: true, outcomes };
}
