// Recurring invoices (spec part 2 §2 "Recurring invoices", §9 cycles; issue 5 item 5;
// docs/decisions/072-recurring-exactly-once.md). A recurring document issues a real document once
// per period: the period's next_send_date advances with a conditional UPDATE in the same
// transaction as the issue, and documents(recurring_id, recurring_period) is unique. Two job
// processes or a crash mid-way can neither duplicate nor lose a period.
import { and, eq, isNull, lte } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { recurringDocuments } from "../../db/schema/index.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import { checkDraft, type DocumentDraft, type FieldError } from "../domain/document-draft.ts";
import { addDays, costaRicaDay } from "../domain/document-status.ts";
import { issueDocumentInTx, IssueValidationError, resolveKey } from "./issue-document.server.ts";

export type Cycle = "weekly" | "biweekly" | "monthly" | "quarterly" | "yearly" | "days" | "weeks" | "months" | "years";
export const CYCLES: readonly Cycle[] = ["weekly", "biweekly", "monthly", "quarterly", "yearly", "days", "weeks", "months", "years"];

function addMonths(anchor: string, from: string, months: number): string {
  const [fy, fm] = from.split("-").map(Number);
  const day = Number(anchor.slice(8, 10));
  const total = fy * 12 + (fm - 1) + months;
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${y}-${String(m).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
}

/** The send date after `from` (YYYY-MM-DD); month cycles keep the start day's day of month (clamped). */
export function nextSendDate(from: string, cycle: Cycle, every: number, startDay: string): string {
  const n = Math.max(1, Math.floor(every || 1));
  switch (cycle) {
    case "weekly":
      return addDays(from, 7);
    case "biweekly":
      return addDays(from, 15);
    case "days":
      return addDays(from, n);
    case "weeks":
      return addDays(from, 7 * n);
    case "monthly":
      return addMonths(startDay, from, 1);
    case "quarterly":
      return addMonths(startDay, from, 3);
    case "months":
      return addMonths(startDay, from, n);
    case "yearly":
      return addMonths(startDay, from, 12);
    case "years":
      return addMonths(startDay, from, 12 * n);
  }
}

export interface RecurringInput {
  companyId: number;
  userId: number | null;
  draft: DocumentDraft;
  startDay: string;
  cycle: Cycle;
  every?: number;
}

export async function createRecurring(db: DbOrTx, input: RecurringInput): Promise<{ ok: true; id: number } | { ok: false; errors: FieldError[] }> {
  const errors = checkDraft(input.draft);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.startDay)) errors.push({ field: "startDay", message: "Indique la fecha de inicio." });
  if (!CYCLES.includes(input.cycle)) errors.push({ field: "cycle", message: "Indique el ciclo." });
  if (input.every !== undefined && !(Number.isInteger(input.every) && input.every >= 1)) errors.push({ field: "every", message: "El ciclo debe ser un número entero mayor o igual a 1." });
  if (errors.length) return { ok: false, errors };
  const [row] = await db
    .insert(recurringDocuments)
    .values({
      companyId: input.companyId,
      kind: input.draft.kind,
      clientId: input.draft.clientId ?? null,
      createdBy: input.userId,
      draft: input.draft,
      startDay: input.startDay,
      cycle: input.cycle,
      every: input.every ?? 1,
      nextSendDate: input.startDay,
    })
    .returning({ id: recurringDocuments.id });
  return { ok: true, id: row.id };
}

/** Pause/resume; returns the new paused flag (null when not found in this company). */
export async function setRecurringPaused(db: DbOrTx, companyId: number, id: number, paused: boolean): Promise<boolean | null> {
  const [row] = await db
    .update(recurringDocuments)
    .set({ paused })
    .where(and(eq(recurringDocuments.id, id), eq(recurringDocuments.companyId, companyId), isNull(recurringDocuments.deletedAt)))
    .returning({ paused: recurringDocuments.paused });
  return row ? row.paused : null;
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
    const draft = r.draft as DocumentDraft;
    const period = r.nextSendDate;
    let next = nextSendDate(period, r.cycle as Cycle, r.every, r.startDay);
    while (next <= today) next = nextSendDate(next, r.cycle as Cycle, r.every, r.startDay);
    try {
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

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}


