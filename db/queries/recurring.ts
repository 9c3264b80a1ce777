// Recurring invoices of one company (the /recurrings list and the template screens). Tenancy: every
// query is bounded by companyId; deleted templates are never returned.
import { and, count, desc, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { clients, recurringDocuments } from "../schema/index.ts";

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One template of the company (null when missing, deleted or another company's). */
export async function recurringOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [r] = await db
    .select()
    .from(recurringDocuments)
    .where(and(eq(recurringDocuments.companyId, companyId), eq(recurringDocuments.id, id), isNull(recurringDocuments.deletedAt)));
  return r ?? null;
}

/** A page of templates, newest first, searched by number or client name and identification. */
export async function recurringList(db: DbOrTx, q: { companyId: number; search?: string; page: number; perPage: number }) {
  const where: SQL[] = [eq(recurringDocuments.companyId, q.companyId), isNull(recurringDocuments.deletedAt)];
  const search = (q.search ?? "").trim();
  if (search) {
    const like = `%${escapeLike(search)}%`;
    where.push(or(ilike(sql<string>`cast(${recurringDocuments.number} as text)`, like), ilike(clients.name, like), ilike(clients.identification, like))!);
  }
  const clientJoin = and(eq(clients.id, recurringDocuments.clientId), eq(clients.companyId, recurringDocuments.companyId));
  const rows = await db
    .select({
      id: recurringDocuments.id,
      number: recurringDocuments.number,
      clientId: recurringDocuments.clientId,
      clientName: clients.name,
      clientDeleted: sql<boolean>`(${clients.deletedAt} is not null)`,
      currency: recurringDocuments.currency,
      subtotal: recurringDocuments.subtotal,
      discount: recurringDocuments.discount,
      tax: recurringDocuments.tax,
      total: recurringDocuments.total,
      createdAt: recurringDocuments.createdAt,
      startDay: recurringDocuments.startDay,
      cycle: recurringDocuments.cycle,
      every: recurringDocuments.every,
      lastSentDate: recurringDocuments.lastSentDate,
      nextSendDate: recurringDocuments.nextSendDate,
      paused: recurringDocuments.paused,
      lastError: recurringDocuments.lastError,
    })
    .from(recurringDocuments)
    .leftJoin(clients, clientJoin)
    .where(and(...where))
    .orderBy(desc(recurringDocuments.createdAt), desc(recurringDocuments.id))
    .limit(q.perPage)
    .offset((Math.max(1, q.page) - 1) * q.perPage);
  const [{ n }] = await db
    .select({ n: count() })
    .from(recurringDocuments)
    .leftJoin(clients, clientJoin)
    .where(and(...where));
  return { rows, total: Number(n) };
}
