// Paging rules (spec part 1 §9): 10/20/30/50/100 per page, default 10, a pager only
// when there is more than one page.

export const PAGE_SIZES = [10, 20, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export interface PageRequest {
  page: number;
  perPage: number;
  search: string;
}

export function parsePageRequest(params: URLSearchParams, remembered?: { page?: number; perPage?: number }, defaultPerPage: number = DEFAULT_PAGE_SIZE): PageRequest {
  const perPageRaw = Number(params.get("perPage") ?? remembered?.perPage ?? defaultPerPage);
  const perPage = (PAGE_SIZES as readonly number[]).includes(perPageRaw) ? perPageRaw : defaultPerPage;
  const pageRaw = Number(params.get("page") ?? remembered?.page ?? 1);
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 ? pageRaw : 1;
  const search = (params.get("search") ?? "").trim().slice(0, 100);
  return { page, perPage, search };
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
