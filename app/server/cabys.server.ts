// The CABYS catalogue: search (local, then Hacienda's public fe/cabys when nothing is local), lookup of
// one code (cached into cabys_codes), and the import of the official BCCR spreadsheet with exceljs's
// streaming WorkbookReader (hacienda/NOTES.md §10–11; docs/decisions/051-cabys-catalogue.md).
import fs from "node:fs";
import ExcelJS from "exceljs";
import { Readable } from "node:stream";
import type { Db, DbOrTx } from "../../db/client.ts";
import { cabysByCode, searchCabys, upsertCabys, type CabysValues } from "../../db/queries/cabys.ts";
import {
  CABYS_IMPORT_MESSAGES,
  CABYS_MAX_BYTES,
  cellValue,
  checkCabysRow,
  headerKey,
  ITEM_MESSAGES,
  parseCabysRate,
  searchWords,
  type CabysRow,
} from "../domain/item-schemas.ts";
import { cleanSearch } from "../domain/pagination.ts";
import { env } from "./env.server.ts";

export interface CabysResult {
  code: string;
  description: string;
  /** Percent, as a plain decimal string ("13", "0.5"). */
  taxRate: string;
  categories: string | null;
}

export interface RemoteOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
  timeoutMs?: number;
  now?: Date;
}

const plain = (r: CabysValues): CabysResult => ({ ...r, taxRate: String(Number(r.taxRate)) });

// ───────── Hacienda fe/cabys ─────────

type RemoteReply = { ok: true; rows: CabysValues[] } | { ok: false; notFound: boolean };

/** One entry of fe/cabys (`{codigo, descripcion, categorias[], impuesto}`), leniently. */
function remoteRow(e: unknown): CabysValues | null {
  if (!e || typeof e !== "object") return null;
  const o = e as Record<string, unknown>;
  const code = String(o.codigo ?? o.code ?? "").trim();
  const description = String(o.descripcion ?? o.description ?? "").replace(/\s+/g, " ").trim();
  const rate = parseCabysRate(typeof o.impuesto === "string" || typeof o.impuesto === "number" ? o.impuesto : null);
  if (!/^\d{13}$/.test(code) || !description || rate === null) return null;
  const cats = Array.isArray(o.categorias) ? o.categorias.map((c) => (typeof c === "string" ? c : String((c as { descripcion?: unknown })?.descripcion ?? ""))).filter(Boolean) : [];
  return { code, description: description.slice(0, 1000), taxRate: rate, categories: cats.length ? cats.join(" > ").slice(0, 2000) : null };
}

async function remote(query: string, opts: RemoteOptions): Promise<RemoteReply> {
  const doFetch = opts.fetch ?? fetch;
  const baseUrl = (opts.baseUrl ?? env().haciendaPublicApi).replace(/\/$/, "");
  const timeoutMs = opts.timeoutMs ?? env().haciendaLookupTimeoutMs;
  try {
    const response = await doFetch(`${baseUrl}/fe/cabys?${query}`, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, notFound: true };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, notFound: false };
    }
    const text = await response.text();
    const body = text ? (JSON.parse(text) as unknown) : null;
    const list = Array.isArray(body) ? body : body && typeof body === "object" && Array.isArray((body as { cabys?: unknown }).cabys) ? (body as { cabys: unknown[] }).cabys : [];
    return { ok: true, rows: list.slice(0, 50).map(remoteRow).filter((r): r is CabysValues => r !== null) };
  } catch {
    return { ok: false, notFound: false };
  }
}

async function cache(db: DbOrTx, rows: CabysValues[], now: Date) {
  const unique = [...new Map(rows.map((r) => [r.code, r])).values()];
  if (unique.length) await upsertCabys(db, unique, now);
}

