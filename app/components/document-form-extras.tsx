// The parts of the shared document form (document-form-view.tsx) that most pages do not show:
// 'Buscar cliente' and the item search for large catalogues and the point of sale, and the ticket
// just saved with 'Guardar e imprimir'. The form loads this module lazily (docs/decisions/155).
import { useEffect } from "react";
import { formatMoney } from "../domain/format-money.ts";
import type { DocumentFormState } from "../server/document-form.server.ts";

/**
 * 'Buscar cliente' when the company has too many clients to list (docs/decisions/101): the
 * re-rendered select offers the matches (Enter in the box searches too). Works without JavaScript.
 */
export function ClientSearch({ search }: { search: NonNullable<DocumentFormState["lists"]["clientSearch"]> }) {
  return (
    <span className="mt-1 block space-y-1" data-client-search>
      <span className="flex gap-2">
        <input name="client_search" className="input flex-1" aria-label="Buscar cliente" placeholder="Nombre o identificación" defaultValue={search.query} autoComplete="off" />
        <button type="submit" name="intent" value="client-search" formNoValidate className="btn btn-outline btn-sm">
          Buscar cliente
        </button>
      </span>
      {search.query && (
        <span className="block text-sm" role="status">
          {search.found ? `${search.found} encontrados: elija uno en la lista.` : "No se encontraron clientes."}
        </span>
      )}
    </span>
  );
}

/**
 * The item search: the point of sale (mode_pos), or a catalogue too large to list on every line.
 * Enter in the box (a barcode reader types the code and Enter) adds the item with that code, or
 * lists the matches; 'Agregar' adds one. All are form submissions that keep everything typed, so it
 * works without JavaScript.
 */
export function PosSearch({ pos, symbol, pointOfSale }: { pos: NonNullable<DocumentFormState["pos"]>; symbol: string; pointOfSale: boolean }) {
  return (
    <section className="card space-y-2" aria-label={pointOfSale ? "Punto de venta" : "Artículos del catálogo"} data-pos>
      <div className="flex gap-2">
        <input id="pos_search" name="pos_search" className="input flex-1" aria-label="Buscar artículo" placeholder="Código, nombre o CABYS" defaultValue={pos.query} autoFocus={pointOfSale} autoComplete="off" />
        <button type="submit" name="intent" value="pos-search" className="btn btn-outline">
          Buscar
        </button>
      </div>
      {pos.message && (
        <p className="text-sm" role="status">
          {pos.message}
        </p>
      )}
      {pos.results.length > 0 && (
        <ul className="divide-y divide-slate-200" data-pos-results>
          {pos.results.map((it) => (
            <li key={it.id} className="flex items-center justify-between gap-2 py-1 text-sm">
              <span>
                {it.code} — {it.name} · {formatMoney(it.price, symbol)}
              </span>
              <button type="submit" name="intent" value={`pos-add:${it.id}`} className="btn btn-outline btn-sm" aria-label={`Agregar ${it.name}`}>
                Agregar
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Print delay after 'Guardar e imprimir' (part 2 §9). */
const PRINT_DELAY_MS = 1000;

/**
 * The ticket just saved with 'Guardar e imprimir': with JavaScript it prints by itself after 1 s
 * (its print page in a hidden frame) while the form is ready for the next sale; without it, the
 * link opens the print page.
 */
export function PrintedTicket({ printed }: { printed: NonNullable<DocumentFormState["printed"]> }) {
  const href = `/detail/ticket/${printed.id}/print`;
  useEffect(() => {
    const frame = document.createElement("iframe");
    frame.hidden = true;
    const timer = setTimeout(() => {
      frame.src = href;
      frame.onload = () => frame.contentWindow?.print();
      document.body.appendChild(frame);
    }, PRINT_DELAY_MS);
    return () => {
      clearTimeout(timer);
      frame.remove();
    };
  }, [href]);
  return (
    <div className="card flex items-center justify-between gap-2" data-printed-ticket>
      <span>Tiquete {printed.consecutivo} guardado.</span>
      <a className="btn btn-outline btn-sm" href={href} target="_blank" rel="noreferrer">
        Imprimir
      </a>
    </div>
  );
}
