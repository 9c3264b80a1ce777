// The reports' SQL (spec part 2 "Reports"; docs/decisions/151, 152, 153). Every query takes the
// company id and a Costa Rica day range. Amounts come back in colones as text with 2 decimals:
// each document's (or line's, or expense's) amounts converted with its own exchange rate and
// rounded to céntimos before anything is added (`colones`, the SQL twin of app/domain/reports.ts
// toColones), so a page's rows, the summary band and the Excel file add up to the same céntimo.
// Summaries are aggregates computed here, never rows read into Node.
//
// Row queries are builders (`…RowsSql`) that return one ordered SELECT whose last columns `k1`, `k2`
// are its unique sort key: the screen takes a page of it (offset, limit), the Excel export reads it
// whole through a cursor (PostgreSQL) or in keyset pages after the last row's key (PGlite)
// (app/server/reports/rows.server.ts).
import { sql, type SQL } from "drizzle-orm";
import { rows, type DbOrTx } from "../client.ts";
import { clientSearchWords } from "./clients.ts";
import { documentWordsMatch } from "./document-lists.ts";
import { fold } from "./payments.ts";
import { rangeInstants, type DayRange } from "../../app/domain/reports.ts";

/** What every report query receives. */
export interface ReportQuery {
  companyId: number;
  range: DayRange;
  search: string;
  /** The report's own filter (notes: 'nc', 'nd'), or null. */
  filter: string | null;
  /** How searched words match the documents' stored words (documentSearch decides). */
  wordMode?: "whole" | "beginnings";
  /** The report's sort by a column (purchases: subtotal, descuento, iva, total), or the default order. */
  sort?: { key: string; dir: "asc" | "desc" } | null;
}

/** Where a batch of rows starts (keyset) and how many: an offset page, a keyset page, or everything. */
export interface RowsCut {
  after?: { k1: string; k2: string } | null;
  limit?: number | null;
  offset?: number;
}

/** An amount in colones: a dollar amount (currency 1) × its exchange rate, else as it is; half-up to céntimos. */
export function colones(amount: SQL, currencyId: SQL, exchangeRate: SQL): SQL {
  return sql`round(${amount} * case when ${currencyId} = 1 then ${exchangeRate} else 1 end, 2)`;
}

/** `colones` of a column of an aliased table that has currency_id and exchange_rate (documents, expenses). */
const conv = (alias: string, column: string, of = alias) => colones(sql.raw(`${alias}.${column}`), sql.raw(`${of}.currency_id`), sql.raw(`${of}.exchange_rate`));
const sumText = (x: SQL) => sql`coalesce(sum(${x}), 0)::numeric(20,2)::text`;
const sumWhere = (x: SQL, condition: SQL) => sql`coalesce(sum(${x}) filter (where ${condition}), 0)::numeric(20,2)::text`;

/** What a document's amounts are multiplied by to be in colones: its exchange rate when in dollars (currency 1), else 1. */
const DOCUMENT_RATE = sql.raw(`case when d.currency_id = 1 then d.exchange_rate else 1 end`);

/**
 * The lines of the documents `d` (these columns of them): looked up per document through
 * document_lines' index ("offset 0" keeps it a lookup). Left to itself, the planner joined a busy
 * month by reading all of document_lines (two million rows: 360 ms against 30).
 */
const linesOf = (columns: string) => sql.raw(`cross join lateral (select ${columns} from document_lines l where l.document_id = d.id offset 0) l`);

const CR_DAY = (alias: string) => sql.raw(`to_char(${alias}.issued_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD')`);

/** The live, not rejected documents of these kinds issued in the range, matching the search (stored words). */
function documentsWhere(q: ReportQuery, kinds: string[], alias = "d"): SQL {
  const { from, until } = rangeInstants(q.range);
  const a = sql.raw(alias);
  const parts: SQL[] = [
    sql`${a}.company_id = ${q.companyId}`,
    sql`${a}.kind in (${sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )})`,
    sql`${a}.deleted_at is null`,
    sql`${a}.status <> 'rechazado'`,
    sql`${a}.issued_at >= ${from}::timestamptz`,
    sql`${a}.issued_at < ${until}::timestamptz`,
  ];
  const words = clientSearchWords(q.search);
  if (q.search.trim()) parts.push(words.length ? documentWordsMatch(words, q.wordMode ?? "beginnings", alias) : sql`false`);
  return sql.join(parts, sql` and `);
}

const decided = new WeakMap<ReportQuery, Map<string, Promise<ReportQuery>>>();

/**
 * The query with its search decided as the document lists decide it (decision 092): whole words
 * when some document of the period has them all, else beginnings for words with letters (a
 * beginning makes the word index gather every document of every company with such a word).
 * Decided once per request and kinds: the summary, the page and the export share it.
 */
export function documentSearch(db: DbOrTx, q: ReportQuery, kinds: string[]): Promise<ReportQuery> {
  const words = clientSearchWords(q.search);
  if (!words.length || words.every((w) => /^[0-9]+$/.test(w))) return Promise.resolve({ ...q, wordMode: "whole" });
  let byKinds = decided.get(q);
  if (!byKinds) decided.set(q, (byKinds = new Map()));
  let r = byKinds.get(kinds.join());
  if (!r) {
    const whole = { ...q, wordMode: "whole" as const };
    r = rows<{ found: boolean }>(db, sql`select exists (select 1 from documents d where ${documentsWhere(whole, kinds)}) as found`).then(([x]) => (x.found ? whole : { ...q, wordMode: "beginnings" as const }));
    byKinds.set(kinds.join(), r);
  }
  return r;
}

