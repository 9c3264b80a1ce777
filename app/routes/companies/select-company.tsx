import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import type { Route } from "./+types/select-company";
import { users } from "../../../db/schema/index.ts";
import { requestContext } from "../../server/context.ts";
import { db } from "../../server/db.server.ts";
import { redirectWithToast } from "../../server/flash.server.ts";
import { switchSessionCompany } from "../../server/session.server.ts";
import { inactiveCompanyMessage } from "../../domain/company-texts.ts";

export async function action({ request, context }: Route.ActionArgs) {
  const { user, sessionId } = context.get(requestContext);
  const companyId = Number((await request.formData()).get("company_id"));
  // One statement: the session moves only while the user is linked to the company (an unlink
  // committed in between cannot leave him in it).
  const company = Number.isInteger(companyId) ? await switchSessionCompany(db(), { sessionId: sessionId!, userId: user!.id, companyId }) : undefined;
  if (!company) return redirectWithToast("/companies", { type: "error", text: "Ocurrio un error" });
  await db().update(users).set({ defaultCompanyId: company.id }).where(eq(users.id, user!.id));
  // An inactive company is said so (spec part 1 §2.2: only the dashboard and companies are open to its staff).
  if (!company.active) return redirectWithToast("/dashboard", { type: "warning", text: inactiveCompanyMessage(company.name, user!.isAdmin) });
  return redirectWithToast("/dashboard", { type: "success", text: `La compañia ${company.name} esta activa` });
}

export const loader = () => redirect("/companies");
