import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { clearSessionCookie, closeSession } from "../../server/session.server.ts";

export async function action({ context }: Route.ActionArgs) {
  const { sessionId } = context.get(requestContext);
  if (sessionId) await closeSession(db(), sessionId, new Date());
  return redirect("/login", { headers: { "Set-Cookie": clearSessionCookie() } });
}

export function loader() {
  return redirect("/dashboard");
}
