// Recurring invoices (spec part 2 §2 "Recurring invoices", §9 cycles; issue 5 item 5;
// docs/decisions/072-recurring-exactly-once.md). A recurring document issues a real document once
// per period: the period's next_send_date advances with a conditional UPDATE in the same
// transaction as the issue, and documents(recurring_id, recurring_period) is unique. Two job
// processes or a crash mid-way can neither duplicate nor lose a period.
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { documentCounters, recurringDocuments } from "../../db/schema/index.ts";
import { recurringOf } from "../../db/queries/recurring.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import type { DocumentDraft, FieldError } from "../domain/document-draft.ts";
import { costaRicaDay } from "../domain/document-status.ts";
import { checkSchedule, nextSendDate, RECURRING_COUNTER, resumedSendDate, scheduledSendDate, type Cycle } from "../domain/recurring.ts";
import { issueDocumentInTx, IssueValidationError, resolveKey, validateForIssue } from "./issue-document.server.ts";
import { companyHacienda } from "./signing-key.server.ts";
import { currentRate } from "./exchange-rate.server.ts";
import { enqueue } from "../../jobs/runner.ts";

export { CYCLES, nextSendDate, type Cycle } from "../domain/recurring.ts";

export interface RecurringInput {
  companyId: number;
  userId: number | null;
  draft: DocumentDraft;
  startDay: string;
  cycle: Cycle;
  every?: number;
  remindPayment?: boolean;
  now: Date;
  schemaSet: CompiledSchemaSet;
}

export type SaveRecurringResult = { ok: true; id: number; number: number | null } | { ok: false; errors: FieldError[] };

/** The schedule's rules and the draft checked as the invoice it will issue (validateForIssue). */
async function checked(db: DbOrTx, input: RecurringInput) {
  const errors = checkSchedule(input);
  const valid = await validateForIssue(db, { companyId: input.companyId, draft: input.draft, now: input.now, schemaSet: input.schemaSet });
  if (!valid.ok) errors.push(...valid.errors);
  return { errors, summary: valid.ok ? valid.summary : null };
}

function storedFields(input: RecurringInput, summary: { subtotal: string; discount: string; tax: string; total: string }) {
  return {
    kind: input.draft.kind,
    clientId: input.draft.clientId ?? null,
    draft: input.draft,
    startDay: input.startDay,
    cycle: input.cycle,
    every: input.every ?? 1,
    remindPayment: !!input.remindPayment,
    currency: input.draft.currency === "USD" ? "USD" : "CRC",
    subtotal: summary.subtotal,
    discount: summary.discount,
    tax: summary.tax,
    total: summary.total,
  };
}

/** The counter row of recurring numbers: the company's branch and terminal, like quotations. */
async function counterKey(db: DbOrTx, companyId: number, now: Date) {
  const hc = await companyHacienda(db, companyId, now);
  return { companyId, branch: hc?.branch ?? 1, terminal: hc?.terminal ?? 1, docType: RECURRING_COUNTER };
}

/** The number the next recurring invoice will probably get (the real one is allocated on save). */
export async function nextRecurringNumber(db: DbOrTx, companyId: number, now: Date): Promise<string> {
  const key = await counterKey(db, companyId, now);
  const [row] = await db
    .select({ next: documentCounters.nextNumber })
    .from(documentCounters)
    .where(and(eq(documentCounters.companyId, companyId), eq(documentCounters.branch, key.branch), eq(documentCounters.terminal, key.terminal), eq(documentCounters.docType, key.docType)));
  return String(Math.max(1, Number(row?.next ?? 1)));
}

/**
 * Stores a new template: validated like the invoice it issues, numbered from the 'fr' counter, first
 * sent on the first period on or after today (a start day in the past issues nothing back-dated).
 */
/**
 * A template due today (created, edited or resumed) is issued by the next jobs pass, not up to 15
 * minutes later: the same job the schedule queues, under its key (so never twice at once).
 */
