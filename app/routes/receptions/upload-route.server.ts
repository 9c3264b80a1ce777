// The loader and action shared by the two upload screens: the 'Subir Nuevo XML' dialog (child of
// /message-receptors) and the standalone /new-message-receptor page (spec part 2 §2). Plan 5 is
// read-only: 403. The action reads the body within its own limit, then one use-case (submitUpload)
// and a redirect with the toast back to the list.
import { data } from "react-router";
import type { RouterContextProvider } from "react-router";
import { RECEPTION_MESSAGES } from "../../domain/receptions.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { readLimitedForm, submitUpload, uploadFormLists, type UploadState } from "../../server/receptions/upload.server.ts";
import { warmEnginePool } from "../../server/engine/pool.server.ts";

export function requireWriter(context: Readonly<RouterContextProvider>) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data(RECEPTION_MESSAGES.notFound, { status: 404 });
  if (company.permission === 5) throw data(RECEPTION_MESSAGES.readOnly, { status: 403 });
  return { company, user };
}

/** The list, with the query the dialog was opened from. */
export function listUrl(request: Request): string {
  const params = new URL(request.url).searchParams;
  const kept = new URLSearchParams([...params].filter(([k]) => ["from", "to", "search", "filter", "perPage", "page"].includes(k)));
  const q = kept.toString();
  return `/message-receptors${q ? `?${q}` : ""}`;
}

export async function uploadLoader({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
  const { company } = requireWriter(context);
  // The workers that verify the XML start while the user chooses the files.
  warmEnginePool();
  return { lists: await uploadFormLists(db(), company.id), back: listUrl(request) };
}

export async function uploadAction({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
  const { company, user } = requireWriter(context);
  const read = await readLimitedForm(request);
  if (!read.ok) return data<UploadState>({ errors: { xml_file: read.message }, values: {}, kept: null, outcomes: [], processed: [] }, { status: 413 });
  const result = await submitUpload(db(), { companyId: company.id, userId: user.id, form: read.form, now: new Date() });
  if (result.done) return redirectWithToast(listUrl(request), { type: "success", text: result.message });
  return data<UploadState>(result.state, { status: result.status });
}