/** A keyset condition on (issued_at, id) after the given key. */
const afterDocument = (alias: string, cut: RowsCut) => (cut.after ? sql` and (${sql.raw(alias)}.issued_at, ${sql.raw(alias)}.id) > (${cut.after.k1}::timestamptz, ${Number(cut.after.k2)})` : sql``);
const limits = (cut: RowsCut) => sql`${cut.limit ? sql` limit ${cut.limit}` : sql``}${cut.offset ? sql` offset ${cut.offset}` : sql``}`;

const AMOUNT_COLUMNS = ["subtotal", "discount", "tax", "iva_devuelto", "total_comprobante"] as const;
const AMOUNT_NAMES = ["subtotal", "discount", "tax", "iva_devuelto", "total"] as const;

/** The columns a document's amounts come back as, converted (`prefix` names them: nc_subtotal …). */
const documentAmounts = (alias: string, prefix = "") => sql.join(
  AMOUNT_COLUMNS.map((c, i) => sql`${conv(alias, c)}::numeric(20,2)::text as ${sql.raw(prefix + AMOUNT_NAMES[i])}`),
  sql`, `,
);

/** The converted amounts of the credit and debit notes (not rejected) that reference document `d`. */
const NOTE_TOTALS = sql.join(
  (["nc", "nd"] as const).flatMap((kind) =>
    AMOUNT_COLUMNS.map((c, i) => sql`${sumWhere(conv("n", c), sql`n.kind = ${kind}`)} as ${sql.raw(`${kind}_${AMOUNT_NAMES[i]}`)}`),
  ),
  sql`, `,
);

export interface AmountsText {
  subtotal: string;
  discount: string;
  tax: string;
  iva_devuelto: string;
  total: string;
}

export interface NoteTotals {
  nc_subtotal: string;
  nc_discount: string;
  nc_tax: string;
  nc_iva_devuelto: string;
  nc_total: string;
  nd_subtotal: string;
  nd_discount: string;
  nd_tax: string;
  nd_iva_devuelto: string;
  nd_total: string;
}

export const NO_NOTES: NoteTotals = {
  nc_subtotal: "0.00",
  nc_discount: "0.00",
  nc_tax: "0.00",
  nc_iva_devuelto: "0.00",
  nc_total: "0.00",
  nd_subtotal: "0.00",
  nd_discount: "0.00",
  nd_tax: "0.00",
  nd_iva_devuelto: "0.00",
  nd_total: "0.00",
};

export interface SalesReportRow extends AmountsText {
  id: number;
  kind: string;
  number: string;
  client_id: number | null;
  client_name: string;
  client_identification: string;
  day: string;
  k1: string;
  k2: string;
}

const NOTE_FILTER = sql`n.kind in ('nc', 'nd') and n.status <> 'rechazado' and n.deleted_at is null`;

/** Invoices or tickets of the range, oldest first, each with its amounts in colones. */
export function salesRowsSql(q: ReportQuery, kind: "fe" | "te", cut: RowsCut = {}): SQL {
  return sql`select d.id, d.kind, coalesce(d.consecutivo, d.number::text, d.id::text) as number,
      case when coalesce((d.client_snapshot->>'generic')::boolean, false) then null else d.client_id end as client_id,
      coalesce(d.client_snapshot->>'name', '') as client_name, coalesce(d.client_snapshot->>'idNumber', '') as client_identification,
      ${CR_DAY("d")} as day, ${documentAmounts("d")},
      d.issued_at::text as k1, d.id::text as k2
    from documents d
    where ${documentsWhere(q, [kind])}${afterDocument("d", cut)}
    order by d.issued_at, d.id${limits(cut)}`;
}

/**
 * The totals of the credit and debit notes (not rejected, not deleted; whatever their date) that
 * reference each of these documents, in colones, by document id. One query for a page or a batch
 * of the export, through the references' index: only documents with notes come back.
 */
export async function noteTotalsOf(db: DbOrTx, { companyId, ids }: { companyId: number; ids: number[] }): Promise<Map<number, NoteTotals>> {
  if (!ids.length) return new Map();
  const list = `{${[...new Set(ids)].map(Number).join(",")}}`;
  // One index lookup per document ("offset 0" keeps the lateral a lookup): joined as a set, the
  // planner reads every reference of the company (18 ms against 1 ms for 1,000 documents).
  const found = await rows<NoteTotals & { document_id: number }>(
    db,
    sql`select ids.id as document_id, ${NOTE_TOTALS}
      from unnest(${list}::int[]) as ids(id)
      cross join lateral (
        select n.kind, n.subtotal, n.discount, n.tax, n.iva_devuelto, n.total_comprobante, n.currency_id, n.exchange_rate
          from document_references r
          join documents n on n.id = r.document_id and n.company_id = r.company_id
         where r.company_id = ${companyId} and r.referenced_document_id = ids.id and ${NOTE_FILTER}
        offset 0
      ) n
     group by ids.id`,
  );
  return new Map(found.map((f) => [Number(f.document_id), f]));
}

