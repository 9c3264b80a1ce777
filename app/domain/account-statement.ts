// The account statement of a client (spec part 1 §2.3 'Estado de cuenta', §3, §8): its invoices with
// something due (app/domain/receivables.ts), each by its consecutive, its date DD/MM/YYYY and what is
// due in its own currency, and the pending total in colones — the same rows on screen and in the
// e-mail, which is the company's 'account_statement' template (docs/decisions/161). Pure.
import { fillTemplate } from "./email-template.ts";
import { formatDate } from "./format.ts";
import { formatMoney } from "./format-money.ts";

export interface StatementInvoice {
  reference: string;
  issuedAt: Date | string;
  /** What is due, in the invoice's currency (5 decimals). */
  pending: string;
  currencyId: number;
}

export interface StatementRow {
  reference: string;
  date: string;
  pending: string;
}

export const STATEMENT_TEXTS = {
  title: "Estado de cuenta",
  empty: "No hay facturas pendientes",
  columns: ["Factura", "Fecha", "Pendiente"] as const,
} as const;

export const symbolOfCurrency = (currencyId: number) => (currencyId === 1 ? "$" : "₡");

export function statementRows(invoices: StatementInvoice[]): StatementRow[] {
  return invoices.map((i) => ({ reference: i.reference, date: formatDate(i.issuedAt), pending: formatMoney(i.pending, symbolOfCurrency(i.currencyId)) }));
}

/** The rows as plain-text columns for the e-mail body. */
export function statementTable(rows: StatementRow[]): string {
  if (!rows.length) return `${STATEMENT_TEXTS.empty}.`;
  const table = [STATEMENT_TEXTS.columns.slice(), ...rows.map((r) => [r.reference, r.date, r.pending])];
  const widths = [0, 1].map((c) => Math.max(...table.map((r) => r[c].length)));
  return table.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`).join("\n");
}

export const STATEMENT_FALLBACK_TEMPLATE = {
  subject: "Estado de cuenta de {cliente} con {compania}",
  body: "Estimado(a) {cliente}:\n\nLe enviamos su estado de cuenta con {compania}. El saldo pendiente es de {monto}.\n\n{detalle}\n\nSaludos,\n{compania}",
};

/**
 * The e-mail: the template's subject and body filled ({cliente}, {compania}, {monto} the pending
 * total in colones, {fecha} today, {detalle} the table); a template without {detalle} gets the table
 * at the end.
 */
export function statementEmail(input: {
  clientName: string;
  companyName: string;
  pendingTotal: string;
  invoices: StatementInvoice[];
  today: Date;
  template: { subject: string; body: string } | null;
}): { subject: string; text: string } {
  const t = input.template ?? STATEMENT_FALLBACK_TEMPLATE;
  const table = statementTable(statementRows(input.invoices));
  const values = { cliente: input.clientName, compania: input.companyName, monto: formatMoney(input.pendingTotal, "₡"), fecha: formatDate(input.today), detalle: table, referencia: "", vencimiento: "" };
  const body = fillTemplate(t.body, values);
  return {
    subject: fillTemplate(t.subject, values).replace(/[\r\n]+/g, " ").trim(),
    text: t.body.includes("{detalle}") ? body : `${body.trimEnd()}\n\n${table}\n`,
  };
}
