// Submits an issued document's stored signed XML to Hacienda (app/server/hacienda-pipeline.server.ts).
// Idempotent: a document no longer 'por enviar' is skipped; a retryable failure throws and the
// runner retries with backoff while the document stays 'por enviar'.
import type { JobHandler } from "../runner.ts";
import { submitDocument } from "../../app/server/hacienda-pipeline.server.ts";

export interface SubmitDocumentPayload {
  companyId: number;
  documentId: number;
}

export const submitDocumentTask: JobHandler = async (payload, { db, now }) => {
  const p = payload as unknown as SubmitDocumentPayload;
  await submitDocument(db, { companyId: Number(p.companyId), documentId: Number(p.documentId) }, now());
};
