// Document lists of the screens (/invoices, /tickets, /notes, /simples and the detail viewer's left
// list): one company, some kinds, an optional text search and an optional filter, newest first.
// Tenancy: every query is bounded by companyId.
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { documentReferences, documents } from "../schema/index.ts";
import { clientSearchWords } from "./clients.ts";

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
  /** Rows counted past the page (default COUNT_AHEAD). */
  countAhead?: number;
}

/** The expression of the GIN index documents_search_words_idx (db/schema/documents.ts). */
const searchWords = sql`to_tsvector('simple'::regconfig, translate(lower(coalesce(${documents.clientSnapshot}->>'name', '') || ' ' || coalesce(${documents.clientSnapshot}->>'idNumber', '') || ' ' || coalesce(${documents.consecutivo}, '') || ' ' || coalesce(${documents.number}::text, '') || ' ' || coalesce(${documents.clave}, '') || ' ' || ${documents.status}), 'áéíóúüñàèìòù@.', 'aeiouunaeiou  '))`;

/**
 * Rows counted past the current page. Beyond it the total is "at least" (totalCapped): counting
 * every one of a million invoices on each page view costs more than the page itself
 * (docs/decisions/092).
 */
export const COUNT_AHEAD = 10_000;

/**
 * A page of documents, newest first, and their total. The search matches, for every searched word,
 * a word of the client's name or of the status starting with it (ignoring case and accents), or a
 * number equal to it: the client's identification, the consecutive, the counter number or the
 * clave (GIN index documents_search_words_idx, docs/decisions/092).
 * The total is exact up to COUNT_AHEAD rows past the page; beyond, `totalCapped` is true and the
 * total is a lower bound.
 */
export async function documentList(db: DbOrTx, q: DocumentListRequest) {
  const where: SQL[] = [eq(documents.companyId, q.companyId), inArray(documents.kind, q.kinds)];
  const words = clientSearchWords(q.search ?? "");
  if ((q.search ?? "").trim()) {
    // A search with no letters or digits matches nothing rather than everything.
    // Words with letters match as prefixes ("rodr" finds Rodríguez); numbers (consecutive, clave,
    // counter number, identification) only whole: a prefix such as "5" would match every clave.
    const query = words.map((w) => (/^[0-9]+$/.test(w) ? w : `${w}:*`)).join(" & ");
    where.push(words.length ? sql`${searchWords} @@ to_tsquery('simple'::regconfig, ${query})` : sql`false`);
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
  const offset = (Math.max(1, q.page) - 1) * perPage;
  const cap = offset + perPage + (q.countAhead ?? COUNT_AHEAD);
  const [rows, [{ n }]] = await Promise.all([
    db
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
        total: documents.totalComprobante,
        paymentAmount: documents.paymentAmount,
        creditNoteTotal: documents.creditNoteTotal,
      })
      .from(documents)
      .where(and(...where))
      .orderBy(desc(documents.issuedAt), desc(documents.id))
      .limit(perPage)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(db.select({ one: sql`1`.as("one") }).from(documents).where(and(...where)).limit(cap + 1).as("capped")),
  ]);
  const counted = Number(n);
  return { rows, total: Math.min(counted, cap), totalCapped: counted > cap };
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
  recurring: ["fe"],
};

/** The detail-viewer type of a document kind. */
export function detailTypeOf(kind: string): string {
  return ({ qt: "quotation", fe: "invoice", te: "ticket", nc: "note", nd: "note", fec: "simple" } as Record<string, string>)[kind] ?? "invoice";
}
