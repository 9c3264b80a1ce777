// /detail/:type/:id/print (the print variant of detail-transaction): a complete HTML page to print,
// with the QR of the public link — the full page (the public page's layout) or, when the company
// prints on a thermal roll (general configuration, decision 165), the 80 mm or 58 mm receipt.
// ?formato=a4|80|58 asks for one format. Tenancy: the detail's own read (company and id together).
import type { Route } from "./+types/detail-print";
import { data } from "react-router";
import { generalConfigOf } from "../../../db/queries/config.ts";
import { isPrintFormat } from "../../domain/print-formats.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { loadDocumentView } from "../../server/document-view.server.ts";
import { publicPageResponse } from "../../server/public-page.server.tsx";
import { receiptPageResponse } from "../../server/receipt-page.server.tsx";
import { NOT_FOUND } from "../../domain/document-source.ts";
import { loadDetailDocument } from "./detail.server.ts";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  if (params.print !== "print") throw data(NOT_FOUND, { status: 404 });
  const database = db();
  const { doc } = await loadDetailDocument(database, company!.id, params);
  const view = await loadDocumentView(database, { companyId: company!.id, documentId: doc.id });
  if (!view) throw data(NOT_FOUND, { status: 404 });
  const asked = new URL(request.url).searchParams.get("formato");
  const format = isPrintFormat(asked) ? asked : ((await generalConfigOf(database, company!.id))?.printFormat ?? "a4");
  return format === "80" || format === "58" ? receiptPageResponse(view, format) : publicPageResponse(view, { print: true });
}
