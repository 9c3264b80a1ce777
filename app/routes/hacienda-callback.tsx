// POST /hacienda/callback — Hacienda's notification of a document's state (NOTES §3 callbackUrl).
// Public (Hacienda has no session) and without CSRF (a server-to-server JSON POST); everything it
// says is verified by handleHaciendaCallback (clave of ours + signed MensajeHacienda for that
// clave) before the same state change polling applies. 400 and nothing changes otherwise.
import { db } from "../server/db.server.ts";
import { handleHaciendaCallback } from "../server/hacienda-pipeline.server.ts";

const MAX_BODY = 8 * 1024 * 1024;

// Registered in app/routes.ts; public and exempt from CSRF in app/domain/access.ts.
export async function action({ request }: { request: Request }) {
  if (request.method !== "POST") return new Response("Método no permitido", { status: 405 });
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY) return new Response("Mensaje demasiado grande", { status: 413 });
  const body = await request.text();
  if (body.length > MAX_BODY) return new Response("Mensaje demasiado grande", { status: 413 });
  const result = await handleHaciendaCallback(db(), body, new Date());
  return new Response(result.message, { status: result.status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

export function loader() {
  return new Response("Método no permitido", { status: 405, headers: { allow: "POST" } });
}
