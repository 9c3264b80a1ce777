import { data, Link } from "react-router";
import { AppLink } from "../../components/app-link.tsx";
import type { Route } from "./+types/items";
import { countCabys } from "../../../db/queries/cabys.ts";
import { itemsPage } from "../../../db/queries/items.ts";
import { categories, currencies } from "../../../db/seed/reference-data.ts";
import { ConfirmAction } from "../../components/confirm.tsx";
import { AppForm, SubmitButton } from "../../components/form.tsx";
import { ItemFormView, itemFormKey } from "../../components/item-form.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { displayDate } from "../../domain/exchange-rate.ts";
import { formatMoney, truncate } from "../../domain/format.ts";
import { CABYS_IMPORT_MESSAGES, CABYS_MAX_BYTES, ITEM_MESSAGES } from "../../domain/item-texts.ts";
import { lastPage } from "../../domain/pagination.ts";
import { checkCabysUpload, fileStream, importCabysSpreadsheet } from "../../server/cabys.server.ts";
import { requireSuperAdmin } from "../../server/companies.server.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { currentRate } from "../../server/exchange-rate.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { handleItemForm, itemFormState, removeItem } from "../../server/items.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";

function requireCompany(context: Route.LoaderArgs["context"]) {
  const { user, company } = context.get(requestContext);
  if (!company || !user) throw data("No encontrado", { status: 404 });
  return { user, company };
}

/** The list's own query (search and page) without the dialog parameters: where the dialog returns. */
function listQuery(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  const search = params.get("search")?.trim();
  if (search) out.set("search", search);
  const page = params.get("page");
  if (page && /^\d{1,6}$/.test(page) && page !== "1") out.set("page", page);
  return out;
}

function hrefOf(params: URLSearchParams, extra?: [string, string]): string {
  const p = new URLSearchParams(params);
  if (extra) p.set(...extra);
  const qs = p.toString();
  return qs ? `/items?${qs}` : "/items";
}

/** Which dialog the URL opens: ?new=1 or ?edit=ID (the raw id; requireItem answers 404 for a bad one). */
function dialogOf(params: URLSearchParams): { itemId: string | null } | null {
  if (params.has("edit")) return { itemId: params.get("edit") };
  if (params.get("new") === "1") return { itemId: null };
  return null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, company } = requireCompany(context);
  const req = await listRequest(request, context, "/items");
  const list = new URLSearchParams();
  if (req.search) list.set("search", req.search);
  if (req.page > 1) list.set("page", String(req.page));
  // ?new=1 / ?edit=ID open the item form as a dialog over the list (a page without JavaScript too).
  const open = dialogOf(new URL(request.url).searchParams);
  // The page, the dollar's rate and (super-admin) the catalogue's size side by side.
  const [dialog, { rows, total }, rate, cabysCount] = await Promise.all([
    open && itemFormState(db(), { companyId: company.id, itemId: open.itemId }),
    itemsPage(db(), { companyId: company.id, ...req }),
    currentRate(db(), { currency: "USD", now: new Date() }),
    user.isSuperAdmin ? countCabys(db()) : null,
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      code: r.code,
      cabysCode: r.cabysCode ?? "",
      name: r.name,
      category: categories.find((c) => c.id === r.categoryId)?.name ?? "",
      unit: r.unitCode,
      tax: r.taxName ?? "",
      price: formatMoney(r.price, currencies.find((c) => c.id === r.currencyId)?.symbol ?? "₡"),
    })),
    total,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    // The CABYS catalogue is shared by every company: only the super-admin imports it (decision 121).
    canImportCabys: user.isSuperAdmin,
    cabysCount,
    rate,
    back: hrefOf(list),
    dialog,
    dialogAction: open && hrefOf(list, open.itemId === null ? ["new", "1"] : ["edit", open.itemId]),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, company } = requireCompany(context);
  if (Number(request.headers.get("content-length") ?? 0) > CABYS_MAX_BYTES + 64 * 1024) {
    return data({ importMessage: CABYS_IMPORT_MESSAGES.tooLarge, importErrors: [] as string[], importErrorCount: 0 }, { status: 413 });
  }
  const form = await request.formData();
  if (form.get("confirm") === "cancel") return redirectWithToast("/items", { type: "info", text: ITEM_MESSAGES.cancelled });
  const intent = form.get("intent");
  if (intent === "delete") {
    const ok = await removeItem(db(), { companyId: company.id, id: Number(form.get("item_id")), now: new Date() });
    return redirectWithToast("/items", ok ? { type: "success", text: ITEM_MESSAGES.deleted } : { type: "error", text: ITEM_MESSAGES.problem });
  }
  if (intent === "import-cabys") {
    requireSuperAdmin(user, CABYS_IMPORT_MESSAGES.superAdminOnly);
    const upload = await checkCabysUpload(form.get("file"));
    if (!upload.ok) return data({ importMessage: upload.message, importErrors: [] as string[], importErrorCount: 0 }, { status: 400 });
    const result = await importCabysSpreadsheet(db(), fileStream(upload.file));
    if (!result.ok) return data({ importMessage: result.message, importErrors: result.errors, importErrorCount: result.errorCount }, { status: 400 });
    return redirectWithToast("/items", { type: "success", text: CABYS_IMPORT_MESSAGES.imported(result.imported) });
  }
  // The item form in the dialog: ?new=1 or ?edit=ID; saved → back to the list (same search and page).
  const params = new URL(request.url).searchParams;
  const open = dialogOf(params);
  if (open && (intent === null || intent === "save" || intent === "cabys-search" || String(intent).startsWith("cabys-pick:"))) {
    const outcome = await handleItemForm(db(), { companyId: company.id, itemId: open.itemId, form });
    if (outcome.kind === "saved") return redirectWithToast(hrefOf(listQuery(params)), { type: "success", text: outcome.created ? ITEM_MESSAGES.saved : ITEM_MESSAGES.updated });
    return data({ dialog: outcome.state }, { status: outcome.status });
  }
  return redirectWithToast("/items", { type: "error", text: ITEM_MESSAGES.problem });
}

