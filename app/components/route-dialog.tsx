import { Link } from "react-router";

/**
 * A dialog that is a route of its own (a child route of the screen behind it): a panel over that
 * screen with a close link back to it. Without JavaScript it is the same HTML, a page with the
 * screen behind; nothing here needs a script.
 */
export function RouteDialog({ title, closeTo, children, wide = false, data }: { title: string; closeTo: string; children: React.ReactNode; wide?: boolean; data?: string }) {
  return (
    <div className="route-dialog" data-route-dialog={data}>
      <div className={`card w-full ${wide ? "max-w-2xl" : "max-w-md"}`} role="dialog" aria-modal="true" aria-labelledby={`${data ?? "dialog"}-title`}>
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id={`${data ?? "dialog"}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          <Link to={closeTo} className="btn btn-outline btn-sm" aria-label={`Cerrar ${title}`}>
            Cerrar
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}