/**
 * The summary of invoices or tickets: how many, the sums of their amounts, and the sums of the
 * credit and debit notes that reference them — two aggregates.
 */
export async function salesSummary(db: DbOrTx, q: ReportQuery, kind: "fe" | "te") {
  // Both at once (two connections on PostgreSQL).
  const [[docs], notes] = await Promise.all([
    rows<AmountsText & { quantity: number }>(
    db,
    sql`select count(*)::int as quantity, ${sql.join(
      AMOUNT_COLUMNS.map((c, i) => sql`${sumText(conv("d", c))} as ${sql.raw(AMOUNT_NAMES[i])}`),
      sql`, `,
    )}
      from documents d where ${documentsWhere(q, [kind])}`,
    ),
    rows<AmountsText & { kind: string }>(
    db,
    sql`select n.kind, ${sql.join(
      AMOUNT_COLUMNS.map((c, i) => sql`${sumText(conv("n", c))} as ${sql.raw(AMOUNT_NAMES[i])}`),
      sql`, `,
    )}
      from documents d
      cross join lateral (
        -- Looked up per document through the references' index ("offset 0" keeps it a lookup): a
        -- hash join would read every note of the company, of every year.
        select n.kind, n.subtotal, n.discount, n.tax, n.iva_devuelto, n.total_comprobante, n.currency_id, n.exchange_rate
          from document_references r
          join documents n on n.id = r.document_id and n.company_id = r.company_id
         where r.company_id = d.company_id and r.referenced_document_id = d.id and ${NOTE_FILTER}
        offset 0
      ) n
     where ${documentsWhere(q, [kind])}
     group by n.kind`,
    ),
  ]);
  return { docs: { ...docs, quantity: Number(docs.quantity) }, nc: notes.find((n) => n.kind === "nc") ?? null, nd: notes.find((n) => n.kind === "nd") ?? null };
}

export interface NoteReportRow extends AmountsText {
  id: number;
  kind: string;
  number: string;
  client_id: number | null;
  client_name: string;
  client_identification: string;
  day: string;
  parent_id: number | null;
  parent_kind: string | null;
  parent_number: string | null;
  ref_doc_type: string | null;
  ref_number: string | null;
  k1: string;
  k2: string;
}

const noteKinds = (q: ReportQuery) => (q.filter === "nc" || q.filter === "nd" ? [q.filter] : ["nc", "nd"]);

/** Credit and debit notes of the range (or one kind), oldest first, with the document each belongs to (its first reference). */
export function notesRowsSql(q: ReportQuery, cut: RowsCut = {}): SQL {
  return sql`select n.id, n.kind, coalesce(n.consecutivo, n.number::text, n.id::text) as number,
      case when coalesce((n.client_snapshot->>'generic')::boolean, false) then null else n.client_id end as client_id,
      coalesce(n.client_snapshot->>'name', '') as client_name, coalesce(n.client_snapshot->>'idNumber', '') as client_identification,
      ${CR_DAY("n")} as day, ${documentAmounts("n")},
      p.parent_id, p.parent_kind, p.parent_number, p.ref_doc_type, p.ref_number,
      n.issued_at::text as k1, n.id::text as k2
    from documents n
    left join lateral (
      select pd.id as parent_id, pd.kind as parent_kind, coalesce(pd.consecutivo, pd.number::text) as parent_number, r.doc_type as ref_doc_type, r.number as ref_number
        from document_references r
        left join documents pd on pd.id = r.referenced_document_id and pd.company_id = r.company_id
       where r.document_id = n.id and r.company_id = n.company_id
       order by r.id limit 1
    ) p on true
    where ${documentsWhere(q, noteKinds(q), "n")}${afterDocument("n", cut)}
    order by n.issued_at, n.id${limits(cut)}`;
}

