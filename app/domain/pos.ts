/**
 * Point-of-sale search on the document form (part 2 "Shared document form": shown only when the
 * company's mode_pos is on). Pure. A code typed or scanned (a barcode reader types it and presses
 * Enter) adds the item at once; other text lists up to POS_LIMIT matches to add with one click.
 * Adding an item already on the document raises its quantity by one instead of a second row.
 */
import { searchWords } from "./item-schemas.ts";
import { blankLine, lineFromItem, type DocumentFormValues, type FormItem } from "./document-form.ts";
import { formatDecimalInput, parseDecimalInput } from "./number-input.ts";

export const POS_LIMIT = 10;

export const POS_MESSAGES = {
  noMatch: "No se encontraron artículos.",
} as const;

/** The company's items matching `q`: an exact code first, then every word in code, name, description or CABYS. */
export function posSearch(items: FormItem[], q: string): FormItem[] {
  const code = q.trim().toLowerCase();
  if (!code) return [];
  const exact = items.filter((it) => it.code.toLowerCase() === code);
  const words = searchWords(q);
  const matches = items.filter((it) => {
    if (exact.includes(it) || words.length === 0) return false;
    const text = searchWords(`${it.code} ${it.name} ${it.description} ${it.cabysCode ?? ""}`).join(" ");
    return words.every((w) => text.includes(w));
  });
  return [...exact, ...matches].slice(0, POS_LIMIT);
}

/** The item a scanned/typed code names exactly (one item only), else null. */
export function posExactItem(items: FormItem[], q: string): FormItem | null {
  const code = q.trim().toLowerCase();
  const exact = code ? items.filter((it) => it.code.toLowerCase() === code) : [];
  return exact.length === 1 ? exact[0] : null;
}

const isBlank = (l: DocumentFormValues["lines"][number]) => !l.itemId && !l.description && !l.code && !l.cabys && !l.price;

/** Adds one unit of `item`: its row's quantity + 1, else the first blank row filled, else a new row. */
export function addItemLine(form: DocumentFormValues, item: FormItem): DocumentFormValues {
  const id = String(item.id);
  const same = form.lines.findIndex((l) => l.picked === id && l.itemId === id);
  if (same >= 0) {
    const q = Number(parseDecimalInput(form.lines[same].quantity) ?? NaN);
    const quantity = Number.isFinite(q) ? formatDecimalInput(String(Math.min(q + 1, 100000))) : "1";
    return { ...form, lines: form.lines.map((l, i) => (i === same ? { ...l, quantity } : l)) };
  }
  const filled = { ...blankLine(), ...lineFromItem(item) };
  const blank = form.lines.findIndex(isBlank);
  const lines = blank >= 0 ? form.lines.map((l, i) => (i === blank ? filled : l)) : [...form.lines, filled];
  return { ...form, lines };
}
