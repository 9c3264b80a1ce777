// The browser half of a form's checks (docs/decisions/166): conform's submission parser with the
// form's zod schema — the same schema object the server parses the form with (app/domain/forms.ts,
// @conform-to/zod/v4). Validation goes through zod's core `safeParse`, so a schema written with
// zod/mini stays small; no value is coerced (every field is the string that was typed).
import { formatPaths, parse, type Submission } from "@conform-to/dom";
import { safeParse, type $ZodType } from "zod/v4/core";

/** The global the field-checks script (app/enhance/field-checks.ts) leaves its functions in. */
export const FIELD_CHECKS_GLOBAL = "colibriFieldChecks";

export interface CheckOptions {
  /** Turns the form's values into what the schema parses (e.g. flat contact rows into a list). */
  prepare?: (value: Record<string, unknown>) => unknown;
  /** The field name an issue path belongs to (default: conform's 'a[0].b'). */
  nameOf?: (path: PropertyKey[]) => string;
}

export function submissionOf(schema: $ZodType, formData: FormData, opts: CheckOptions = {}): Submission<Record<string, unknown>, string[]> {
  return parse(formData, {
    resolve(value) {
      const result = safeParse(schema, opts.prepare ? opts.prepare(value) : value);
      if (result.success) return { value: result.data as Record<string, unknown> };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const name = opts.nameOf ? opts.nameOf(issue.path) : formatPaths(issue.path as Array<string | number>);
        (error[name] ??= []).push(issue.message);
      }
      return { error };
    },
  });
}
