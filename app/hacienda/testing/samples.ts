/** Test helper: where the real signed samples live (shared/hacienda/samples, or HACIENDA_SAMPLES_DIR). */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");

export const samplesDir = process.env.HACIENDA_SAMPLES_DIR ?? resolve(repoRoot, "..", "shared", "hacienda", "samples");
