// Received documents and expense categories of a company (issue 12; docs/decisions/170–176). Every
// query is bounded by companyId. The list reads a month of one company newest first from the index
// (company_id, issued_at, id). Without a filter or search (the list as it opens) its total is the sum
// of the range's days in reception_days, kept by the database and read with the page's rows, as the
// expenses list reads expense_counts; a filter or a search counts only up to a cap, like the document
// lists (decision 092).
import { and, asc, desc, eq, gte, inArray, lt, sql, type Placeholder, type SQL } from "drizzle-orm";
import { rows as rawRows, type DbOrTx } from "../client.ts";
import { expenseCategories, receivedDocuments, receptionDays, receptionMailboxes, receptionSettings } from "../schema/index.ts";
import { clientSearchWords } from "./clients.ts";
import type { ReceptionFilter } from "../../app/domain/receptions.ts";
import { builtOnce } from "./built-once.ts";
import { cappedTotal, countCap, countLimit, pageWindow, pageWithTotal, writtenLimit, type PageWindow } from "./paging.ts";

export const RECEPTION_COUNT_AHEAD = 10_000;
export const RECEPTION_SEARCH_COUNT_AHEAD = 100;

export interface ReceptionListRequest {
  companyId: number;
  /** Costa Rica days, inclusive. */
  from: string;
  to: string;
  filter?: ReceptionFilter | null;
  search?: string;
  page: number;
  perPage: number;
}

/** Start of a Costa Rica day as an instant (UTC−6, no daylight saving). */
export const crDayStart = (ymd: string) => new Date(`${ymd}T06:00:00Z`);
const nextDay = (ymd: string) => new Date(Date.parse(`${ymd}T06:00:00Z`) + 86_400_000);

const listColumns = {
  id: receivedDocuments.id,
  clave: receivedDocuments.clave,
  kind: receivedDocuments.kind,
  consecutive: receivedDocuments.consecutive,
  issuedAt: receivedDocuments.issuedAt,
  issuerName: receivedDocuments.issuerName,
  issuerId: receivedDocuments.issuerId,
  currency: receivedDocuments.currency,
  exchangeRate: receivedDocuments.exchangeRate,
  total: receivedDocuments.total,
  message: receivedDocuments.message,
  status: receivedDocuments.status,
  issuerStatus: receivedDocuments.issuerStatus,
  rejectDeadline: receivedDocuments.rejectDeadline,
  uploadFilename: receivedDocuments.uploadFilename,
  lastError: receivedDocuments.lastError,
  haciendaDetail: receivedDocuments.haciendaDetail,
  messageDetail: receivedDocuments.messageDetail,
  hasSent: sql<boolean>`${receivedDocuments.sendXml} is not null`,
  hasResponse: sql<boolean>`${receivedDocuments.responseXml} is not null`,
};

/**
 * A page of the company's received documents in the range, newest first, and the total. Without a
 * filter or search the total is the documents of the range's days in reception_days (kept by the
 * database, migration reception_days_triggers), read with the page's rows, or alone for a page past
 * the end: exact, not counted. A filter or a search counts its documents up to a cap (`totalCapped`).
 */
export async function receptionList(db: DbOrTx, q: ReceptionListRequest) {
  const where: SQL[] = [eq(receivedDocuments.companyId, q.companyId), gte(receivedDocuments.issuedAt, crDayStart(q.from)), lt(receivedDocuments.issuedAt, nextDay(q.to))];
  if (q.filter === "aceptado") where.push(inArray(receivedDocuments.message, [1, 2]));
  else if (q.filter === "rechazado") where.push(eq(receivedDocuments.message, 3));
  else if (q.filter === "pendiente") where.push(eq(receivedDocuments.message, 4));
  const search = (q.search ?? "").trim();
  if (!search && !q.filter) return page(db, q, where, RECEPTION_COUNT_AHEAD, true);
  if (!search) return page(db, q, where, RECEPTION_COUNT_AHEAD);
  const words = clientSearchWords(search);
  if (!words.length) return page(db, q, [...where, sql`false`], RECEPTION_SEARCH_COUNT_AHEAD);
  const matches = (query: string) => sql`${receivedDocuments.searchWords} @@ to_tsquery('simple'::regconfig, ${query})`;
  const whole = await page(db, q, [...where, matches(words.join(" & "))], RECEPTION_SEARCH_COUNT_AHEAD);
  if (whole.total > 0 || words.every((w) => /^[0-9]+$/.test(w))) return whole;
  return page(db, q, [...where, matches(words.map((w) => (/^[0-9]+$/.test(w) ? w : `${w}:*`)).join(" & "))], RECEPTION_SEARCH_COUNT_AHEAD);
}

