// E-mails an accepted document to its client and the notify list (app/server/document-email.server.ts).
// Queued by the send pipeline when Hacienda accepts; a failure throws and the runner retries it.
import type { JobHandler } from "../runner.ts";
import { sendDocumentEmailOnce } from "../../app/server/document-email.server.ts";

export const sendDocumentEmailTask: JobHandler = async (payload, { db, now }) => {
  await sendDocumentEmailOnce(db, { companyId: Number(payload.companyId), documentId: Number(payload.documentId) }, now());
};
