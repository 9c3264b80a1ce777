// /new-invoice and /new-ticket (optional ?id= or ?client_id= client): the shared document form. Also the prefilled
// screens (document-source.server.ts): /new-quotation, /edit-quotation/quotation/:id,
// /new-note/:note_type/:document_type/:document_id,
// /new-clone/:document_type/:document_id (?replace=1 for a rejected document) and /new-simple. Works without
// JavaScript: "Agregar línea", "Quitar" and "Recalcular" are submit buttons (name="intent") whose
// answer re-renders the form with everything typed and the totals recomputed on the server.
// Recurring mode (recurring-form.server.ts): /recurring-new, /new-recurring/invoice/:id and
// /edit-recurring/recurring/:id store a template instead of issuing; their screen is
// recurring-form.tsx (this loader and action, the form with the recurrence block). The form itself
// is components/document-form-view.tsx.
import { data, isRouteErrorResponse, redirect, useLocation, useRouteError } from "react-router";
import type { Route } from "./+types/document-form";
import { DocumentFormView } from "../../components/document-form-view.tsx";
import { LIVE_TOTALS_INTENT, liveTotalsShouldRevalidate } from "../../components/form.tsx";
import { NOT_FOUND, SOURCE_MESSAGES, sourceRequestOf } from "../../domain/document-source.ts";
import { FORM_MESSAGES, quickAddReturn, type FormKind } from "../../domain/document-form.ts";
import { formValues } from "../../domain/forms.ts";
import { recurringRequestOf } from "../../domain/recurring.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { newDocumentForm, printedTicket, submitDocumentForm } from "../../server/document-form.server.ts";
import { sourcedDocumentForm, submitSourcedForm } from "../../server/document-source.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { restoresDraft, stashDraft, takeDraft } from "../../server/draft-stash.server.ts";
import { recurringFormState, submitRecurringForm } from "../../server/recurring-form.server.ts";

/** Bodies above this are refused before parsing (200 lines of text fit easily). */
const MAX_BODY = 512 * 1024;

function kindOf(request: Request): FormKind {
  return new URL(request.url).pathname.startsWith("/new-ticket") ? "te" : "fe";
}

function requireSession(context: Route.LoaderArgs["context"]) {
  const { company, user, sessionId } = context.get(requestContext);
  if (!company || !user) throw data("No encontrado", { status: 404 });
  return { company, user, sessionId };
}

/** The recurring screen a URL asks for (null: none); a wrong type is 404. */
function recurringOf(request: Request, params: Record<string, string | undefined>) {
  const req = recurringRequestOf(new URL(request.url), params);
  if (req === "invalid") throw data(FORM_MESSAGES.invalidKind, { status: 404 });
  return req;
}

/** The prefilled screen a URL asks for (null: /new-invoice, /new-ticket); a wrong type is 404. */
function sourceOf(request: Request, params: Record<string, string | undefined>) {
  const req = sourceRequestOf(new URL(request.url), params);
  if (req === "invalid") throw data(FORM_MESSAGES.invalidKind, { status: 404 });
  return req;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { company, user, sessionId } = requireSession(context);
  // Plan 5 is read-only: the message instead of a form nobody may save (the ErrorBoundary shows it).
  if (company.permission === 5) throw data(FORM_MESSAGES.readOnlyPlan, { status: 403 });
  // Back from a quick-add: what was typed, with the new client chosen (?id=), re-rendered as typed.
  const url = new URL(request.url);
  const kept = restoresDraft(url) && sessionId ? await takeDraft(db(), sessionId, formPath(request)) : null;
  if (kept) {
    const restored = await submitFor(request, params, { companyId: company.id, userId: user.id }, { ...kept, client_id: url.searchParams.get("id") ?? kept.client_id }, "recalc");
    if (restored && !restored.ok) return restored.state;
  }
  const recurring = recurringOf(request, params);
  if (recurring) {
    const state = await recurringFormState(db(), { companyId: company.id, request: recurring, now: new Date() });
    if (!state) throw data(SOURCE_MESSAGES.notFound, { status: 404 });
    return state;
  }
  const source = sourceOf(request, params);
  if (source) {
    const state = await sourcedDocumentForm(db(), { companyId: company.id, request: source, now: new Date() });
    if (!state) throw data(SOURCE_MESSAGES.notFound, { status: 404 });
    return state;
  }
  const kind = kindOf(request);
  const search = new URL(request.url).searchParams;
  // ?id= (part 2) or ?client_id= preselects one of the company's clients (the quick-add returns with it).
  const state = await newDocumentForm(db(), { companyId: company.id, kind, clientId: search.get("id") ?? search.get("client_id"), now: new Date() });
  return kind === "te" ? { ...state, printed: await printedTicket(db(), company.id, search.get("printed")) } : state;
}

