// Quotations (spec part 2 "Quotations", §4; docs/decisions/090-quotations.md): editing one in place,
// e-mailing it at once, converting it into a real invoice exactly once, and the soft delete. Every
// function reads the quotation by company id and id together: another company's quotation is
// "not found" and nothing changes.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { documentOf } from "../../db/queries/documents.ts";
import { generalConfigOf } from "../../db/queries/config.ts";
import { invoiceOfQuotation } from "../../db/queries/quotations.ts";
import { documentLines, documents } from "../../db/schema/index.ts";
import { checkDraft, type DocumentDraft, type FieldError } from "../domain/document-draft.ts";
import { invoiceDraftOf, quotationName } from "../domain/quotations.ts";
import type { SigningKey } from "../hacienda/p12.ts";
import type { CompiledSchemaSet } from "../hacienda/xsd/index.ts";
import { NO_RECIPIENTS, sendDocumentEmailOnce } from "./document-email.server.ts";
import { currentRate } from "./exchange-rate.server.ts";
import { clientSnapshot, companySnapshot, draftColumns, ISSUE_MESSAGES, issueDocumentInTx, IssueValidationError, lineRows, resolveKey, totalsOrThrow } from "./issue-document.server.ts";
import { SigningKeyError } from "./signing-key.server.ts";

/** The company's name for its quotations (general configuration). */
export async function quotationNameOf(db: Db, companyId: number): Promise<string> {
  return quotationName((await generalConfigOf(db, companyId))?.customQuotationName);
}

const liveQuotation = (companyId: number, id: number) => and(eq(documents.id, id), eq(documents.companyId, companyId), eq(documents.kind, "qt"), isNull(documents.deletedAt));

/** A live (not deleted) quotation of the company, or null. */
export async function quotationOf(db: Db, { companyId, id }: { companyId: number; id: number }) {
  const doc = await documentOf(db, { companyId, id });
  return doc && doc.kind === "qt" && !doc.deletedAt ? doc : null;
}

/**
 * Saves an edited quotation in one transaction: the row locked, client checked, totals recomputed
 * with the same functions issuing uses, the stored columns and lines replaced. The number and date
 * stay. Null when the quotation is not the company's (or deleted).
 */
export async function updateQuotation(db: Db, opts: { companyId: number; documentId: number; draft: DocumentDraft; now: Date }): Promise<{ ok: true; documentId: number } | { ok: false; errors: FieldError[] } | null> {
  const { companyId, documentId, draft, now } = opts;
  if (draft.kind !== "qt") throw new Error("updateQuotation: not a quotation draft");
  const pre = checkDraft(draft);
  if (pre.length) return { ok: false, errors: pre };
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.select({ id: documents.id }).from(documents).where(liveQuotation(companyId, documentId)).for("update");
      if (!row) return null;
      const client = draft.clientId ? await clientSnapshot(tx, companyId, draft.clientId) : null;
      if (draft.clientId && !client) throw new IssueValidationError([{ field: "clientId", message: ISSUE_MESSAGES.clientNotFound }]);
      const totals = totalsOrThrow(draft);
      // A saved quotation prints the company as it is now (it is saved anew; decision 162).
      const { issuerSnapshot } = await companySnapshot(tx, companyId);
      await tx.update(documents).set(draftColumns(draft, totals, client, issuerSnapshot, now)).where(liveQuotation(companyId, documentId));
      await tx.delete(documentLines).where(and(eq(documentLines.companyId, companyId), eq(documentLines.documentId, documentId)));
      if (draft.lines.length) await tx.insert(documentLines).values(lineRows(companyId, documentId, draft, totals));
      return { ok: true as const, documentId };
    });
  } catch (error) {
    if (error instanceof IssueValidationError) return { ok: false, errors: error.errors };
    throw error;
  }
}

/**
 * 'Guardar y Enviar por correo': the quotation's PDF to the client and the notify list, now (sent
 * again when an edited quotation is sent again). The failure is also noted on the quotation.
 */
export async function emailQuotationNow(db: Db, { companyId, documentId, now }: { companyId: number; documentId: number; now: Date }): Promise<{ ok: true } | { ok: false; message: string }> {
  await db.update(documents).set({ emailSentAt: null }).where(liveQuotation(companyId, documentId));
  try {
    const outcome = await sendDocumentEmailOnce(db, { companyId, documentId }, now);
    return outcome === "no-recipients" ? { ok: false, message: NO_RECIPIENTS } : { ok: true };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : "No se pudo enviar el correo" };
  }
}

export type ConvertResult =
  | { ok: true; invoiceId: number }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "converted"; invoiceId: number | null }
  | { ok: false; reason: "invalid"; errors: FieldError[] };

function uniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) if (e.code === "23505") return true;
  return false;
}

/**
 * Converts a quotation into an invoice through the issuing use-case (same transaction rules:
 * counter, validation, signature, submission queued). The quotation row is locked first and the
 * invoice carries quotation_id (unique), so two concurrent conversions give one invoice: the second
 * finds it and answers "converted".
 */
export async function convertQuotation(
  db: Db,
  opts: { companyId: number; userId: number; quotationId: number; now: Date; schemaSet: CompiledSchemaSet; keyFor?: (companyId: number) => Promise<SigningKey> },
): Promise<ConvertResult> {
  const { companyId, quotationId, now } = opts;
  const quotation = await quotationOf(db, { companyId, id: quotationId });
  if (!quotation || !quotation.draft) return { ok: false, reason: "not-found" };
  const existing = await invoiceOfQuotation(db, { companyId, quotationId });
  if (existing) return { ok: false, reason: "converted", invoiceId: existing };
  const stored = quotation.draft as DocumentDraft;
  const rate = stored.currency === "USD" ? await currentRate(db, { currency: "USD", now }) : null;
  const draft = invoiceDraftOf(stored, rate?.ok ? rate.rate : null);
  const pre = checkDraft(draft);
  if (pre.length) return { ok: false, reason: "invalid", errors: pre };
  let key: SigningKey | null;
  try {
    key = await resolveKey(db, { companyId, draft, now, keyFor: opts.keyFor });
  } catch (error) {
    if (error instanceof SigningKeyError) return { ok: false, reason: "invalid", errors: [{ field: "form", message: error.message }] };
    throw error;
  }
  try {
    return await db.transaction(async (tx): Promise<ConvertResult> => {
      const [locked] = await tx.select({ id: documents.id }).from(documents).where(liveQuotation(companyId, quotationId)).for("update");
      if (!locked) return { ok: false, reason: "not-found" };
      const [done] = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.companyId, companyId), eq(documents.quotationId, quotationId)));
      if (done) return { ok: false, reason: "converted", invoiceId: done.id };
      const issued = await issueDocumentInTx(tx, { companyId, userId: opts.userId, draft, now, schemaSet: opts.schemaSet, quotationId }, key);
      return { ok: true, invoiceId: issued.documentId };
    });
  } catch (error) {
    if (error instanceof IssueValidationError) return { ok: false, reason: "invalid", errors: error.errors };
    if (uniqueViolation(error)) return { ok: false, reason: "converted", invoiceId: await invoiceOfQuotation(db, { companyId, quotationId }) };
    throw error;
  }
}

/** Soft delete: the quotation disappears from lists, the viewer and the forms. False: not found. */
export async function deleteQuotation(db: Db, { companyId, id, now }: { companyId: number; id: number; now: Date }): Promise<boolean> {
  const rows = await db.update(documents).set({ deletedAt: now }).where(liveQuotation(companyId, id)).returning({ id: documents.id });
  return rows.length > 0;
}
