/** Reads the official schema files from a folder (the app's data folder, or the shared copy in tests). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
