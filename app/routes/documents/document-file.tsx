// /document-file/:id/:file — downloads of a document of the current company: `pdf` (rendered from
// the stored view), `recibo` (the same as a receipt as wide as the company's thermal roll, 80 mm
// unless it chose 58 mm; ?formato=80|58), `xml` (the stored signed bytes, as submitted) and
// `respuesta` (Hacienda's answer). Anything else — unknown file, another company's id, a file not stored yet, no session —
// is the same 404 'Este archivo no esta disponible para su descarga' (spec part 2 §8).
import type { Route } from "./+types/document-file";
import { documentOf } from "../../../db/queries/documents.ts";
import { documentFileBase } from "../../domain/document-view.ts";
import { PDF_UNAVAILABLE, renderDocumentPdf } from "../../pdf/invoice-pdf.server.tsx";
import { renderReceiptPdf } from "../../pdf/receipt-pdf.server.tsx";
import { generalConfigOf } from "../../../db/queries/config.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { loadDocumentView } from "../../server/document-view.server.ts";

function unavailable(): Response {
  return new Response(PDF_UNAVAILABLE, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

function attachment(body: Uint8Array, type: string, filename: string): Response {
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      "Content-Type": type,
      "Content-Disposition": `attachment; filename="${filename.replace(/["\\\r\n]/g, "")}"`,
      "Content-Length": String(body.byteLength),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, company } = context.get(requestContext);
  const id = Number(params.id);
  if (!user || !company || !Number.isInteger(id) || id <= 0) return unavailable();
  const file = params.file;
  if (file !== "pdf" && file !== "recibo" && file !== "xml" && file !== "respuesta") return unavailable();
  const database = db();
  if (file === "recibo") {
    const view = await loadDocumentView(database, { companyId: company.id, documentId: id });
    if (!view) return unavailable();
    const asked = new URL(request.url).searchParams.get("formato");
    const format = asked === "58" || asked === "80" ? asked : (await generalConfigOf(database, company.id))?.printFormat === "58" ? "58" : "80";
    try {
      return attachment(await renderReceiptPdf(view, format), "application/pdf", `${documentFileBase(view)}_recibo.pdf`);
    } catch {
      return unavailable();
    }
  }
  if (file === "pdf") {
    const view = await loadDocumentView(database, { companyId: company.id, documentId: id });
    if (!view) return unavailable();
    try {
      return attachment(await renderDocumentPdf(view), "application/pdf", `${documentFileBase(view)}.pdf`);
    } catch {
      return unavailable();
    }
  }
  const doc = await documentOf(database, { companyId: company.id, id });
  if (!doc) return unavailable();
  const base = documentFileBase({ clave: doc.clave ?? "", consecutive: doc.consecutivo ?? String(doc.number ?? doc.id), kind: doc.kind as never });
  const bytes = file === "xml" ? doc.signedXml : doc.responseXml;
  if (!bytes || bytes.length === 0) return unavailable();
  return attachment(bytes, "application/xml; charset=utf-8", file === "xml" ? `${base}.xml` : `${base}_respuesta.xml`);
}
