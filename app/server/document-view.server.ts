// Loads a stored document as a DocumentView (app/domain/document-view.ts) for the PDF, the public
// page and the e-mail. Tenancy: always by companyId and documentId together.
//
// NOT YET WIRED: the document queries (db/queries/documents.ts) are being written by the issuing
// work. Until they export a loader of a document with its lines, this returns null, so the public
// page answers 'No hay información' (404). Mapping their rows to DocumentView is the next step.
import type { DbOrTx } from "../../db/client.ts";
import type { DocumentView } from "../domain/document-view.ts";

export async function loadDocumentView(_db: DbOrTx, _ref: { companyId: number; documentId: number }): Promise<DocumentView | null> {
  return null;
}
