// /message-receptors/:id/pdf — the received document as PDF (issue 12 item 6), rendered from the
// stored XML by the same renderer as issued documents. Another company's id or an unreadable
// document: 404 'Este archivo no esta disponible para su descarga' (spec part 2 §8).
import type { Route } from "./+types/reception-pdf";
import { receptionForPdf } from "../../../db/queries/receptions.ts";
import { PDF_UNAVAILABLE, renderDocumentPdf } from "../../pdf/invoice-pdf.server.tsx";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { attachment } from "../../server/receptions/http.server.ts";
import { receivedDocumentView } from "../../server/receptions/view.server.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const id = Number(params.id);
  const unavailable = new Response(PDF_UNAVAILABLE, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  if (!company || !Number.isInteger(id) || id <= 0) return unavailable;
  const row = await receptionForPdf(db(), { companyId: company.id, id });
  if (!row) return unavailable;
  try {
    return attachment(await renderDocumentPdf(receivedDocumentView(row)), "application/pdf", `${row.clave}.pdf`);
  } catch {
    return unavailable;
  }
}
