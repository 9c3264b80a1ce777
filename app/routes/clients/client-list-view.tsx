import { lazy, useCallback, useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation, useRevalidator, type FetcherWithComponents } from "react-router";
import { ConfirmAction } from "../../components/confirm.tsx";
import { AppForm, SubmitButton } from "../../components/form.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { CLIENT_SCREEN_TEXTS } from "../../domain/client-texts.ts";
import { formatMoney, truncate } from "../../domain/format.ts";
import { Toasts } from "../../components/toasts.tsx";
import type { Toast } from "../../server/context.ts";
import type { ClientListData } from "./client-list-screen.tsx";
import type { ToggleReply } from "./list.server.ts";
import { AppLink } from "../../components/app-link.tsx";

// The account statement over the list (?statement=ID) is loaded by the browser only when the URL
// opens it; the server renders it whole either way (docs/decisions/155). The new/edit client popup
// is a screen of its own (client-list-screen.tsx).
const StatementDialog = lazy(() => import("./screens/statement.tsx").then((m) => ({ default: m.StatementDialog })));

type Row = ClientListData["rows"][number];

/** How long a toggled row stays in the list with its new state before it leaves (spec part 1 §4). */
export const ROW_LEAVE_MS = 1000;

/** The clients list (tabs) or the providers list, with the account statement and the activity catalogue dialogs of spec part 1 §2.3. */
export function ClientListView({ loaderData }: { loaderData: ClientListData }) {
  const { base, back, provider, inactive, readOnly, rows, page, perPage, search, statement, activities, canImportActivities } = loaderData;
  const { search: qs } = useLocation();
  const withParam = (k: string, v: string | number) => {
    const p = new URLSearchParams(qs);
    for (const drop of ["new", "edit", "statement", "activities"]) p.delete(drop);
    p.set(k, String(v));
    return `${base}?${p.toString()}`;
  };
  const noun = provider ? "Proveedor" : "Cliente";

  // Activate/deactivate with JavaScript: the row shows its new state and the server's message, and
  // after 1 s leaves the tab it no longer belongs to (the providers list keeps it); then the list
  // reloads. Without JavaScript the same forms post and the redirect re-renders the list.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const [toggled, setToggled] = useState<Record<number, boolean>>({});
  const [gone, setGone] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<{ seq: number; toast: Toast } | null>(null);
  const revalidator = useRevalidator();
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  useEffect(() => {
    // Fresh rows from the server replace what the page showed meanwhile.
    setToggled({});
    setGone(new Set());
  }, [rows]);
  const onToggled = useCallback(
    (t: ToggleReply) => {
      setNotice((n) => ({ seq: (n?.seq ?? 0) + 1, toast: t.toast }));
      if (!t.ok) return;
      setToggled((m) => ({ ...m, [t.id]: t.active }));
      timers.current.push(
        setTimeout(() => {
          if (!provider) setGone((g) => new Set(g).add(t.id));
          void revalidator.revalidate();
        }, ROW_LEAVE_MS),
      );
    },
    [provider, revalidator],
  );
  const empty = provider ? CLIENT_SCREEN_TEXTS.emptyProviders : inactive ? CLIENT_SCREEN_TEXTS.emptyInactive : CLIENT_SCREEN_TEXTS.emptyActive;
  const columns = provider ? 8 : readOnly ? 6 : 7;

  return (
    <div className="card">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">{provider ? "Proveedores" : "Clientes"}</h1>
        <div className="flex gap-2">
          {!provider && canImportActivities && (
            <Link to={withParam("activities", 1)} className="btn btn-outline">
              Catálogo de actividades
            </Link>
          )}
          {!readOnly && (
            <Link to={withParam("new", 1)} className="btn btn-primary">
              {provider ? "Nuevo Proveedor" : "Nuevo Cliente"}
            </Link>
          )}
        </div>
      </div>
      {!provider && (
        <nav className="mb-4 flex gap-2 border-b border-slate-200" aria-label="Pestañas">
          <AppLink to="/clients" className={`px-3 py-2 ${!inactive ? "border-b-2 border-primary font-semibold" : ""}`} aria-current={!inactive ? "page" : undefined}>
            Clientes activos
          </AppLink>
          <AppLink to="/clients?tab=inactive" className={`px-3 py-2 ${inactive ? "border-b-2 border-primary font-semibold" : ""}`} aria-current={inactive ? "page" : undefined}>
            Clientes inactivos
          </AppLink>
        </nav>
      )}
      <ListControls search={search} perPage={perPage} extra={inactive ? { tab: "inactive" } : undefined} />
      <div className="overflow-x-auto">
        <table className="table" data-clients data-stack>
          <thead>
            <tr>
              <th>#</th>
              <th>Nombre</th>
              <th>Email</th>
              <th>Identificación</th>
              {provider && <th>Teléfono</th>}
              {!readOnly && <th>Balance</th>}
              <th>Status</th>
              <th>Acciones</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns} className="text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            )}
            {rows.map((c, i) =>
              gone.has(c.id) ? null : (
                <ClientRow
                  key={c.id}
                  c={{ ...c, active: toggled[c.id] ?? c.active }}
                  n={(page - 1) * perPage + i + 1}
                  provider={provider}
                  readOnly={readOnly}
                  noun={noun}
                  back={back}
                  scripted={scripted}
                  editHref={withParam("edit", c.id)}
                  statementHref={withParam("statement", c.id)}
                  onToggled={onToggled}
                />
              ),
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page} lastPage={loaderData.lastPage} />
      {notice && <Toasts key={notice.seq} toasts={[notice.toast]} />}

      {statement && <StatementDialog statement={statement} back={back} />}

      {activities && (
        <div className="confirm-panel fixed inset-0 z-40 flex items-center justify-center bg-slate-900/45 p-4">
          <div className="card w-full max-w-lg" role="dialog" aria-modal="true" aria-label="Catálogo de actividades" data-activities-import>
            <h2 className="text-lg font-semibold">Catálogo de actividades</h2>
            <p className="mt-2 text-sm text-slate-600">
              Actividades en el catálogo: <strong>{activities.count}</strong>. Suba un archivo CSV en UTF-8 con una actividad por línea, en el formato{" "}
              <code>código;descripción</code> (la primera línea puede ser el encabezado). Si una línea tiene un error no se guarda nada.
            </p>
            <AppForm action={back} encType="multipart/form-data" className="mt-4 space-y-3">
              <input type="hidden" name="intent" value="import-activities" />
              <label htmlFor="activities-file">Archivo CSV</label>
              <input id="activities-file" name="file" type="file" accept=".csv,text/csv,text/plain" className="input" required />
              <div className="flex justify-end gap-2">
                <Link to={back} className="btn btn-outline">
                  Cerrar
                </Link>
                <SubmitButton>Importar</SubmitButton>
              </div>
            </AppForm>
          </div>
        </div>
      )}
    </div>
  );
}

