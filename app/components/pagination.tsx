import { Form, useLocation } from "react-router";
import { PAGE_SIZES, pageWindow } from "../domain/pagination.ts";
import { AppLink } from "./app-link.tsx";

/** The page shown (`pathname`, `search`) with these parameters changed, as an absolute path. */
function hrefWith({ pathname, search }: { pathname: string; search: string }, changes: Record<string, string | number>) {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) params.set(k, String(v));
  return `${pathname}?${params.toString()}`;
}

/**
 * Page links (plain links: work without JavaScript). `more`: the list was counted only up to
 * `lastPage` (docs/decisions/092), so pages follow it — a gap is shown after it and "next" stays.
 */
export function Pagination({ page, lastPage, more = false }: { page: number; lastPage: number; more?: boolean }) {
  const here = useLocation();
  if (lastPage <= 1 && !more) return null;
  return (
    <nav className="mt-4 flex flex-wrap items-center gap-1" aria-label="Paginación">
      {page > 1 && (
        <AppLink className="btn btn-outline btn-sm" to={hrefWith(here, { page: page - 1 })} aria-label="Anterior">
          ‹
        </AppLink>
      )}
      {pageWindow(page, lastPage).map((p, i) =>
        p === null ? (
          <span key={`gap-${i}`} className="px-1">
            …
          </span>
        ) : (
          <AppLink key={p} className={`btn btn-sm ${p === page ? "btn-primary" : "btn-outline"}`} to={hrefWith(here, { page: p })} aria-current={p === page ? "page" : undefined}>
            {p}
          </AppLink>
        ),
      )}
      {more && (
        <span className="px-1" data-more-pages>
          …
        </span>
      )}
      {(page < lastPage || more) && (
        <AppLink className="btn btn-outline btn-sm" to={hrefWith(here, { page: page + 1 })} aria-label="Siguiente">
          ›
        </AppLink>
      )}
    </nav>
  );
}

/** Search box and page-size selector; a plain GET form (works without JavaScript). */
export function ListControls({ search, perPage, extra }: { search: string; perPage: number; extra?: Record<string, string> }) {
  return (
    <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" role="search">
      {extra && Object.entries(extra).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <label className="flex items-center gap-2">
        <span>Mostrar</span>
        <select name="perPage" defaultValue={perPage} className="input w-20">
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <input type="search" name="search" defaultValue={search} placeholder="Buscar" className="input w-56" aria-label="Buscar" />
      <input type="hidden" name="page" value="1" />
      <button type="submit" className="btn btn-outline">
        Buscar
      </button>
    </Form>
  );
}
