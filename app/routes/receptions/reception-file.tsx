// /message-receptors/:id/file/:file — the stored files of a received document of the current
// company, byte for byte: `xml` (the supplier's document as uploaded), `mensaje` (our signed
// MensajeReceptor), `respuesta` (Hacienda's answer to it), `hacienda-emisor` (Hacienda's answer to
// the supplier). Unknown file, another company's id, a file not stored: the same 404 (spec part 2 §8).
import type { Route } from "./+types/reception-file";
import { receptionFile, type ReceptionFile } from "../../../db/queries/receptions.ts";
import { PDF_UNAVAILABLE } from "../../pdf/invoice-pdf.server.tsx";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { attachment } from "../../server/receptions/http.server.ts";

const FILES: ReadonlySet<string> = new Set(["xml", "mensaje", "respuesta", "hacienda-emisor"]);

export async function loader({ params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const id = Number(params.id);
  const unavailable = new Response(PDF_UNAVAILABLE, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  if (!company || !Number.isInteger(id) || id <= 0 || !FILES.has(params.file)) return unavailable;
  const file = await receptionFile(db(), { companyId: company.id, id, file: params.file as ReceptionFile });
  if (!file) return unavailable;
  return attachment(file.bytes, "application/xml; charset=utf-8", file.name);
}
