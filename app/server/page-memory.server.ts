// Each data table remembers its page (and page size) per section, in the session (spec part 1 §4).
import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { sessions } from "../../db/schema/index.ts";
import { parsePageRequest, type PageRequest } from "../domain/pagination.ts";
import { requestContext } from "./context.ts";
import { db } from "./db.server.ts";
import { forgetSessionRow } from "./session.server.ts";

type Memory = Record<string, { page?: number; perPage?: number }>;

export async function listRequest(request: Request, context: Readonly<RouterContextProvider>, section: string, defaultPerPage?: number): Promise<PageRequest> {
  const state = context.get(requestContext);
  const { sessionId } = state;
  const params = new URL(request.url).searchParams;
  if (!sessionId) return parsePageRequest(params, undefined, defaultPerPage);
  // Read with the session by the root middleware (one query less per list page); read here otherwise.
  const uiState = state.uiState !== undefined ? state.uiState : (await db().select({ uiState: sessions.uiState }).from(sessions).where(eq(sessions.id, sessionId)))[0]?.uiState;
  let memory: Memory = {};
  try {
    memory = uiState ? (JSON.parse(uiState) as Memory) : {};
  } catch {
    memory = {};
  }
  // A new search or a new page size starts on page 1; otherwise the remembered page is used.
  const saved = memory[section];
  const fresh = params.has("search") || (params.has("perPage") && Number(params.get("perPage")) !== saved?.perPage);
  const remembered = fresh ? { perPage: saved?.perPage } : saved;
  const req = parsePageRequest(params, remembered, defaultPerPage);
  if (memory[section]?.page !== req.page || memory[section]?.perPage !== req.perPage) {
    memory[section] = { page: req.page, perPage: req.perPage };
    state.uiState = JSON.stringify(memory);
    await db().update(sessions).set({ uiState: state.uiState }).where(eq(sessions.id, sessionId));
    forgetSessionRow(db(), sessionId);
  }
  return req;
}
