// /detail/:type/:id/:print? (route detail-transaction, spec part 2 "Document detail viewer"): on the
// left a paged, searchable list of the documents of that type; on the right the document as
// printed (from the stored view), its Hacienda status ribbon (none for quotations), the rejection
// reasons, and the actions (quotations: convert to invoice, confirmed; edit). The print variant
// (/detail/:type/:id/print) is detail-print.tsx, a recurring template's preview recurring-detail.tsx
// (docs/decisions/169). Tenancy: the document is read by the
// current company's id and the id together; anything else is 404.
import { useEffect, useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/detail";
import { currencies } from "../../../db/schema/index.ts";
import { documentList } from "../../../db/queries/document-lists.ts";
import { generalConfigOf } from "../../../db/queries/config.ts";
import { invoiceOfQuotation } from "../../../db/queries/quotations.ts";
import { QuotationActions } from "../../components/quotation-actions.tsx";
import { quotationNameOf } from "../../server/quotations.server.ts";
import { DocumentPreview, type PreviewView } from "../../components/document-preview.tsx";
import { AppForm, Field, FormAlert, SubmitButton } from "../../components/form.tsx";
import { ListControls, Pagination } from "../../components/pagination.tsx";
import { costaRicaDay, dueState, haciendaStatusLabel, paymentStatus, reminderAllowed } from "../../domain/document-status.ts";
import { rejectionReasons } from "../../domain/rejection-reasons.ts";
import { NOT_FOUND } from "../../domain/document-source.ts";
import { formatDate, formatMoney, truncate } from "../../domain/format.ts";
import { documentRecipients, emailStatusText } from "../../email/document-email.ts";
import { EMAIL_FORM_MESSAGES, emailFormSchema } from "../../domain/email-form.ts";
import { formValues, parseForm, type FieldErrors } from "../../domain/forms.ts";
import { lastPage } from "../../domain/pagination.ts";
import { canPay, formatDay } from "../../domain/payment-texts.ts";
import { repSaleCondition } from "../../domain/rep.ts";
import { receiptsOf } from "../../../db/queries/payments.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { documentEmailDefaults, nextEmailAttempt, sendDocumentEmailNow } from "../../server/document-email.server.ts";
import { loadDocumentView } from "../../server/document-view.server.ts";
import { loadDetailDocument } from "./detail.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { paymentReminderDefaults, REMINDER_MESSAGES, sendPaymentReminder } from "../../server/payment-reminders.server.ts";
import { listRequest } from "../../server/page-memory.server.ts";

export const DETAIL_MESSAGES = {
  notFound: NOT_FOUND,
  problem: "Ocurrio un problema",
  linkCopied: "Enlace copiado correctamente",
  linkCopyFailed: "No se logro copiar el enlace",
} as const;

const TYPE_TITLES: Record<string, string> = { quotation: "Cotizaciones", invoice: "Facturas", ticket: "Tiquetes", note: "Notas", simple: "Simplificados", recurring: "Facturas" };

function notFound(): never {
  throw data(DETAIL_MESSAGES.notFound, { status: 404 });
}

const loadDoc = (companyId: number, params: { type?: string; id?: string }) => loadDetailDocument(db(), companyId, params);

/** The query that opens the payment-reminder form on the detail page (works without JavaScript). */
const REMINDER_QUERY = "recordatorio";

type EmailFormValues = { emails: string; subject: string; body: string };
type FormFailure = { intent: "email" | "reminder"; errors: FieldErrors; values: Record<string, string> };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { company } = context.get(requestContext);
  const { doc, kinds, type } = await loadDoc(company!.id, params);
  const database = db();
  const view = await loadDocumentView(database, { companyId: company!.id, documentId: doc.id });
  if (!view) notFound();
  const preview: PreviewView = { ...view, company: { ...view.company, logo: null } };
  const logoSrc = view.company.logo ? `/company-logo/${company!.id}` : null;
  const ribbon = doc.kind === "qt" ? null : haciendaStatusLabel(doc.status);
  const printFormat = (await generalConfigOf(database, company!.id))?.printFormat ?? "a4";

  const req = await listRequest(request, context, `/detail/${type}`);
  const { rows, total, totalCapped } = await documentList(database, { companyId: company!.id, kinds, search: req.search, page: req.page, perPage: req.perPage });
  const symbols = new Map((await database.select({ id: currencies.id, symbol: currencies.symbol }).from(currencies)).map((c) => [c.id, c.symbol]));
  const status = { total: doc.totalComprobante, paymentAmount: doc.paymentAmount, creditNoteTotal: doc.creditNoteTotal, debitNoteTotal: doc.debitNoteTotal, haciendaStatus: doc.status, expirationDate: doc.expirationDate };
  const plan5 = company!.permission === 5;
  const recipients = documentRecipients(doc.clientSnapshot, doc.emails);
  const rejectionDetail = doc.status === "rechazado" ? (doc.haciendaDetail ?? doc.haciendaMessage ?? null) : null;
  const reminderAllowedNow = !plan5 && reminderAllowed({ ...doc, total: doc.totalComprobante }, costaRicaDay(new Date()));
  const emailForm: EmailFormValues = { emails: recipients.join(", "), ...(await documentEmailDefaults(database, company!.id, view)) };
  const reminderForm: EmailFormValues | null =
    reminderAllowedNow && new URL(request.url).searchParams.has(REMINDER_QUERY) ? { emails: recipients.join(", "), ...(await paymentReminderDefaults(database, company!.id, view)) } : null;
  const noteSource = doc.kind === "fe" || doc.kind === "te" || doc.kind === "fec";
  // The Recibos Electrónicos de Pago its payments issued (sale conditions 08 and 10, decision 135).
  const receipts = repSaleCondition(doc.kind, doc.saleCondition) ? await receiptsOf(database, { companyId: company!.id, documentId: doc.id }) : [];
  const quotation = doc.kind === "qt" && !plan5 ? { invoiceId: await invoiceOfQuotation(database, { companyId: company!.id, quotationId: doc.id }), name: await quotationNameOf(database, company!.id) } : null;
  return {
    preview,
    /** The company's print format (decision 165): a receipt also offers its narrow PDF. */
    receipt: printFormat !== "a4",
    logoSrc,
    ribbon,
    title: `${view.kindLabel} ${view.consecutive}`,
    type,
    id: doc.id,
    kind: doc.kind,
    quotation,
    listTitle: TYPE_TITLES[type] ?? "Documentos",
    list: rows.map((r) => ({
      id: r.id,
      number: r.consecutivo ?? String(r.number ?? r.id),
      client: truncate(((r.clientSnapshot ?? {}) as { name?: string }).name ?? ""),
      total: formatMoney(r.total, symbols.get(r.currencyId) ?? "₡"),
      date: formatDate(r.issuedAt),
      status: r.kind === "qt" ? null : haciendaStatusLabel(r.status),
    })),
    page: req.page,
    perPage: req.perPage,
    search: req.search,
    lastPage: lastPage(total, req.perPage),
    totalCapped,
    publicUrl: view.publicUrl,
    hasSignedXml: !!doc.signedXml?.length,
    hasResponseXml: !!doc.responseXml?.length,
    rejected: doc.status === "rechazado",
    haciendaDetail: rejectionDetail,
    rejectionReasons: rejectionReasons(rejectionDetail),
    lastError: doc.lastError,
    paymentStatus: doc.kind === "fe" || doc.kind === "fec" ? paymentStatus(status) : null,
    due: doc.kind === "fe" ? dueState(status, costaRicaDay(new Date())) : null,
    receipts: receipts.map((r) => ({
      paymentId: r.paymentId,
      date: formatDay(r.paidOn),
      amount: formatMoney(r.amount, symbols.get(r.currencyId) ?? "₡"),
      rep: r.repDocumentId ? { id: r.repDocumentId, consecutivo: r.repConsecutivo ?? "", status: r.repStatus ?? "", hasResponse: r.hasResponse, detail: r.repStatus === "rechazado" ? r.haciendaDetail : null } : null,
      note: r.repNote,
    })),
    emailForm,
    // Plan 5: the interface sends nothing (the server refuses the post too: decision 124).
    canEmail: !plan5,
    reminderForm,
    emailStatus: emailStatusText({
      sentAt: doc.emailSentAt,
      sentTo: doc.emailSentTo,
      error: doc.emailError,
      nextAttempt: doc.emailSentAt || !doc.emailError ? null : await nextEmailAttempt(database, doc.id),
      retried: doc.status === "aceptado" && recipients.length > 0,
    }),
    actions: {
      clone: !plan5 && doc.kind !== "nc" && doc.kind !== "nd",
      notes: !plan5 && noteSource,
      pay: canPay({ ...status, kind: doc.kind, status: doc.status }, company!.permission),
      recurring: !plan5 && doc.kind === "fe",
      // Payment reminder (part 2 §2 invoices, §4): due today or earlier and unpaid; shows how many went out.
      reminder: reminderAllowedNow ? { sent: doc.remindersSent } : null,
      // The fix of a rejected document: a corrected replacement (reference code 16) or a credit note.
      replace: !plan5 && doc.status === "rechazado" && !!doc.clave && ["fe", "te", "fec"].includes(doc.kind),
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { company } = context.get(requestContext);
  const { doc } = await loadDoc(company!.id, params);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "email" && intent !== "reminder") return data({ intent: "email", errors: { _form: DETAIL_MESSAGES.problem }, values: {} } satisfies FormFailure, { status: 400 });
  if (intent === "reminder" && company!.permission === 5) return data({ intent, errors: { _form: DETAIL_MESSAGES.problem }, values: {} } satisfies FormFailure, { status: 403 });
  const parsed = parseForm(emailFormSchema, form);
  if (!parsed.ok) return data({ intent, errors: parsed.errors, values: parsed.values } satisfies FormFailure, { status: 400 });
  const { emails: to, subject, body } = parsed.data;
  const back = new URL(request.url).pathname;
  const now = new Date();
  const sent =
    intent === "reminder"
      ? await sendPaymentReminder(db(), { companyId: company!.id, documentId: doc.id, to, text: { subject, body } }, now)
      : await sendDocumentEmailNow(db(), { companyId: company!.id, documentId: doc.id, to, subject, body }, now);
  if (!sent) notFound();
  if (!sent.ok) return data({ intent, errors: { _form: sent.message }, values: formValues(form) } satisfies FormFailure, { status: 502 });
  return redirectWithToast(back, { type: "success", text: intent === "reminder" ? REMINDER_MESSAGES.sent : EMAIL_FORM_MESSAGES.emailSent });
}

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: d?.title ?? "Detalle del documento" }];
}

