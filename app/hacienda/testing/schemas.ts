/**
 * Test helper: where the official v4.4 XSDs live. The project never copies them into its tree;
 * tests read them from env HACIENDA_XSD_DIR, default ../shared/hacienda/xsd/v4.4-2026 relative to
 * the repository root.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSchemaSet, readSchemaFiles } from "../xsd/load.server.ts";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");

export function schemaDir(): string {
  const dir = process.env.HACIENDA_XSD_DIR ? resolve(process.env.HACIENDA_XSD_DIR) : resolve(repoRoot, "..", "shared", "hacienda", "xsd", "v4.4-2026");
  if (!existsSync(dir))
    throw new Error(`Hacienda XSD folder not found: ${dir}. Set HACIENDA_XSD_DIR to the folder holding the official v4.4 schemas.`);
  return dir;
}

export function testSchemaSet() {
  return loadSchemaSet(schemaDir());
}

export function testSchemaFiles() {
  return readSchemaFiles(schemaDir());
}
