// A document's downloadable files, for the current company: `pdf` (rendered from the stored view),
// `recibo` (the same as a receipt as wide as a thermal roll, 80 or 58 mm: decision 165),
// `xml` (the stored signed bytes, as submitted) and `respuesta` (Hacienda's answer). Null when the
// file is not there (unknown file, another company's id, not stored yet). The web's
// /document-file/:id/:file and the API's downloads both serve these.
import type { Db } from "../../db/client.ts";
import { documentOf } from "../../db/queries/documents.ts";
import { documentFileBase } from "../domain/document-view.ts";
import { renderDocumentPdf } from "../pdf/invoice-pdf.server.tsx";
import { renderReceiptPdf } from "../pdf/receipt-pdf.server.tsx";
import { loadDocumentView } from "./document-view.server.ts";

export type DocumentFileKind = "pdf" | "recibo" | "xml" | "respuesta";

export interface DocumentFile {
  bytes: Uint8Array;
  type: string;
  filename: string;
}

export async function documentFile(db: Db, opts: { companyId: number; documentId: number; file: DocumentFileKind; receiptWidth?: "80" | "58" }): Promise<DocumentFile | null> {
  const { companyId, documentId: id, file } = opts;
  if (file === "recibo") {
    const view = await loadDocumentView(db, { companyId, documentId: id });
    if (!view) return null;
    try {
      return { bytes: await renderReceiptPdf(view, opts.receiptWidth ?? "80"), type: "application/pdf", filename: `${documentFileBase(view)}_recibo.pdf` };
    } catch {
      return null;
    }
  }
  if (file === "pdf") {
    const view = await loadDocumentView(db, { companyId, documentId: id });
    if (!view) return null;
    try {
      return { bytes: await renderDocumentPdf(view), type: "application/pdf", filename: `${documentFileBase(view)}.pdf` };
    } catch {
      return null;
    }
  }
  const doc = await documentOf(db, { companyId, id });
  if (!doc) return null;
  const base = documentFileBase({ clave: doc.clave ?? "", consecutive: doc.consecutivo ?? String(doc.number ?? doc.id), kind: doc.kind as never });
  const bytes = file === "xml" ? doc.signedXml : doc.responseXml;
  if (!bytes || bytes.length === 0) return null;
  return { bytes, type: "application/xml; charset=utf-8", filename: file === "xml" ? `${base}.xml` : `${base}_respuesta.xml` };
}

/** A file as a download. */
export function fileResponse(f: DocumentFile, headers: Record<string, string> = {}): Response {
  return new Response(new Uint8Array(f.bytes), {
    status: 200,
    headers: {
      "Content-Type": f.type,
      "Content-Disposition": `attachment; filename="${f.filename.replace(/["\\\r\n]/g, "")}"`,
      "Content-Length": String(f.bytes.byteLength),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ...headers,
    },
  });
}
