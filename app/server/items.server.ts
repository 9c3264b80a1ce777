// Item use-cases (spec part 1 §2.3 Items, §3 Item, §5 Item, §8 Items): the form's lists, its state and
// one POST of it (shared by /new-item, /edit-item/:id and the dialog over /items), save (with the CABYS
// code checked against the catalogue or Hacienda), delete. Every call is scoped to the company.
import { data } from "react-router";
import { formatMoneyInput } from "../domain/number-input.ts";
import type { Db } from "../../db/client.ts";
import { cabysByCode } from "../../db/queries/cabys.ts";
import { deleteItem as deleteItemRow, insertItem, itemById, itemCodeTaken, taxTypesOf, updateItem, type ItemValues } from "../../db/queries/items.ts";
import { categories, currencies, unitsOfMeasure } from "../../db/seed/reference-data.ts";
import { formValues, parseForm, type FieldErrors } from "../domain/forms.ts";
import { formatRate, ITEM_MESSAGES, itemSchema, itemSchemaOptions, taxTypeForRate, type ItemInput, type TaxTypeOption } from "../domain/item-schemas.ts";
import { findCabysCode, searchCabysCatalogue, type CabysResult, type RemoteOptions } from "./cabys.server.ts";

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

export const schemaOptions = itemSchemaOptions;

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

// ───────── The item form (pages and dialog) ─────────

/** What the item form shows: values (everything typed), lists, errors and the CABYS search state. */
export interface ItemFormState {
  id: number | null;
  values: Record<string, string | undefined>;
  lists: ItemFormLists;
  errors: Record<string, string>;
  cabysResults: CabysResult[];
  cabysMessage: string | null;
  cabys: { description: string; taxRate: string } | null;
}

export type ItemFormOutcome = { kind: "view"; state: ItemFormState; status: number } | { kind: "saved"; id: number; created: boolean };

const NEW_DEFAULTS: Record<string, string> = { category: "1", unit: "Unid", currency: "2", price: "" };

/** An id from a URL (a route param or ?edit=): a positive integer, else null. */
export function itemIdOf(raw: string | null | undefined): number | null {
  return raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** The company's item, or 404 (another company's item, a deleted one, or a malformed id). */
export async function requireItem(db: Db, companyId: number, raw: string | null | undefined) {
  const id = itemIdOf(raw);
  const item = id === null ? undefined : await itemById(db, { companyId, id });
  if (!item) throw data("No encontrado", { status: 404 });
  return item;
}


async function cabysLabel(db: Db, code: string | undefined) {
  if (!code || !/^\d{13}$/.test(code)) return null;
  const row = await cabysByCode(db, code);
  return row ? { description: row.description, taxRate: formatRate(row.taxRate) } : null;
}

/** The form as first shown: a new item (defaults) or the company's item `itemId` (404 otherwise). */
export async function itemFormState(db: Db, opts: { companyId: number; itemId: string | null | undefined }): Promise<ItemFormState> {
  const item = opts.itemId == null ? null : await requireItem(db, opts.companyId, opts.itemId);
  const lists = await itemFormLists(db, opts.companyId);
  const values: Record<string, string> = item
    ? {
        code: item.code,
        cabys_code: item.cabysCode ?? "",
        name: item.name,
        description: item.description,
        category: String(item.categoryId),
        unit: item.unitCode,
        tax_type: String(item.taxTypeId),
        currency: String(item.currencyId),
        price: formatMoneyInput(item.price),
      }
    : { ...NEW_DEFAULTS, tax_type: String(lists.taxTypes[0]?.id ?? "") };
  return { id: item?.id ?? null, values, lists, errors: {}, cabysResults: [], cabysMessage: null, cabys: await cabysLabel(db, values.cabys_code) };
}

/**
 * One POST of the item form. Intents: save (the default), cabys-search (the catalogue search
 * without JavaScript) and cabys-pick:CODE (choosing a code selects the tax type of its rate).
 * Everything typed comes back on every re-render; an item of another company is a 404.
 */
export async function handleItemForm(db: Db, opts: { companyId: number; itemId: string | null | undefined; form: FormData; remote?: RemoteOptions }): Promise<ItemFormOutcome> {
  const item = opts.itemId == null ? null : await requireItem(db, opts.companyId, opts.itemId);
  const id = item?.id ?? null;
  const values: Record<string, string | undefined> = formValues(opts.form);
  const intent = String(values.intent ?? "save");
  delete values.intent;
  const lists = await itemFormLists(db, opts.companyId);
  let cabysResults: CabysResult[] = [];
  let cabysMessage: string | null = null;

  if (intent === "cabys-search") {
    const found = await searchCabysCatalogue(db, values.cabys_q ?? "");
    cabysResults = found.results;
    cabysMessage = found.message ?? null;
  } else if (intent.startsWith("cabys-pick:")) {
    const code = intent.slice("cabys-pick:".length);
    const row = /^\d{13}$/.test(code) ? await cabysByCode(db, code) : undefined;
    if (row) {
      values.cabys_code = code;
      const tax = matchingTaxType(lists, String(row.taxRate));
      if (tax) values.tax_type = String(tax.id);
      cabysMessage = tax ? ITEM_MESSAGES.cabysChosen : ITEM_MESSAGES.cabysChosenNoTax;
    } else cabysMessage = ITEM_MESSAGES.cabysNotFound;
  }
  const view = async (errors: Record<string, string>, status = 200): Promise<ItemFormOutcome> => ({
    kind: "view",
    status,
    state: { id, values, lists, errors, cabysResults, cabysMessage, cabys: await cabysLabel(db, values.cabys_code) },
  });
  if (intent !== "save") return view({});

  const parsed = parseForm(itemSchema(schemaOptions(lists)), values);
  if (!parsed.ok) return view(parsed.errors, 400);
  const result = await saveItem(db, { companyId: opts.companyId, id, remote: opts.remote }, parsed.data);
  if (!result.ok) return view(result.errors, 400);
  return { kind: "saved", id: result.id, created: id === null };
}
