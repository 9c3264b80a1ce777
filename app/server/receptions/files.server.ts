// The files of an upload or an e-mail, as the reception intake sees them (issue 12 items 2 and 5):
// XML files as they are, and the XML inside .zip archives, expanded with fflate's streaming Unzip
// with hard limits counted on the real inflated output — never on the sizes the archive claims — and
// fed in small pieces so one call never inflates more than about a megabyte. One budget covers a
// whole intake (an upload, an e-mail message): files looked at and bytes of XML in all, archives
// included, checked while expanding; past it the intake is refused whole. Names inside an archive
// are only shown, never used as paths (docs/decisions/171).
import { Unzip, UnzipInflate } from "fflate";
import { RECEPTION_MESSAGES } from "../../domain/reception-texts.ts";
import { MAX_XML_BYTES } from "../../hacienda/safe-xml.ts";

export interface IncomingFile {
  name: string;
  bytes: Uint8Array;
}

/** Largest .zip accepted (compressed), and the request limits of the upload routes. */
export const MAX_ZIP_BYTES = 10 * 1024 * 1024;
/**
 * What one intake (an upload, an e-mail message, an API call) may hand to the judge, in all:
 * `files` counts every file sent and every entry inside its archives (folders included); `bytes`
 * counts the XML to judge, as sent or as inflated. Typical comprobantes weigh 8–70 kB (500 of them:
 * 4–35 MB) and a 1,000-line one about 650 kB; the upload screen's body is 6 MB and an e-mail at most
 * 25 MB. The one rule for archives too (it replaced 500 entries and 50 MB per archive).
 */
export const INTAKE_LIMITS = { files: 500, bytes: 50 * 1024 * 1024 } as const;
/** Files in one upload. */
export const MAX_UPLOAD_FILES = 50;
/** Input piece fed to the inflater: deflate expands at most ~1032:1, so about 1 MB out per piece. */
const PIECE = 1024;
/** Inflated bytes between two yields to the event loop (about 20–50 ms of inflating). */
const YIELD_EVERY = 4 * 1024 * 1024;

export type ExpandedFile = { name: string; bytes: Uint8Array; from?: string } | { name: string; problem: string; from?: string };

/** A name fit to show: the last path segment, printable characters, at most 120 of them. */
export function displayName(raw: string): string {
  const last = raw.split(/[\\/]/).filter(Boolean).pop() ?? "";
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return (clean || "archivo").slice(0, 120);
}

/** Starts with a zip archive's signature (PK\x03\x04): expanded as an archive whatever its name. */
export const isZipBytes = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const isZip = (f: IncomingFile) => /\.zip$/i.test(f.name) || isZipBytes(f.bytes);
const looksXml = (name: string) => /\.xml$/i.test(name);

/** A problem of one archive: that archive is refused, the others go on. */
class ZipLimit extends Error {}
/** The intake's budget is spent: everything is refused. */
class OverBudget extends Error {}

