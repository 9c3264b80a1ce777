// Company configuration rows (spec part 1 §3). Every function takes the company id and filters by it.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { documentCounters, emailConfigs, emailTemplates, generalConfigurations, haciendaConfigs, paymentTerms, terms } from "../schema/index.ts";

export async function generalConfigOf(db: DbOrTx, companyId: number) {
  const [row] = await db.select().from(generalConfigurations).where(eq(generalConfigurations.companyId, companyId));
  return row;
}

export async function haciendaConfigOf(db: DbOrTx, companyId: number) {
  const [row] = await db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, companyId));
  return row;
}

export async function countersOf(db: DbOrTx, opts: { companyId: number; branch: number; terminal: number; docTypes: readonly string[] }) {
  return db
    .select({ docType: documentCounters.docType, nextNumber: documentCounters.nextNumber })
    .from(documentCounters)
    .where(
      and(
        eq(documentCounters.companyId, opts.companyId),
        eq(documentCounters.branch, opts.branch),
        eq(documentCounters.terminal, opts.terminal),
        inArray(documentCounters.docType, [...opts.docTypes]),
      ),
    );
}

export async function emailConfigOf(db: DbOrTx, companyId: number, kind: "outgoing" | "reception") {
  const [row] = await db
    .select()
    .from(emailConfigs)
    .where(and(eq(emailConfigs.companyId, companyId), eq(emailConfigs.kind, kind)))
    .orderBy(asc(emailConfigs.id))
    .limit(1);
  return row;
}

export async function templatesOf(db: DbOrTx, companyId: number) {
  return db.select().from(emailTemplates).where(eq(emailTemplates.companyId, companyId)).orderBy(asc(emailTemplates.id));
}

export async function templateOf(db: DbOrTx, companyId: number, id: number) {
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [row] = await db.select().from(emailTemplates).where(and(eq(emailTemplates.companyId, companyId), eq(emailTemplates.id, id)));
  return row;
}

export async function termsOf(db: DbOrTx, companyId: number) {
  return db.select().from(terms).where(eq(terms.companyId, companyId)).orderBy(asc(terms.id));
}

/** The company's own credit terms ('Nuevo plazo'), by days. */
export async function paymentTermsOf(db: DbOrTx, companyId: number) {
  return db.select({ name: paymentTerms.name, days: paymentTerms.days }).from(paymentTerms).where(eq(paymentTerms.companyId, companyId)).orderBy(asc(paymentTerms.days));
}

/** Adds a credit term; false when the company already has one of that many days. */
export async function insertPaymentTerm(db: DbOrTx, companyId: number, term: { name: string; days: number }): Promise<boolean> {
  const rows = await db.insert(paymentTerms).values({ companyId, name: term.name, days: term.days }).onConflictDoNothing().returning({ id: paymentTerms.id });
  return rows.length > 0;
}

export async function termOf(db: DbOrTx, companyId: number, id: number) {
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const [row] = await db.select().from(terms).where(and(eq(terms.companyId, companyId), eq(terms.id, id)));
  return row;
}
