// /expense-file/:id — the receipt of one of the current company's expenses (docs/decisions/150).
// Read by the expense's id and the company together: another company's expense, a deleted one, one
// without receipt or a missing file are the same 404. The file is sent with its stored type, a
// sandboxing Content-Security-Policy and nosniff, so nothing in it runs as a page of the site; a PDF
// is offered as a download.
import type { Route } from "./+types/expense-file";
import { expenseAttachmentOf } from "../../../db/queries/expenses.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { ATTACHMENT_UNAVAILABLE, attachmentStream } from "../../server/expense-files.server.ts";

function unavailable(): Response {
  return new Response(ATTACHMENT_UNAVAILABLE, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  if (!company || !/^\d{1,9}$/.test(params.id)) return unavailable();
  const row = await expenseAttachmentOf(db(), { companyId: company.id, expenseId: Number(params.id) });
  const file = row ? attachmentStream(row.storedName) : null;
  if (!row || !file) return unavailable();
  const pdf = row.mime === "application/pdf";
  const ascii = row.originalName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "");
  return new Response(file.stream, {
    status: 200,
    headers: {
      "Content-Type": row.mime,
      "Content-Length": String(file.size),
      // Photos open in the browser; a PDF is downloaded (a browser's PDF viewer is not sandboxed by CSP).
      "Content-Disposition": `${pdf ? "attachment" : "inline"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.originalName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
