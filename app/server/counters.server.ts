// The next number of a company's counter (company, branch, terminal, document type): one statement,
// "insert at 1 if missing" and UPDATE … RETURNING in one, never max()+1. Called inside the
// transaction that stores the numbered document: the row lock lasts until commit, so numbers are
// gapless under concurrency and a rollback gives the number back (docs/decisions/070). Issued
// documents and the MensajeReceptor of received documents both take their numbers here.
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { documentCounters } from "../../db/schema/index.ts";

export async function takeNextNumber(tx: Tx, key: { companyId: number; branch: number; terminal: number; docType: string }): Promise<number> {
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
