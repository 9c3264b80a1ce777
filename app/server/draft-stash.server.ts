// A document form's typed values kept in the session while the user leaves it for a quick-add (the
// new-client page) and restored when they come back (docs/decisions/093). One stash per form path,
// taken once; stored beside the page memory in sessions.ui_state.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { sessions } from "../../db/schema/index.ts";
import { forgetSessionRow } from "./session.server.ts";

const MAX_BYTES = 256 * 1024;
const key = (path: string) => `draft:${path}`;

async function readState(db: Db, sessionId: string): Promise<Record<string, unknown>> {
  const [row] = await db.select({ uiState: sessions.uiState }).from(sessions).where(eq(sessions.id, sessionId));
  try {
    const parsed = row?.uiState ? JSON.parse(row.uiState) : {};
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Whether a request takes the form's stash: its address asks to restore it. Taking removes the stash,
 * so such a request is never answered ahead of its session's reading (docs/decisions/204): an answer
 * made again would find the stash gone.
 */
export const restoresDraft = (url: URL) => url.searchParams.has("restore");

/** Keeps the form's values (false when they are too large to keep). */
export async function stashDraft(db: Db, sessionId: string, path: string, values: Record<string, string | undefined>): Promise<boolean> {
  const kept = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== undefined && k !== "intent" && k !== "_csrf"));
  if (JSON.stringify(kept).length > MAX_BYTES) return false;
  const state = await readState(db, sessionId);
  state[key(path)] = kept;
  await db.update(sessions).set({ uiState: JSON.stringify(state) }).where(eq(sessions.id, sessionId));
  forgetSessionRow(db, sessionId);
  return true;
}

/** The values kept for this form, removed from the session (null when there are none). */
export async function takeDraft(db: Db, sessionId: string, path: string): Promise<Record<string, string> | null> {
  const state = await readState(db, sessionId);
  const kept = state[key(path)];
  if (!kept || typeof kept !== "object") return null;
  delete state[key(path)];
  await db.update(sessions).set({ uiState: JSON.stringify(state) }).where(eq(sessions.id, sessionId));
  forgetSessionRow(db, sessionId);
  return Object.fromEntries(Object.entries(kept as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** The values kept for this form, left in the session (a dialog over the form shows them behind it). */
export async function peekDraft(db: Db, sessionId: string, path: string): Promise<Record<string, string> | null> {
  const kept = (await readState(db, sessionId))[key(path)];
  if (!kept || typeof kept !== "object") return null;
  return Object.fromEntries(Object.entries(kept as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
}
