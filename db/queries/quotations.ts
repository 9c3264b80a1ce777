// Quotation reads: the invoice each quotation was converted into (documents.quotation_id, unique).
// Every function takes companyId.
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { documents } from "../schema/index.ts";

/** quotation id → the id of the invoice it was converted into (absent: not converted). */
export async function invoicesOfQuotations(db: DbOrTx, { companyId, quotationIds }: { companyId: number; quotationIds: number[] }): Promise<Map<number, number>> {
  if (!quotationIds.length) return new Map();
  const rows = await db
    .select({ id: documents.id, quotationId: documents.quotationId })
    .from(documents)
    .where(and(eq(documents.companyId, companyId), inArray(documents.quotationId, quotationIds)));
  return new Map(rows.map((r) => [r.quotationId!, r.id]));
}

export async function invoiceOfQuotation(db: DbOrTx, { companyId, quotationId }: { companyId: number; quotationId: number }): Promise<number | null> {
  return (await invoicesOfQuotations(db, { companyId, quotationIds: [quotationId] })).get(quotationId) ?? null;
}
