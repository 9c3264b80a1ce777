// The document a detail screen shows (detail.tsx, detail-print.tsx): the type's kinds, the current
// company's document by id; anything else is 404 'No encontrado'.
import { data } from "react-router";
import type { DbOrTx } from "../../../db/client.ts";
import { DETAIL_TYPE_KINDS } from "../../../db/queries/document-lists.ts";
import { documentOf } from "../../../db/queries/documents.ts";
import { NOT_FOUND } from "../../domain/document-source.ts";

export async function loadDetailDocument(db: DbOrTx, companyId: number, params: { type?: string; id?: string }) {
  const notFound = () => data(NOT_FOUND, { status: 404 });
  const kinds = DETAIL_TYPE_KINDS[params.type ?? ""];
  const id = Number(params.id);
  if (!kinds || !Number.isInteger(id) || id <= 0) throw notFound();
  const doc = await documentOf(db, { companyId, id });
  if (!doc || !kinds.includes(doc.kind) || doc.deletedAt) throw notFound();
  return { doc, kinds, type: params.type! };
}
