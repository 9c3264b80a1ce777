// The next number of a company's counter (company, branch, terminal, document type): one statement,
// "insert at 1 if missing" and UPDATE … RETURNING in one, never max()+1. Called inside the
// transaction that stores the numbered document: the row lock lasts until commit, so numbers are
// gapless under concurrency and a rollback gives the number back (docs/decisions/070). Issued
// documents and the MensajeReceptor of received documents both take their numbers here.
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { documentCounters } from "../../db/schema/index.ts";

export type CounterKey = { companyId: number; branch: number; terminal: number; docType: string };

const counterOf = (k: CounterKey) =>
  and(eq(documentCounters.companyId, k.companyId), eq(documentCounters.branch, k.branch), eq(documentCounters.terminal, k.terminal), eq(documentCounters.docType, k.docType));

export async function takeNextNumber(tx: Tx, key: CounterKey): Promise<number> {
  const [counter] = await tx
    .insert(documentCounters)
    .values({ ...key, nextNumber: 2 })
    .onConflictDoUpdate({
      target: [documentCounters.companyId, documentCounters.branch, documentCounters.terminal, documentCounters.docType],
      set: { nextNumber: sql`${documentCounters.nextNumber} + 1` },
    })
    .returning({ next: documentCounters.nextNumber });
  return counter.next - 1;
}

/**
 * A number the caller chose (an integrator's, modo_consecutive_api): taken only when it is exactly the
 * counter's next one (a conditional UPDATE, which a concurrent request with the same number re-checks
 * after the first commits); otherwise the counter's next number, to say whether it was used or leaves a gap.
 */
export async function takeGivenNumber(tx: Tx, k: CounterKey, sequence: number): Promise<{ ok: true } | { ok: false; next: number }> {
  const [taken] = await tx
    .update(documentCounters)
    .set({ nextNumber: sql`${documentCounters.nextNumber} + 1` })
    .where(and(counterOf(k), eq(documentCounters.nextNumber, sequence)))
    .returning({ next: documentCounters.nextNumber });
  if (taken) return { ok: true };
  const [row] = await tx.select({ next: documentCounters.nextNumber }).from(documentCounters).where(counterOf(k));
  if (!row && sequence === 1) {
    // No counter yet: the first number creates it (a concurrent first waits here, then finds 1 used).
    const [created] = await tx.insert(documentCounters).values({ ...k, nextNumber: 2 }).onConflictDoNothing().returning({ next: documentCounters.nextNumber });
    if (created) return { ok: true };
    return takeGivenNumber(tx, k, sequence);
  }
  return { ok: false, next: row?.next ?? 1 };
}
