// Document lists of the screens (/invoices, /tickets, /notes, /simples and the detail viewer's left
// list): one company, some kinds, an optional text search and an optional filter, newest first.
// Tenancy: every query is bounded by companyId.
import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { clients, documentCounts, documentReferences, documents, OWING_PREDICATE } from "../schema/index.ts";
import { clientSearchWords } from "./clients.ts";
import { builtOnce } from "./built-once.ts";
import { cappedTotal, countCap, countLimit, pageWindow, pageWithTotal, writtenLimit, type PageWindow } from "./paging.ts";

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
  /** Only this client's documents (the client detail's tabs). */
  clientId?: number | null;
}

/**
 * Rows counted past the current page. Beyond it the total is "at least" (totalCapped): counting
 * every one of a million invoices on each page view costs more than the page itself
 * (docs/decisions/092).
 */
export const COUNT_AHEAD = 10_000;

/**
 * Rows counted past the page of a search. A search is counted in issue order, testing each
 * document's stored words (documents.search_words), so a word on many documents costs only the
 * rows up to the cap; ten pages ahead is as far as anyone pages through search results
 * (docs/decisions/098).
 */
export const SEARCH_COUNT_AHEAD = 100;

/**
 * A page of documents, newest first, and their total. The search matches, for every searched word,
 * a word of the client's name or of the status, or a number equal to it: the client's
 * identification, the consecutive, the counter number or the clave (ignoring case and accents; GIN
 * index documents_search_words_idx, docs/decisions/092). Whole words are tried first; only when
 * they match nothing do words with letters match as beginnings ("rodr" finds Rodríguez) — a
 * beginning costs the index every document of every company with such a word, a whole word only
 * the rarest one's. Numbers always match whole: a beginning such as "5" would match every clave.
 * The total is exact up to COUNT_AHEAD rows past the page (SEARCH_COUNT_AHEAD for a search);
 * beyond, `totalCapped` is true and the total is a lower bound.
 */
export async function documentList(db: DbOrTx, q: DocumentListRequest) {
  // Deleted quotations are gone from every list.
  const where: SQL[] = [eq(documents.companyId, q.companyId), inArray(documents.kind, q.kinds), isNull(documents.deletedAt)];
  if (q.clientId) where.push(eq(documents.clientId, q.clientId));
  switch (q.filter) {
    case "aceptado":
    case "rechazado":
      where.push(eq(documents.status, q.filter));
      break;
    // Nothing due / something due (app/domain/receivables.ts), as the partial indexes state it.
    case "pagado":
      where.push(sql.raw(`not (${OWING_PREDICATE})`));
      break;
    case "no-pagado":
      where.push(sql.raw(OWING_PREDICATE));
      break;
    case "nc":
    case "nd":
      where.push(eq(documents.kind, q.filter));
      break;
  }
  if (!(q.search ?? "").trim()) return listPage(db, q, where, { live: !q.filter && !q.clientId });
  const words = clientSearchWords(q.search ?? "");
  // A search with no letters or digits matches nothing rather than everything.
  if (!words.length) return listPage(db, q, [...where, sql`false`]);
  const search = { ...q, countAhead: q.countAhead ?? SEARCH_COUNT_AHEAD };
  const whole = await listPage(db, search, [...where, documentWordsMatch(words, "whole")], { inOrder: true });
  if (whole.total > 0 || words.every((w) => /^[0-9]+$/.test(w))) return whole;
  return listPage(db, search, [...where, documentWordsMatch(words, "beginnings")], { inOrder: true });
}

/**
 * The documents whose stored words (documents.search_words) hold every searched word: whole words,
 * or, with "beginnings", words with letters as beginnings ("rodr" finds Rodríguez) — numbers always
 * whole. `words` come from clientSearchWords (accent-folded, lower case, letters and digits only);
 * `alias`: the documents table's alias in a hand-written query.
 */
export function documentWordsMatch(words: string[], mode: "whole" | "beginnings", alias?: string): SQL {
  const query = mode === "whole" ? words.join(" & ") : words.map((w) => (/^[0-9]+$/.test(w) ? w : `${w}:*`)).join(" & ");
  const column = alias ? sql.raw(`${alias}.search_words`) : documents.searchWords;
  return sql`${column} @@ to_tsquery('simple'::regconfig, ${query})`;
}

/**
 * A page and its capped count. A search's count takes the rows in list order, like the page, so
 * the planner can walk the list index and stop at the cap instead of gathering every match first
 * (`inOrder`). A list of every live document of its kinds (`live`: no search, filter or client)
 * reads its count from document_counts, a row per kind kept by the database (docs/decisions/200),
 * and caps it the same way.
 */
