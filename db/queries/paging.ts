// A list's page and its total with one query when the list fits (docs/decisions/197-list-count-only-when-needed.md).
//
// The page is read with one row more than it shows. When that extra row is absent the total is
// known without counting — the rows before this page plus the rows on it — so the count query runs
// only when there is a further page (or the page asked for is past the end). A count in the same
// statement (`count(*) over ()`) would make PostgreSQL gather every matching row before the limit,
// which the large lists cannot afford (docs/decisions/190).

import { sql } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { builtOnce } from "./built-once.ts";

export interface CountedPage<Row> {
  rows: Row[];
  total: number;
  /** Whether the count ran (false: the total came from the page itself). */
  counted: boolean;
}

/**
 * `rows(limit, offset)` reads the page in list order; `count()` the list's total (capped or not: it
 * is used as it is). `page` starts at 1.
 */
export async function pageWithTotal<Row>(opts: {
  page: number;
  perPage: number;
  rows: (limit: number, offset: number) => Promise<Row[]>;
  count: () => Promise<number>;
}): Promise<CountedPage<Row>> {
  const offset = (Math.max(1, opts.page) - 1) * opts.perPage;
  const rows = await opts.rows(opts.perPage + 1, offset);
  if (rows.length <= opts.perPage && (rows.length > 0 || offset === 0))
    return { rows, total: offset + rows.length, counted: false };
  return {
    rows: rows.slice(0, opts.perPage),
    total: await opts.count(),
    counted: true,
  };
}

/**
 * How a statement reads a page's rows (docs/decisions/204). PostgreSQL plans a prepared statement
 * for its own values on every run when its LIMIT or OFFSET is a parameter: it then assumes a tenth
 * of the rows are wanted, so a plan for any values never looks cheap enough to keep. At 1,000,000
 * documents that was 0.2–0.3 ms of planning on each view of a list, more than running it. So the
 * first page, which most views are, has its LIMIT written into the statement and no OFFSET, and
 * PostgreSQL keeps its plan; a later page has both as parameters ("limit" and "offset"). `key`
 * names the variant, for statements built once (built-once.ts): one per page size.
 */
export interface PageWindow {
  key: string;
  limit: number;
  offset: number | undefined;
}

/** Limits written into a statement, at most (a page of 100 and its extra row, with room). */
const WRITTEN_LIMITS_UP_TO = 1000;

export function pageWindow(limit: number, offset: number): PageWindow {
  if (offset === 0 && Number.isSafeInteger(limit) && limit > 0 && limit <= WRITTEN_LIMITS_UP_TO)
    return { key: `_first${limit}`, limit: writtenLimit(limit), offset: undefined };
  return { key: "", limit: sql.placeholder("limit") as unknown as number, offset: sql.placeholder("offset") as unknown as number };
}

/**
 * A LIMIT written into the statement rather than sent as a parameter (see PageWindow), for a
 * query drizzle builds on each run; drizzle leaves out an OFFSET of 0. For limits the code sets
 * (a page size and its extra row), so each list has a handful of statements.
 */
export function writtenLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`Límite no válido: ${limit}`);
  return sql.raw(String(limit)) as unknown as number;
}

/** A list's page and count statements, each built once per database: the page for each window. */
export interface BuiltList<Row> {
  page: (window: PageWindow) => { execute(values: Record<string, unknown>): Promise<Row[]> };
  total: () => { execute(values: Record<string, unknown>): Promise<{ n: unknown }[]> };
}

/** `pageWithTotal` over a list's statements built once (named by `key`), run with `values` and the page's limit and offset. */
export function builtPageWithTotal<Row>(db: DbOrTx, key: string, opts: { page: number; perPage: number }, list: BuiltList<Row>, values: Record<string, unknown>): Promise<CountedPage<Row>> {
  return pageWithTotal({
    page: opts.page,
    perPage: opts.perPage,
    rows: (limit, offset) => {
      const window = pageWindow(limit, offset);
      return builtOnce(db, `${key}_page${window.key}`, () => list.page(window)).execute({ ...values, limit, offset });
    },
    count: async () => Number((await builtOnce(db, `${key}_count`, list.total).execute(values))[0].n),
  });
}

/**
 * A capped count (docs/decisions/092, 156): the rows before and on the page and `ahead` more are
 * counted (the count query reads at most `cap + 1`); beyond, the list shows "more" instead of a last page.
 */
export function countCap(page: number, perPage: number, ahead: number): number {
  return (Math.max(1, page) - 1) * perPage + perPage + ahead;
}

/** The LIMIT of a capped count's statement: written in on the first page (a statement per page size, see PageWindow), a parameter beyond. */
export const countLimit = (page: number, cap: number) => (page <= 1 ? writtenLimit(cap + 1) : cap + 1);

/** A count read up to `cap + 1` rows, as the lists show it: at most `cap`, and whether there are more. */
export function cappedTotal(counted: number, cap: number): { total: number; totalCapped: boolean } {
  return { total: Math.min(counted, cap), totalCapped: counted > cap };
}