export default function Items({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, page, perPage, search, canImportCabys, rate, cabysCount, back } = loaderData;
  const dialog = (actionData && "dialog" in actionData ? actionData.dialog : null) ?? loaderData.dialog;
  // "Nuevo" / "Editar" open the dialog on the same list (search and page kept).
  const dialogHref = (k: string, v: string | number) => {
    const p = new URLSearchParams(back.split("?")[1] ?? "");
    p.set(k, String(v));
    return `/items?${p.toString()}`;
  };
  const importFailure = actionData && "importMessage" in actionData ? actionData : null;
  return (
    <div className="space-y-4">
      {dialog && loaderData.dialogAction && <ItemFormView key={itemFormKey(dialog)} state={dialog} action={loaderData.dialogAction} closeTo={back} dialog />}
      <div className="card">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-lg font-semibold">Artículos</h1>
          <div className="flex flex-wrap items-center gap-3">
            <ExchangeRate rate={rate} />
            <Link to={dialogHref("new", 1)} className="btn btn-primary">
              Nuevo artículo
            </Link>
          </div>
        </div>
        <ListControls search={search} perPage={perPage} />
        <div className="overflow-x-auto">
          <table className="table" data-items data-stack>
            <thead>
              <tr>
                <th>Código</th>
                <th>Cabys</th>
                <th>Nombre</th>
                <th>Categoría</th>
                <th>Unidad</th>
                <th>Precio</th>
                <th>Acciones</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={7} className="text-center text-slate-500">
                    {ITEM_MESSAGES.empty}
                  </td>
                </tr>
              )}
              {rows.map((r) => (
                <tr key={r.id} data-item-id={r.id}>
                  <td data-label="Código">{r.code}</td>
                  <td data-label="Cabys" className="font-mono">
                    {r.cabysCode}
                  </td>
                  <td data-label="Nombre" title={r.name}>
                    {truncate(r.name)}
                  </td>
                  <td data-label="Categoría">{r.category}</td>
                  <td data-label="Unidad">{r.unit}</td>
                  <td data-label="Precio" className="whitespace-nowrap text-right">
                    {r.price}
                  </td>
                  <td data-label="Acciones">
                    <div className="flex flex-wrap gap-1">
                      <AppLink className="btn btn-outline btn-sm" to={dialogHref("edit", r.id)}>
                        Editar
                      </AppLink>
                      <ConfirmAction label="Eliminar" title="Eliminar artículo" message={ITEM_MESSAGES.confirmDelete} intent="delete" fields={{ item_id: r.id }} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination page={page} lastPage={loaderData.lastPage} />
      </div>
      {canImportCabys && (
        <section className="card space-y-3" aria-labelledby="cabys-import" data-cabys-import>
          <h2 id="cabys-import" className="font-semibold">
            Actualizar catálogo CABYS
          </h2>
          <p className="text-sm text-slate-600">
            Sube el archivo oficial del BCCR «Catálogo de bienes y servicios» (.xlsx, máximo 20 MB). Hoy el catálogo tiene {cabysCount?.toLocaleString("es-CR") ?? 0} códigos.
          </p>
          {importFailure && (
            <div className="rounded-md bg-danger/10 p-3 text-sm text-danger" role="alert" data-import-errors>
              <p>{importFailure.importMessage}</p>
              {importFailure.importErrors.length > 0 && (
                <ul className="mt-2 list-disc pl-5">
                  {importFailure.importErrors.map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                  {importFailure.importErrorCount > importFailure.importErrors.length && <li>… y {importFailure.importErrorCount - importFailure.importErrors.length} filas más con errores</li>}
                </ul>
              )}
            </div>
          )}
          <AppForm encType="multipart/form-data" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="import-cabys" />
            <label>
              <span className="sr-only">Archivo CABYS</span>
              <input type="file" name="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" className="input" required aria-label="Archivo CABYS" />
            </label>
            <SubmitButton>Importar catálogo</SubmitButton>
          </AppForm>
        </section>
      )}
    </div>
  );
}

function ExchangeRate({ rate }: { rate: Route.ComponentProps["loaderData"]["rate"] }) {
  if (!rate.ok)
    return (
      <span className="text-sm text-danger" role="alert" data-exchange-rate>
        {rate.message}
      </span>
    );
  return (
    <span className="text-sm" data-exchange-rate>
      Tipo de cambio: {formatMoney(rate.rate)} ({displayDate(rate.date)})
      {rate.warning && (
        <span className="ml-2 text-warning" role="alert" data-exchange-warning>
          {rate.warning}
        </span>
      )}
    </span>
  );
}
