// Zod fields for money and quantity inputs: the Costa Rican parser (number-input.ts, decision 164)
// inside the schema, so a form's browser checks and its server say the same.
import { z } from "zod";
import { decimalPlaces, parseDecimalInput } from "./number-input.ts";

/**
 * A required decimal typed the Costa Rican way, kept as a plain decimal string ('1500.50'): empty →
 * `required`; not a number, or more than `maxDecimals` decimals → `format`.
 */
export function decimalField(opts: { required: string; format: string; maxDecimals: number; maxDigits?: number }) {
  return z
    .string({ error: opts.required })
    .trim()
    .min(1, opts.required)
    .transform((v, ctx) => {
      const parsed = parseDecimalInput(v);
      if (parsed === null || decimalPlaces(parsed) > opts.maxDecimals || parsed.split(".")[0].length > (opts.maxDigits ?? 13)) {
        ctx.addIssue({ code: "custom", message: opts.format });
        return z.NEVER;
      }
      return parsed;
    });
}