/** The company's received documents of the Costa Rica days `from`–`to` (inclusive), as reception_days keeps them. */
const keptDocuments = (companyId: number | Placeholder, from: string | Placeholder, to: string | Placeholder) =>
  sql`select coalesce(sum(${receptionDays.documents}), 0)::int from ${receptionDays}
       where ${receptionDays.companyId} = ${companyId} and ${receptionDays.day} >= ${from}::date and ${receptionDays.day} <= ${to}::date`;

/**
 * The rows of a range without filter or search (the list as it opens), built once per database
 * (docs/decisions/203) and window (paging.ts), each with the range's documents kept in reception_days
 * (`liveTotal`): the total comes with the page in one statement.
 */
const plainRows = (db: DbOrTx, window: PageWindow) =>
  builtOnce(db, `reception_list${window.key}`, () => {
    const companyId = sql.placeholder("companyId");
    return db
      .select({ ...listColumns, liveTotal: sql<number>`(${keptDocuments(companyId, sql.placeholder("fromDay"), sql.placeholder("toDay"))})` })
      .from(receivedDocuments)
      .where(and(eq(receivedDocuments.companyId, companyId), gte(receivedDocuments.issuedAt, sql.placeholder("from")), lt(receivedDocuments.issuedAt, sql.placeholder("to"))))
      .orderBy(desc(receivedDocuments.issuedAt), desc(receivedDocuments.id))
      .limit(window.limit)
      .offset(window.offset!)
      .prepare("reception_list");
  });

async function page(db: DbOrTx, q: ReceptionListRequest, where: SQL[], ahead: number, plain = false) {
  const cap = countCap(q.page, q.perPage, ahead);
  const counted = db
    .select({ one: sql`1`.as("one") })
    .from(receivedDocuments)
    .where(and(...where))
    .orderBy(desc(receivedDocuments.issuedAt), desc(receivedDocuments.id))
    .limit(countLimit(q.page, cap))
    .as("capped");
  // Without a filter or search, every document of the range is in reception_days; its number comes
  // with each row, and is read alone only for a page past the end.
  let liveTotal: number | undefined;
  const result = await pageWithTotal({
    page: q.page,
    perPage: q.perPage,
    rows: async (limit, at) => {
      if (!plain) return db.select(listColumns).from(receivedDocuments).where(and(...where)).orderBy(desc(receivedDocuments.issuedAt), desc(receivedDocuments.id)).limit(writtenLimit(limit)).offset(at);
      const rows = await plainRows(db, pageWindow(limit, at)).execute({
        companyId: q.companyId,
        from: crDayStart(q.from).toISOString(),
        to: nextDay(q.to).toISOString(),
        fromDay: q.from,
        toDay: q.to,
        limit,
        offset: at,
      });
      if (rows.length) liveTotal = Number(rows[0].liveTotal ?? 0);
      return rows.map(({ liveTotal: _, ...row }) => row);
    },
    count: async () => {
      if (plain) return liveTotal ?? liveReceptions(db, q);
      return Number((await db.select({ n: sql<number>`count(*)::int` }).from(counted))[0].n);
    },
  });
  return { rows: result.rows, ...cappedTotal(result.total, cap) };
}

/** The company's received documents of the range (reception_days), for a page past the end. */
async function liveReceptions(db: DbOrTx, q: ReceptionListRequest): Promise<number> {
  const [row] = await rawRows<{ n: number }>(db, sql`select (${keptDocuments(q.companyId, q.from, q.to)}) as n`);
  return Number(row?.n ?? 0);
}

/** One received document of the company, without its files. */
export async function receptionOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [row] = await db
    .select({
      ...listColumns,
      subtotal: receivedDocuments.subtotal,
      discount: receivedDocuments.discount,
      tax: receivedDocuments.tax,
      taxCondition: receivedDocuments.taxCondition,
      expenseCategoryId: receivedDocuments.expenseCategoryId,
      messageConsecutive: receivedDocuments.messageConsecutive,
    })
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)));
  return row;
}

/** Several pending documents of the company (the 'Procesar múltiples' dialog). */
export async function pendingReceptions(db: DbOrTx, { companyId, ids }: { companyId: number; ids: number[] }) {
  const valid = ids.filter((id) => Number.isInteger(id) && id > 0).slice(0, 500);
  if (!valid.length) return [];
  return db
    .select(listColumns)
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.companyId, companyId), inArray(receivedDocuments.id, valid), eq(receivedDocuments.message, 4)))
    .orderBy(desc(receivedDocuments.issuedAt), desc(receivedDocuments.id));
}

