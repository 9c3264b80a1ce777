import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import type { Route } from "./+types/advertisement-seen";
import { users } from "../../../db/schema/index.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(requestContext);
  const code = Number((await request.formData()).get("code"));
  if (Number.isInteger(code) && code > 0) await db().update(users).set({ advertisementCode: code }).where(eq(users.id, user!.id));
  return redirect("/dashboard");
}

export const loader = () => redirect("/dashboard");
