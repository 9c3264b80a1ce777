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
import { dec, fx, fxAdd, fxCmp, fxFixed, fxNeg, fxSign, money, round5, type Fx } from "./decimal.ts";

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

// A list works these out for each of its rows, several times: in exact BigInt arithmetic (decimal.ts
// `Fx`, the same results as decimal.js) rather than a decimal.js object per step.
const f0 = (v: string | null | undefined): Fx => fx(v || "0");

/** total − payments − credit notes + debit notes, before rounding or the floor at zero. */
const dueOf = (d: Receivable): Fx => fxAdd(fxAdd(f0(d.total), fxNeg(f0(d.paymentAmount))), fxAdd(fxNeg(f0(d.creditNoteTotal)), f0(d.debitNoteTotal)));

/** What is still owed on a document (5 decimals, never below zero). */
export function amountDue(d: Receivable): string {
  const due = dueOf(d);
  return fxSign(due) < 0 ? "0.00000" : fxFixed(due, 5);
}

/** Something is still owed (what is due, to 5 decimals, is above zero). */
export function owes(d: Receivable): boolean {
  return round5(dueOf(d)) > 0n;
}

/** The credit notes alone cancel the document (what it owes with its debit notes). */
export function creditedInFull(d: Receivable): boolean {
  const credited = f0(d.creditNoteTotal);
  return fxSign(credited) > 0 && fxCmp(credited, fxAdd(f0(d.total), f0(d.debitNoteTotal))) >= 0;
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
