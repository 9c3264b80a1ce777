// /download-all-files/:id — every document of a company (signed XML, Hacienda's answer, PDF) as one
// ZIP, streamed while it is built ('Descargar XML y PDF' on /companies and /all-companies; spec
// part 1 §7 download-all-files/{id}). A resource route: the answer is the file itself, never page
// data. A company the user may not manage is 404; one without documents goes back to the list
// with the spec's message.
import type { Route } from "./+types/download-all-files";
import { downloadAllFiles } from "../../server/companies.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : NaN;
  if (!Number.isInteger(id)) throw new Response("No encontrado", { status: 404 });
  const back = new URL(request.url).searchParams.get("from") === "all-companies" ? "/all-companies" : "/companies";
  const result = await downloadAllFiles(db(), user!, id);
  return result instanceof Response ? result : redirectWithToast(back, result);
}
