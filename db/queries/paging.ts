// A list's page and its total with one query when the list fits (docs/decisions/197-list-count-only-when-needed.md).
//
// The page is read with one row more than it shows. When that extra row is absent the total is
// known without counting — the rows before this page plus the rows on it — so the count query runs
// only when there is a further page (or the page asked for is past the end). A count in the same
// statement (`count(*) over ()`) would make PostgreSQL gather every matching row before the limit,
// which the large lists cannot afford (docs/decisions/190).

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

/** A page and its count prepared once (built-once.ts): the count's one row has the total as `n`. */
export interface BuiltPage<Row> {
  page: { execute(values: Record<string, unknown>): Promise<Row[]> };
  total: { execute(values: Record<string, unknown>): Promise<{ n: unknown }[]> };
}

/** `pageWithTotal` over a page and count prepared once, run with `values` (and the page's limit and offset). */
export function builtPageWithTotal<Row>(
  opts: { page: number; perPage: number },
  built: BuiltPage<Row>,
  values: Record<string, unknown>,
): Promise<CountedPage<Row>> {
  return pageWithTotal({
    page: opts.page,
    perPage: opts.perPage,
    rows: (limit, offset) => built.page.execute({ ...values, limit, offset }),
    count: async () => Number((await built.total.execute(values))[0].n),
  });
}

/**
 * A capped count (docs/decisions/092, 156): the rows before and on the page and `ahead` more are
 * counted (the count query reads at most `cap + 1`); beyond, the list shows "more" instead of a last page.
 */
export function countCap(page: number, perPage: number, ahead: number): number {
  return (Math.max(1, page) - 1) * perPage + perPage + ahead;
}

/** A count read up to `cap + 1` rows, as the lists show it: at most `cap`, and whether there are more. */
export function cappedTotal(counted: number, cap: number): { total: number; totalCapped: boolean } {
  return { total: Math.min(counted, cap), totalCapped: counted > cap };
}
