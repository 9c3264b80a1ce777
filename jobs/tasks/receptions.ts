// Received documents (app/server/receptions/*): asking Hacienda about a supplier's document, sending
// and polling our MensajeReceptor, the safety net, the deadline warnings and the reception mailbox.
// Each task is idempotent and calls the same use-cases as the web.
import type { JobHandler } from "../runner.ts";
import { checkIssuerStatus, pollReceptionMessage, submitReceptionMessage, sweepReceptions } from "../../app/server/receptions/pipeline.server.ts";
import { enqueueMailboxReads, readMailbox } from "../../app/server/receptions/mailbox.server.ts";
import { warnDeadlines } from "../../app/server/receptions/deadlines.server.ts";

const ids = (payload: Record<string, unknown>) => ({ companyId: Number(payload.companyId), id: Number(payload.id), attempt: Number(payload.attempt ?? 0) });

export const checkReceptionIssuerTask: JobHandler = async (payload, { db, now }) => {
  await checkIssuerStatus(db, ids(payload), now());
};

export const submitReceptionTask: JobHandler = async (payload, { db, now }) => {
  await submitReceptionMessage(db, ids(payload), now());
};

export const pollReceptionTask: JobHandler = async (payload, { db, now }) => {
  await pollReceptionMessage(db, { ...ids(payload), hint: payload.hint === true }, now());
};

export const receptionSweepTask: JobHandler = async (_payload, { db, now }) => {
  await sweepReceptions(db, now());
};

export const receptionMailboxTask: JobHandler = async (payload, { db, now }) => {
  await readMailbox(db, { companyId: Number(payload.companyId), now: now() });
};

export const receptionMailboxesTask: JobHandler = async (_payload, { db, now }) => {
  await enqueueMailboxReads(db, now());
};

export const receptionDeadlinesTask: JobHandler = async (_payload, { db, now }) => {
  await warnDeadlines(db, now());
};
