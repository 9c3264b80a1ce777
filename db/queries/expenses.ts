// Expense, expense-category, payment-method and receipt reads. Every function takes companyId and
// filters by it: another company's id is "not found".
import { and, asc, desc, eq, isNull, notExists, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../client.ts";
import { expenseAttachments, expenseCategories, expenseCounts, expensePaymentMethods, expenses } from "../schema/index.ts";
import { fold } from "./payments.ts";
import { COUNT_AHEAD } from "./document-lists.ts";
import { builtOnce } from "./built-once.ts";
import { cappedTotal, countCap, countLimit, pageWindow, pageWithTotal, writtenLimit, type PageWindow } from "./paging.ts";

/** The company's expense categories, by name. */
export async function categoriesOf(db: DbOrTx, { companyId }: { companyId: number }) {
  return db
    .select({ id: expenseCategories.id, name: expenseCategories.name })
    .from(expenseCategories)
    .where(eq(expenseCategories.companyId, companyId))
    .orderBy(asc(sql`lower(${expenseCategories.name})`), asc(expenseCategories.id));
}

export async function categoryOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [row] = await db
    .select({ id: expenseCategories.id, name: expenseCategories.name })
    .from(expenseCategories)
    .where(and(eq(expenseCategories.companyId, companyId), eq(expenseCategories.id, id)));
  return row ?? null;
}

/** The company's own payment methods (after Hacienda's list in the form), by name. */
export async function paymentMethodsOf(db: DbOrTx, { companyId }: { companyId: number }) {
  return db
    .select({ id: expensePaymentMethods.id, name: expensePaymentMethods.name, code: expensePaymentMethods.code })
    .from(expensePaymentMethods)
    .where(eq(expensePaymentMethods.companyId, companyId))
    .orderBy(asc(sql`lower(${expensePaymentMethods.name})`), asc(expensePaymentMethods.id));
}

export async function paymentMethodOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [row] = await db
    .select({ id: expensePaymentMethods.id, name: expensePaymentMethods.name, code: expensePaymentMethods.code })
    .from(expensePaymentMethods)
    .where(and(eq(expensePaymentMethods.companyId, companyId), eq(expensePaymentMethods.id, id)));
  return row ?? null;
}

/** A receipt of the company not yet linked to an expense (kept while its form is filled in), or null. */
export async function pendingAttachmentOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [row] = await db
    .select({ id: expenseAttachments.id, originalName: expenseAttachments.originalName, mime: expenseAttachments.mime, size: expenseAttachments.size, storedName: expenseAttachments.storedName })
    .from(expenseAttachments)
    .where(and(eq(expenseAttachments.companyId, companyId), eq(expenseAttachments.id, id), notExists(db.select({ one: sql`1` }).from(expenses).where(eq(expenses.attachmentId, expenseAttachments.id)))));
  return row ?? null;
}

