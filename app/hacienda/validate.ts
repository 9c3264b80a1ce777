/**
 * Validation before signing: business rules, then build, then schema validation of the built XML
 * against the official v4.4 XSDs (compiled once, see xsd/).
 */
import { TotalsError } from "../domain/totals.ts";
import { buildXml } from "./build.ts";
import { ClaveError } from "./clave.ts";
import type { HaciendaDocument } from "./model.ts";
import { checkRules, type RuleError } from "./rules.ts";
import { XmlBuildError } from "./xml.ts";
import { validateSchema, type CompiledSchemaSet } from "./xsd/index.ts";

export interface ValidationResult {
  ok: boolean;
  /** The unsigned XML (declaration + canonical root) when ok. */
  xml?: string;
  errors: RuleError[];
}

export function validateDocument(doc: HaciendaDocument, schemaSet: CompiledSchemaSet): ValidationResult {
  const ruleErrors = checkRules(doc, { math: false });
  if (ruleErrors.length) return { ok: false, errors: ruleErrors };
  let xml: string;
  try {
    xml = buildXml(doc);
  } catch (e) {
    if (e instanceof TotalsError || e instanceof XmlBuildError || e instanceof ClaveError) return { ok: false, errors: [{ path: e.field, message: e.message }] };
    throw e;
  }
  const schemaErrors = validateSchema(xml, schemaSet, { unsigned: true });
  if (schemaErrors.length) return { ok: false, errors: schemaErrors };
  return { ok: true, xml, errors: [] };
}
