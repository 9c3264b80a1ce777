// /payments?document_id=ID[&volver=PATH]: the payment registration form of one document (the 'Pagar'
// of the lists, the detail viewer and the client detail). A screen of the /payments route module
// (docs/decisions/169); the view is pay.tsx. Plan 5 gets 403; another company's document 404.
import { data } from "react-router";
import type { Db } from "../../../../db/client.ts";
import { parseForm } from "../../../domain/forms.ts";
import { PAYMENT_MESSAGES, paymentReturn, paymentSchema } from "../../../domain/payments.ts";
import { REP_MESSAGES } from "../../../domain/rep.ts";
import { redirectWithToast } from "../../../server/flash.server.ts";
import { PAYMENT_FORM_CODES, paymentFormState, recordPayment } from "../../../server/payments.server.ts";

export type PayFailure = { intent: "pay"; errors: Record<string, string>; values: Record<string, string> };

const idParam = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0);

/** The form's own URL (it posts back to itself, so a failed submission shows the same page). */
const payUrl = (documentId: number | string, volver: string) => `/payments?document_id=${documentId}&volver=${encodeURIComponent(volver)}`;

export async function payScreen(db: Db, company: { id: number; permission: number }, url: URL) {
  if (company.permission === 5) throw data(PAYMENT_MESSAGES.readOnly, { status: 403 });
  const state = await paymentFormState(db, { companyId: company.id, documentId: idParam(url.searchParams.get("document_id")), now: new Date() });
  if (!state) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  const volver = paymentReturn(url.searchParams.get("volver"));
  return { mode: "pay" as const, ...state, volver, action: payUrl(state.document.id, volver) };
}
export type PayScreen = Awaited<ReturnType<typeof payScreen>>;

/** 'Registrar pago': the form's schema, then the use-case; back to `volver` with the toast. */
export async function payAction(db: Db, ids: { companyId: number; userId: number }, form: FormData) {
  const back = paymentReturn(form.get("volver"));
  const parsed = parseForm(paymentSchema({ paymentForms: PAYMENT_FORM_CODES }), form);
  if (!parsed.ok) {
    if (parsed.errors.document_id) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
    return data<PayFailure>({ intent: "pay", errors: parsed.errors, values: parsed.values }, { status: 400 });
  }
  const r = await recordPayment(db, { companyId: ids.companyId, userId: ids.userId, payment: parsed.data });
  // The Recibo Electrónico de Pago the payment issued (sale conditions 08 and 10, decision 135), or why none.
  if (r.ok && r.rep?.issued === true) return redirectWithToast(back, { type: "success", text: REP_MESSAGES.recorded(r.rep.consecutivo) });
  if (r.ok && r.rep?.issued === false) return redirectWithToast(back, { type: "warning", text: `${PAYMENT_MESSAGES.recorded} ${r.rep.note}` });
  if (r.ok) return redirectWithToast(back, { type: "success", text: PAYMENT_MESSAGES.recorded });
  if (r.reason === "not-found") throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  const values = Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "_csrf"));
  return data<PayFailure>({ intent: "pay", errors: r.errors, values }, { status: 400 });
}
