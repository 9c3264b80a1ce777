import { Outlet, useLocation } from "react-router";
import type { Route } from "./+types/app-layout";
import { AppLink } from "../components/app-link.tsx";
import { AppForm, liveTotalsShouldRevalidate } from "../components/form.tsx";
import { useFollowedLinks } from "../components/followed-links.ts";
import { navigationFor } from "../domain/navigation.ts";
import { requestContext } from "../server/context.ts";

// The live totals of the document form reload nothing, not even the session and menu (one request per pause).
export const shouldRevalidate = liveTotalsShouldRevalidate;

// No query: the session's own query brought the switcher's companies (docs/decisions/191-request-shell.md).
export function loader({ context }: Route.LoaderArgs) {
  const { user, company, title, companies: myCompanies = [] } = context.get(requestContext);
  if (!user || !company) throw new Response("Unauthorized", { status: 401 });
  const nav = navigationFor({ signedIn: true, hasCompany: true, isAdmin: user.isAdmin, isSuperAdmin: user.isSuperAdmin, companyActive: company.active, permission: company.permission });
  return { user: { name: user.name, email: user.email, isAdmin: user.isAdmin }, company, companies: myCompanies, nav, title: title ?? "" };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { user, company, companies, nav, title } = loaderData;
  const here = useLocation().pathname.toLowerCase();
  const follow = useFollowedLinks();
  return (
    <div className="min-h-screen lg:flex">
      <input type="checkbox" id="nav-toggle" className="peer hidden" />
      <aside className="hidden w-60 shrink-0 bg-white shadow-sm peer-checked:block lg:block" data-app-nav>
        <div className="px-5 py-4 text-xl font-bold text-primary">Colibrí</div>
        {/* Plain links followed by the menu's one handler, not a Link each (docs/decisions/149). */}
        <nav aria-label="Principal" className="pb-6" onClick={follow}>
          {nav.map((g) => (
            <div key={g.label} className="mt-3">
              <div className="px-5 text-xs font-semibold uppercase text-slate-400">{g.label}</div>
              <ul>
                {g.items.map((i) => {
                  // What NavLink decides, once per page instead of once per entry (docs/decisions/191).
                  const active = here === i.to.toLowerCase() || here.startsWith(i.to.toLowerCase() + "/");
                  return (
                    <li key={i.to}>
                      <AppLink aria-current={active ? "page" : undefined} className={`block px-5 py-1.5 text-sm no-underline ${active ? "bg-primary/10 font-semibold text-primary-dark" : "text-slate-700 hover:bg-slate-50"}`} to={i.to}>
                        {i.label}
                      </AppLink>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex flex-wrap items-center gap-3 bg-white px-4 py-3 shadow-sm" data-app-header>
          <label htmlFor="nav-toggle" className="btn btn-outline btn-sm lg:hidden" aria-label="Menú">
            ☰
          </label>
          <AppForm action="/select-company" className="flex items-center gap-2" data-company-switcher>
            <label htmlFor="company-switch" className="sr-only">
              Compañía
            </label>
            <select id="company-switch" name="company_id" defaultValue={company.id} className="input w-56">
              {companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <button type="submit" className="btn btn-outline btn-sm">
              Cambiar
            </button>
          </AppForm>
          {!company.active && <span className="chip chip-off">Compañía inactiva</span>}
          {company.permission === 5 && (
            <span className="chip chip-off" title="Los cambios de esta compañía se hacen por la API" data-read-only-plan>
              Solo lectura (plan API)
            </span>
          )}
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="hidden sm:inline" data-user-name>
              {user.name}
            </span>
            <AppForm action="/logout">
              <button type="submit" className="btn btn-outline btn-sm">
                Cerrar sesión
              </button>
            </AppForm>
          </div>
        </header>
        {/* The page's plain links (AppLink) are followed by the same handler as the menu's (docs/decisions/202). */}
        <main className="p-4 lg:p-6" onClick={follow}>
          <h1 className="mb-4">{title}</h1>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
