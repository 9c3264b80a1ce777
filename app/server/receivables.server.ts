// Credit and debit notes lower or raise what is due on the document they reference
// (app/domain/receivables.ts, docs/decisions/160). A note counts once it is final: when Hacienda
// accepts it (applyHaciendaAnswer), or at issue for a company that does not send to Hacienda
// (status 'no aplica'). Runs inside the caller's transaction; tenancy: the note's company only.
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { documentReferences, documents } from "../../db/schema/index.ts";
import { noteAmountIn } from "../domain/receivables.ts";

/** Adds a final credit (nc) or debit (nd) note's total to the documents it references. */
export async function applyNoteToReferenced(tx: DbOrTx, { companyId, noteId }: { companyId: number; noteId: number }): Promise<void> {
  const [note] = await tx
    .select({ kind: documents.kind, currencyId: documents.currencyId, exchangeRate: documents.exchangeRate, total: documents.totalComprobante })
    .from(documents)
    .where(and(eq(documents.id, noteId), eq(documents.companyId, companyId)));
  if (!note || (note.kind !== "nc" && note.kind !== "nd")) return;
  const targets = await tx
    .select({ id: documents.id, currencyId: documents.currencyId, exchangeRate: documents.exchangeRate })
    .from(documentReferences)
    .innerJoin(documents, and(eq(documents.id, documentReferences.referencedDocumentId), eq(documents.companyId, companyId)))
    .where(and(eq(documentReferences.documentId, noteId), eq(documentReferences.companyId, companyId)));
  const column = note.kind === "nc" ? documents.creditNoteTotal : documents.debitNoteTotal;
  for (const t of targets) {
    const amount = noteAmountIn(t, note);
    await tx
      .update(documents)
      .set(note.kind === "nc" ? { creditNoteTotal: sql`${column} + ${amount}` } : { debitNoteTotal: sql`${column} + ${amount}` })
      .where(and(eq(documents.id, t.id), eq(documents.companyId, companyId)));
  }
}
