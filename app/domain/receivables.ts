/**
 * What is still due on a document — the one rule behind the client balance, the account statement,
 * the 'Pagar' button, the payment form's limit, the payment status labels (spec part 2 §4), the
 * due/overdue markers and the payment reminders (issue 14 point 1, docs/decisions/160):
 *
 *   due = total − payments − accepted credit notes + accepted debit notes, never below zero.
 *
 * The four amounts are stored on the document row (documents.total_comprobante, payment_amount,
 * credit_note_total, debit_note_total: the notes' totals are added when Hacienda accepts them, or
 * at issue for companies that do not send to Hacienda), so a list computes it row by row from the
 * page it already read. Pure: decimal strings in and out, never floats.
 */
import { dec, money } from "./decimal.ts";

export interface Receivable {
  /** documents.total_comprobante */
  total: string;
  /** Sum of the live payments (documents.payment_amount). */
  paymentAmount: string;
  /** Sum of the accepted credit notes that reference the document, in its currency. */
  creditNoteTotal: string;
  /** Sum of the accepted debit notes that reference the document, in its currency. */
  debitNoteTotal: string;
}

const d0 = (v: string | null | undefined) => dec(v || "0");

/** What is still owed on a document (5 decimals, never below zero). */
export function amountDue(d: Receivable): string {
  const due = d0(d.total).minus(d0(d.paymentAmount)).minus(d0(d.creditNoteTotal)).plus(d0(d.debitNoteTotal));
  return money(due.isNegative() ? dec("0") : due);
}

/** Something is still owed. */
export function owes(d: Receivable): boolean {
  return dec(amountDue(d)).gt(0);
}

/** The credit notes alone cancel the document (what it owes with its debit notes). */
export function creditedInFull(d: Receivable): boolean {
  const credited = d0(d.creditNoteTotal);
  return credited.gt(0) && credited.gte(d0(d.total).plus(d0(d.debitNoteTotal)));
}

/**
 * A note's total in the currency of the document it references (notes normally share it; when they
 * do not, through colones at each document's stored exchange rate). 5 decimals.
 */
export function noteAmountIn(target: { currencyId: number; exchangeRate: string }, note: { currencyId: number; exchangeRate: string; total: string }): string {
  if (note.currencyId === target.currencyId) return money(dec(note.total));
  const colones = note.currencyId === 1 ? dec(note.total).times(dec(note.exchangeRate)) : dec(note.total);
  return money(target.currencyId === 1 ? colones.dividedBy(dec(target.exchangeRate)) : colones);
}
