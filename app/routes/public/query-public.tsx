// /query-public/:code64 — the public, printable document; the page itself is built in
// app/server/public-page.server.tsx (no sign-in, no JavaScript, 404 'No hay información').
import type { LoaderFunctionArgs } from "react-router";
import { db } from "../../server/db.server.ts";
import { loadDocumentView } from "../../server/document-view.server.ts";
import { queryPublic } from "../../server/public-page.server.tsx";

export const handle = { hydrate: false };

export async function loader({ params }: LoaderFunctionArgs) {
  return queryPublic(params.code64, (ref) => loadDocumentView(db(), ref));
}
