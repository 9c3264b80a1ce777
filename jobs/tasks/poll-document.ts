// Asks Hacienda for a submitted document's state; schedules the next poll with backoff until
// aceptado/rechazado (app/server/hacienda-pipeline.server.ts). Also the 'hacienda-sweep' safety net.
import type { JobHandler } from "../runner.ts";
import { pollDocument, sweepPending } from "../../app/server/hacienda-pipeline.server.ts";

export interface PollDocumentPayload {
  companyId: number;
  documentId: number;
  attempt: number;
  /** Queued by Hacienda's callback: look once, leave the backoff chain alone. */
  hint?: boolean;
}

export const pollDocumentTask: JobHandler = async (payload, { db, now }) => {
  const p = payload as unknown as PollDocumentPayload;
  await pollDocument(db, { companyId: Number(p.companyId), documentId: Number(p.documentId), attempt: Number(p.attempt ?? 0), hint: p.hint === true }, now());
};

export const haciendaSweepTask: JobHandler = async (_payload, { db, now }) => {
  await sweepPending(db, now());
};
