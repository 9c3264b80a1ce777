// A long list of choices (the ~250 countries of the client and company forms) as it travels in a
// page's data: one string instead of an object per choice. Choices are separated by '|'; a choice
// whose id is the previous id + 1 is just its name, any other is 'id~name' (the countries are sorted
// by name and their ids mostly follow that order). The page's HTML already has the names (the
// select's options), which the compressed data then repeats for a few bytes: the countries cost
// about 1 kB of gzip JavaScript instead of about 4 kB (the JavaScript budget, docs/decisions/155).
// Pure.

export interface Choice {
  id: number;
  name: string;
}

export function packChoices(rows: readonly Choice[]): string {
  let previous = 0;
  return rows
    .map((r) => {
      const name = r.name.replace(/[|~]/g, " ");
      const packed = r.id === previous + 1 ? name : `${r.id}~${name}`;
      previous = r.id;
      return packed;
    })
    .join("|");
}

export function unpackChoices(packed: string): Choice[] {
  if (!packed) return [];
  let previous = 0;
  return packed.split("|").map((part) => {
    const m = /^(\d+)~/.exec(part);
    const id = m ? Number(m[1]) : previous + 1;
    previous = id;
    return { id, name: m ? part.slice(m[0].length) : part };
  });
}