function ClientRow({
  c,
  n,
  provider,
  readOnly,
  noun,
  back,
  scripted,
  editHref,
  statementHref,
  onToggled,
}: {
  c: Row;
  n: number;
  provider: boolean;
  readOnly: boolean;
  noun: string;
  back: string;
  scripted: boolean;
  editHref: string;
  statementHref: string;
  onToggled: (t: ToggleReply) => void;
}) {
  const fetcher = useFetcher<{ toggled?: ToggleReply }>();
  const handled = useRef<unknown>(undefined);
  useEffect(() => {
    // Each answer once (onToggled changes identity while the list revalidates).
    if (!fetcher.data?.toggled || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    onToggled(fetcher.data.toggled);
  }, [fetcher.data, onToggled]);
  const toggleFetcher = fetcher as FetcherWithComponents<unknown>;
  // stay=1 only once the page runs its script: the answer is then data for this fetcher, not a redirect.
  const fields: Record<string, string | number> = scripted ? { client_id: c.id, stay: 1 } : { client_id: c.id };
  return (
    <tr data-client-id={c.id}>
      <td className="max-sm:hidden">{n}</td>
      <td data-label="Nombre" title={c.name}>
        <AppLink to={`/client-detail/${c.id}`}>{truncate(c.name)}</AppLink>
      </td>
      <td data-label="Email" title={c.email}>
        {truncate(c.email)}
      </td>
      <td data-label="Identificación">{c.identification}</td>
      {provider && <td data-label="Teléfono">{c.phone}</td>}
      {!readOnly && (
        <td data-label="Balance" className="whitespace-nowrap">
          {formatMoney(c.balance, "₡")}
        </td>
      )}
      <td data-label="Status">
        <span className={`chip ${c.active ? "chip-on" : "chip-off"}`}>{c.active ? "Activo" : "Inactivo"}</span>
      </td>
      <td data-label="Acciones">
        {/* Plan 5 (read-only interface): no row actions; the server refuses them too (decision 124). */}
        {!readOnly && (
          <div className="flex flex-wrap justify-end gap-1">
            <AppLink className="btn btn-outline btn-sm" to={editHref}>
              Editar
            </AppLink>
            {!c.generic &&
              (c.active ? (
                <ConfirmAction
                  label="Desactivar"
                  title={`Desactivar ${noun.toLowerCase()}`}
                  message={CLIENT_SCREEN_TEXTS.confirmDeactivate}
                  intent="toggle"
                  fields={fields}
                  action={back}
                  fetcher={toggleFetcher}
                />
              ) : (
                <AppForm action={back} className="inline" fetcher={toggleFetcher}>
                  <input type="hidden" name="intent" value="toggle" />
                  {Object.entries(fields).map(([k, v]) => (
                    <input key={k} type="hidden" name={k} value={String(v)} />
                  ))}
                  <button type="submit" className="btn btn-outline btn-sm" disabled={fetcher.state !== "idle"}>
                    Activar
                  </button>
                </AppForm>
              ))}
            {!c.generic && !c.hasDocuments && (
              <ConfirmAction label="Eliminar" title={`Eliminar ${noun}`} message={CLIENT_SCREEN_TEXTS.confirmDelete} intent="delete" fields={{ client_id: c.id }} action={back} />
            )}
            {!provider && (
              <AppLink className="btn btn-outline btn-sm" to={statementHref}>
                Estado de cuenta
              </AppLink>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
