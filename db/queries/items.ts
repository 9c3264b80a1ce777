// Item and 'Lista de IVA' queries; every one takes the company id (tenancy).
import { and, asc, count, eq, ilike, inArray, isNull, ne, or, sql, type Placeholder } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { cabysCodes, items, taxTypes } from "../schema/index.ts";
import { clientSearchWords } from "./clients.ts";
import { type BuiltList, builtPageWithTotal, pageWithTotal, writtenLimit } from "./paging.ts";

export interface ItemValues {
  code: string;
  cabysCode: string;
  name: string;
  description: string;
  categoryId: number;
  unitCode: string;
  taxTypeId: number;
  currencyId: number;
  price: string;
}

const live = (companyId: number | Placeholder) => and(eq(items.companyId, companyId), isNull(items.deletedAt));

export async function itemsPage(db: DbOrTx, opts: { companyId: number; page: number; perPage: number; search: string }) {
  const s = opts.search.trim();
  if (!s) {
    // The page without a search, built once (built-once.ts).
    const { rows, total } = await builtPageWithTotal(db, "items", opts, plainItems(db), { companyId: opts.companyId });
    return { rows, total };
  }
  const like = `%${s.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
  const where = and(live(opts.companyId), or(ilike(items.name, like), ilike(items.code, like), ilike(items.cabysCode, like)));
  const { rows, total } = await pageWithTotal({
    ...opts,
    rows: (limit, offset) => itemsQuery(db).where(where).orderBy(asc(items.name), asc(items.id)).limit(writtenLimit(limit)).offset(offset),
    count: () => db.$count(items, where),
  });
  return { rows, total };
}

const itemsQuery = (db: DbOrTx) =>
  db
    .select({
      id: items.id,
      code: items.code,
      cabysCode: items.cabysCode,
      name: items.name,
      categoryId: items.categoryId,
      unitCode: items.unitCode,
      currencyId: items.currencyId,
      price: items.price,
      taxTypeId: items.taxTypeId,
      // The tax's name for the list, read with the rows (one query less per page).
      taxName: taxTypes.name,
    })
    .from(items)
    .leftJoin(taxTypes, and(eq(taxTypes.id, items.taxTypeId), eq(taxTypes.companyId, items.companyId)))
    .$dynamic();

/** The items page without a search and its count, with the company as a parameter. */
const plainItems = (db: DbOrTx): BuiltList<Awaited<ReturnType<typeof itemsQuery>>[number]> => ({
  page: (w) => itemsQuery(db).where(live(sql.placeholder("companyId"))).orderBy(asc(items.name), asc(items.id)).limit(w.limit).offset(w.offset!).prepare("items_page"),
  total: () => db.select({ n: count() }).from(items).where(live(sql.placeholder("companyId"))).prepare("items_count"),
});

export async function itemById(db: DbOrTx, opts: { companyId: number; id: number }) {
  if (!Number.isInteger(opts.id) || opts.id <= 0) return undefined;
  const [row] = await db
    .select()
    .from(items)
    .where(and(live(opts.companyId), eq(items.id, opts.id)));
  return row;
}

export async function itemCodeTaken(db: DbOrTx, opts: { companyId: number; code: string; exceptId?: number }) {
  const [row] = await db
    .select({ id: items.id })
    .from(items)
    .where(and(live(opts.companyId), sql`lower(${items.code}) = lower(${opts.code})`, opts.exceptId ? ne(items.id, opts.exceptId) : undefined))
    .limit(1);
  return !!row;
}

export async function insertItem(db: DbOrTx, companyId: number, values: ItemValues) {
  const [row] = await db
    .insert(items)
    .values({ companyId, ...values })
    .returning({ id: items.id });
  return row.id;
}

export async function updateItem(db: DbOrTx, opts: { companyId: number; id: number }, values: ItemValues) {
  const rows = await db
    .update(items)
    .set(values)
    .where(and(live(opts.companyId), eq(items.id, opts.id)))
    .returning({ id: items.id });
  return rows.length > 0;
}

/** Soft delete: documents issued with the item keep their own copy of its data. */
export async function deleteItem(db: DbOrTx, opts: { companyId: number; id: number; now: Date }) {
  if (!Number.isInteger(opts.id) || opts.id <= 0) return false;
  const rows = await db
    .update(items)
    .set({ deletedAt: opts.now })
    .where(and(live(opts.companyId), eq(items.id, opts.id)))
    .returning({ id: items.id });
  return rows.length > 0;
}

/** The item with its CABYS description (for the edit form). */
export async function cabysOfItem(db: DbOrTx, code: string | null) {
  if (!code) return undefined;
  const [row] = await db.select().from(cabysCodes).where(eq(cabysCodes.code, code));
  return row;
}

// ───────── Lista de IVA ─────────

export async function taxTypesOf(db: DbOrTx, opts: { companyId: number }) {
  return db
    .select({ id: taxTypes.id, name: taxTypes.name, rate: taxTypes.rate, vatCode: taxTypes.vatCode, taxCode: taxTypes.taxCode })
    .from(taxTypes)
    .where(eq(taxTypes.companyId, opts.companyId))
    .orderBy(asc(taxTypes.id));
}

export async function taxTypesPage(db: DbOrTx, opts: { companyId: number; page: number; perPage: number }) {
  const [{ total }] = await db.select({ total: count() }).from(taxTypes).where(eq(taxTypes.companyId, opts.companyId));
  const rows = await db
    .select({ id: taxTypes.id, name: taxTypes.name, rate: taxTypes.rate, vatCode: taxTypes.vatCode })
    .from(taxTypes)
    .where(eq(taxTypes.companyId, opts.companyId))
    .orderBy(asc(taxTypes.id))
    .limit(opts.perPage)
    .offset((opts.page - 1) * opts.perPage);
  return { rows, total: Number(total) };
}

export async function insertTaxType(db: DbOrTx, companyId: number, values: { name: string; rate: string; vatCode: string }) {
  const [row] = await db
    .insert(taxTypes)
    .values({ companyId, ...values, taxCode: "01" })
    .returning({ id: taxTypes.id });
  return row.id;
}

export async function updateTaxType(db: DbOrTx, opts: { companyId: number; id: number }, values: { name: string; rate: string; vatCode: string }) {
  if (!Number.isInteger(opts.id) || opts.id <= 0) return false;
  const rows = await db
    .update(taxTypes)
    .set(values)
    .where(and(eq(taxTypes.companyId, opts.companyId), eq(taxTypes.id, opts.id)))
    .returning({ id: taxTypes.id });
  return rows.length > 0;
}

/** The columns a document form needs of an item. */
const formItemColumns = { id: items.id, code: items.code, cabysCode: items.cabysCode, name: items.name, description: items.description, unitCode: items.unitCode, taxTypeId: items.taxTypeId, price: items.price };

/** A company's live items for a document form, by name: all of them up to `limit`, or only these ids. */
export async function formItems(db: DbOrTx, opts: { companyId: number; limit?: number; ids?: number[] }) {
  if (opts.ids && !opts.ids.length) return [];
  const q = db
    .select(formItemColumns)
    .from(items)
    .where(and(live(opts.companyId), opts.ids ? inArray(items.id, opts.ids) : undefined))
    .orderBy(asc(items.name), asc(items.id));
  return opts.limit ? q.limit(opts.limit) : q;
}

/**
 * Items a document form's search may list (docs/decisions/101): the code typed exactly, or every
 * word in the code, name, description or CABYS code (ignoring case and accents); at most `limit`.
 * The form ranks and cuts them (domain/pos.ts).
 */
export async function formItemCandidates(db: DbOrTx, opts: { companyId: number; search: string; limit: number }) {
  const words = clientSearchWords(opts.search);
  const text = sql`translate(lower(${items.code} || ' ' || ${items.name} || ' ' || ${items.description} || ' ' || coalesce(${items.cabysCode}, '')), 'áéíóúüñ', 'aeiouun')`;
  const like = (w: string) => sql`${text} like ${`%${w.replace(/[\\%_]/g, (c) => "\\" + c)}%`}`;
  const code = sql`lower(${items.code}) = ${opts.search.trim().toLowerCase()}`;
  return db
    .select(formItemColumns)
    .from(items)
    .where(and(live(opts.companyId), words.length ? or(code, and(...words.map(like))) : code))
    .orderBy(asc(items.name), asc(items.id))
    .limit(opts.limit);
}
