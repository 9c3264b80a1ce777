// The embedded database announces every change of the tables the session's lookup reads (migration
// shell_changes, docs/decisions/201); this counts the announcements per database, so a request can
// tell whether anything the lookup reads changed since a row was read. PGlite hands each notification
// to its listener in a microtask queued while the writing statement's answer is read, so the count
// has moved before the code that awaited the write goes on. PostgreSQL (several processes) does not
// count: there the setting stays off and nothing is announced.
import type { PGlite } from "@electric-sql/pglite";

// On the client object itself, under a registered symbol: the server's app bundle has its own copy
// of this module, so a map here would not be the one the server filled.
const COUNTER = Symbol.for("colibri.shellChanges");
type Counted = { [COUNTER]?: { changes: number } };

/** Starts counting the announced changes of the embedded database `pglite`, for its client `db`. */
export async function countShellChanges(db: object, pglite: PGlite): Promise<void> {
  const counter = { changes: 0 };
  await pglite.listen("colibri_shell", () => {
    counter.changes++;
  });
  await pglite.exec("set colibri.shell_notify = on");
  (db as Counted)[COUNTER] = counter;
}

/** How many changes `db` has announced so far; undefined where none are announced (PostgreSQL, a transaction's client). */
export function shellChanges(db: object): number | undefined {
  return (db as Counted)[COUNTER]?.changes;
}