export type ReceptionFile = "xml" | "mensaje" | "respuesta" | "hacienda-emisor";

/** A stored file of one of the company's received documents (bytes as stored) and its file name. */
export async function receptionFile(db: DbOrTx, { companyId, id, file }: { companyId: number; id: number; file: ReceptionFile }) {
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const column = { xml: receivedDocuments.uploadXml, mensaje: receivedDocuments.sendXml, respuesta: receivedDocuments.responseXml, "hacienda-emisor": receivedDocuments.issuerResponseXml }[file];
  const [row] = await db
    .select({ bytes: column, clave: receivedDocuments.clave, consecutive: receivedDocuments.messageConsecutive })
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)));
  if (!row?.bytes) return undefined;
  // Names of the Anexo (NOTES §4): the comprobante <clave>.xml; our message <clave>-<consecutivo>.xml and its answer _respuesta.
  const name = {
    xml: `${row.clave}.xml`,
    mensaje: `${row.clave}-${row.consecutive}.xml`,
    respuesta: `${row.clave}-${row.consecutive}_respuesta.xml`,
    "hacienda-emisor": `${row.clave}_respuesta.xml`,
  }[file];
  return { bytes: row.bytes, name };
}

/** The whole stored document for its PDF. */
export async function receptionForPdf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [row] = await db
    .select()
    .from(receivedDocuments)
    .where(and(eq(receivedDocuments.id, id), eq(receivedDocuments.companyId, companyId)));
  return row;
}

/**
 * Pending documents and their deadlines (dashboard, list banner): how many are pending, how many
 * must be answered within `urgentUntil` (inclusive) and the nearest deadline still open. Read from
 * the counts per deadline the database keeps (pending_receptions, decision 158).
 */
export async function pendingDeadlines(db: DbOrTx, { companyId, today, urgentUntil }: { companyId: number; today: string; urgentUntil: string }) {
  const [row] = await rawRows<{ pending: number; urgent: number; nearest: string | null; passed: number }>(
    db,
    sql`select coalesce(sum(documents), 0)::int as pending,
               coalesce(sum(documents) filter (where reject_deadline >= ${today}::date and reject_deadline <= ${urgentUntil}::date), 0)::int as urgent,
               coalesce(sum(documents) filter (where reject_deadline < ${today}::date), 0)::int as passed,
               to_char(min(reject_deadline) filter (where reject_deadline >= ${today}::date), 'YYYY-MM-DD') as nearest
          from pending_receptions where company_id = ${companyId}`,
  );
  return { pending: Number(row?.pending ?? 0), urgent: Number(row?.urgent ?? 0), passed: Number(row?.passed ?? 0), nearest: row?.nearest ?? null };
}

export async function categoriesOf(db: DbOrTx, companyId: number) {
  return db.select({ id: expenseCategories.id, name: expenseCategories.name }).from(expenseCategories).where(eq(expenseCategories.companyId, companyId)).orderBy(asc(expenseCategories.name));
}

export async function receptionSettingsOf(db: DbOrTx, companyId: number) {
  const [row] = await db.select().from(receptionSettings).where(eq(receptionSettings.companyId, companyId));
  return row;
}

export async function mailboxStateOf(db: DbOrTx, companyId: number) {
  const [row] = await db.select().from(receptionMailboxes).where(eq(receptionMailboxes.companyId, companyId));
  return row;
}

/**
 * Accepted received documents with an expense category, as expenses (view received_expenses,
 * docs/decisions/176): for the expenses report and the dashboard. Amounts in colones use each
 * document's exchange rate; a received credit note is negative.
 */
export async function receivedExpenses(db: DbOrTx, { companyId, from, to }: { companyId: number; from: Date; to: Date }) {
  return rawRows<{ receivedDocumentId: number; categoryId: number; category: string; spentAt: string; currency: string; amount: string; amountCrc: string; description: string; reference: string | null }>(
    db,
    sql`select received_document_id as "receivedDocumentId", expense_category_id as "categoryId", category_name as category,
               spent_at as "spentAt", currency, amount::text as amount, amount_crc::text as "amountCrc", description, reference
          from received_expenses
         where company_id = ${companyId} and spent_at >= ${from.toISOString()}::timestamptz and spent_at < ${to.toISOString()}::timestamptz
         order by spent_at, received_document_id`,
  );
}
