/**
 * The sandbox wired to the real library: schema validation with the compiled v4.4 XSDs,
 * signature verification with verify.ts (received mode: the policy is not enforced, as Hacienda
 * does not), the engine's business rules (rules.ts `checkRules` with the amounts, on the model
 * read-model.ts reads back), and MensajeHacienda signing with sign.ts under a test certificate
 * made at start with cert.ts (unless a key is passed). Decision 142.
 */
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTestP12 } from "../cert.ts";
import { readModel } from "../read-model.ts";
import { checkRules } from "../rules.ts";
import { loadP12, type SigningKey } from "../p12.ts";
import { signXml } from "../sign.ts";
import { verifyXml } from "../verify.ts";
import { validateSchema, type CompiledSchemaSet } from "../xsd/index.ts";
import { loadSchemaSet } from "../xsd/load.server.ts";
import { startSandbox, type RuleIssue, type Sandbox, type SandboxOptions } from "./server.ts";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");

/** Schema folder: explicit, env HACIENDA_XSD_DIR, or ../shared/hacienda/xsd/v4.4-2026 beside the repo. */
export function defaultXsdDir(explicit?: string): string {
  if (explicit) return resolve(explicit);
  if (process.env.HACIENDA_XSD_DIR) return resolve(process.env.HACIENDA_XSD_DIR);
  return resolve(repoRoot, "..", "shared", "hacienda", "xsd", "v4.4-2026");
}

/** A fresh test key for the simulated Ministerio de Hacienda (cédula jurídica 2-100-042005). */
export function makeSandboxSigningKey(now: Date = new Date()): SigningKey {
  const pin = randomBytes(12).toString("hex");
  const p12 = makeTestP12({
    cedula: "2100042005",
    idType: "02",
    name: "MINISTERIO DE HACIENDA - SIMULADOR COLIBRI",
    pin,
    notBefore: new Date(now.getTime() - 86_400_000),
    notAfter: new Date(now.getTime() + 5 * 365 * 86_400_000),
  });
  return loadP12(p12, pin, { now });
}

/**
 * The engine's rule set on a document as Hacienda receives it: the model read back from the XML,
 * with every stated amount compared (the same check as `npm run hacienda -- validate`). Rules that
 * the rule set adds later apply here without change.
 */
export function engineRules(xml: string): RuleIssue[] {
  let model;
  try {
    model = readModel(xml);
  } catch (err) {
    return [{ message: (err as Error).message }];
  }
  // A rule set that reports warnings (severity "warning") gets them listed inside the accepted answer.
  return checkRules(model, { math: true }).map((r) => ({ ...r, warning: (r as { severity?: string }).severity === "warning" }));
}

export type RealSandboxOptions = Omit<SandboxOptions<SigningKey>, "validate" | "verify" | "sign" | "rules"> & {
  xsdDir?: string;
  schemaSet?: CompiledSchemaSet;
};

export async function startRealSandbox(options: RealSandboxOptions = {}): Promise<Sandbox> {
  const set = options.schemaSet ?? loadSchemaSet(defaultXsdDir(options.xsdDir));
  const now = options.now ?? Date.now;
  return startSandbox<SigningKey>({
    ...options,
    createSigningKey: options.createSigningKey ?? (() => makeSandboxSigningKey(new Date(now()))),
    validate: (xml) => validateSchema(xml, set),
    verify: (xml) => {
      const r = verifyXml(xml);
      return { valid: r.valid, errors: r.errors, signerId: r.certificate?.cedula ?? null };
    },
    rules: engineRules,
    sign: (xml, key, { now: at }) => signXml(xml, key, { now: at }),
  });
}
