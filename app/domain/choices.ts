// A long list of choices (the ~250 countries of the client and company forms) as it travels in a
// page's data: one string, a line 'id<TAB>name' per choice, instead of an object per choice. The
// page's HTML already has the names (the select's options), which the compressed data then
// repeats for a few bytes; an object per choice costs about 4 kB of gzip JavaScript more on each
// page with that select (the JavaScript budget, docs/decisions/155). Pure.

export interface Choice {
  id: number;
  name: string;
}

export function packChoices(rows: readonly Choice[]): string {
  return rows.map((r) => `${r.id}\t${r.name.replace(/[\t\n]+/g, " ")}`).join("\n");
}

export function unpackChoices(packed: string): Choice[] {
  if (!packed) return [];
  return packed.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return { id: Number(line.slice(0, tab)), name: line.slice(tab + 1) };
  });
}
