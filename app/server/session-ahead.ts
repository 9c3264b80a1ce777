// A signed-in GET answered while its session is read (docs/decisions/204).
//
// On PostgreSQL every signed-in request reads its session (decision 191), and the page's own queries
// used to wait for that reading: two round trips one after the other. For a GET (or HEAD) the root
// middleware may instead start the reading and, at the same time, answer with the session as this
// process last read it (`guessedSession`). The answer is kept only if the reading says exactly the
// same; otherwise the request handler throws it away and answers again with the session just read
// (no second reading). So an answer is always made from a reading started after its request
// arrived, as before, and nothing made from an older one leaves the server.
//
// The request handler (server/request-handler.ts) and the middleware (in the app's bundle, which has
// its own copy of this module) meet on the request's context object, under a registered symbol.
import type { SessionLookup } from "./session.server.ts";

const SLOT = Symbol.for("colibri.sessionAhead");

export interface AheadSlot {
  /** The session to answer with, as it is (the answer made again). */
  given?: SessionLookup;
  /** Set by the middleware: the guess was wrong; answer again with this session. */
  again?: SessionLookup;
}

type Slotted = { [SLOT]?: AheadSlot };

/** The request handler: this request may be answered ahead of its session's reading, or with `given`. */
export function allowAhead(context: object, given?: SessionLookup): AheadSlot {
  const slot: AheadSlot = { given };
  (context as Slotted)[SLOT] = slot;
  return slot;
}

/** The middleware: whether (and how) this request may be answered ahead. */
export function aheadSlot(context: object): AheadSlot | undefined {
  return (context as Slotted)[SLOT];
}