async function wakeIfDue(tx: DbOrTx, nextSend: string, today: string) {
  if (nextSend <= today) await enqueue(tx, "recurring", {}, { uniqueKey: "schedule:recurring" });
}

export async function createRecurring(db: Db, input: RecurringInput): Promise<SaveRecurringResult> {
  const { errors, summary } = await checked(db, input);
  if (errors.length || !summary) return { ok: false, errors };
  const key = await counterKey(db, input.companyId, input.now);
  const today = costaRicaDay(input.now);
  return db.transaction(async (tx) => {
    const [counter] = await tx
      .insert(documentCounters)
      .values({ ...key, nextNumber: 2 })
      .onConflictDoUpdate({
        target: [documentCounters.companyId, documentCounters.branch, documentCounters.terminal, documentCounters.docType],
        set: { nextNumber: sql`${documentCounters.nextNumber} + 1` },
      })
      .returning({ next: documentCounters.nextNumber });
    const number = counter.next - 1;
    const nextSend = scheduledSendDate({ cycle: input.cycle, every: input.every ?? 1, startDay: input.startDay }, today, null);
    const [row] = await tx
      .insert(recurringDocuments)
      .values({
        companyId: input.companyId,
        createdBy: input.userId,
        number,
        ...storedFields(input, summary),
        nextSendDate: nextSend,
        createdAt: input.now,
      })
      .returning({ id: recurringDocuments.id });
    await wakeIfDue(tx, nextSend, today);
    return { ok: true as const, id: row.id, number };
  });
}

/**
 * Edits a template and its schedule (null: not this company's). A changed start day or cycle moves
 * the next send date to the first period on or after today and after the last one sent; an
 * unchanged schedule keeps it.
 */
export async function updateRecurring(db: Db, input: RecurringInput & { id: number }): Promise<SaveRecurringResult | null> {
  const current = await recurringOf(db, { companyId: input.companyId, id: input.id });
  if (!current) return null;
  const { errors, summary } = await checked(db, input);
  if (errors.length || !summary) return { ok: false, errors };
  const today = costaRicaDay(input.now);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(recurringDocuments)
      .where(and(eq(recurringDocuments.id, input.id), eq(recurringDocuments.companyId, input.companyId), isNull(recurringDocuments.deletedAt)))
      .for("update");
    if (!row) return null;
    const every = input.every ?? 1;
    const same = row.startDay === input.startDay && row.cycle === input.cycle && row.every === every;
    const next = same ? row.nextSendDate : scheduledSendDate({ cycle: input.cycle, every, startDay: input.startDay }, today, row.lastSentDate);
    await tx
      .update(recurringDocuments)
      .set({ ...storedFields(input, summary), nextSendDate: next, lastError: null, updatedAt: input.now })
      .where(eq(recurringDocuments.id, row.id));
    await wakeIfDue(tx, next, today);
    return { ok: true as const, id: row.id, number: row.number };
  });
}

/**
 * Pause/resume; returns the new paused flag (null when not found in this company). Resuming moves a
 * next send date already past to the first period on or after today: the periods missed while
 * paused are skipped, not issued in a burst (decision 091).
 */
export async function setRecurringPaused(db: Db, companyId: number, id: number, paused: boolean, now: Date): Promise<boolean | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(recurringDocuments)
      .where(and(eq(recurringDocuments.id, id), eq(recurringDocuments.companyId, companyId), isNull(recurringDocuments.deletedAt)))
      .for("update");
    if (!row) return null;
    const nextSend = paused ? row.nextSendDate : resumedSendDate({ nextSendDate: row.nextSendDate, cycle: row.cycle as Cycle, every: row.every, startDay: row.startDay }, costaRicaDay(now));
    const [updated] = await tx.update(recurringDocuments).set({ paused, nextSendDate: nextSend, updatedAt: now }).where(eq(recurringDocuments.id, row.id)).returning({ paused: recurringDocuments.paused });
    if (!paused) await wakeIfDue(tx, nextSend, costaRicaDay(now));
    return updated.paused;
  });
}

