// Document reads for the screens (detail, lists, PDF, e-mail). Every function takes companyId.
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../client.ts";
import { documentLines, documentReferences, documents } from "../schema/index.ts";

export async function documentOf(db: DbOrTx, { companyId, id }: { companyId: number; id: number }) {
  const [d] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.id, id)));
  return d ?? null;
}

export async function documentByClave(db: DbOrTx, { companyId, clave }: { companyId: number; clave: string }) {
  const [d] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.clave, clave)));
  return d ?? null;
}

export async function linesOf(db: DbOrTx, { companyId, documentId }: { companyId: number; documentId: number }) {
  return db
    .select()
    .from(documentLines)
    .where(and(eq(documentLines.companyId, companyId), eq(documentLines.documentId, documentId)))
    .orderBy(asc(documentLines.position));
}

export async function referencesOf(db: DbOrTx, { companyId, documentId }: { companyId: number; documentId: number }) {
  return db
    .select()
    .from(documentReferences)
    .where(and(eq(documentReferences.companyId, companyId), eq(documentReferences.documentId, documentId)));
}

/** Notes (nc/nd) that reference a document. */
export async function notesOf(db: DbOrTx, { companyId, documentId }: { companyId: number; documentId: number }) {
  return db
    .select({ id: documents.id, kind: documents.kind, status: documents.status, total: documents.totalComprobante, issuedAt: documents.issuedAt })
    .from(documentReferences)
    .innerJoin(documents, eq(documents.id, documentReferences.documentId))
    .where(and(eq(documentReferences.companyId, companyId), eq(documentReferences.referencedDocumentId, documentId)));
}

/** Electronic documents (not quotations) the company issued in the Costa Rica calendar year `year`. */
export async function documentsInYear(db: DbOrTx, companyId: number, year: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .where(and(eq(documents.companyId, companyId), ne(documents.kind, "qt"), sql`${documents.issuedAt} >= ${`${year}-01-01T00:00:00-06:00`}::timestamptz`, sql`${documents.issuedAt} < ${`${Number(year) + 1}-01-01T00:00:00-06:00`}::timestamptz`));
  return Number(row?.n ?? 0);
}