async function listPage(db: DbOrTx, q: DocumentListRequest, where: SQL[], { inOrder = false, live = false } = {}) {
  const perPage = q.perPage;
  const cap = countCap(q.page, perPage, q.countAhead ?? COUNT_AHEAD);
  const counted = db.select({ one: sql`1`.as("one") }).from(documents).where(and(...where));
  // The live list's rows carry its count (liveTotal): the count is read only when the page is empty.
  let liveTotal: number | undefined;
  const result = await pageWithTotal({
    page: q.page,
    perPage,
    rows: async (limit, at) => {
      if (!live) return withClientLinks(db, pageQuery(db).where(and(...where)).orderBy(desc(documents.issuedAt), desc(documents.id)).limit(writtenLimit(limit)).offset(at)).orderBy(...NEWEST_FIRST);
      const rows = await plainPage(db, q.kinds, pageWindow(limit, at)).execute({ companyId: q.companyId, limit, offset: at });
      if (rows.length) liveTotal = Number(rows[0].liveTotal ?? 0);
      return rows.map(({ liveTotal: _, ...row }) => row);
    },
    count: async () => {
      if (live) return liveTotal ?? liveDocuments(db, q.companyId, q.kinds);
      const [{ n }] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from((inOrder ? counted.orderBy(desc(documents.issuedAt), desc(documents.id)) : counted).limit(countLimit(q.page, cap)).as("capped"));
      return Number(n);
    },
  });
  return { rows: result.rows, ...cappedTotal(result.total, cap) };
}

/** The company's live documents of these kinds (document_counts). */
async function liveDocuments(db: DbOrTx, companyId: number, kinds: string[]): Promise<number> {
  const [{ n }] = await plainCount(db, kinds).execute({ companyId });
  return Number(n ?? 0);
}

/** The columns of a document list's page, read first (`p`, below). */
const PAGE_COLUMNS = {
  id: documents.id,
  kind: documents.kind,
  number: documents.number,
  consecutivo: documents.consecutivo,
  clave: documents.clave,
  controlNumber: documents.controlNumber,
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
  debitNoteTotal: documents.debitNoteTotal,
  remindersSent: documents.remindersSent,
  companyId: documents.companyId,
};

type PageQuery = ReturnType<typeof pageQuery>;
const pageQuery = (db: DbOrTx) => db.select(PAGE_COLUMNS).from(documents).$dynamic();

/**
 * A page's rows with whether each one's client may be linked to client-detail (`clientLinkable`: a
 * live client of the company, not the generic one), in the page's own statement. The page is cut
 * first (`p`) and its few rows joined to their clients by primary key: joined before the limit, the
 * rows an offset skips were joined too, and an `exists` among the columns became a hashed subplan
 * over every client of the company at 1,000,000 documents (docs/decisions/200, 203).
 */
function withClientLinks<Extra extends Record<string, SQL.Aliased | SQL>>(db: DbOrTx, page: PageQuery, extra?: Extra) {
  const p = page.as("p");
  const { companyId: _, ...columns } = Object.fromEntries(Object.keys(PAGE_COLUMNS).map((k) => [k, p[k as keyof typeof PAGE_COLUMNS]])) as { [K in keyof typeof PAGE_COLUMNS]: (typeof p)[K] };
  return db
    .select({ ...columns, clientLinkable: sql<boolean>`${clients.id} is not null`.mapWith(Boolean), ...(extra ?? ({} as Extra)) })
    .from(p)
    .leftJoin(clients, and(eq(clients.id, p.clientId), eq(clients.companyId, p.companyId), isNull(clients.deletedAt), eq(clients.generic, false)))
    .$dynamic();
}

const NEWEST_FIRST = [sql`"p"."issued_at" desc`, sql`"p"."id" desc`];

/**
 * A list of every live document of its kinds — the page each list opens on — built once per
 * database, kinds and window (paging.ts), as the session's lookup is (docs/decisions/157, 202): its
 * page with its clients' links and its count from document_counts on every row (`liveTotal`,
 * docs/decisions/203), run with the company as a parameter. drizzle would otherwise build the same
 * SQL text again on every view.
 */
const plainPage = (db: DbOrTx, kinds: string[], window: PageWindow) =>
  builtOnce(db, `document_list_${kinds.join("_")}${window.key}`, () =>
    withClientLinks(
      db,
      pageQuery(db)
        .where(and(eq(documents.companyId, sql.placeholder("companyId")), inArray(documents.kind, kinds), isNull(documents.deletedAt)))
        .orderBy(desc(documents.issuedAt), desc(documents.id))
        .limit(window.limit)
        .offset(window.offset!),
      { liveTotal: sql<string | null>`(select sum(${documentCounts.documents}) from ${documentCounts} where ${liveCounts(kinds)})` },
    )
      .orderBy(...NEWEST_FIRST)
      .prepare(`document_list_${kinds.join("_")}`),
  );

/** The live documents of these kinds as document_counts keeps them, for a page past the end; built once. */
const plainCount = (db: DbOrTx, kinds: string[]) =>
  builtOnce(db, `document_count_${kinds.join("_")}`, () =>
    db.select({ n: sql<string | null>`sum(${documentCounts.documents})` }).from(documentCounts).where(liveCounts(kinds)).prepare(`document_count_${kinds.join("_")}`),
  );

const liveCounts = (kinds: string[]) => and(eq(documentCounts.companyId, sql.placeholder("companyId")), inArray(documentCounts.kind, kinds));

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
