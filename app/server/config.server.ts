// Company configuration use-cases (spec part 1 §2.3 Company configuration, §3, §5, §6): the guard
// every configuration screen uses, general configuration, e-mail templates and terms.
// The Hacienda access lives in hacienda-config.server.ts, the e-mail servers in company-mail.server.ts.
import { and, eq } from "drizzle-orm";
import { data } from "react-router";
import type { Db } from "../../db/client.ts";
import { manageableCompany } from "../../db/queries/companies.ts";
import { generalConfigOf, templateOf, templatesOf, termOf, termsOf } from "../../db/queries/config.ts";
import { emailTemplates, generalConfigurations, terms } from "../../db/schema/index.ts";
import { companyIdParam } from "../domain/access.ts";
import type { GeneralConfigInput, TemplateInput, TermInput } from "../domain/config-schemas.ts";
import type { CurrentUser } from "./context.ts";

export const ADMIN_ONLY = "Solo un administrador puede hacer esta acción.";

/**
 * The company whose configuration is shown: one the user is linked to (the super-admin: any),
 * else 404 — a company of another tenant does not exist for them. `admin` screens (Hacienda access,
 * e-mail server) then refuse non-admins with 403.
 */
export async function requireConfigCompany(db: Db, user: CurrentUser | undefined, rawId: string | undefined, opts: { admin?: boolean } = {}) {
  if (!user) throw data("No encontrado", { status: 404 });
  const companyId = companyIdParam(rawId);
  const company = companyId !== null ? await manageableCompany(db, { userId: user.id, isSuperAdmin: user.isSuperAdmin, companyId }) : undefined;
  if (!company) throw data("No encontrado", { status: 404 });
  if (opts.admin && !user.isAdmin) throw data(ADMIN_ONLY, { status: 403 });
  return company;
}

// ---- General configuration -----------------------------------------------------------------------

export async function generalConfigValues(db: Db, companyId: number): Promise<Record<string, string>> {
  const row = await generalConfigOf(db, companyId);
  return {
    custom_quotation_name: row?.customQuotationName ?? "Cotización",
    currency: String(row?.currencyId ?? 2),
    mode_pos: row?.modePos ? "1" : "0",
    currency_emit_doc: String(row?.currencyEmitDoc ?? 0),
    print_format: row?.printFormat ?? "a4",
  };
}

export async function saveGeneralConfig(db: Db, companyId: number, input: GeneralConfigInput) {
  const values = { customQuotationName: input.custom_quotation_name, currencyId: input.currency, modePos: input.mode_pos, currencyEmitDoc: input.currency_emit_doc, printFormat: input.print_format };
  await db
    .insert(generalConfigurations)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: generalConfigurations.companyId, set: values });
}

// ---- Templates -------------------------------------------------------------------------------------

export async function listTemplates(db: Db, companyId: number) {
  return (await templatesOf(db, companyId)).map((t) => ({ id: t.id, type: t.type, name: t.name, subject: t.subject, body: t.body }));
}

/** Updates a template of the company; false when the id is not one of its templates. */
export async function saveTemplate(db: Db, companyId: number, id: number, input: TemplateInput): Promise<boolean> {
  if (!(await templateOf(db, companyId, id))) return false;
  await db
    .update(emailTemplates)
    .set({ subject: input.subject, body: input.body })
    .where(and(eq(emailTemplates.companyId, companyId), eq(emailTemplates.id, id)));
  return true;
}

// ---- Terms -----------------------------------------------------------------------------------------

export async function listTerms(db: Db, companyId: number) {
  return (await termsOf(db, companyId)).map((t) => ({ id: t.id, name: t.name, body: t.body }));
}

/** Creates (id null) or updates a term of the company; false when the id is not one of its terms. */
export async function saveTerm(db: Db, companyId: number, id: number | null, input: TermInput): Promise<number | false> {
  if (id === null) {
    const [row] = await db.insert(terms).values({ companyId, name: input.name, body: input.body }).returning({ id: terms.id });
    return row!.id;
  }
  if (!(await termOf(db, companyId, id))) return false;
  await db
    .update(terms)
    .set({ name: input.name, body: input.body })
    .where(and(eq(terms.companyId, companyId), eq(terms.id, id)));
  return id;
}

/** Parses an optional positive id from a form or query value: null when blank, NaN when malformed. */
export function optionalId(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw === "") return null;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
}
