// A document's downloadable files, for the current company: `pdf` (rendered from the stored view),
// `xml` (the stored signed bytes, as submitted) and `respuesta` (Hacienda's answer). Null when the
// file is not there (unknown file, another company's id, not stored yet). The web's
// /document-file/:id/:file and the API's downloads both serve these.
import type { Db } from "../../db/client.ts";
import { documentOf } from "../../db/queries/documents.ts";
import { documentFileBase } from "../domain/document-view.ts";
import { renderDocumentPdf } from "../pdf/invoice-pdf.server.tsx";
import { loadDocumentView } from "./document-view.server.ts";

export type DocumentFileKind = "pdf" | "xml" | "respuesta";

export interface DocumentFile {
  bytes: Uint8Array;
  type: string;
  filename: string;
}

export async function documentFile(db: Db, opts: { companyId: number; documentId: number; file: DocumentFileKind }): Promise<DocumentFile | null> {
  const { companyId, documentId: id, file } = opts;
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