/** The summary of the notes report: for each kind, how many and the sums of their amounts. */
export async function notesSummary(db: DbOrTx, q: ReportQuery) {
  const byKind = await rows<AmountsText & { kind: string; quantity: number }>(
    db,
    sql`select n.kind, count(*)::int as quantity, ${sql.join(
      AMOUNT_COLUMNS.map((c, i) => sql`${sumText(conv("n", c))} as ${sql.raw(AMOUNT_NAMES[i])}`),
      sql`, `,
    )}
      from documents n where ${documentsWhere(q, noteKinds(q), "n")} group by n.kind`,
  );
  const empty = { quantity: 0, subtotal: "0.00", discount: "0.00", tax: "0.00", iva_devuelto: "0.00", total: "0.00" };
  const of = (kind: string) => {
    const r = byKind.find((x) => x.kind === kind);
    return r ? { ...r, quantity: Number(r.quantity) } : { ...empty, kind };
  };
  return { nc: of("nc"), nd: of("nd") };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const folded = (x: SQL) => sql`translate(lower(coalesce(${x}, '')), 'áéíóúüñ', 'aeiouun')`;

/** Lines of the invoices and tickets of the range (matching the search by code, CABYS or description). */
function itemLinesWhere(q: ReportQuery): SQL {
  const term = q.search.trim();
  const base = documentsWhere({ ...q, search: "" }, ["fe", "te"]);
  if (!term) return base;
  const like = `%${escapeLike(fold(term))}%`;
  return sql`${base} and (${folded(sql`l.code`)} like ${like} or ${folded(sql`l.cabys`)} like ${like} or ${folded(sql`l.description`)} like ${like})`;
}

/**
 * Lines grouped by item: the catalogue item when the line has one (shown with the item's current
 * code, name and CABYS), else the same code, CABYS and description. `times` is the number of
 * lines it is on (counting documents needed a sort of every line, spilled to disk in a busy
 * month); the amounts are its lines', each converted with its document's exchange
 * rate, rounded to céntimos per item: the summary adds the rounded rows.
 *
 * Two steps: the lines are added up as they are by their own code, CABYS, description, item and
 * exchange rate (cheap to group), then those groups by item — the key, the lower-cased
 * description and the conversion (a product of exact decimals, so the same céntimos as converting
 * line by line) once per group instead of once per line.
 */
function itemGroupsSql(q: ReportQuery): SQL {
  const converted = (column: string) => sql.raw(`round(coalesce(sum(y.${column} * y.rate), 0), 2)`);
  return sql`select x.k, coalesce(i.code, x.code) as code, coalesce(i.cabys_code, x.cabys) as cabys, coalesce(i.name, x.description) as description,
      x.times, x.subtotal, x.discount, x.tax, x.total
    from (
      select case when y.item_id is not null then 'i' || y.item_id else 'l' || coalesce(y.code, '') || '|' || coalesce(y.cabys, '') || '|' || lower(y.description) end as k,
        min(y.item_id) as item_id, min(y.code) as code, min(y.cabys) as cabys, min(y.description) as description,
        sum(y.times)::int as times,
        ${converted("subtotal")} as subtotal, ${converted("discount")} as discount, ${converted("tax")} as tax, ${converted("total")} as total
      from (
        select l.item_id, l.code, l.cabys, l.description, ${DOCUMENT_RATE} as rate, count(*) as times,
          sum(l.subtotal) as subtotal, sum(l.discount) as discount, sum(l.tax) as tax, sum(l.total) as total
          from documents d
          ${linesOf("l.item_id, l.code, l.cabys, l.description, l.subtotal, l.discount, l.tax, l.total")}
         where ${itemLinesWhere(q)}
         group by 1, 2, 3, 4, 5
      ) y
      group by 1
    ) x
    left join items i on i.id = x.item_id and i.company_id = ${q.companyId}`;
}

export interface ItemReportRow {
  code: string | null;
  cabys: string | null;
  cabys_name: string | null;
  cabys_rate: string | null;
  description: string;
  times: number;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  k1: string;
  k2: string;
}

export interface ItemTotals {
  items: number;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
}

/**
 * Items invoiced in the range, by description, with their CABYS name and rate. With `totals`, each
 * row also carries the whole report's totals (window aggregates over the same grouping), so the
 * screen reads its page and its summary band in one aggregation.
 */
export function itemsRowsSql(q: ReportQuery, cut: RowsCut = {}, totals = false): SQL {
  const after = cut.after ? sql` where (lower(g.description), g.k) > (${cut.after.k1}, ${cut.after.k2})` : sql``;
  const windows = totals
    ? sql`, count(*) over ()::int as t_items, sum(g.subtotal) over ()::numeric(20,2)::text as t_subtotal, sum(g.discount) over ()::numeric(20,2)::text as t_discount,
        sum(g.tax) over ()::numeric(20,2)::text as t_tax, sum(g.total) over ()::numeric(20,2)::text as t_total`
    : sql``;
  return sql`select g.code, g.cabys, cc.description as cabys_name, cc.tax_rate::text as cabys_rate, g.description, g.times,
      g.subtotal::numeric(20,2)::text as subtotal, g.discount::numeric(20,2)::text as discount, g.tax::numeric(20,2)::text as tax, g.total::numeric(20,2)::text as total,
      lower(g.description) as k1, g.k as k2${windows}
    from (${itemGroupsSql(q)}) g
    left join cabys_codes cc on cc.code = g.cabys${after}
    order by lower(g.description), g.k${limits(cut)}`;
}

/** The summary of the items report: how many items and the sums of their amounts. */
export async function itemsSummary(db: DbOrTx, q: ReportQuery) {
  const [r] = await rows<{ items: number; subtotal: string; discount: string; tax: string; total: string }>(
    db,
    sql`select count(*)::int as items, ${sumText(sql`g.subtotal`)} as subtotal, ${sumText(sql`g.discount`)} as discount, ${sumText(sql`g.tax`)} as tax, ${sumText(sql`g.total`)} as total
      from (${itemGroupsSql(q)}) g`,
  );
  return { ...r, items: Number(r.items) };
}

/**
 * The company's expenses between two Costa Rica days (`from` inclusive, `until` exclusive, SQL
 * dates), in colones rounded per expense, added up by day and category: the live expenses (a
 * dollar expense × its own rate) and the accepted received documents with a category of the
 * company (the view received_expenses, decision 176; a credit note negative). The ONE place that
 * says what an expense is: the expenses report and the dashboard (db/queries/dashboard.ts) read it.
 * Columns category_id, day (date), expenses (how many), amount. `match(description, reference,
 * category)` keeps only the expenses it is true for (the report's search).
 *
 * The received ones are read from the view's figures as stored: each document's amount in colones
 * and Costa Rica day are generated columns of received_documents (expense_crc, expense_day: the
 * view's round(amount_crc, 2) and day), so a range is read from received_documents_expenses_idx
 * alone (company, day, category, amount; the view's condition), and added up in the index's order
 * before anything else sees it — a year is about 4,000 days and categories instead of 110,000
 * documents (decision 194). Without a search they come already added up by day and category
 * (received_expense_days, kept by triggers whose condition is the view's; decision 156), and so do
 * the company's own expenses (expense_days, kept by triggers that convert and round each expense as
 * `colones` does; decision 159). Own expenses are the company's whatever their category's company,
 * as they always were (the received ones keep only the company's categories, as the view does).
 */
export function expenseDaysSql(companyId: number, from: SQL, until: SQL, match?: (description: SQL, reference: SQL, category: SQL) => SQL): SQL {
  const received = match
    ? sql`select r.expense_category_id, r.expense_day, count(*), sum(r.expense_crc)
      from received_documents r
     where r.company_id = ${companyId} and r.expense_category_id is not null and ${ACCEPTED_RECEIVED("r")}
       and r.expense_day >= ${from} and r.expense_day < ${until}
       and r.expense_category_id in (select c.id from expense_categories c where c.company_id = ${companyId})
       and ${match(sql`r.issuer_name`, sql`r.consecutive`, sql`r.expense_category_id`)}
     group by r.expense_day, r.expense_category_id`
    : sql`select d.category_id, d.day, d.documents::bigint, d.amount_crc
      from received_expense_days d
     where d.company_id = ${companyId} and d.day >= ${from} and d.day < ${until}
       and d.category_id in (select c.id from expense_categories c where c.company_id = ${companyId})`;
  const mine = match
    ? sql`select e.category_id, e.spent_on as day, count(*) as expenses, sum(${conv("e", "amount")}) as amount
      from expenses e
     where e.company_id = ${companyId} and e.deleted_at is null and e.spent_on >= ${from} and e.spent_on < ${until} and ${match(sql`e.description`, sql`e.reference`, sql`e.category_id`)}
     group by e.spent_on, e.category_id`
    : sql`select e.category_id, e.day, e.expenses::bigint as expenses, e.amount_crc as amount
      from expense_days e
     where e.company_id = ${companyId} and e.day >= ${from} and e.day < ${until}`;
  return sql`${mine}
    union all
    ${received}`;
}

/**
 * The expenses of the range matching the search (by category, description or reference), added up
 * by category and month: category_id, month, expenses (how many), amount. A year is at most twelve
 * groups per category, so the report's rows and summary add those up instead of every expense.
 */
function expenseGroupsOfRange(q: ReportQuery): SQL {
  const term = q.search.trim();
  const like = term ? `%${escapeLike(fold(term))}%` : "";
  const match = term
    ? (description: SQL, reference: SQL, category: SQL) =>
        sql`(${folded(description)} like ${like} or ${folded(reference)} like ${like}
          or ${category} in (select c.id from expense_categories c where c.company_id = ${q.companyId} and ${folded(sql`c.name`)} like ${like}))`
    : undefined;
  return sql`(select e.category_id, extract(month from e.day)::int as month, sum(e.expenses) as expenses, sum(e.amount) as amount
      from (${expenseDaysSql(q.companyId, sql`${q.range.from}::date`, sql`${q.range.to}::date + 1`, match)}) e
     group by e.category_id, extract(month from e.day)) e
    join expense_categories c on c.id = e.category_id and c.company_id = ${q.companyId}`;
}

const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);