/** A code from the catalogue, or from Hacienda (then cached). */
export async function findCabysCode(db: DbOrTx, code: string, opts: RemoteOptions = {}): Promise<{ ok: true; row: CabysResult } | { ok: false; message: string }> {
  if (!/^\d{13}$/.test(code)) return { ok: false, message: "El código CABYS debe tener 13 dígitos" };
  const local = await cabysByCode(db, code);
  if (local) return { ok: true, row: plain(local) };
  const reply = await remote(`codigo=${code}`, opts);
  if (!reply.ok) return { ok: false, message: reply.notFound ? ITEM_MESSAGES.cabysNotFound : ITEM_MESSAGES.cabysOffline };
  await cache(db, reply.rows, opts.now ?? new Date());
  const found = reply.rows.find((r) => r.code === code);
  return found ? { ok: true, row: plain(found) } : { ok: false, message: ITEM_MESSAGES.cabysNotFound };
}

/**
 * Top 20 codes for a query: a code prefix (digits) or words of the description. Only when the catalogue
 * has nothing does it ask Hacienda (a full 13-digit code, or the words), caching what comes back.
 */
export async function searchCabysCatalogue(db: DbOrTx, q: string, opts: RemoteOptions = {}): Promise<{ results: CabysResult[]; message?: string; source: "local" | "hacienda" }> {
  const query = cleanSearch(q);
  const digits = query.replace(/[\s-]/g, "");
  if (/^\d{1,13}$/.test(digits)) {
    const local = await searchCabys(db, { digits });
    if (local.length || digits.length < 13) return { results: local.map(plain), source: "local", ...(local.length ? {} : { message: ITEM_MESSAGES.cabysNoResults }) };
    const found = await findCabysCode(db, digits, opts);
    return found.ok ? { results: [found.row], source: "hacienda" } : { results: [], source: "hacienda", message: found.message };
  }
  const words = searchWords(query);
  if (words.length === 0) return { results: [], source: "local" };
  const local = await searchCabys(db, { words });
  if (local.length) return { results: local.map(plain), source: "local" };
  const reply = await remote(`q=${encodeURIComponent(query)}&top=20`, opts);
  if (!reply.ok) return { results: [], source: "hacienda", message: reply.notFound ? ITEM_MESSAGES.cabysNoResults : ITEM_MESSAGES.cabysOffline };
  await cache(db, reply.rows, opts.now ?? new Date());
  const rows = reply.rows.slice(0, 20).map(plain);
  return { results: rows, source: "hacienda", ...(rows.length ? {} : { message: ITEM_MESSAGES.cabysNoResults }) };
}

// ───────── Spreadsheet import ─────────

export type ImportResult = { ok: true; imported: number } | { ok: false; message: string; errors: string[]; errorCount: number };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const MAX_LISTED_ERRORS = 50;
const BATCH = 1000;

/** Column positions found in the header row (row 2). */
interface Columns {
  code: number;
  description: number;
  tax: number;
  categories: number[];
}

function findColumns(values: unknown[]): Columns | null {
  const keys = values.map((v) => headerKey(v));
  const at = (k: string) => keys.indexOf(k);
  const code = at("categoria 9");
  const description = at("descripcion (categoria 9)");
  const tax = at("impuesto");
  if (code < 0 || description < 0 || tax < 0) return null;
  const categories: number[] = [];
  for (let i = 1; i <= 8; i++) {
    const c = at(`descripcion (categoria ${i})`);
    if (c >= 0) categories.push(c);
  }
  return { code, description, tax, categories };
}

interface SheetOutcome {
  found: boolean;
  rows: Map<string, CabysRow>;
  errors: string[];
  errorCount: number;
}

