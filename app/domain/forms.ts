import type { z } from "zod";

export type FieldErrors = Record<string, string>;
export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors; values: Record<string, string> };

/** Form values as plain strings (files dropped), so a failed submission can be shown again. */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && k !== "_csrf") out[k] = v;
  return out;
}

/** Parses a form with its zod schema; the first message per field, keyed by the field path. */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData | Record<string, unknown>): FormResult<z.output<S>> {
  const values = form instanceof FormData ? formValues(form) : (form as Record<string, string>);
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_form";
    errors[key] ??= issue.message;
  }
  return { ok: false, errors, values: form instanceof FormData ? values : (values as Record<string, string>) };
}
