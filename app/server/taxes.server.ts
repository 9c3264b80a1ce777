// The company's 'Lista de IVA' (/taxes/:company_id): visible to users linked to the company, changed
// only by admins. A company the user is not linked to does not exist for them (404).
import { data } from "react-router";
import type { Db } from "../../db/client.ts";
import { companyOfUser } from "../../db/queries/companies.ts";
import { insertTaxType, updateTaxType } from "../../db/queries/items.ts";
import { vatRates } from "../../db/seed/reference-data.ts";
import type { TaxInput } from "../domain/item-schemas.ts";
import type { CurrentUser } from "./context.ts";

export const VAT_CODES = vatRates.map((v) => v.code);
export const VAT_OPTIONS = vatRates.map((v) => ({ code: v.code, name: v.name, rate: v.rate }));

/** The company if the user is linked to it (the current company always is), else 404. */
export async function requireTaxCompany(db: Db, user: CurrentUser, companyId: number | null) {
  const company = companyId !== null && companyId > 0 ? await companyOfUser(db, { userId: user.id, companyId }) : undefined;
  if (!company) throw data("No encontrado", { status: 404 });
  return company;
}

/** Creates (id null) or edits a row of the company's list; false when the row is not the company's. */
export async function saveTaxType(db: Db, opts: { companyId: number; id: number | null }, input: TaxInput): Promise<boolean> {
  const values = { name: input.name, rate: input.rate, vatCode: input.vat_code };
  if (opts.id === null) {
    await insertTaxType(db, opts.companyId, values);
    return true;
  }
  return updateTaxType(db, { companyId: opts.companyId, id: opts.id }, values);
}