function CopyLink({ url }: { url: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);
  return (
    <div>
      <label htmlFor="public-link" className="text-sm font-medium">
        Enlace público
      </label>
      <div className="mt-1 flex gap-2">
        <input id="public-link" className="input flex-1" readOnly value={url} onFocus={(e) => e.currentTarget.select()} data-public-link />
        {hydrated && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              navigator.clipboard.writeText(url).then(
                () => setMessage(DETAIL_MESSAGES.linkCopied),
                () => setMessage(DETAIL_MESSAGES.linkCopyFailed),
              );
            }}
          >
            copiar
          </button>
        )}
      </div>
      {message ? (
        <p className="mt-1 text-sm" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}

/** Addresses, subject and body (the e-mail form and the reminder form); `prefix` keeps the ids apart. */
function EmailFields({ prefix, values, errors }: { prefix: string; values: Partial<EmailFormValues>; errors: FieldErrors }) {
  const described = (name: string) => (errors[name] ? { "aria-invalid": true, "aria-describedby": `${prefix}${name}-error` } : {});
  return (
    <>
      <Field label="Correos" name={`${prefix}emails`} error={errors.emails}>
        <input id={`${prefix}emails`} name="emails" className="input w-full" defaultValue={values.emails ?? ""} placeholder="correo@ejemplo.com, otro@ejemplo.com" {...described("emails")} />
      </Field>
      <Field label="Asunto" name={`${prefix}subject`} error={errors.subject}>
        <input id={`${prefix}subject`} name="subject" className="input w-full" defaultValue={values.subject ?? ""} maxLength={300} {...described("subject")} />
      </Field>
      <Field label="Mensaje" name={`${prefix}body`} error={errors.body}>
        <textarea id={`${prefix}body`} name="body" className="input w-full" rows={6} defaultValue={values.body ?? ""} {...described("body")} />
      </Field>
    </>
  );
}

export default function Detail({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const failed = (intent: FormFailure["intent"]) => (actionData && actionData.intent === intent ? actionData : null);
  const emailFailure = failed("email");
  const reminderFailure = failed("reminder");
  const here = `/detail/${d.type}/${d.id}`;
  // A reminder that failed validation shows its form again (the POST went to ?recordatorio=1).
  const reminderValues = reminderFailure ? { ...d.reminderForm, ...reminderFailure.values } : d.reminderForm;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
      <aside className="card" aria-label={d.listTitle}>
        <h2 className="mb-2 font-semibold">{d.listTitle}</h2>
        <ListControls search={d.search} perPage={d.perPage} />
        <ul className="divide-y divide-slate-200" data-detail-list>
          {d.list.length === 0 && <li className="py-2 text-slate-500">No hay documentos</li>}
          {d.list.map((r) => (
            <li key={r.id} className={r.id === d.id ? "bg-primary/10" : undefined} aria-current={r.id === d.id ? "true" : undefined}>
              <Link to={`/detail/${d.type}/${r.id}`} className="block px-2 py-2">
                <div className="flex flex-wrap justify-between gap-x-2">
                  <span className="min-w-0 break-all font-medium">{r.number}</span>
                  <span className="shrink-0 whitespace-nowrap" data-list-total>
                    {r.total}
                  </span>
                </div>
                <div className="flex justify-between gap-2 text-xs text-slate-600">
                  <span>{r.client}</span>
                  <span>
                    {r.date}
                    {r.status ? ` · ${r.status}` : ""}
                  </span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
        <Pagination page={d.page} lastPage={d.lastPage} more={d.totalCapped} />
      </aside>
      <section className="space-y-4">
        <div className="card space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h1 className="text-lg font-semibold">{d.title}</h1>
            <div className="flex flex-wrap gap-2 text-sm">
              {d.paymentStatus && (
                <span className="chip" data-payment-status>
                  {d.paymentStatus}
                </span>
              )}
              {d.due && (
                <span className="chip chip-off" data-due>
                  {d.due}
                </span>
              )}
            </div>
          </div>
          {d.rejected && (
            <div className="rounded-md bg-danger/10 p-3 text-sm text-danger" role="alert" data-rejection>
              <p className="font-semibold">Hacienda rechazó este documento.</p>
              {d.rejectionReasons.length > 0 && (
                <ul className="mt-1 list-disc pl-5" data-rejection-reasons>
                  {d.rejectionReasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              )}
              {d.haciendaDetail ? (
                <details className="mt-1">
                  <summary className="cursor-pointer">Respuesta completa de Hacienda</summary>
                  <p className="mt-1 whitespace-pre-line text-slate-700">{d.haciendaDetail}</p>
                </details>
              ) : null}
              <p className="mt-2">
                Puede emitir un comprobante corregido que lo sustituya (código de referencia 16, «Sustituye comprobante electrónico rechazado»: no necesita una nota de crédito) o anularlo con una nota de
                crédito.
              </p>
              {(d.actions.replace || d.actions.notes) && (
                <div className="mt-2 flex flex-wrap gap-2" data-rejection-fix>
                  {d.actions.replace && (
                    <Link className="btn btn-primary btn-sm" to={`/new-clone/${d.type}/${d.id}?replace=1`}>
                      Corregir y reemplazar
                    </Link>
                  )}
                  {d.actions.notes && (
                    <Link className="btn btn-outline btn-sm" to={`/new-note/nc/${d.type}/${d.id}`}>
                      Anular con nota de crédito
                    </Link>
                  )}
                </div>
              )}
            </div>
          )}
          {!d.rejected && d.lastError && d.ribbon === "por enviar" ? <p className="text-sm text-slate-600">Pendiente de envío a Hacienda: {d.lastError}</p> : null}
          <div className="flex flex-wrap gap-2" data-detail-actions>
            <a className="btn btn-outline btn-sm" href={`/document-file/${d.id}/pdf`} download>
              Descargar PDF
            </a>
            {d.hasSignedXml && (
              <a className="btn btn-outline btn-sm" href={`/document-file/${d.id}/xml`} download>
                Descargar XML
              </a>
            )}
            {d.hasResponseXml && (
              <a className="btn btn-outline btn-sm" href={`/document-file/${d.id}/respuesta`} download>
                XML de respuesta
              </a>
            )}
            <a className="btn btn-outline btn-sm" href={`/detail/${d.type}/${d.id}/print`} target="_blank" rel="noreferrer" data-print-link>
              Imprimir
            </a>
            {d.receipt && (
              <a className="btn btn-outline btn-sm" href={`/document-file/${d.id}/recibo`} download>
                Recibo PDF
              </a>
            )}
            {d.actions.clone && (
              <Link className="btn btn-outline btn-sm" to={`/new-clone/${d.type}/${d.id}`}>
                Clonar
              </Link>
            )}
            {d.actions.notes && (
              <>
                <Link className="btn btn-outline btn-sm" to={`/new-note/nc/${d.type}/${d.id}`}>
                  Nota de crédito
                </Link>
                <Link className="btn btn-outline btn-sm" to={`/new-note/nd/${d.type}/${d.id}`}>
                  Nota de débito
                </Link>
              </>
            )}
            {d.actions.pay && (
              <Link className="btn btn-outline btn-sm" to={`/payments?document_id=${d.id}&volver=${encodeURIComponent(`/detail/${d.type}/${d.id}`)}`} data-pay>
                Pagar
              </Link>
            )}
            {d.quotation && <QuotationActions id={d.id} invoiceId={d.quotation.invoiceId} back={`/detail/${d.type}/${d.id}`} name={d.quotation.name} only="convert" />}
            {d.quotation && (
              <Link className="btn btn-outline btn-sm" to={`/edit-quotation/quotation/${d.id}`}>
                Editar
              </Link>
            )}
            {d.actions.recurring && (
              <Link className="btn btn-outline btn-sm" to={`/new-recurring/invoice/${d.id}`}>
                Hacer recurrente
              </Link>
            )}
            {d.actions.reminder && (
              <Link className="btn btn-outline btn-sm" to={`${here}?${REMINDER_QUERY}=1`} data-reminder-link>
                Recordatorio de pago ({d.actions.reminder.sent} enviados)
              </Link>
            )}
          </div>
          <CopyLink url={d.publicUrl} />
          {d.emailStatus && (
            <p className="text-sm text-slate-600" data-email-status>
              {d.emailStatus}
            </p>
          )}
          {reminderValues && (
            <AppForm action={`${here}?${REMINDER_QUERY}=1`} className="space-y-2 rounded-md border border-slate-200 p-3" data-reminder-form>
              <input type="hidden" name="intent" value="reminder" />
              <h2 className="font-semibold">Recordatorio de pago</h2>
              <EmailFields prefix="reminder-" values={reminderValues} errors={reminderFailure?.errors ?? {}} />
              <FormAlert>{reminderFailure?.errors._form}</FormAlert>
              <div className="flex gap-2">
                <SubmitButton className="btn btn-primary btn-sm">Enviar recordatorio</SubmitButton>
                <Link className="btn btn-outline btn-sm" to={here}>
                  Cancelar
                </Link>
              </div>
            </AppForm>
          )}
          {d.receipts.length > 0 && (
            <section className="space-y-2" aria-labelledby="receipts-title" data-receipts>
              <h2 id="receipts-title" className="font-semibold">
                Recibos electrónicos de pago
              </h2>
              <ul className="divide-y divide-slate-200 text-sm">
                {d.receipts.map((r) => (
                  <li key={r.paymentId} className="py-1" data-receipt={r.rep?.consecutivo ?? ""}>
                    Pago del {r.date} por {r.amount}:{" "}
                    {r.rep ? (
                      <>
                        recibo {r.rep.consecutivo} <span className="chip">{r.rep.status}</span> <a href={`/document-file/${r.rep.id}/xml`}>XML</a>
                        {r.rep.hasResponse && (
                          <>
                            {" "}
                            <a href={`/document-file/${r.rep.id}/respuesta`}>Respuesta de Hacienda</a>
                          </>
                        )}
                        {r.rep.detail && <span className="block text-danger">{r.rep.detail}</span>}
                      </>
                    ) : (
                      <span className="text-slate-600">{r.note}</span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {d.canEmail && (
            <AppForm action={here} className="space-y-2" data-email-form>
              <input type="hidden" name="intent" value="email" />
              <h2 className="font-semibold">Enviar por correo</h2>
              <EmailFields prefix="" values={emailFailure ? { ...d.emailForm, ...emailFailure.values } : d.emailForm} errors={emailFailure?.errors ?? {}} />
              <FormAlert>{emailFailure?.errors._form}</FormAlert>
              <SubmitButton className="btn btn-primary btn-sm">Enviar</SubmitButton>
            </AppForm>
          )}
        </div>
        <DocumentPreview view={d.preview} logoSrc={d.logoSrc} ribbon={d.ribbon} />
      </section>
    </div>
  );
}

/** Anything thrown (404) shows the plain message inside the layout. */
export function ErrorBoundary() {
  return <div className="card">{DETAIL_MESSAGES.notFound}</div>;
}