export interface ExpenseReportRow {
  category_id: number;
  name: string;
  months: string[];
  total: string;
  k1: string;
  k2: string;
}

/** The twelve month columns: each month's sum, as text with two decimals. */
const monthSums = (amount: SQL) => sql`array[${sql.join(
  MONTHS.map((m) => sumWhere(amount, sql`e.month = ${m}`)),
  sql`, `,
)}]`;

/**
 * One row per category with the expenses of each month of the range's year, in colones. With
 * `totals`, each row also carries the whole report's summary (window aggregates over the same
 * grouping: expenses, categories, the total and each month's), so the screen reads its page and
 * its summary band in one pass over the year's expenses (the summary adds the rows' sums).
 */
export function expensesRowsSql(q: ReportQuery, cut: RowsCut = {}, totals = false): SQL {
  const after = cut.after ? sql` having (lower(c.name), c.id) > (${cut.after.k1}, ${Number(cut.after.k2)})` : sql``;
  const windows = totals
    ? sql`, sum(sum(e.expenses)) over ()::int as t_expenses, count(*) over ()::int as t_categories, sum(sum(e.amount)) over ()::numeric(20,2)::text as t_total,
        array[${sql.join(
          MONTHS.map((m) => sql`sum(coalesce(sum(e.amount) filter (where e.month = ${m}), 0)) over ()::numeric(20,2)::text`),
          sql`, `,
        )}] as t_months`
    : sql``;
  return sql`select c.id as category_id, c.name,
      ${monthSums(sql`e.amount`)} as months,
      ${sumText(sql`e.amount`)} as total,
      lower(c.name) as k1, c.id::text as k2${windows}
    from ${expenseGroupsOfRange(q)}
    group by c.id, c.name${after}
    order by lower(c.name), c.id${limits(cut)}`;
}

