// /payments (spec part 2 "Payments, banks, reminders"; docs/decisions/095-payments.md). One URL,
// two screens, each in its own module (docs/decisions/169): the payment form of one document
// (?document_id=ID[&volver=PATH], screens/pay.*) and the list of payments with the banks
// (screens/list.*). This module only chooses the screen; the root middleware answers 403 to plan 5's posts.
import { data, isRouteErrorResponse, useRouteError } from "react-router";
import type { Route } from "./+types/payments";
import { PAYMENT_MESSAGES } from "../../domain/payment-texts.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { PaymentsList } from "./screens/list.tsx";
import { bankAction, deleteAction, listScreen } from "./screens/list.server.ts";
import { PaymentForm } from "./screens/pay.tsx";
import { payAction, payScreen } from "./screens/pay.server.ts";

function requireSession(context: Route.LoaderArgs["context"]) {
  const { company, user } = context.get(requestContext);
  if (!company || !user) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  return { company, user };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { company } = requireSession(context);
  const url = new URL(request.url);
  return url.searchParams.has("document_id") ? payScreen(db(), company, url) : listScreen(db(), request, context, company);
}

export async function action({ request, context }: Route.ActionArgs) {
  // Plan 5 posts are refused by the root middleware (app/domain/access.ts, docs/decisions/124).
  const { company, user } = requireSession(context);
  const form = await request.formData();
  const ids = { companyId: company.id, userId: user.id };
  switch (String(form.get("intent") ?? "")) {
    case "pay":
      return payAction(db(), ids, form);
    case "delete":
      return deleteAction(db(), ids, form);
    case "bank":
      return bankAction(db(), company.id, form);
  }
  return redirectWithToast("/payments", { type: "error", text: PAYMENT_MESSAGES.problem });
}

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: d?.mode === "pay" ? `Registrar pago — ${d.document.label}` : "Pagos" }];
}

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData as { intent: string } | undefined;
  return loaderData.mode === "pay" ? <PaymentForm d={loaderData} state={state} /> : <PaymentsList d={loaderData} state={state} />;
}

/** Not this company's document or payment (404), or a read-only plan (403): the plain message inside the layout. */
export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : PAYMENT_MESSAGES.problem;
  return (
    <div className="card" role="alert">
      {message}
    </div>
  );
}
