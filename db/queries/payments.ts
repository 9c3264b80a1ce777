// Payment and bank reads. Every function takes companyId and filters by it.
import { and, asc, desc, eq, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../client.ts";
import { banks, documents, payments } from "../schema/index.ts";
import { builtOnce } from "./built-once.ts";
import { builtPageWithTotal, pageWithTotal, writtenLimit, type BuiltList } from "./paging.ts";

/** The company's banks, by name (built once: every view of the payments list reads them). */
export async function banksOf(db: DbOrTx, { companyId }: { companyId: number }) {
  const statement = builtOnce(db, "banks_of", () =>
    db
      .select({ id: banks.id, name: banks.name })
      .from(banks)
      .where(eq(banks.companyId, sql.placeholder("companyId")))
      .orderBy(asc(sql`lower(${banks.name})`), asc(banks.id))
      .prepare("banks_of"),
  );
  return statement.execute({ companyId });
}

export async function bankOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [row] = await db
    .select({ id: banks.id, name: banks.name })
    .from(banks)
    .where(and(eq(banks.companyId, companyId), eq(banks.id, id)));
  return row ?? null;
}

/** A live payment of the company, or null. */
export async function paymentOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.companyId, companyId), eq(payments.id, id), isNull(payments.deletedAt)));
  return row ?? null;
}

/** The Recibo Electrónico de Pago a payment issued (a documents row of kind 'rep'). */
const rep = alias(documents, "rep");

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the company's live payments, newest payment day first (ties: newest first), with the
 * document's number and client and the bank's name. `search` matches (case- and accent-insensitive,
 * anywhere) the payment number, the document's consecutive or number, the client's name or
 * identification, the reference, the description and the bank's name; `formCodes` are the
 * payment-form codes whose names match it.
 */