/** The receipt of one of the company's live expenses, or null (no expense, deleted, no receipt). */
export async function expenseAttachmentOf(db: DbOrTx, { companyId, expenseId }: { companyId: number; expenseId: number }) {
  const [row] = await db
    .select({ storedName: expenseAttachments.storedName, originalName: expenseAttachments.originalName, mime: expenseAttachments.mime, size: expenseAttachments.size })
    .from(expenses)
    .innerJoin(expenseAttachments, and(eq(expenseAttachments.id, expenses.attachmentId), eq(expenseAttachments.companyId, expenses.companyId)))
    .where(and(eq(expenses.companyId, companyId), eq(expenses.id, expenseId), isNull(expenses.deletedAt)));
  return row ?? null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the company's live expenses, newest day first (ties: newest first). `search` matches
 * (case- and accent-insensitive, anywhere) the number, the description, the reference and the
 * category's name. The total is exact up to COUNT_AHEAD rows past the page; beyond, `totalCapped`
 * is true and the total is a lower bound. Without a search the total is the company's row of
 * expense_counts (kept by the database, migration expense_counts_triggers), read with the page's
 * rows, or alone for a page past the end; a search counts its matches.
 */
export async function expensesPage(db: DbOrTx, opts: { companyId: number; search: string; page: number; perPage: number }) {
  const where: SQL[] = [eq(expenses.companyId, opts.companyId), isNull(expenses.deletedAt)];
  const term = opts.search.trim();
  if (term) {
    const like = `%${escapeLike(fold(term))}%`;
    const f = (e: SQL | AnyPgColumn) => sql`translate(lower(coalesce(${e}, '')), 'áéíóúüñ', 'aeiouun') like ${like}`;
    where.push(sql`(${sql.join([f(sql`${expenses.id}::text`), f(expenses.description), f(expenses.reference), f(expenseCategories.name)], sql` or `)})`);
  }
  const cap = countCap(opts.page, opts.perPage, COUNT_AHEAD);
  // Without a search, every live expense of the company is in expense_counts (as the clients in
  // client_counts, docs/decisions/200); its number comes with each row, and is read alone only for
  // a page past the end.
  let liveTotal: number | undefined;
  const { rows, total } = await pageWithTotal({
    ...opts,
    rows: async (limit, offset) => {
      const rows = term
        ? await expensesQuery(db, opts.companyId, false).where(and(...where)).orderBy(desc(expenses.spentOn), desc(expenses.id)).limit(writtenLimit(limit)).offset(offset)
        : await plainExpenses(db, pageWindow(limit, offset)).execute({ companyId: opts.companyId, limit, offset });
      if (rows.length && !term) liveTotal = Number(rows[0].liveTotal ?? 0);
      return rows.map(({ liveTotal: _, ...row }) => row);
    },
    // A search is capped like the documents' lists (COUNT_AHEAD rows past the page, decision 156).
    // Every expense has its category (not null, foreign key), so the category is joined only for a
    // search by its name. The total is capped the same way with or without a search: past
    // COUNT_AHEAD rows beyond the page, the list says "more".
    count: async () => {
      if (!term) return liveTotal ?? liveExpenses(db, opts.companyId);
      const counted = db
        .select({ one: sql`1`.as("one") })
        .from(expenses)
        .innerJoin(expenseCategories, eq(expenseCategories.id, expenses.categoryId))
        .where(and(...where))
        .limit(countLimit(opts.page, cap));
      const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(counted.as("capped"));
      return Number(n);
    },
  });
  return { rows, ...cappedTotal(total, cap) };
}

/** An expenses list's columns, with the company's kept count for a list without a search. */
const expensesQuery = (db: DbOrTx, companyId: number | Placeholder, live: boolean) =>
  db
    .select({
      id: expenses.id,
      description: expenses.description,
      amount: expenses.amount,
      currencyId: expenses.currencyId,
      spentOn: expenses.spentOn,
      reference: expenses.reference,
      category: expenseCategories.name,
      hasAttachment: sql<boolean>`${expenses.attachmentId} is not null`,
      liveTotal: live ? sql<number | null>`(select ${expenseCounts.expenses} from ${expenseCounts} where ${expenseCounts.companyId} = ${companyId})` : sql<null>`null`,
    })
    .from(expenses)
    .innerJoin(expenseCategories, eq(expenseCategories.id, expenses.categoryId))
    .$dynamic();

/** The page without a search, built once per window (paging.ts), with the company as a parameter. */
const plainExpenses = (db: DbOrTx, window: PageWindow) =>
  builtOnce(db, `expenses_page${window.key}`, () => {
    const companyId = sql.placeholder("companyId");
    return expensesQuery(db, companyId, true)
      .where(and(eq(expenses.companyId, companyId), isNull(expenses.deletedAt)))
      .orderBy(desc(expenses.spentOn), desc(expenses.id))
      .limit(window.limit)
      .offset(window.offset!)
      .prepare("expenses_page");
  });

/** The company's live expenses (expense_counts). */
async function liveExpenses(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db.select({ n: expenseCounts.expenses }).from(expenseCounts).where(eq(expenseCounts.companyId, companyId));
  return Number(row?.n ?? 0);
}
