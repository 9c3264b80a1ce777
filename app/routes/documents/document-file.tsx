// /document-file/:id/:file — downloads of a document of the current company: `pdf` (rendered from
// the stored view), `recibo` (the same as a receipt as wide as the company's thermal roll, 80 mm
// unless it chose 58 mm; ?formato=80|58), `xml` (the stored signed bytes, as submitted) and
// `respuesta` (Hacienda's answer). Anything else — unknown file, another company's id, a file not stored yet, no session —
// is the same 404 'Este archivo no esta disponible para su descarga' (spec part 2 §8).
import type { Route } from "./+types/document-file";
import { generalConfigOf } from "../../../db/queries/config.ts";
import { PDF_UNAVAILABLE } from "../../pdf/invoice-pdf.server.tsx";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { documentFile, fileResponse } from "../../server/document-files.server.ts";

function unavailable(): Response {
  return new Response(PDF_UNAVAILABLE, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, company } = context.get(requestContext);
  const id = Number(params.id);
  if (!user || !company || !Number.isInteger(id) || id <= 0) return unavailable();
  const file = params.file;
  if (file !== "pdf" && file !== "recibo" && file !== "xml" && file !== "respuesta") return unavailable();
  const database = db();
  let receiptWidth: "80" | "58" | undefined;
  if (file === "recibo") {
    const asked = new URL(request.url).searchParams.get("formato");
    receiptWidth = asked === "58" || asked === "80" ? asked : (await generalConfigOf(database, company.id))?.printFormat === "58" ? "58" : "80";
  }
  const found = await documentFile(database, { companyId: company.id, documentId: id, file, receiptWidth });
  return found ? fileResponse(found) : unavailable();
}
