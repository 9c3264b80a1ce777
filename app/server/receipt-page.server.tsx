// The receipt print page for 80 mm and 58 mm thermal printers (issue 14 point 6, decision 165): a
// complete, self-contained HTML page (inline CSS, the QR of the public link as inline SVG, no
// JavaScript) whose print stylesheet sets the roll's width. What it prints is app/domain/receipt.ts's,
// the same the narrow PDF prints.
import { renderToStaticMarkup } from "react-dom/server";
import type { DocumentView } from "../domain/document-view.ts";
import { RECEIPT_WIDTHS } from "../domain/print-formats.ts";
import { receiptOf, type Receipt } from "../domain/receipt.ts";
import { documentQrSvg } from "./public-page.server.tsx";
import { standalonePagePolicy } from "./security-headers.server.ts";

function css(format: "80" | "58"): string {
  const { paper, printable } = RECEIPT_WIDTHS[format];
  const font = format === "80" ? 12 : 10.5;
  return `*{box-sizing:border-box}html,body{margin:0;background:#fff;color:#000}
body{font:${font}px/1.3 "Noto Sans",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.receipt{width:${printable}mm;margin:0 auto;padding:2mm 0}
h1{font-size:1.25em;margin:0;text-align:center}h2{font-size:1.1em;margin:.4em 0;text-align:center;text-transform:uppercase}
.c{text-align:center}.muted{color:#222}.rule{border-top:1px dashed #000;margin:.5em 0}
.facts div,.row{display:flex;justify-content:space-between;gap:1mm}.facts b{font-weight:600}
.clave{overflow-wrap:anywhere;font-size:.85em}.line{margin:.3em 0}.line .d{font-weight:600}.line .x{font-size:.9em}
.row span:last-child{text-align:right;white-space:nowrap}.strong{font-weight:700;font-size:1.15em}
.qr{text-align:center;margin-top:.6em}.qr svg{width:${Math.min(34, printable - 14)}mm;height:${Math.min(34, printable - 14)}mm}.small{font-size:.8em;text-align:center;overflow-wrap:anywhere}
@page{margin:0}
@media screen{body{background:#e5e7eb}.receipt{background:#fff;padding:3mm;margin:8px auto;box-shadow:0 1px 3px #0003;width:${paper}mm}}
@media print{.receipt{width:${printable}mm}}`;
}

function ReceiptBody({ r, qr, format }: { r: Receipt; qr: string; format: "80" | "58" }) {
  return (
    <main className="receipt" data-receipt={format}>
      <h1>{r.company.name}</h1>
      {r.company.lines.map((l) => (
        <div key={l} className="c muted">
          {l}
        </div>
      ))}
      <h2>{r.title}</h2>
      <div className="facts">
        {r.facts.map((f) => (
          <div key={f.label}>
            <b>{f.label}</b>
            <span>{f.value}</span>
          </div>
        ))}
      </div>
      {r.clave ? <div className="clave">Clave: {r.clave}</div> : null}
      {r.client.length ? (
        <>
          <div className="rule" />
          {r.client.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </>
      ) : null}
      <div className="rule" />
      {r.lines.map((l, i) => (
        <div key={i} className="line" data-receipt-line>
          <div className="d">{l.description}</div>
          <div className="row x">
            <span>{l.detail}</span>
            <span>{l.total}</span>
          </div>
        </div>
      ))}
      <div className="rule" />
      {r.totals.map((t) => (
        <div key={t.label} className={`row${t.strong ? " strong" : ""}`}>
          <span>{t.label}</span>
          <span>{t.value}</span>
        </div>
      ))}
      {r.note ? (
        <>
          <div className="rule" />
          <div>{r.note}</div>
        </>
      ) : null}
      <div className="qr" dangerouslySetInnerHTML={{ __html: qr }} />
      <div className="small">{r.publicUrl}</div>
      {r.legal ? <p className="small">{r.legal}</p> : null}
    </main>
  );
}

/** The receipt page of a view for a roll of `format` millimetres (200, complete HTML). */
export async function receiptPageResponse(view: DocumentView, format: "80" | "58"): Promise<Response> {
  const qr = await documentQrSvg(view.publicUrl);
  const body = renderToStaticMarkup(<ReceiptBody r={receiptOf(view)} qr={qr} format={format} />);
  const title = `${view.kindLabel} ${view.consecutive}`.replace(/[&<>"']/g, "");
  const style = css(format);
  const html = `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${style}</style></head><body>${body}</body></html>`;
  // No script; the inline CSS allowed by its hash (main's CSP has no inline styles); framed by the app to print.
  return new Response(html, {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer", "Content-Security-Policy": standalonePagePolicy(style, { framedBySelf: true }) },
  });
}
