// The files of an upload or an e-mail, as the reception intake sees them (issue 12 items 2 and 5):
// XML files as they are, and the XML inside .zip archives, expanded with fflate's streaming Unzip
// with hard limits (number of entries, bytes of each XML, bytes expanded in all) counted on the real
// inflated output — never on the sizes the archive claims — and fed in small pieces so one call never
// inflates more than about a megabyte. Names inside an archive are only shown, never used as paths
// (docs/decisions/171).
import { Unzip, UnzipInflate } from "fflate";
import { MAX_XML_BYTES } from "../../hacienda/safe-xml.ts";

export interface IncomingFile {
  name: string;
  bytes: Uint8Array;
}

/** Largest .zip accepted (compressed), and the request limits of the upload routes. */
export const MAX_ZIP_BYTES = 10 * 1024 * 1024;
/** Entries read from one archive (directories included). */
export const MAX_ZIP_ENTRIES = 500;
/** Bytes all the XML of one archive may expand to. */
export const MAX_ZIP_EXPANDED = 50 * 1024 * 1024;
/** Files in one upload. */
export const MAX_UPLOAD_FILES = 50;
/** Input piece fed to the inflater: deflate expands at most ~1032:1, so about 1 MB out per piece. */
const PIECE = 1024;

export type ExpandedFile = { name: string; bytes: Uint8Array; from?: string } | { name: string; problem: string; from?: string };

/** A name fit to show: the last path segment, printable characters, at most 120 of them. */
export function displayName(raw: string): string {
  const last = raw.split(/[\\/]/).filter(Boolean).pop() ?? "";
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return (clean || "archivo").slice(0, 120);
}

const isZip = (f: IncomingFile) => /\.zip$/i.test(f.name) || (f.bytes.length >= 4 && f.bytes[0] === 0x50 && f.bytes[1] === 0x4b && f.bytes[2] === 0x03 && f.bytes[3] === 0x04);
const looksXml = (name: string) => /\.xml$/i.test(name);

class ZipLimit extends Error {}

/** The XML entries of an archive (others are counted in `skipped`). Throws ZipLimit with a Spanish message. */
function unzipXml(zip: IncomingFile): { files: ExpandedFile[]; skipped: number } {
  const from = displayName(zip.name);
  if (zip.bytes.length > MAX_ZIP_BYTES) throw new ZipLimit(`El archivo ${from} pesa más de ${MAX_ZIP_BYTES / 1024 / 1024} MB, el máximo para un .zip.`);
  const files: ExpandedFile[] = [];
  let entries = 0;
  let expanded = 0;
  let skipped = 0;
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (failure) return;
    entries++;
    if (entries > MAX_ZIP_ENTRIES) {
      failure = new ZipLimit(`El archivo ${from} tiene más de ${MAX_ZIP_ENTRIES} archivos dentro: súbalo en partes.`);
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
      expanded += data.length;
      if (expanded > MAX_ZIP_EXPANDED) {
        failure = new ZipLimit(`El archivo ${from} se expande a más de ${MAX_ZIP_EXPANDED / 1024 / 1024} MB: no parece un paquete de comprobantes y no se procesó.`);
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
  try {
    for (let at = 0; at < zip.bytes.length && !failure; at += PIECE) {
      const end = Math.min(at + PIECE, zip.bytes.length);
      unzip.push(zip.bytes.subarray(at, end), end === zip.bytes.length);
    }
  } catch {
    throw new ZipLimit(`El archivo ${from} no es un .zip válido o está dañado.`);
  }
  if (failure) throw failure;
  if (entries === 0) throw new ZipLimit(`El archivo ${from} no es un .zip válido o está vacío.`);
  return { files, skipped };
}

/**
 * Every XML to judge in these files: XML as they came, .zip archives expanded. A file that is neither
 * comes back with its problem; archive entries that are not XML are skipped and counted.
 */
export function expandFiles(incoming: IncomingFile[], opts: { skipNonXml?: boolean } = {}): { files: ExpandedFile[]; skipped: number } {
  const files: ExpandedFile[] = [];
  let skipped = 0;
  for (const f of incoming) {
    const name = displayName(f.name);
    if (isZip(f)) {
      try {
        const inner = unzipXml(f);
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
      files.push({ name, bytes: f.bytes });
    }
  }
  return { files, skipped };
}
