import { data, Link } from "react-router";

export const handle = { hydrate: false };

export function loader() {
  return data(null, { status: 404 });
}

export default function Error404() {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card max-w-md text-center">
        <div className="text-5xl font-bold text-primary">404</div>
        <h1 className="mt-2">Página no encontrada</h1>
        <p className="mt-2 text-slate-600">La página que buscas no existe o fue movida.</p>
        <Link className="btn btn-primary mt-4" to="/dashboard">
          Ir al inicio
        </Link>
      </div>
    </main>
  );
}
