// The upload form ('Subir Nuevo XML' dialog and /new-message-receptor; spec part 2 §2, §5; issue 12
// item 2; docs/decisions/171): reads the request body within a limit of its own, keeps the chosen
// files while the user adds a category without JavaScript ('Nueva'), and runs the intake and, when a
// condition other than pending was chosen, the processing of what it stored.
import { randomBytes } from "node:crypto";
import { and, asc, eq, lt } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { expenseCategories, receptionUploadStash } from "../../../db/schema/index.ts";
import { categoriesOf, receptionSettingsOf } from "../../../db/queries/receptions.ts";
import { parseForm, type FieldErrors } from "../../domain/forms.ts";
import { amountsShown, categorySchema, decisionOf, MAX_UPLOAD_REQUEST_BYTES, RECEPTION_MESSAGES, TAX_CONDITIONS, UPLOAD_ACCEPTANCE_OPTIONS, uploadSchema } from "../../domain/receptions.ts";
import { displayName, MAX_UPLOAD_FILES, type IncomingFile } from "./files.server.ts";
import { ingestReceivedFiles, type FileOutcome } from "./intake.server.ts";
import { processReceptions, type ProcessOutcome } from "./process.server.ts";

const STASH_TTL_MS = 60 * 60_000;

export type LimitedForm = { ok: true; form: FormData } | { ok: false; message: string };

/**
 * The request's form, reading at most `maxBytes` of its body (the stream is cancelled past it). The
 * limit holds whatever the server in front allows.
 */
export async function readLimitedForm(request: Request, maxBytes = MAX_UPLOAD_REQUEST_BYTES): Promise<LimitedForm> {
  const tooLarge = { ok: false as const, message: RECEPTION_MESSAGES.requestTooLarge(Math.round(maxBytes / 1024 / 1024)) };
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge;
  }
  if (!request.body) return { ok: true, form: new FormData() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge;
    }
    chunks.push(value);
  }
  try {
    const form = await new Response(new Blob(chunks as BlobPart[]), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
    return { ok: true, form };
  } catch {
    return { ok: false, message: RECEPTION_MESSAGES.fileRequired };
  }
}

/** What the upload form offers: categories, conditions, and the company's defaults. */
export async function uploadFormLists(db: Db, companyId: number) {
  const [categories, settings] = await Promise.all([categoriesOf(db, companyId), receptionSettingsOf(db, companyId)]);
  return {
    categories,
    taxConditions: TAX_CONDITIONS,
    acceptance: UPLOAD_ACCEPTANCE_OPTIONS,
    defaults: {
      message: "1",
      message_detail: "",
      expense_category: settings?.expenseCategoryId ? String(settings.expenseCategoryId) : "",
      tax_condition: settings?.taxCondition ?? "01",
      tax_credit: "",
      applicable_expense: "",
    } as Record<string, string>,
  };
}

/** Adds a category; an error message when the name is taken. */
export async function createCategory(db: Db, companyId: number, name: string): Promise<{ ok: true; id: number } | { ok: false; message: string }> {
  const existing = (await categoriesOf(db, companyId)).find((c) => c.name.trim().toLowerCase() === name.trim().toLowerCase());
  if (existing) return { ok: false, message: RECEPTION_MESSAGES.categoryDuplicate };
  const [row] = await db.insert(expenseCategories).values({ companyId, name: name.trim() }).onConflictDoNothing().returning({ id: expenseCategories.id });
  if (!row) return { ok: false, message: RECEPTION_MESSAGES.categoryDuplicate };
  return { ok: true, id: row.id };
}

async function stashFiles(db: Db, owner: { companyId: number; userId: number }, files: IncomingFile[], now: Date): Promise<string> {
  await db.delete(receptionUploadStash).where(lt(receptionUploadStash.createdAt, new Date(now.getTime() - STASH_TTL_MS)));
  const token = randomBytes(18).toString("base64url");
  if (files.length) await db.insert(receptionUploadStash).values(files.map((f, i) => ({ token, ...owner, position: i, filename: f.name, bytes: Buffer.from(f.bytes), createdAt: now })));
  return token;
}

/** The files kept under `token` for this user and company (read, not removed: the form may be sent again). */
async function stashedFiles(db: Db, owner: { companyId: number; userId: number }, token: string): Promise<IncomingFile[]> {
  if (!/^[A-Za-z0-9_-]{24}$/.test(token)) return [];
  const rows = await db
    .select({ filename: receptionUploadStash.filename, bytes: receptionUploadStash.bytes })
    .from(receptionUploadStash)
    .where(and(eq(receptionUploadStash.token, token), eq(receptionUploadStash.companyId, owner.companyId), eq(receptionUploadStash.userId, owner.userId)))
    .orderBy(asc(receptionUploadStash.position));
  return rows.map((r) => ({ name: r.filename, bytes: new Uint8Array(r.bytes) }));
}

async function dropStash(db: Db, owner: { companyId: number; userId: number }, token: string) {
  await db.delete(receptionUploadStash).where(and(eq(receptionUploadStash.token, token), eq(receptionUploadStash.companyId, owner.companyId), eq(receptionUploadStash.userId, owner.userId)));
}