/** The summary of the expenses report: expenses, categories, the total and each month's total. */
export async function expensesSummary(db: DbOrTx, q: ReportQuery) {
  const [r] = await rows<{ expenses: number; categories: number; total: string; months: string[] }>(
    db,
    sql`select coalesce(sum(e.expenses), 0)::int as expenses, count(distinct e.category_id)::int as categories, ${sumText(sql`e.amount`)} as total,
        ${monthSums(sql`e.amount`)} as months
      from ${expenseGroupsOfRange(q)}`,
  );
  return { ...r, expenses: Number(r.expenses), categories: Number(r.categories), months: textArray(r.months) };
}

/** A text[] as either driver returns it (an array, or PostgreSQL's '{…}' literal). */
export function textArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === "string") return v.replace(/^\{|\}$/g, "").split(",").filter(Boolean).map((s) => s.replace(/^"|"$/g, ""));
  return [];
}

export interface TariffSums {
  tarifa_code: string | null;
  kind: string;
  base: string;
  tax: string;
  exonerated_base: string;
  exonerated_tax: string;
}

/**
 * The lines of the documents of these kinds issued in the range, by IVA tariff and kind: the taxable
 * base (SubTotal: amount less discount), the IVA charged (net of exoneration), and the exonerated
 * part (the base in proportion of the exonerated rate points, and MontoExoneracion) — in colones,
 * rounded to céntimos per tariff and kind (every total of the summary adds these same figures).
 *
 * The lines are first added up as they are, by tariff, kind and exchange rate; each of those sums
 * is then converted (a product of exact decimals: the same céntimos as converting each line
 * and adding), so the month's tens of thousands of lines cost a sum each, not a conversion.
 */
export async function linesByTariff(db: DbOrTx, q: ReportQuery, kinds: string[]): Promise<TariffSums[]> {
  const exoneratedBase = sql`case when l.exoneration is not null and l.tax_rate > 0 and coalesce(l.exoneration->>'percentage', '') ~ '^[0-9]+(\\.[0-9]+)?$'
      then least(l.subtotal - l.discount, (l.subtotal - l.discount) * (l.exoneration->>'percentage')::numeric / l.tax_rate) else 0 end`;
  const converted = (column: string) => sql.raw(`round(coalesce(sum(g.${column} * g.rate), 0), 2)::text`);
  return rows<TariffSums>(
    db,
    sql`select g.tarifa_code, g.kind, ${converted("base")} as base, ${converted("tax")} as tax,
        ${converted("exonerated_base")} as exonerated_base, ${converted("exonerated_tax")} as exonerated_tax
      from (
        select l.tarifa_code, d.kind, ${DOCUMENT_RATE} as rate,
          sum(l.subtotal - l.discount) as base, sum(l.tax) as tax, sum(${exoneratedBase}) as exonerated_base, sum(l.exonerated) as exonerated_tax
          from documents d
          ${linesOf("l.tarifa_code, l.subtotal, l.discount, l.tax, l.tax_rate, l.exonerated, l.exoneration")}
         where ${documentsWhere({ ...q, search: "" }, kinds)}
         group by 1, 2, 3
      ) g
      group by g.tarifa_code, g.kind`,
  );
}

/** Documents of these kinds issued in the range, by kind: how many and their IVA devuelto, in colones. */
export async function documentsByKind(db: DbOrTx, q: ReportQuery, kinds: string[]) {
  const r = await rows<{ kind: string; quantity: number; iva_devuelto: string }>(
    db,
    sql`select d.kind, count(*)::int as quantity, ${sumText(conv("d", "iva_devuelto"))} as iva_devuelto
      from documents d where ${documentsWhere({ ...q, search: "" }, kinds)} group by d.kind`,
  );
  return r.map((x) => ({ ...x, quantity: Number(x.quantity) }));
}

// ---------------------------------------------------------------------------------------------
// Received documents (issue 12 point 8; docs/decisions/154-received-documents-reports.md): the
// reception and purchases reports, and the purchase IVA of the IVA summary.

/**
 * Accepted received documents: the company accepted them (fully or partly) and Hacienda did not
 * reject its message, nor the supplier's document (then no message is sent: 'no enviado'). The
 * same condition as the view received_expenses (migration 0020, decision 176): the purchases
 * report, the IVA summary's creditable IVA and the expenses report count the same documents.
 */
export const ACCEPTED_RECEIVED = (alias = "r") => sql.raw(`${alias}.message in (1, 2) and ${alias}.status not in ('rechazado', 'no enviado')`);

/** The reception report's filter (the reception list's options). */
export const RECEPTION_REPORT_FILTERS = ["aceptado", "pendiente", "rechazado"] as const;

/**
 * What a received document's amounts are multiplied by to be in colones, signed: its own TipoCambio
 * unless it is in colones, negative for a credit note (it reduces the purchases).
 */
const receivedFactor = (alias = "r") => sql.raw(`case when ${alias}.currency = 'CRC' then 1 else ${alias}.exchange_rate end * case when ${alias}.kind = 'NC' then -1 else 1 end`);

/** A received document's amount in colones, signed (`receivedFactor`), rounded half-up to céntimos. */
const receivedColones = (column: string, alias = "r") => sql`round(${sql.raw(`${alias}.${column}`)} * ${receivedFactor(alias)}, 2)`;

