// Document lists of the screens (/invoices, /tickets, /notes, /simples and the detail viewer's left
// list): one company, some kinds, an optional text search and an optional filter, newest first.
// Tenancy: every query is bounded by companyId.
import { and, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { documentReferences, documents } from "../schema/index.ts";

/** Filters of spec part 2 §2 (lists): Hacienda status, payment state and note kind. */
export type DocumentListFilter = "aceptado" | "rechazado" | "pagado" | "no-pagado" | "nc" | "nd";

export const DOCUMENT_LIST_FILTERS: readonly DocumentListFilter[] = ["aceptado", "rechazado", "pagado", "no-pagado", "nc", "nd"];

export interface DocumentListRequest {
  companyId: number;
  kinds: string[];
  search?: string;
  filter?: DocumentListFilter | null;
  page: number;
  perPage: number;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function documentList(db: DbOrTx, q: DocumentListRequest) {
  // Deleted quotations are gone from every list.
  const where: SQL[] = [eq(documents.companyId, q.companyId), inArray(documents.kind, q.kinds), isNull(documents.deletedAt)];
  const search = (q.search ?? "").trim();
  if (search) {
    const like = `%${escapeLike(search)}%`;
    where.push(
      or(
        ilike(documents.consecutivo, like),
        ilike(documents.clave, like),
        ilike(sql<string>`cast(${documents.number} as text)`, like),
        ilike(sql<string>`${documents.clientSnapshot}->>'name'`, like),
        ilike(sql<string>`${documents.clientSnapshot}->>'idNumber'`, like),
        ilike(documents.status, like),
      )!,
    );
  }
  switch (q.filter) {
    case "aceptado":
    case "rechazado":
      where.push(eq(documents.status, q.filter));
      break;
    case "pagado":
      where.push(sql`${documents.paymentAmount} >= ${documents.totalComprobante}`);
      break;
    case "no-pagado":
      where.push(sql`${documents.paymentAmount} < ${documents.totalComprobante}`);
      break;
    case "nc":
    case "nd":
      where.push(eq(documents.kind, q.filter));
      break;
  }
  const perPage = q.perPage;
  const rows = await db
    .select({
      id: documents.id,
      kind: documents.kind,
      number: documents.number,
      consecutivo: documents.consecutivo,
      clave: documents.clave,
      status: documents.status,
      issuedAt: documents.issuedAt,
      expirationDate: documents.expirationDate,
      clientId: documents.clientId,
      clientSnapshot: documents.clientSnapshot,
      currencyId: documents.currencyId,
      subtotal: documents.subtotal,
      discount: documents.discount,
      tax: documents.tax,
      total: documents.totalComprobante,
      paymentAmount: documents.paymentAmount,
      creditNoteTotal: documents.creditNoteTotal,
    })
    .from(documents)
    .where(and(...where))
    .orderBy(desc(documents.issuedAt), desc(documents.id))
    .limit(perPage)
    .offset((Math.max(1, q.page) - 1) * perPage);
  const [{ n }] = await db
    .select({ n: count() })
    .from(documents)
    .where(and(...where));
  return { rows, total: Number(n) };
}

/** For notes: the document each one belongs to (its first reference), by note id. */
export async function noteParents(db: DbOrTx, { companyId, noteIds }: { companyId: number; noteIds: number[] }) {
  if (!noteIds.length) return new Map<number, { id: number | null; kind: string | null; number: string | null }>();
  const rows = await db
    .select({
      noteId: documentReferences.documentId,
      referencedId: documentReferences.referencedDocumentId,
      number: documentReferences.number,
      kind: documents.kind,
      consecutivo: documents.consecutivo,
    })
    .from(documentReferences)
    .leftJoin(documents, and(eq(documents.id, documentReferences.referencedDocumentId), eq(documents.companyId, companyId)))
    .where(and(eq(documentReferences.companyId, companyId), inArray(documentReferences.documentId, noteIds)));
  const out = new Map<number, { id: number | null; kind: string | null; number: string | null }>();
  for (const r of rows) {
    if (out.has(r.noteId)) continue;
    out.set(r.noteId, { id: r.kind ? r.referencedId : null, kind: r.kind, number: r.consecutivo ?? r.number });
  }
  return out;
}

/** Detail-viewer types (URL) and the document kinds each lists. */
export const DETAIL_TYPE_KINDS: Record<string, string[]> = {
  quotation: ["qt"],
  invoice: ["fe"],
  ticket: ["te"],
  note: ["nc", "nd"],
  simple: ["fec"],
};

/** The detail-viewer type of a document kind. */
export function detailTypeOf(kind: string): string {
  return ({ qt: "quotation", fe: "invoice", te: "ticket", nc: "note", nd: "note", fec: "simple" } as Record<string, string>)[kind] ?? "invoice";
}
