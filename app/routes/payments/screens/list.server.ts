// /payments: the paged, searchable list of the company's payments (delete with a confirmation) and
// its banks (new and edit: ?bank=new, ?bank=ID). A screen of the /payments route module
// (docs/decisions/169); the view is list.tsx. Plan 5 sees the list only.
import { data, type RouterContextProvider } from "react-router";
import type { Db } from "../../../../db/client.ts";
import { bankOf, banksOf, fold, paymentsPage } from "../../../../db/queries/payments.ts";
import { detailTypeOf } from "../../../../db/queries/document-lists.ts";
import { formatMoney } from "../../../domain/format.ts";
import { parseForm } from "../../../domain/forms.ts";
import { lastPage } from "../../../domain/pagination.ts";
import { bankSchema, formatDay, PAYMENT_MESSAGES, paymentReturn } from "../../../domain/payments.ts";
import { redirectWithToast } from "../../../server/flash.server.ts";
import { listRequest } from "../../../server/page-memory.server.ts";
import { deletePayment, paymentFormName, paymentFormsMatching, saveBank, symbolOf } from "../../../server/payments.server.ts";

export type BankFailure = { intent: "bank"; errors: Record<string, string>; values: Record<string, string> };

const idParam = (raw: string | null) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0);

export async function listScreen(db: Db, request: Request, context: Readonly<RouterContextProvider>, company: { id: number; permission: number }) {
  const url = new URL(request.url);
  const plan5 = company.permission === 5;
  const req = await listRequest(request, context, "/payments");
  const query = { companyId: company.id, search: req.search, formCodes: paymentFormsMatching(req.search, fold), perPage: req.perPage };
  // The page and the banks (for the bank filter and the banks' list) side by side.
  const [first, banks] = await Promise.all([paymentsPage(db, { ...query, page: req.page }), banksOf(db, { companyId: company.id })]);
  let { rows, total } = first;
  if (rows.length === 0 && total > 0 && req.page > lastPage(total, req.perPage)) {
    req.page = lastPage(total, req.perPage);
    ({ rows, total } = await paymentsPage(db, { ...query, page: req.page }));
  }
  const rawBank = url.searchParams.get("bank");
  const editing = !plan5 && rawBank && rawBank !== "new" ? await bankOf(db, { companyId: company.id, id: idParam(rawBank) }) : null;
  if (!plan5 && rawBank && rawBank !== "new" && !editing) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  return {
    mode: "list" as const,
    plan5,
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    rows: rows.map((r) => {
      const client = (r.clientSnapshot ?? {}) as { name?: string; generic?: boolean };
      return {
        id: r.id,
        document: { id: r.documentId, number: r.documentNumber, href: `/detail/${detailTypeOf(r.documentKind)}/${r.documentId}` },
        clientId: client.generic ? null : r.clientId,
        clientName: client.name ?? "",
        paymentForm: paymentFormName(r.paymentForm),
        amount: formatMoney(r.amount, symbolOf(r.currencyId)),
        bank: r.bankName ?? PAYMENT_MESSAGES.noBank,
        reference: r.reference ?? "",
        date: formatDay(r.paidOn),
        // The Recibo Electrónico de Pago the payment issued (sale conditions 08 and 10), or why none.
        receipt: r.repDocumentId ? { id: r.repDocumentId, consecutivo: r.repConsecutivo ?? "", status: r.repStatus ?? "" } : null,
        receiptNote: r.repNote,
      };
    }),
    banks,
    bankForm: plan5 ? null : editing ? { id: editing.id, name: editing.name } : rawBank === "new" ? { id: null, name: "" } : null,
  };
}
export type ListScreen = Awaited<ReturnType<typeof listScreen>>;

/** 'Eliminar' a payment (confirmed; cancelling says 'Acción cancelada'). */
export async function deleteAction(db: Db, ids: { companyId: number; userId: number }, form: FormData) {
  const back = paymentReturn(form.get("back"));
  if (form.get("confirm") === "cancel") return redirectWithToast(back, { type: "info", text: PAYMENT_MESSAGES.cancelled });
  const done = await deletePayment(db, { companyId: ids.companyId, userId: ids.userId, id: idParam(String(form.get("payment_id") ?? "")), now: new Date() });
  if (!done) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  if ("refused" in done) return redirectWithToast(back, { type: "error", text: done.refused });
  return redirectWithToast(back, { type: "success", text: PAYMENT_MESSAGES.deleted });
}

/** 'Nuevo banco' / 'Editar' a bank. */
export async function bankAction(db: Db, companyId: number, form: FormData) {
  const parsed = parseForm(bankSchema, form);
  const rawId = String(form.get("bank_id") ?? "");
  const id = rawId ? idParam(rawId) : null;
  if (id === 0) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  if (!parsed.ok) return data<BankFailure>({ intent: "bank", errors: parsed.errors, values: parsed.values }, { status: 400 });
  const r = await saveBank(db, { companyId, id, name: parsed.data.name, now: new Date() });
  if (!r) throw data(PAYMENT_MESSAGES.notFound, { status: 404 });
  if (!r.ok) return data<BankFailure>({ intent: "bank", errors: r.errors, values: { name: parsed.data.name, bank_id: rawId } }, { status: 400 });
  return redirectWithToast("/payments", { type: "success", text: r.created ? PAYMENT_MESSAGES.bankAdded : PAYMENT_MESSAGES.bankUpdated });
}
