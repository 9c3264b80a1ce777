/**
 * Schema validation of Hacienda v4.4 documents with a compiled validator (no xmllint at run time).
 *
 *   const set = compileSchemaSet(files)          // once; each file compiles on first use (≈ 40–90 ms)
 *   validateSchema(xml, set, { unsigned: true }) // per document: [] when valid
 *
 * `files` maps file names to XSD text: the 9 official v4.4 files plus xmldsig-core-schema.xsd.
 * Reading them from disk lives in `load.server.ts`; fetching them from Hacienda in
 * `downloadOfficialSchemas` below (fetch injected).
 */
import { compileSchemas, type CompiledSchemaSet } from "./compile.ts";
import { parseXml, XmlSyntaxError } from "./parse.ts";
import { validateTree, type SchemaError, type ValidateOptions } from "./validate.ts";

export type { CompiledSchemaSet } from "./compile.ts";
export type { SchemaError, ValidateOptions } from "./validate.ts";
export { parseXml, XmlSyntaxError, type XNode } from "./parse.ts";

/** The 9 official v4.4 schema files (2026 revision), as published by Hacienda. */
export const OFFICIAL_SCHEMA_FILES = [
  "FacturaElectronica_V4.4.xsd",
  "TiqueteElectronico_V4.4.xsd",
  "NotaCreditoElectronica_V4.4.xsd",
  "NotaDebitoElectronica_V4.4.xsd",
  "FacturaElectronicaCompra_V4.4.xsd",
  "FacturaElectronicaExportacion_V4.4.xsd",
  "ReciboElectronicoPago_V4.4.xsd",
  "MensajeReceptor_V4.4.xsd",
  "MensajeHacienda_V4.4.xsd",
] as const;

export const XMLDSIG_SCHEMA_FILE = "xmldsig-core-schema.xsd";
export const OFFICIAL_SCHEMA_BASE_URL = "https://www.hacienda.go.cr/docs/";
export const XMLDSIG_SCHEMA_URL = "https://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd";

/** Compiles the schema texts (file name → XSD text) into a reusable validator. */
export function compileSchemaSet(files: Record<string, string>): CompiledSchemaSet {
  const missing = [...OFFICIAL_SCHEMA_FILES, XMLDSIG_SCHEMA_FILE].filter((f) => !(f in files));
  if (missing.length) throw new Error(`Faltan archivos de esquema de Hacienda: ${missing.join(", ")}. Descárguelos de nuevo.`);
  return compileSchemas(files);
}

/**
 * Validates an XML document against the compiled schemas. Returns `[]` when valid, otherwise
 * errors `{ path, message }` in Spanish naming the field. A document that is not well-formed XML
 * returns one error with path "".
 */
export function validateSchema(xml: string, set: CompiledSchemaSet, opts: ValidateOptions = {}): SchemaError[] {
  let root;
  try {
    root = parseXml(xml);
  } catch (e) {
    if (e instanceof XmlSyntaxError)
      return [{ path: "", message: `El XML no está bien formado (línea ${e.line}): ${e.message}. Revise el archivo.` }];
    throw e;
  }
  return validateTree(root, set, opts);
}

export interface DownloadOptions {
  fetch: (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
  /** Folder to write into (created if missing). */
  dir: string;
  /** Writes a file; injected so this module stays free of node:fs (defaults to node:fs/promises). */
  writeFile?: (path: string, text: string) => Promise<void>;
  mkdir?: (path: string) => Promise<void>;
  baseUrl?: string;
  xmldsigUrl?: string;
}

/**
 * Fetches the 9 official v4.4 schemas from `https://www.hacienda.go.cr/docs/<File>_V4.4.xsd` and
 * the W3C xmldsig schema into `dir`, checks that every file compiles together, and returns the
 * texts by file name. Throws (Spanish message) when a download fails; nothing partial is written:
 * every file is fetched and compiled before the first one is written.
 */
export async function downloadOfficialSchemas(opts: DownloadOptions): Promise<Record<string, string>> {
  const base = opts.baseUrl ?? OFFICIAL_SCHEMA_BASE_URL;
  const files: Record<string, string> = {};
  const targets: Array<[string, string]> = [
    ...OFFICIAL_SCHEMA_FILES.map((f) => [f, base + f] as [string, string]),
    [XMLDSIG_SCHEMA_FILE, opts.xmldsigUrl ?? XMLDSIG_SCHEMA_URL],
  ];
  for (const [file, url] of targets) {
    let res;
    try {
      res = await opts.fetch(url);
    } catch (e) {
      throw new Error(`No se pudo descargar el esquema ${file} desde ${url}: ${(e as Error).message}. Revise la conexión a internet e intente de nuevo.`);
    }
    if (!res.ok) throw new Error(`No se pudo descargar el esquema ${file} desde ${url} (HTTP ${res.status}). Intente de nuevo más tarde.`);
    const text = await res.text();
    if (!text.includes("<xs:schema") && !text.includes("<schema")) throw new Error(`El archivo descargado ${file} no es un esquema XSD. Intente de nuevo más tarde.`);
    files[file] = text;
  }
  compileSchemaSet(files).compileAll(); // throws when the set is inconsistent
  const fsp = opts.writeFile && opts.mkdir ? null : await import("node:fs/promises");
  const mkdir = opts.mkdir ?? (async (p: string) => void (await fsp!.mkdir(p, { recursive: true })));
  const writeFile = opts.writeFile ?? ((p: string, t: string) => fsp!.writeFile(p, t, "utf8"));
  await mkdir(opts.dir);
  for (const [file, text] of Object.entries(files)) await writeFile(`${opts.dir.replace(/\/$/, "")}/${file}`, text);
  return files;
}
