// Receipts of expenses (a photo or a PDF): stored as files under DATA_DIR/attachments/expenses, never
// under the web root, each with a generated name (32 random hex digits and the extension of its
// real type) so nothing the user sends becomes part of a path. The row in expense_attachments ties
// the file to its company; it is served only through /expense-file/:id, by the expense's id and the
// current company (docs/decisions/150-expenses.md).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { expenseAttachments, expenses } from "../../db/schema/index.ts";
import { ATTACHMENT_MAX_BYTES, checkAttachment, displayFileName, EXPENSE_MESSAGES, fileTooLarge } from "../domain/expenses.ts";
import { env } from "./env.server.ts";

/** Uploads kept for a form that was never saved are removed after this long. */
const PENDING_TTL_MS = 24 * 60 * 60 * 1000;
const STORED_NAME = /^[0-9a-f]{32}\.(?:jpg|png|gif|webp|pdf)$/;

/** The folder of the receipts (created on first use). */
export function attachmentsRoot(): string {
  return path.join(env().dataDir, "attachments", "expenses");
}

/**
 * The file of a stored name. Only a name of the generated form is accepted, and the resolved path
 * must stay inside the folder: a traversal ("../", an absolute path, a separator) is refused.
 */
export function attachmentPath(storedName: string): string | null {
  if (!STORED_NAME.test(storedName)) return null;
  const root = attachmentsRoot();
  const full = path.resolve(root, storedName);
  return path.dirname(full) === path.resolve(root) ? full : null;
}

export type StoreResult = { ok: true; id: number; name: string } | { ok: false; message: string };

/**
 * Keeps one uploaded receipt: checks its size (before reading it) and its bytes, writes it under a
 * generated name (a temporary file renamed into place), and records it for the company, not yet
 * linked to an expense. Old uploads of the company that were never linked are swept on the way.
 */
export async function storeAttachment(db: DbOrTx, opts: { companyId: number; userId: number | null; file: File; now: Date; maxBytes?: number }): Promise<StoreResult> {
  const { file } = opts;
  const max = opts.maxBytes ?? ATTACHMENT_MAX_BYTES;
  // The size the part declares, then the bytes actually read: neither may pass the limit.
  if (file.size > max) return { ok: false, message: fileTooLarge(max) };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const checked = checkAttachment({ size: bytes.byteLength, head: bytes.subarray(0, 16) }, max);
  if (!checked.ok) return checked;
  const storedName = `${randomBytes(16).toString("hex")}.${checked.type.ext}`;
  const target = attachmentPath(storedName)!;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, bytes, { mode: 0o600 });
  fs.renameSync(temporary, target);
  const name = displayFileName(file.name, checked.type.ext);
  try {
    const [row] = await db
      .insert(expenseAttachments)
      .values({ companyId: opts.companyId, storedName, originalName: name, mime: checked.type.mime, size: bytes.byteLength, createdBy: opts.userId, createdAt: opts.now })
      .returning({ id: expenseAttachments.id });
    await sweepPendingAttachments(db, { companyId: opts.companyId, now: opts.now });
    return { ok: true, id: row.id, name };
  } catch (error) {
    fs.rmSync(target, { force: true });
    throw error;
  }
}

/** Removes the company's uploads older than a day that no expense uses (rows and files). */
export async function sweepPendingAttachments(db: DbOrTx, { companyId, now }: { companyId: number; now: Date }): Promise<number> {
  const gone = await db
    .delete(expenseAttachments)
    .where(
      and(
        eq(expenseAttachments.companyId, companyId),
        lt(expenseAttachments.createdAt, new Date(now.getTime() - PENDING_TTL_MS)),
        notExists(db.select({ one: sql`1` }).from(expenses).where(eq(expenses.attachmentId, expenseAttachments.id))),
      ),
    )
    .returning({ storedName: expenseAttachments.storedName });
  for (const g of gone) {
    const file = attachmentPath(g.storedName);
    if (file) fs.rmSync(file, { force: true });
  }
  return gone.length;
}

/** The bytes of a stored receipt as a web stream, or null when the file is missing. */
export function attachmentStream(storedName: string): { stream: ReadableStream<Uint8Array>; size: number } | null {
  const file = attachmentPath(storedName);
  if (!file) return null;
  try {
    const { size } = fs.statSync(file);
    return { stream: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>, size };
  } catch {
    return null;
  }
}

export const ATTACHMENT_UNAVAILABLE = EXPENSE_MESSAGES.fileUnavailable;