/** The form's path (client-side navigations request `<path>.data`). */
const formPath = (request: Request) => new URL(request.url).pathname.replace(/\.data$/, "");

/** A submission of whichever form the URL names (recurring, prefilled or plain). */
function submitFor(request: Request, params: Record<string, string | undefined>, ids: { companyId: number; userId: number }, values: Record<string, string | undefined>, intent: string) {
  const recurring = recurringOf(request, params);
  const source = recurring ? null : sourceOf(request, params);
  const common = { ...ids, values, intent, now: new Date() };
  if (recurring) return submitRecurringForm(db(), { ...common, request: recurring });
  if (source) return submitSourcedForm(db(), { ...common, request: source });
  return submitDocumentForm(db(), { ...common, kind: kindOf(request) });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // Plan 5 posts are refused by the root middleware (app/domain/access.ts, docs/decisions/124).
  const { company, user, sessionId } = requireSession(context);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) throw data("La solicitud es demasiado grande", { status: 413 });
  const form = await request.formData();
  const values = formValues(form);
  let intent = String(form.get("intent") ?? "save");
  // Quick-add: keep what was typed, add the client on its page, come back to it (decision 093).
  // When it cannot be kept, the form is only re-rendered: quick-add never saves.
  if (intent === "quick-add" || intent === "quick-add-student") {
    const path = formPath(request);
    const page = intent === "quick-add" ? "/new-client?volver=" : "/students?new=1&volver=";
    if (quickAddReturn(path) && sessionId && (await stashDraft(db(), sessionId, path, values))) return redirect(page + encodeURIComponent(path));
    intent = "recalc";
  }
  // Live totals (with JavaScript): the totals of what is typed, nothing else, nothing saved.
  const live = intent === LIVE_TOTALS_INTENT;
  const result = await submitFor(request, params, { companyId: company.id, userId: user.id }, values, live ? "recalc" : intent);
  if (!result) throw data(SOURCE_MESSAGES.notFound, { status: 404 });
  if (live) return { totals: result.ok ? null : result.state.totals };
  if (result.ok) return redirectWithToast(result.redirectTo, { type: result.warning ? "error" : "success", text: result.message });
  return data(result.state, { status: result.status });
}

export const shouldRevalidate = liveTotalsShouldRevalidate;

/** The state to render: the action's answer to a submission, else the loader's (live totals answer only a fetcher). */
export function formState<S, A extends object>(loaderData: S, actionData: A | S | undefined): S {
  return actionData && typeof actionData === "object" && "form" in actionData ? (actionData as S) : loaderData;
}

/**
 * The form's key (every screen of the form): a new form for each page — after 'Guardar e imprimir'
 * the next sale starts blank even when the last page was blank too — and for each state the server
 * answers; never for the live totals (decision 102).
 */
export function useFormKey(state: { form: unknown; errors: unknown }): string {
  return useLocation().key + JSON.stringify([state.form, state.errors]);
}

export default function DocumentForm({ loaderData, actionData }: Route.ComponentProps) {
  const state = formState(loaderData, actionData);
  return <DocumentFormView key={useFormKey(state)} state={state} />;
}

/** A wrong type ('El tipo de documento a crear es invalido'), a document not found or a read-only plan, inside the layout. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : NOT_FOUND;
  return (
    <div className="card" role="alert" data-form-refused>
      {message}
    </div>
  );
}
