// Item use-cases (spec part 1 §2.3 Items, §3 Item, §5 Item, §8 Items): the form's lists, save (with the
// CABYS code checked against the catalogue or Hacienda), delete. Every call is scoped to the company.
import type { Db } from "../../db/client.ts";
import { deleteItem as deleteItemRow, insertItem, itemCodeTaken, taxTypesOf, updateItem, type ItemValues } from "../../db/queries/items.ts";
import { categories, currencies, unitsOfMeasure } from "../../db/seed/reference-data.ts";
import type { FieldErrors } from "../domain/forms.ts";
import { ITEM_MESSAGES, taxTypeForRate, type ItemInput, type ItemSchemaOptions, type TaxTypeOption } from "../domain/item-schemas.ts";
import { findCabysCode, type RemoteOptions } from "./cabys.server.ts";

export interface ItemFormLists {
  categories: { id: number; name: string }[];
  units: { symbol: string; description: string }[];
  currencies: { id: number; name: string; symbol: string }[];
  taxTypes: TaxTypeOption[];
}

export async function itemFormLists(db: Db, companyId: number): Promise<ItemFormLists> {
  const taxes = await taxTypesOf(db, { companyId });
  return {
    categories: categories.map((c) => ({ id: c.id, name: c.name })),
    units: unitsOfMeasure.map((u) => ({ symbol: u.symbol, description: u.description })),
    currencies: currencies.map((c) => ({ id: c.id, name: c.name, symbol: c.symbol })),
    taxTypes: taxes.map((t) => ({ id: t.id, name: t.name, rate: String(Number(t.rate)), vatCode: t.vatCode })),
  };
}

export function schemaOptions(lists: ItemFormLists): ItemSchemaOptions {
  return {
    categoryIds: lists.categories.map((c) => c.id),
    unitSymbols: lists.units.map((u) => u.symbol),
    currencyIds: lists.currencies.map((c) => c.id),
    taxTypeIds: lists.taxTypes.map((t) => t.id),
  };
}

/** The company's tax type for a CABYS rate (Exento when exempt), as the form shows it. */
export function matchingTaxType(lists: ItemFormLists, rate: string | null | undefined) {
  return taxTypeForRate(lists.taxTypes, rate);
}

type SaveResult = { ok: true; id: number } | { ok: false; errors: FieldErrors };

function values(input: ItemInput): ItemValues {
  return {
    code: input.code,
    cabysCode: input.cabys_code,
    name: input.name,
    description: input.description,
    categoryId: input.category,
    unitCode: input.unit,
    taxTypeId: input.tax_type,
    currencyId: input.currency,
    price: input.price,
  };
}

/** Creates (id null) or updates an item of the company. */
export async function saveItem(db: Db, opts: { companyId: number; id: number | null; remote?: RemoteOptions }, input: ItemInput): Promise<SaveResult> {
  const cabys = await findCabysCode(db, input.cabys_code, opts.remote);
  if (!cabys.ok) return { ok: false, errors: { cabys_code: cabys.message } };
  return db.transaction(async (tx): Promise<SaveResult> => {
    if (await itemCodeTaken(tx, { companyId: opts.companyId, code: input.code, exceptId: opts.id ?? undefined })) return { ok: false, errors: { code: ITEM_MESSAGES.duplicateCode } };
    if (opts.id === null) return { ok: true, id: await insertItem(tx, opts.companyId, values(input)) };
    const updated = await updateItem(tx, { companyId: opts.companyId, id: opts.id }, values(input));
    return updated ? { ok: true, id: opts.id } : { ok: false, errors: { _form: ITEM_MESSAGES.problem } };
  });
}

export async function removeItem(db: Db, opts: { companyId: number; id: number; now: Date }): Promise<boolean> {
  return deleteItemRow(db, opts);
}
