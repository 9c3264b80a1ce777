// Quotation reads: the invoice each quotation was converted into (documents.quotation_id, unique).
// Every function takes companyId.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { clients, documents } from "../schema/index.ts";

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

/** Of these client ids, the ones still live in the company (a deleted client is not linked). */
export async function liveClientIds(db: DbOrTx, { companyId, ids }: { companyId: number; ids: number[] }): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.companyId, companyId), inArray(clients.id, ids), isNull(clients.deletedAt)));
  return new Set(rows.map((r) => r.id));
}
