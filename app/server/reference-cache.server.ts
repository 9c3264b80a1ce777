// Reference data the seed writes and no screen changes (currencies), kept per process: a page
// that shows amounts does not ask for the same few rows every time (docs/decisions/191-request-shell.md).
// Keyed by the database object, so a test that opens another database reads that one's rows. A
// change to these tables comes with a new release (a migration or the seed), hence a restart.
import { currencies } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/client.ts";

const symbolsByDb = new WeakMap<object, Promise<Map<number, string>>>();

/** Currency id → symbol (₡, $…). */
export function currencySymbols(db: DbOrTx): Promise<Map<number, string>> {
  let symbols = symbolsByDb.get(db);
  if (!symbols) {
    symbols = db
      .select({ id: currencies.id, symbol: currencies.symbol })
      .from(currencies)
      .then((rows) => new Map(rows.map((c) => [c.id, c.symbol])));
    symbolsByDb.set(db, symbols);
    // A failed read is not kept: the next page asks again.
    symbols.catch(() => symbolsByDb.delete(db));
  }
  return symbols;
}
