// Paging rules (spec part 1 §9): 10/20/30/50/100 per page, default 10, a pager only
// when there is more than one page.

export const PAGE_SIZES = [10, 20, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export interface PageRequest {
  page: number;
  perPage: number;
  search: string;
}

/**
 * The highest page a list accepts. Far past any real list (100 million rows at 100 a page), and small
 * enough that the offset stays an ordinary integer for the database.
 */
export const MAX_PAGE = 1_000_000;
/** Longest search a list or lookup uses (characters). */
export const MAX_SEARCH = 100;

/** A page number as typed or remembered: digits only, 1 to MAX_PAGE; anything else is `fallback`. */
export function cleanPage(raw: unknown, fallback = 1): number {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,9}$/.test(text)) return fallback;
  const n = Number(text);
  return n >= 1 ? Math.min(n, MAX_PAGE) : fallback;
}

/**
 * A search as typed, safe for any query: control characters (NUL, C1, DEL…) and unpaired surrogates
 * become spaces, then it is trimmed and cut at MAX_SEARCH characters (whole characters).
 */
export function cleanSearch(raw: string | null | undefined, max = MAX_SEARCH): string {
  const text = (raw ?? "").replace(/[\p{Cc}\p{Cs}]/gu, " ").trim();
  return Array.from(text).slice(0, max).join("").trim();
}

/**
 * The list parameters of a request, every one cleaned here (the one place every list goes through,
 * via app/server/page-memory.server.ts): a hostile page, page size or search can neither break the
 * query nor stay remembered.
 */
export function parsePageRequest(params: URLSearchParams, remembered?: { page?: number; perPage?: number }, defaultPerPage: number = DEFAULT_PAGE_SIZE): PageRequest {
  const perPageRaw = Number(params.get("perPage") ?? remembered?.perPage ?? defaultPerPage);
  const perPage = (PAGE_SIZES as readonly number[]).includes(perPageRaw) ? perPageRaw : defaultPerPage;
  const page = params.has("page") ? cleanPage(params.get("page")) : cleanPage(remembered?.page);
  return { page, perPage, search: cleanSearch(params.get("search")) };
}

export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

export function showPager(total: number, perPage: number): boolean {
  return lastPage(total, perPage) > 1;
}

/** Page numbers to show around the current one, with null for gaps. */
export function pageWindow(current: number, last: number): (number | null)[] {
  const pages = new Set([1, last, current - 1, current, current + 1].filter((p) => p >= 1 && p <= last));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of sorted) {
    if (out.length && p - (out[out.length - 1] as number) > 1) out.push(null);
    out.push(p);
  }
  return out;
}