/**
 * The same amount from a factor already computed (`f`, by `receivedWithFactor`): the product is
 * exact, so it equals `receivedColones` to the céntimo.
 */
const factored = (column: string, alias = "x") => sql.raw(`round(${alias}.${column} * ${alias}.f, 2)`);

/**
 * The received documents of a report, these columns and the factor `f`, computed once per document:
 * "offset 0" keeps PostgreSQL from merging the subquery into its query, which would compute the
 * factor again for every amount that uses it (the summary band then took twice as long).
 */
const receivedWithFactor = (q: ReportQuery, report: "receptions" | "purchases", columns: string) =>
  sql`select ${sql.raw(columns)}, ${receivedFactor("r")} as f from received_documents r where ${receivedWhere(q, report)} offset 0`;

/** Received documents of the range for a report: `purchases` the accepted ones, else by the reception filter. */
function receivedWhere(q: ReportQuery, report: "receptions" | "purchases"): SQL {
  const { from, until } = rangeInstants(q.range);
  const parts: SQL[] = [sql`r.company_id = ${q.companyId}`, sql`r.issued_at >= ${from}::timestamptz`, sql`r.issued_at < ${until}::timestamptz`];
  const hacienda = sql`r.issuer_status = 'rechazado'`;
  if (report === "purchases") parts.push(ACCEPTED_RECEIVED("r"));
  else if (q.filter === "aceptado") parts.push(sql`r.message in (1, 2) and not coalesce(${hacienda}, false)`);
  else if (q.filter === "pendiente") parts.push(sql`r.message = 4 and not coalesce(${hacienda}, false)`);
  else if (q.filter === "rechazado") parts.push(sql`(r.message = 3 or coalesce(${hacienda}, false))`);
  else parts.push(sql`r.message <> 3 and not coalesce(${hacienda}, false)`);
  const term = q.search.trim();
  if (term) {
    const words = clientSearchWords(term);
    // The stored words of the issuer's name and identification, the clave and the consecutive
    // (received_documents.search_words, like the reception list): beginnings of words with letters.
    parts.push(words.length ? sql`r.search_words @@ to_tsquery('simple'::regconfig, ${words.map((w) => (/^[0-9]+$/.test(w) ? w : `${w}:*`)).join(" & ")})` : sql`false`);
  }
  return sql.join(parts, sql` and `);
}

/** The amounts columns of a received document, converted and signed; `total` is §5's net total. */
const RECEIVED_AMOUNTS = ["subtotal", "discount", "tax", "iva_devuelto", "exonerated"] as const;

/** The received documents of a report with their amounts in colones (an inner query: the rows read it). */
function receivedSql(q: ReportQuery, report: "receptions" | "purchases", also: SQL | null = null): SQL {
  return sql`select r.id, r.kind, r.issued_at, r.consecutive, r.issuer_name, r.issuer_id, r.receiver_name, r.currency, r.exchange_rate, r.message,
      r.data->>'CondicionVenta' as sale_condition,
      ${sql.join(
        RECEIVED_AMOUNTS.map((c) => sql`${receivedColones(c)} as ${sql.raw(c)}`),
        sql`, `,
      )}
    from received_documents r where ${receivedWhere(q, report)}${also ?? sql``}`;
}

export interface ReceivedReportRow {
  id: number;
  kind: string;
  number: string;
  issuer_name: string;
  issuer_id: string;
  receiver_name: string;
  day: string;
  at: string;
  currency: string;
  rate: string;
  message: number;
  sale_condition: string | null;
  subtotal: string;
  discount: string;
  tax: string;
  iva_devuelto: string;
  exonerated: string;
  total: string;
  k1: string;
  k2: string;
}

/** The purchases report's sortable columns (spec: subtotal, discount, tax, total) and their SQL. */
export const RECEIVED_SORTS = { subtotal: "x.subtotal", descuento: "x.discount", iva: "x.tax", total: "x.total" } as const;
export type ReceivedSort = keyof typeof RECEIVED_SORTS;

/** Each sort's key from the factored amounts (`receivedWithFactor`): the same values as RECEIVED_SORTS's columns. */
const RECEIVED_SORT_KEYS: Record<ReceivedSort, SQL> = {
  subtotal: sql`${factored("subtotal")}`,
  descuento: sql`${factored("discount")}`,
  iva: sql`${factored("tax")}`,
  total: sql`${factored("subtotal")} - ${factored("discount")} + ${factored("tax")} - ${factored("iva_devuelto")}`,
};

/**
 * Received documents of the range, oldest first — or by an amount (`q.sort`), ties by id — each
 * with its amounts in colones and §5's net total (subtotal − discount + tax − IVA devuelto, from
 * the rounded amounts: the rows add up to the summary). Unique sort key k1, k2.
 *
 * A page (or a keyset batch) sorted by an amount first picks its documents by that amount alone —
 * one converted figure per document of the range —, then reads those few in full: converting,
 * formatting and sorting every column of the month's documents to keep 25 took three times as long.
 */
