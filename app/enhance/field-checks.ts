// The browser checks of the hydrated forms (docs/decisions/166 and 155) as one script of its own:
// conform's form context (form-checks-run.ts) and the forms' zod schemas — the very schemas the
// server parses the same forms with. Vite bundles it apart (`?worker&url`: one file, its hash in the
// name, precompressed) and useFieldChecks (app/components/form-checks.tsx) adds it to the page when
// a form is first focused, so neither conform nor zod is in what a page loads before anyone types.
import type { $ZodType } from "zod/v4/core";
import { FIELD_CHECKS_GLOBAL } from "../components/form-checks-core.ts";
import { startChecks } from "../components/form-checks-run.ts";
import { clientSchema, type ClientSchemaOptions } from "../domain/client-schemas.ts";
import { companySchema, type CompanySchemaOptions } from "../domain/company-schemas.ts";
import { expenseSchema } from "../domain/expenses.ts";
import { itemSchema, itemSchemaOptions } from "../domain/item-schemas.ts";
import { paymentSchema } from "../domain/payments.ts";

/** Each checked form's schema, built from what its page knows (the same call the action makes). */
const schemas = {
  client: (o: ClientSchemaOptions) => clientSchema(o),
  company: (o: CompanySchemaOptions) => companySchema(o),
  item: (lists: Parameters<typeof itemSchemaOptions>[0]) => itemSchema(itemSchemaOptions(lists)),
  payment: (o: { paymentForms: readonly string[] }) => paymentSchema(o),
  expense: () => expenseSchema,
} satisfies Record<string, (args: never) => $ZodType>;

export type CheckedForms = typeof schemas;

export interface FieldChecksScript {
  startChecks: typeof startChecks;
  schemas: CheckedForms;
}

(globalThis as unknown as Record<string, FieldChecksScript>)[FIELD_CHECKS_GLOBAL] = { startChecks, schemas };