/** Deletes a template (soft: the invoices it issued keep their recurring_id); false when not found. */
export async function deleteRecurring(db: DbOrTx, companyId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(recurringDocuments)
    .set({ deletedAt: now })
    .where(and(eq(recurringDocuments.id, id), eq(recurringDocuments.companyId, companyId), isNull(recurringDocuments.deletedAt)))
    .returning({ id: recurringDocuments.id });
  return rows.length > 0;
}

export interface RunRecurringOptions {
  now: Date;
  schemaSet: CompiledSchemaSet;
  keyFor?: (companyId: number) => Promise<SigningKey>;
  /** Test hook: called inside the transaction after the issue, before commit (to simulate a crash). */
  beforeCommit?: (recurringId: number) => void | Promise<void>;
}

/**
 * Issues every due period (next_send_date ≤ today in Costa Rica) once. The next send date moves
 * to the first cycle date after today: a long pause does not produce a burst of back-dated invoices.
 */
export async function runDueRecurring(db: Db, opts: RunRecurringOptions): Promise<{ issued: number[]; skipped: number; failed: number }> {
  const today = costaRicaDay(opts.now);
  const due = await db
    .select()
    .from(recurringDocuments)
    .where(and(eq(recurringDocuments.paused, false), isNull(recurringDocuments.deletedAt), lte(recurringDocuments.nextSendDate, today)))
    .orderBy(recurringDocuments.nextSendDate)
    .limit(200);
  const issued: number[] = [];
  let skipped = 0;
  let failed = 0;
  for (const r of due) {
    // The template's payment-reminder checkbox goes on every invoice it issues.
    const template: DocumentDraft = { ...(r.draft as DocumentDraft), remindPayment: r.remindPayment };
    const period = r.nextSendDate;
    let next = nextSendDate(period, r.cycle as Cycle, r.every, r.startDay);
    while (next <= today) next = nextSendDate(next, r.cycle as Cycle, r.every, r.startDay);
    try {
      // A dollar invoice carries the day's exchange rate, not the one of the day the template was saved.
      const draft = template.currency === "USD" ? { ...template, exchangeRate: await dayRate(db, opts.now) } : template;
      const key = await resolveKey(db, { companyId: r.companyId, draft, now: opts.now, keyFor: opts.keyFor });
      const id = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(recurringDocuments)
          .set({ nextSendDate: next, lastSentDate: period, lastError: null })
          .where(and(eq(recurringDocuments.id, r.id), eq(recurringDocuments.nextSendDate, period), eq(recurringDocuments.paused, false)))
          .returning({ id: recurringDocuments.id });
        if (!claimed) return null; // another process took this period
        const result = await issueDocumentInTx(tx, { companyId: r.companyId, userId: r.createdBy, draft, now: opts.now, schemaSet: opts.schemaSet, recurring: { id: r.id, period } }, key);
        await opts.beforeCommit?.(r.id);
        return result.documentId;
      });
      if (id === null) skipped++;
      else issued.push(id);
    } catch (error) {
      failed++;
      const message = error instanceof IssueValidationError ? error.errors.map((e) => e.message).join(" ") : (error as Error).message;
      await db
        .update(recurringDocuments)
        .set({ lastError: message.slice(0, 1000) })
        .where(eq(recurringDocuments.id, r.id));
      if (!(error instanceof IssueValidationError) && !isUniqueViolation(error) && !/simulated crash/.test(message)) console.error(`[recurring] ${r.id}: ${message}`);
    }
  }
  return { issued, skipped, failed };
}

/** The dollar rate to issue with now; none known is an error of this period (retried next pass). */
async function dayRate(db: Db, now: Date): Promise<string> {
  const rate = await currentRate(db, { currency: "USD", now });
  if (!rate.ok) throw new IssueValidationError([{ field: "exchangeRate", message: rate.message }]);
  return rate.rate;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}


