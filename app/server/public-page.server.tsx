// /query-public/:code64 — the public, printable document (spec part 1 §2.3, part 2 "Document detail
// viewer"). No sign-in, no JavaScript: a resource route that answers a complete, self-contained HTML
// page (inline CSS, QR as inline SVG), so the root layout's stylesheet and scripts are not shipped
// and the page stays well under 30 kB. Unknown or tampered codes: 404 'No hay información'.
// Decision: docs/decisions/083-public-page.md.
import { renderToStaticMarkup } from "react-dom/server";
import { partyHeading, type DocumentView } from "../domain/document-view.ts";
import { LEGAL_NOTICE } from "../domain/legal.ts";
import { clientLines, companyLines, documentFacts, lineCells, lineColumns, referenceLines, totalRows } from "../pdf/layout.ts";
import { qrSvg } from "../pdf/qr.server.ts";
import { parsePublicCode, type PublicRef } from "./public-link.server.ts";
import { standalonePagePolicy } from "./security-headers.server.ts";

export const NOT_FOUND_TEXT = "No hay información";
/** Logos larger than this are left out of the page to keep it light. */
const MAX_INLINE_LOGO = 12 * 1024;

const CSS = `*{box-sizing:border-box}body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1f2937;margin:0;background:#f3f4f6}
main{max-width:960px;margin:16px auto;background:#fff;padding:24px;border:1px solid #e5e7eb}
header{display:flex;justify-content:space-between;gap:16px}h1{font-size:18px;margin:0}h2{font-size:16px;margin:0 0 4px;text-align:right}
.co{display:flex;gap:12px}.co img{max-width:90px;max-height:90px}.muted{color:#4b5563}.facts{text-align:right}
.box{border:1px solid #d1d5db;border-radius:4px;padding:8px;margin:12px 0;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;margin-top:8px}th{background:#e5e7eb;text-align:left}th,td{padding:4px;border-bottom:1px solid #e5e7eb;vertical-align:top}
.r{text-align:right;white-space:nowrap}.bottom{display:flex;gap:16px;justify-content:space-between;margin-top:12px}
.totals{min-width:260px}.totals td{border:0;padding:2px 4px}.strong{font-weight:700;font-size:15px}
.qr{display:flex;gap:12px;margin-top:16px;align-items:flex-start}.qr svg{width:120px;height:120px;flex:none}.small{font-size:12px}
.alert{max-width:480px;margin:64px auto;padding:16px;background:#fff;border:1px solid #e5e7eb;text-align:center}
@media print{body{background:#fff}main{margin:0;border:0;padding:0}}`;

/** No script; the inline CSS above is allowed by its hash, the logo is a data: URL. */
const POLICY = standalonePagePolicy(CSS);
/** The same page as the detail's print variant: the app may frame it to print it. */
const PRINT_POLICY = standalonePagePolicy(CSS, { framedBySelf: true });

function page(title: string, body: string, status: number, policy = POLICY): Response {
  const html = `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
      "Content-Security-Policy": policy,
    },
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function notFoundPage(): Response {
  return page(NOT_FOUND_TEXT, `<div class="alert" role="alert">${NOT_FOUND_TEXT}</div>`, 404);
}

function PublicDocument({ view, qr }: { view: DocumentView; qr: string }) {
  const c = view.company;
  const cols = lineColumns(view);
  const party = partyHeading(view);
  const logo = c.logo && c.logo.bytes.length <= MAX_INLINE_LOGO ? `data:${c.logo.mime};base64,${Buffer.from(c.logo.bytes).toString("base64")}` : null;
  return (
    <main>
      <header>
        <div className="co">
          {logo ? <img src={logo} alt="" /> : null}
          <div>
            <h1>{c.name}</h1>
            {c.fantasyName ? <div>{c.fantasyName}</div> : null}
            {companyLines(view).map((l) => (
              <div key={l} className="muted">
                {l}
              </div>
            ))}
          </div>
        </div>
        <div className="facts">
          <h2>{view.kindLabel}</h2>
          {documentFacts(view).map((f) => (
            <div key={f.label}>
              <b>{f.label}:</b> {f.value}
            </div>
          ))}
        </div>
      </header>
      {view.clave ? (
        <div className="box">
          <b>Clave:</b> {view.clave}
        </div>
      ) : null}
      <div className="box">
        <b>{party.label}:</b> {party.name}
        {clientLines(view).map((l) => (
          <div key={l}>{l}</div>
        ))}
      </div>
      <table>
        <thead>
          <tr>
            {cols.map((col) => (
              <th key={col.key} className={col.align === "right" ? "r" : undefined}>
                {col.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {lineCells(view).map((row, i) => (
            <tr key={i}>
              {cols.map((col) => (
                <td key={col.key} className={col.align === "right" ? "r" : undefined}>
                  {row[col.key]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="bottom">
        <div>
          {referenceLines(view).map((r) => (
            <p key={r}>
              <b>Referencia:</b> {r}
            </p>
          ))}
          {view.note ? (
            <p>
              <b>Observaciones:</b> {view.note}
            </p>
          ) : null}
        </div>
        <table className="totals">
          <tbody>
            {totalRows(view).map((r) => (
              <tr key={r.label} className={r.strong ? "strong" : undefined}>
                <td>{r.label}</td>
                <td className="r">{r.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="qr">
        <div dangerouslySetInnerHTML={{ __html: qr }} />
        <div>
          {view.terms ? (
            <p>
              <b>Términos y condiciones:</b> {view.terms}
            </p>
          ) : null}
          {view.kind !== "qt" ? <p className="small">{LEGAL_NOTICE}</p> : null}
        </div>
      </div>
    </main>
  );
}

/** The QR of a document's public link as inline SVG markup, labelled for screen readers. */
export async function documentQrSvg(url: string): Promise<string> {
  return (await qrSvg(url)).replace(/<\?xml[^>]*\?>/, "").replace("<svg ", '<svg role="img" aria-label="Código QR del documento" ');
}

/** The page of a view (200), as a complete HTML response: the public page, and the detail's full-page print variant. */
export async function publicPageResponse(view: DocumentView, opts: { print?: boolean } = {}): Promise<Response> {
  const qr = await documentQrSvg(view.publicUrl);
  return page(`${view.kindLabel} ${view.consecutive}`, renderToStaticMarkup(<PublicDocument view={view} qr={qr} />), 200, opts.print ? PRINT_POLICY : POLICY);
}

/** The whole request: code → view → page; anything not found or invalid is the same 404. */
export async function queryPublic(code: string | undefined, load: (ref: PublicRef) => Promise<DocumentView | null>): Promise<Response> {
  const ref = parsePublicCode(code);
  if (!ref) return notFoundPage();
  const view = await load(ref);
  if (!view) return notFoundPage();
  return publicPageResponse(view);
}

