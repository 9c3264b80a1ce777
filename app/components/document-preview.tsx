// The document as printed, inside the app (detail viewer and its print variant). Same content and
// order as the public page and the PDF: every cell comes from app/pdf/layout.ts over the stored
// DocumentView, so the three never disagree.
import { partyHeading, type DocumentView } from "../domain/document-view.ts";
import { LEGAL_NOTICE } from "../domain/legal.ts";
import { clientLines, companyLines, documentFacts, lineCells, lineColumns, referenceLines, totalRows } from "../pdf/layout.ts";

/** A view whose logo was turned into a URL (bytes do not travel to the browser). */
export type PreviewView = Omit<DocumentView, "company"> & { company: Omit<DocumentView["company"], "logo"> & { logo: null } };

export function DocumentPreview({ view, logoSrc, ribbon }: { view: PreviewView; logoSrc?: string | null; ribbon?: string | null }) {
  const c = view.company;
  const full = view as DocumentView;
  const cols = lineColumns(full);
  const party = partyHeading(view);
  return (
    <article className="relative overflow-hidden rounded border border-slate-200 bg-white p-4 text-sm print:border-0 print:p-0" data-document-preview>
      {ribbon ? (
        <div className={`mb-3 inline-block rounded px-3 py-1 text-xs font-semibold uppercase ${ribbon === "aceptado" ? "bg-green-100 text-green-800" : ribbon === "rechazado" ? "bg-red-100 text-red-800" : "bg-amber-100 text-amber-800"}`} data-status-ribbon>
          {ribbon}
        </div>
      ) : null}
      <header className="flex flex-wrap justify-between gap-4">
        <div className="flex gap-3">
          {logoSrc ? <img src={logoSrc} alt="" className="max-h-20 max-w-20" /> : null}
          <div>
            <h2 className="text-base font-semibold">{c.name}</h2>
            {c.fantasyName ? <div>{c.fantasyName}</div> : null}
            {companyLines(full).map((l) => (
              <div key={l} className="text-slate-600">
                {l}
              </div>
            ))}
          </div>
        </div>
        <div className="text-right">
          <h3 className="font-semibold">{view.kindLabel}</h3>
          {documentFacts(full).map((f) => (
            <div key={f.label}>
              <b>{f.label}:</b> {f.value}
            </div>
          ))}
        </div>
      </header>
      {view.clave ? (
        <div className="my-3 break-all rounded border border-slate-300 p-2" data-clave>
          <b>Clave:</b> {view.clave}
        </div>
      ) : null}
      <div className="my-3 rounded border border-slate-300 p-2">
        <b>{party.label}:</b> {party.name}
        {clientLines(full).map((l) => (
          <div key={l}>{l}</div>
        ))}
      </div>
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              {cols.map((col) => (
                <th key={col.key} className={col.align === "right" ? "text-right" : undefined}>
                  {col.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lineCells(full).map((row, i) => (
              <tr key={i}>
                {cols.map((col) => (
                  <td key={col.key} className={col.align === "right" ? "whitespace-nowrap text-right" : undefined}>
                    {row[col.key]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap justify-between gap-4">
        <div>
          {referenceLines(full).map((r) => (
            <p key={r}>
              <b>Referencia:</b> {r}
            </p>
          ))}
          {view.note ? (
            <p>
              <b>Observaciones:</b> {view.note}
            </p>
          ) : null}
          {view.terms ? (
            <p>
              <b>Términos y condiciones:</b> {view.terms}
            </p>
          ) : null}
        </div>
        <table className="min-w-64">
          <tbody>
            {totalRows(full).map((r) => (
              <tr key={r.label} className={r.strong ? "font-semibold" : undefined}>
                <td className="pr-4">{r.label}</td>
                <td className="text-right">{r.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {view.kind !== "qt" ? <p className="mt-3 text-xs text-slate-600">{LEGAL_NOTICE}</p> : null}
    </article>
  );
}