export interface UploadState {
  errors: FieldErrors;
  values: Record<string, string>;
  /** Files kept from an earlier submission of this form (their names), and their token. */
  kept: { token: string; names: string[] } | null;
  /** Per-file results of an upload that stored nothing or only part. */
  outcomes: FileOutcome[];
  processed: ProcessOutcome[];
  /** A category was just created. */
  notice?: string;
}

export type UploadResult = { done: true; message: string } | { done: false; state: UploadState; status: number };

/**
 * The upload form's submission: 'category' creates a category and keeps the files; otherwise the
 * files are received and, with a condition other than pending, processed.
 */
export async function submitUpload(db: Db, opts: { companyId: number; userId: number; form: FormData; now: Date }): Promise<UploadResult> {
  const { companyId, userId, form, now } = opts;
  const owner = { companyId, userId };
  const chosen = form
    .getAll("xml_file")
    .filter((f): f is File => typeof f !== "string" && f.size > 0)
    .slice(0, MAX_UPLOAD_FILES + 1);
  const token = String(form.get("kept_files") ?? "");
  let files: IncomingFile[] = await Promise.all(chosen.map(async (f) => ({ name: displayName(f.name), bytes: new Uint8Array(await f.arrayBuffer()) })));
  if (!files.length && token) files = await stashedFiles(db, owner, token);
  const values = Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "_csrf" && e[0] !== "kept_files"));
  const keep = async () => (files.length ? { token: chosen.length || !token ? await stashFiles(db, owner, files, now) : token, names: files.map((f) => f.name) } : null);
  const fail = async (errors: FieldErrors, extra: Partial<UploadState> = {}, status = 400): Promise<UploadResult> => ({ done: false, status, state: { errors, values, kept: await keep(), outcomes: [], processed: [], ...extra } });

  if (form.get("intent") === "category") {
    const parsed = parseForm(categorySchema, form);
    if (!parsed.ok) return fail(parsed.errors);
    const created = await createCategory(db, companyId, parsed.data.new_category_name);
    if (!created.ok) return fail({ new_category_name: created.message });
    values.expense_category = String(created.id);
    delete values.new_category_name;
    return { done: false, status: 200, state: { errors: {}, values, kept: await keep(), outcomes: [], processed: [], notice: RECEPTION_MESSAGES.categoryCreated } };
  }

  const parsed = parseForm(uploadSchema, form);
  const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors };
  if (!files.length) errors.xml_file = RECEPTION_MESSAGES.fileRequired;
  if (files.length > MAX_UPLOAD_FILES) errors.xml_file = RECEPTION_MESSAGES.tooManyFiles(MAX_UPLOAD_FILES);
  if (!parsed.ok || Object.keys(errors).length) return fail(errors);
  const data = parsed.data;
  if (!(await categoriesOf(db, companyId)).some((c) => c.id === data.expense_category)) return fail({ expense_category: RECEPTION_MESSAGES.categoryInvalid });
  // The amounts (shown when not rejecting and not proportionality) are typed for one XML; with
  // several files or a .zip each document declares its own, derived from the tax condition.
  const several = files.length > 1 || files.some((f) => /\.zip$/i.test(f.name));
  if (amountsShown(data.message, data.tax_condition)) {
    if (several && (data.tax_credit || data.applicable_expense)) return fail({ _form: RECEPTION_MESSAGES.amountsForOne });
    if (!several) {
      const missing: FieldErrors = {};
      if (!data.tax_credit) missing.tax_credit = RECEPTION_MESSAGES.amountRequired;
      if (!data.applicable_expense) missing.applicable_expense = RECEPTION_MESSAGES.amountRequired;
      if (Object.keys(missing).length) return fail(missing);
    }
  }
  const decision = decisionOf(data);
  const report = await ingestReceivedFiles(db, {
    companyId,
    userId,
    source: "upload",
    files,
    now,
    expenseCategoryId: data.expense_category,
    taxCondition: data.tax_condition,
    decision,
  });
  const single = report.stored.length === 1 && report.outcomes.filter((o) => !o.ok).length === 0;
  let processed: ProcessOutcome[] = [];
  if (decision && report.stored.length) {
    const r = await processReceptions(db, { companyId, userId, ids: report.stored.map((s) => s.id), decision, now });
    processed = r.ok ? r.outcomes : report.stored.map((s) => ({ id: s.id, ok: false, message: Object.values(r.errors)[0] ?? RECEPTION_MESSAGES.problem }));
  }
  if (token) await dropStash(db, owner, token);
  const refused = report.outcomes.filter((o) => !o.ok);
  if (!refused.length && processed.every((p) => p.ok)) {
    const waiting = processed.some((p) => p.status === "esperando");
    const message = (single ? RECEPTION_MESSAGES.uploaded : RECEPTION_MESSAGES.uploadedMany(report.stored.length)) + (waiting ? `. ${RECEPTION_MESSAGES.waitingIssuer}` : "");
    return { done: true, message };
  }
  return { done: false, status: report.stored.length ? 200 : 400, state: { errors: report.stored.length ? {} : { xml_file: RECEPTION_MESSAGES.nothingStored }, values, kept: report.stored.length ? null : await keep(), outcomes: report.outcomes, processed } };
}