async function readSheet(sheet: AsyncIterable<ExcelJS.Row>): Promise<SheetOutcome> {
  const out: SheetOutcome = { found: false, rows: new Map(), errors: [], errorCount: 0 };
  let columns: Columns | null = null;
  for await (const row of sheet) {
    if (row.number === 1) continue;
    const values = row.values as unknown[];
    if (row.number === 2) {
      columns = findColumns(Array.isArray(values) ? values : []);
      if (!columns) return out;
      out.found = true;
      continue;
    }
    if (!columns || !Array.isArray(values)) continue;
    const code = cellValue(values[columns.code]);
    const description = cellValue(values[columns.description]);
    let tax = cellValue(values[columns.tax]);
    if ([code, description, tax].every((v) => v === null || v === undefined || String(v).trim() === "")) continue;
    // A percentage-formatted number cell holds the fraction (0.13): the reader knows its format.
    if (typeof tax === "number" && /%/.test(row.getCell(columns.tax).numFmt ?? "")) tax = Math.round(tax * 1_000_000) / 10_000;
    const checked = checkCabysRow(row.number, { code, description, tax, categories: columns.categories.map((c) => values[c]) });
    if (checked.ok) out.rows.set(checked.row.code, checked.row);
    else {
      out.errorCount++;
      if (out.errors.length < MAX_LISTED_ERRORS) out.errors.push(checked.error);
    }
  }
  return out;
}

/** Checks the upload before reading it: present, not too large, a zip (xlsx) by its first bytes. */
export async function checkCabysUpload(file: FormDataEntryValue | null): Promise<{ ok: true; file: File } | { ok: false; message: string }> {
  if (!file || typeof file === "string" || file.size === 0) return { ok: false, message: CABYS_IMPORT_MESSAGES.missingFile };
  if (file.size > CABYS_MAX_BYTES) return { ok: false, message: CABYS_IMPORT_MESSAGES.tooLarge };
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (!ZIP_MAGIC.every((b, i) => head[i] === b)) return { ok: false, message: CABYS_IMPORT_MESSAGES.notXlsx };
  return { ok: true, file };
}

/**
 * Imports the BCCR CABYS spreadsheet: sheet "Cabys" (or the first sheet), header on row 2. Every row is
 * checked while streaming; a file with any broken row is refused as a whole, naming the rows. A clean
 * file is upserted in batches of 1,000 inside one transaction, so nothing is ever half-saved.
 */
export async function importCabysSpreadsheet(db: Db, input: Readable | string, opts: { now?: Date } = {}): Promise<ImportResult> {
  let chosen: SheetOutcome | null = null;
  // exceljs never settles when it cannot open a path: check it first.
  if (typeof input === "string" && !fs.existsSync(input)) return { ok: false, message: CABYS_IMPORT_MESSAGES.notXlsx, errors: [], errorCount: 0 };
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { worksheets: "emit", sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", entries: "ignore" });
    let index = 0;
    for await (const sheet of reader) {
      const name = String((sheet as unknown as { name?: string }).name ?? "");
      const named = /^cabys$/i.test(name.trim());
      if (named || index === 0) {
        const outcome = await readSheet(sheet as unknown as AsyncIterable<ExcelJS.Row>);
        if (named || !chosen) chosen = outcome;
      }
      index++;
    }
  } catch {
    return { ok: false, message: CABYS_IMPORT_MESSAGES.notXlsx, errors: [], errorCount: 0 };
  }
  if (!chosen || !chosen.found) return { ok: false, message: CABYS_IMPORT_MESSAGES.noHeader, errors: [], errorCount: 0 };
  if (chosen.errorCount > 0) return { ok: false, message: CABYS_IMPORT_MESSAGES.refused, errors: chosen.errors, errorCount: chosen.errorCount };
  if (chosen.rows.size === 0) return { ok: false, message: CABYS_IMPORT_MESSAGES.noRows, errors: [], errorCount: 0 };
  const rows = [...chosen.rows.values()];
  const now = opts.now ?? new Date();
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH) await upsertCabys(tx, rows.slice(i, i + BATCH), now);
  });
  return { ok: true, imported: rows.length };
}

/** The uploaded File as a Node stream for the streaming reader. */
export function fileStream(file: File): Readable {
  return Readable.fromWeb(file.stream() as import("node:stream/web").ReadableStream);
}
