/** Reads the official schema files from a folder (the app's data folder, or the shared copy in tests). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchemas } from "./compile.ts";
import { compileSchemaSet, OFFICIAL_SCHEMA_FILES, XMLDSIG_SCHEMA_FILE, type CompiledSchemaSet } from "./index.ts";

/**
 * Returns file name → text for the 9 v4.4 schemas and xmldsig-core-schema.xsd found in `dir`
 * (xmldsig may also sit at `dir/../../`, where the official files' relative import points).
 */
export function readSchemaFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const f of OFFICIAL_SCHEMA_FILES) {
    const p = join(dir, f);
    if (!existsSync(p)) throw new Error(`No se encontró el esquema ${f} en ${dir}. Descargue los esquemas oficiales de Hacienda.`);
    files[f] = readFileSync(p, "utf8");
  }
  const ds = [join(dir, XMLDSIG_SCHEMA_FILE), join(dir, "..", "..", XMLDSIG_SCHEMA_FILE)].find(existsSync);
  if (!ds) throw new Error(`No se encontró ${XMLDSIG_SCHEMA_FILE} junto a los esquemas en ${dir}.`);
  files[XMLDSIG_SCHEMA_FILE] = readFileSync(ds, "utf8");
  return files;
}

const cache = new Map<string, CompiledSchemaSet>();

/** Compiles (once per folder) the schema set in `dir`. */
export function loadSchemaSet(dir: string): CompiledSchemaSet {
  let set = cache.get(dir);
  if (!set) {
    set = compileSchemaSet(readSchemaFiles(dir));
    cache.set(dir, set);
  }
  return set;
}

/**
 * Compiles (once per folder) every .xsd in `dir` with the xmldsig schema (from `dir` or `dir/../..`):
 * for reading older received documents, e.g. the v4.3 folder (whose files import xmldsig by URL).
 */
export function loadSchemaFolder(dir: string): CompiledSchemaSet {
  const key = `folder:${dir}`;
  let set = cache.get(key);
  if (!set) {
    const files: Record<string, string> = {};
    for (const f of readdirSync(dir)) if (f.endsWith(".xsd")) files[f] = readFileSync(join(dir, f), "utf8");
    if (!(XMLDSIG_SCHEMA_FILE in files)) {
      const ds = join(dir, "..", "..", XMLDSIG_SCHEMA_FILE);
      if (!existsSync(ds)) throw new Error(`No se encontró ${XMLDSIG_SCHEMA_FILE} junto a los esquemas en ${dir}.`);
      files[XMLDSIG_SCHEMA_FILE] = readFileSync(ds, "utf8");
    }
    set = compileSchemas(files);
    cache.set(key, set);
  }
  return set;
}