export function receivedRowsSql(q: ReportQuery, report: "receptions" | "purchases", cut: RowsCut = {}): SQL {
  const sortKey = q.sort && q.sort.key in RECEIVED_SORTS ? (q.sort.key as ReceivedSort) : null;
  const sortColumn = sortKey ? RECEIVED_SORTS[sortKey] : null;
  const desc = sortColumn !== null && q.sort?.dir === "desc";
  const key = sortColumn ? sql.raw(sortColumn) : sql.raw("x.issued_at");
  const k1 = sortColumn ? sql`${key}::text` : sql`x.issued_at::text`;
  const after = (k: SQL) => (cut.after ? sql` where (${k}, x.id) ${sql.raw(desc ? "<" : ">")} (${cut.after.k1}::${sql.raw(sortColumn ? "numeric" : "timestamptz")}, ${Number(cut.after.k2)})` : sql``);
  const dir = sql.raw(desc ? "desc" : "asc");
  const picked =
    sortKey && cut.limit
      ? sql` and r.id in (select x.id from (${receivedWithFactor(q, report, "r.id, r.subtotal, r.discount, r.tax, r.iva_devuelto")}) x${after(RECEIVED_SORT_KEYS[sortKey])}
          order by ${RECEIVED_SORT_KEYS[sortKey]} ${dir}, x.id ${dir}${limits(cut)})`
      : null;
  return sql`select x.id, x.kind, coalesce(x.consecutive, '') as number, x.issuer_name, x.issuer_id, coalesce(x.receiver_name, '') as receiver_name,
      to_char(x.issued_at at time zone 'America/Costa_Rica', 'YYYY-MM-DD') as day,
      to_char(x.issued_at at time zone 'America/Costa_Rica', 'DD/MM/YYYY HH12:MI AM') as at,
      x.currency, x.exchange_rate::text as rate, x.message, x.sale_condition,
      x.subtotal::numeric(20,2)::text as subtotal, x.discount::numeric(20,2)::text as discount, x.tax::numeric(20,2)::text as tax,
      x.iva_devuelto::numeric(20,2)::text as iva_devuelto, x.exonerated::numeric(20,2)::text as exonerated, x.total::numeric(20,2)::text as total,
      ${k1} as k1, x.id::text as k2
    from (select y.*, y.subtotal - y.discount + y.tax - y.iva_devuelto as total from (${receivedSql(q, report, picked)}) y) x${picked ? sql`` : after(key)}
    order by ${key} ${dir}, x.id ${dir}${picked ? sql`` : limits(cut)}`;
}

/**
 * The summary of a received documents report: how many and the sums of the rows' (rounded)
 * amounts; the net total from those sums (the sum of the rows' totals, to the céntimo).
 */
export async function receivedSummary(db: DbOrTx, q: ReportQuery, report: "receptions" | "purchases") {
  const [r] = await rows<{ quantity: number; subtotal: string; discount: string; tax: string; iva_devuelto: string; exonerated: string; total: string }>(
    db,
    sql`select s.quantity, s.subtotal::numeric(20,2)::text as subtotal, s.discount::numeric(20,2)::text as discount, s.tax::numeric(20,2)::text as tax,
        s.iva_devuelto::numeric(20,2)::text as iva_devuelto, s.exonerated::numeric(20,2)::text as exonerated,
        (s.subtotal - s.discount + s.tax - s.iva_devuelto)::numeric(20,2)::text as total
      from (
        select count(*)::int as quantity, ${sql.join(
          RECEIVED_AMOUNTS.map((c) => sql`coalesce(sum(${factored(c)}), 0) as ${sql.raw(c)}`),
          sql`, `,
        )}
          from (${receivedWithFactor(q, report, RECEIVED_AMOUNTS.map((c) => `r.${c}`).join(", "))}) x
      ) s`,
  );
  return { ...r, quantity: Number(r.quantity) };
}

export interface ReceivedTariffSums {
  tarifa_code: string | null;
  base: string;
  tax: string;
  creditable: string;
}

/**
 * The purchase IVA of the accepted received documents of the range, by IVA tariff: the base and
 * the IVA the documents state line by line (data.IvaPorTarifa, stored at intake), and the IVA the
 * company declared creditable in its MensajeReceptor (MontoTotalImpuestoAcreditar) shared among
 * the document's tariffs in proportion to their IVA. A document stored before its tariffs were
 * kept (or without IVA lines) counts under no tariff with its totals. In colones with each
 * document's rate, signed (credit notes subtract), rounded per document and tariff.
 *
 * Those per-document figures are kept by the database in received_document_tariffs (decision 193:
 * written by triggers whenever a received document is stored or changes), so the month's are only
 * added up here, from the index received_document_tariffs_month_idx; expanding every document's
 * IvaPorTarifa and converting it on each request took 62 ms of CPU at 14,000 documents a month.
 */
export async function receivedByTariff(db: DbOrTx, q: ReportQuery): Promise<ReceivedTariffSums[]> {
  const { from, until } = rangeInstants(q.range);
  return rows<ReceivedTariffSums>(
    db,
    sql`select t.tarifa_code,
        coalesce(sum(t.base_crc), 0)::numeric(20,2)::text as base,
        coalesce(sum(t.tax_crc), 0)::numeric(20,2)::text as tax,
        coalesce(sum(t.creditable_crc), 0)::numeric(20,2)::text as creditable
      from received_document_tariffs t
     where t.company_id = ${q.companyId} and t.issued_at >= ${from}::timestamptz and t.issued_at < ${until}::timestamptz and ${ACCEPTED_RECEIVED("t")}
     group by t.tarifa_code`,
  );
}
