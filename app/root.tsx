import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { liveTotalsShouldRevalidate } from "./components/form.tsx";
import { Toasts } from "./components/toasts.tsx";
import { requestContext } from "./server/context.ts";
import { rootMiddleware } from "./server/middleware.server.ts";

export const middleware: Route.MiddlewareFunction[] = [rootMiddleware];

// The live totals of the document form reload nothing, not even the session and menu (one request per pause).
export const shouldRevalidate = liveTotalsShouldRevalidate;

export function loader({ context }: Route.LoaderArgs) {
  const s = context.get(requestContext);
  s.toastsShown = true;
  return {
    csrf: s.csrf,
    toasts: s.toasts,
    title: s.title ?? "Colibrí",
    user: s.user ? { id: s.user.id, name: s.user.name, email: s.user.email, isAdmin: s.user.isAdmin, isSuperAdmin: s.user.isSuperAdmin } : null,
    company: s.company ?? null,
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.title} · Colibrí` : "Colibrí" }];
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  // Pages that need no React (sign-in, password, public document) are plain forms: they ship no
  // framework, only their own small script when they name one (handle.script, decision 166).
  const handles = useMatches().map((m) => m.handle as { hydrate?: boolean; script?: string } | undefined);
  const scripts = !handles.some((h) => h?.hydrate === false);
  const own = scripts ? [] : handles.flatMap((h) => (h?.script ? [h.script] : []));
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Toasts toasts={data?.toasts ?? []} />
        {scripts && <ScrollRestoration />}
        {scripts && <Scripts />}
        {own.map((src) => (
          <script key={src} src={src} defer />
        ))}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Ocurrió un error";
  let detail = "No pudimos completar la solicitud. Inténtalo de nuevo en unos minutos.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Página no encontrada";
      detail = "La página que buscas no existe o no tienes acceso a ella.";
    } else if (typeof error.data === "string") {
      detail = error.data;
    }
  }
  return (
    <main className="mx-auto max-w-lg p-8">
      <div className="card">
        <h1>{title}</h1>
        <p className="mt-2 text-slate-600">{detail}</p>
        <a className="btn btn-primary mt-4" href="/dashboard">
          Ir al inicio
        </a>
      </div>
    </main>
  );
}