/** What an intake has used of INTAKE_LIMITS; `take` throws OverBudget as soon as a limit is passed. */
class Budget {
  files = 0;
  bytes = 0;
  private lastYield = 0;
  file() {
    if (++this.files > INTAKE_LIMITS.files) throw new OverBudget(RECEPTION_MESSAGES.intakeTooManyFiles(INTAKE_LIMITS.files));
  }
  take(bytes: number) {
    this.bytes += bytes;
    if (this.bytes > INTAKE_LIMITS.bytes) throw new OverBudget(RECEPTION_MESSAGES.intakeTooLarge(INTAKE_LIMITS.bytes / 1024 / 1024));
  }
  /** Lets other requests run after every few megabytes inflated. */
  async pause() {
    if (this.bytes - this.lastYield < YIELD_EVERY) return;
    this.lastYield = this.bytes;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The XML entries of an archive (others are counted in `skipped`), each entry and each inflated byte
 * taken from the intake's budget as it comes. Throws ZipLimit (this archive) or OverBudget (the
 * intake), with a Spanish message.
 */
async function unzipXml(zip: IncomingFile, budget: Budget): Promise<{ files: ExpandedFile[]; skipped: number }> {
  const from = displayName(zip.name);
  if (zip.bytes.length > MAX_ZIP_BYTES) throw new ZipLimit(`El archivo ${from} pesa más de ${MAX_ZIP_BYTES / 1024 / 1024} MB, el máximo para un .zip.`);
  const files: ExpandedFile[] = [];
  let entries = 0;
  let skipped = 0;
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (failure) return;
    entries++;
    try {
      budget.file();
    } catch (error) {
      failure = error as OverBudget;
      return;
    }
    const name = displayName(file.name);
    if (file.name.endsWith("/") || !looksXml(file.name)) {
      skipped++;
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    let tooLarge = false;
    file.ondata = (err, data, final) => {
      if (failure || tooLarge) return;
      if (err) {
        failure = new ZipLimit(`El archivo ${from} está dañado y no se puede abrir (${name}).`);
        return;
      }
      size += data.length;
      try {
        budget.take(data.length);
      } catch (error) {
        failure = error as OverBudget;
        file.terminate();
        return;
      }
      if (size > MAX_XML_BYTES) {
        tooLarge = true;
        file.terminate();
        files.push({ name, from, problem: `El XML pesa más de ${MAX_XML_BYTES / 1024 / 1024} MB, algo que ningún comprobante pesa. No se procesó.` });
        return;
      }
      chunks.push(data);
      if (final) {
        const bytes = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) {
          bytes.set(c, at);
          at += c.length;
        }
        files.push({ name, from, bytes });
      }
    };
    try {
      file.start();
    } catch {
      files.push({ name, from, problem: "Este archivo del .zip está comprimido de una forma que no se admite (o protegido con contraseña)." });
    }
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < zip.bytes.length && !failure; at += PIECE) {
    const end = Math.min(at + PIECE, zip.bytes.length);
    try {
      unzip.push(zip.bytes.subarray(at, end), end === zip.bytes.length);
    } catch {
      throw new ZipLimit(`El archivo ${from} no es un .zip válido o está dañado.`);
    }
    await budget.pause();
  }
  if (failure) throw failure;
  if (entries === 0) throw new ZipLimit(`El archivo ${from} no es un .zip válido o está vacío.`);
  return { files, skipped };
}

/**
 * Every XML to judge in these files: XML as they came, .zip archives expanded. A file that is neither
 * comes back with its problem; archive entries that are not XML are skipped and counted. Past
 * INTAKE_LIMITS the whole intake is refused: expanding stops there, the files after it are not looked
 * at, and only the file at which the budget ran out comes back, with the reason (nothing to store).
 */
export async function expandFiles(incoming: IncomingFile[], opts: { skipNonXml?: boolean } = {}): Promise<{ files: ExpandedFile[]; skipped: number }> {
  const files: ExpandedFile[] = [];
  const budget = new Budget();
  let skipped = 0;
  for (const f of incoming) {
    const name = displayName(f.name);
    try {
      budget.file();
      if (isZip(f)) {
        try {
          const inner = await unzipXml(f, budget);
          files.push(...inner.files);
          skipped += inner.skipped;
          if (inner.files.length === 0) files.push({ name, problem: "El .zip no contiene ningún archivo XML." });
        } catch (error) {
          if (!(error instanceof ZipLimit)) throw error;
          files.push({ name, problem: error.message });
        }
      } else if (opts.skipNonXml && !looksXml(f.name) && !/xml/i.test(name)) {
        skipped++;
      } else {
        budget.take(f.bytes.length);
        files.push({ name, bytes: f.bytes });
      }
    } catch (error) {
      if (!(error instanceof OverBudget)) throw error;
      return { files: [{ name, problem: error.message }], skipped: 0 };
    }
  }
  return { files, skipped };
}
