// The one screen of /clients and /providers (docs/decisions/155, 169): the list with its dialogs,
// or the new/edit client popup (?new=1, ?edit=ID). That popup is full-screen (spec part 1 §2.3: it
// covers the whole page, list and menu), so while it is open the page is the popup alone and the
// browser loads the client form's code without the list's. Each is loaded by the browser when
// shown; the server renders whichever is shown, whole (no <Suspense>: a page without JavaScript is
// complete).
import { lazy } from "react";
import type { ClientFormViewState } from "../../components/client-form.tsx";
import type { clientListLoader } from "./list.server.ts";

const ClientListView = lazy(() => import("./client-list-view.tsx").then((m) => ({ default: m.ClientListView })));
const ClientDialog = lazy(() => import("./screens/client-dialog.tsx").then((m) => ({ default: m.ClientDialog })));

export type ClientListData = Exclude<Awaited<ReturnType<typeof clientListLoader>>, Response>;

/**
 * The list keeps its data after an activate/deactivate sent with JavaScript (stay=1): the row shows
 * its new state for 1 s, then the view revalidates. Everything else revalidates as usual.
 */
export function listShouldRevalidate({ formData, currentUrl, nextUrl, defaultShouldRevalidate }: { formData?: FormData; currentUrl: URL; nextUrl: URL; defaultShouldRevalidate: boolean }) {
  // Only while the page stays: a navigation under way must load its new page (decision 102).
  if (formData?.get("intent") === "toggle" && formData.get("stay") === "1" && formData.get("confirm") !== "cancel" && currentUrl.href === nextUrl.href) return false;
  return defaultShouldRevalidate;
}

export function ClientListScreen({ loaderData, actionData }: { loaderData: ClientListData; actionData?: { form?: ClientFormViewState } }) {
  const form = (actionData?.form ?? loaderData.form) as ClientFormViewState | null;
  if (!form) return <ClientListView loaderData={loaderData} />;
  const { provider } = loaderData;
  const title = form.id ? `Editar ${provider ? "Proveedor" : "Cliente"}` : provider ? "Nuevo Proveedor" : "Nuevo Cliente";
  return <ClientDialog state={form} action={loaderData.formAction} cancelTo={loaderData.back} title={title} />;
}