export async function paymentsPage(db: DbOrTx, opts: { companyId: number; search: string; formCodes?: string[]; page: number; perPage: number }) {
  const term = opts.search.trim();
  // The page without a search, built once (built-once.ts, paging.ts builtPageWithTotal).
  if (!term) {
    const { rows, total } = await builtPageWithTotal(db, "payments", opts, plainPayments(db), { companyId: opts.companyId });
    return { rows, total };
  }
  const like = `%${escapeLike(fold(term))}%`;
  const f = (e: SQL | AnyPgColumn) => sql`translate(lower(coalesce(${e}, '')), 'áéíóúüñ', 'aeiouun') like ${like}`;
  const parts = [
    f(sql`${payments.id}::text`),
    f(documents.consecutivo),
    f(sql`${documents.number}::text`),
    f(sql`${documents.clientSnapshot}->>'name'`),
    f(sql`${documents.clientSnapshot}->>'idNumber'`),
    f(payments.reference),
    f(payments.description),
    f(banks.name),
  ];
  if (opts.formCodes?.length)
    parts.push(
      sql`${payments.paymentForm} in (${sql.join(
        opts.formCodes.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    );
  const where = and(livePayments(opts.companyId), sql`(${sql.join(parts, sql` or `)})`);
  const { rows, total } = await pageWithTotal({
    ...opts,
    rows: (limit, offset) => paymentsQuery(db).where(where).orderBy(desc(payments.paidOn), desc(payments.id)).limit(writtenLimit(limit)).offset(offset),
    count: async () => Number((await paymentsCount(db).where(where))[0].n),
  });
  return { rows, total };
}

const livePayments = (companyId: number | Placeholder) => and(eq(payments.companyId, companyId), isNull(payments.deletedAt));

const paymentsQuery = (db: DbOrTx) =>
  db
    .select({
      id: payments.id,
      documentId: payments.documentId,
      paymentForm: payments.paymentForm,
      paidOn: payments.paidOn,
      amount: payments.amount,
      currencyId: payments.currencyId,
      reference: payments.reference,
      description: payments.description,
      bankName: banks.name,
      documentKind: documents.kind,
      documentNumber: sql<string>`coalesce(${documents.consecutivo}, ${documents.number}::text, ${documents.id}::text)`,
      clientId: documents.clientId,
      clientSnapshot: documents.clientSnapshot,
      repDocumentId: payments.repDocumentId,
      repNote: payments.repNote,
      repConsecutivo: rep.consecutivo,
      repStatus: rep.status,
    })
    .from(payments)
    .innerJoin(documents, and(eq(documents.id, payments.documentId), eq(documents.companyId, payments.companyId)))
    .leftJoin(banks, and(eq(banks.id, payments.bankId), eq(banks.companyId, payments.companyId)))
    .leftJoin(rep, and(eq(rep.id, payments.repDocumentId), eq(rep.companyId, payments.companyId)))
    .$dynamic();

const paymentsCount = (db: DbOrTx) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .innerJoin(documents, and(eq(documents.id, payments.documentId), eq(documents.companyId, payments.companyId)))
    .leftJoin(banks, and(eq(banks.id, payments.bankId), eq(banks.companyId, payments.companyId)))
    .$dynamic();

/** The payments page without a search and its count, with the company as a parameter. */
const plainPayments = (db: DbOrTx): BuiltList<Awaited<ReturnType<typeof paymentsQuery>>[number]> => ({
  page: (w) => paymentsQuery(db).where(livePayments(sql.placeholder("companyId"))).orderBy(desc(payments.paidOn), desc(payments.id)).limit(w.limit).offset(w.offset!).prepare("payments_page"),
  total: () => paymentsCount(db).where(livePayments(sql.placeholder("companyId"))).prepare("payments_count"),
});

/** Lower case without Spanish accents (the same folding the SQL applies). */
export function fold(s: string): string {
  return s
    .toLowerCase()
    .replace(/[áàä]/g, "a")
    .replace(/[éèë]/g, "e")
    .replace(/[íìï]/g, "i")
    .replace(/[óòö]/g, "o")
    .replace(/[úùü]/g, "u")
    .replace(/ñ/g, "n");
}

/**
 * The Recibos Electrónicos de Pago of one of the company's documents: each live payment that issued
 * one (or should have: its note says why not), oldest first, with the REP's status and files.
 */
export async function receiptsOf(db: DbOrTx, { companyId, documentId }: { companyId: number; documentId: number }) {
  return db
    .select({
      paymentId: payments.id,
      paidOn: payments.paidOn,
      amount: payments.amount,
      currencyId: payments.currencyId,
      repNote: payments.repNote,
      repDocumentId: rep.id,
      repConsecutivo: rep.consecutivo,
      repStatus: rep.status,
      repTotal: rep.totalComprobante,
      hasResponse: sql<boolean>`${rep.responseXml} is not null`,
      haciendaDetail: rep.haciendaDetail,
    })
    .from(payments)
    .leftJoin(rep, and(eq(rep.id, payments.repDocumentId), eq(rep.companyId, payments.companyId)))
    .where(and(eq(payments.companyId, companyId), eq(payments.documentId, documentId), isNull(payments.deletedAt), sql`(${payments.repDocumentId} is not null or ${payments.repNote} is not null)`))
    .orderBy(asc(payments.id));
}

/**
 * Every live payment of one of the company's documents, oldest first, with the Recibo Electrónico
 * de Pago it issued (the integrator API's document answer).
 */
export async function documentPayments(db: DbOrTx, { companyId, documentId }: { companyId: number; documentId: number }) {
  return db
    .select({
      id: payments.id,
      documentId: payments.documentId,
      paidOn: payments.paidOn,
      amount: payments.amount,
      currencyId: payments.currencyId,
      paymentForm: payments.paymentForm,
      description: payments.description,
      reference: payments.reference,
      bankId: payments.bankId,
      repNote: payments.repNote,
      repDocumentId: rep.id,
      repConsecutivo: rep.consecutivo,
      repClave: rep.clave,
      repStatus: rep.status,
      repDetail: rep.haciendaDetail,
    })
    .from(payments)
    .leftJoin(rep, and(eq(rep.id, payments.repDocumentId), eq(rep.companyId, payments.companyId)))
    .where(and(eq(payments.companyId, companyId), eq(payments.documentId, documentId), isNull(payments.deletedAt)))
    .orderBy(asc(payments.id));
}
