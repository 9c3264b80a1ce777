// The one filler of e-mail templates ({cliente}, {monto}, … — docs/decisions/163): the document
// e-mails, the payment reminder, the account statement and the template editor's preview.
// Pure: text in, text out.

const DELIMITERS = ".,;:!?\n";
const PLACEHOLDER = /\{([a-zA-Z_]+)\}/g;

/**
 * Replaces each {name} with its value; placeholders it does not know stay as typed.
 *
 * A known placeholder without a value never leaves a hole ('con vencimiento el .'): the clause it
 * sits in goes. A clause runs from the previous punctuation mark (. , ; : ! ? or a line break) to
 * the next one. When it follows a comma or semicolon only that part goes ('por {monto}, con
 * vencimiento el {vencimiento}.' → 'por ₡1.000,00.'); when it opens a sentence, the sentence goes
 * with its closing mark ('Vence el {vencimiento}. Gracias.' → 'Gracias.').
 *
 * A value that ends with a period before a period of the template is not doubled
 * ('con {compania}.' and 'Colibrí Demo S.A.' → 'con Colibrí Demo S.A.').
 */
export function fillTemplate(text: string, values: Record<string, string>): string {
  const known = (name: string) => Object.hasOwn(values, name);
  const empty = (name: string) => known(name) && !(values[name] ?? "").trim();
  const cuts: Array<[number, number]> = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (!empty(m[1])) continue;
    cuts.push(clauseAround(text, m.index, m.index + m[0].length));
  }
  let kept = text;
  for (const [from, to] of merge(cuts).reverse()) kept = kept.slice(0, from) + kept.slice(to);
  return kept.replace(/\{([a-zA-Z_]+)\}(\.?)/g, (whole, name: string, dot: string) => {
    if (!known(name)) return whole;
    const value = values[name];
    return value.endsWith(".") && dot === "." ? value : value + dot;
  });
}

/** The stretch of `text` to remove for an empty placeholder at [start, end). */
function clauseAround(text: string, start: number, end: number): [number, number] {
  let from = start;
  while (from > 0 && !DELIMITERS.includes(text[from - 1])) from--;
  let to = end;
  while (to < text.length && !DELIMITERS.includes(text[to])) to++;
  const before = from > 0 ? text[from - 1] : "";
  if (before === "," || before === ";") return [from - 1, to];
  // The clause opens a sentence: keep the space before it, take its closing mark and the spaces after.
  while (from < start && text[from] === " ") from++;
  if (to < text.length && text[to] !== "\n") {
    to++;
    while (to < text.length && text[to] === " ") to++;
  }
  return [from, to];
}

function merge(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([...r]);
  }
  return out;
}
