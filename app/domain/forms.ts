import { parseWithZod } from "@conform-to/zod/v4";
import { safeParse, type $ZodType, type output } from "zod/v4/core";

export type FieldErrors = Record<string, string>;
export type FormResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors; values: Record<string, string> };

/** Form values as plain strings (files dropped), so a failed submission can be shown again. */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && k !== "_csrf") out[k] = v;
  return out;
}

/** A conform field name ('contacts[0].name') as the forms key their errors ('contacts.0.name'; '' is '_form'). */
export const errorKeyOf = (name: string) => name.replace(/\[(\d+)\]/g, ".$1") || "_form";

/**
 * Parses a form with its zod schema — the same schema the browser checks it with (conform,
 * docs/decisions/166): a submitted form through @conform-to/zod/v4 (no coercion: every value stays
 * the string that was typed), an object the form was turned into (e.g. contact rows) directly. The
 * first message per field, keyed by its path.
 */
export function parseForm<S extends $ZodType>(schema: S, form: FormData | Record<string, unknown>): FormResult<output<S>> {
  if (form instanceof FormData) {
    const values = formValues(form);
    const submission = parseWithZod(form, { schema, disableAutoCoercion: true });
    if (submission.status === "success") return { ok: true, data: submission.value as output<S> };
    const errors: FieldErrors = {};
    for (const [name, messages] of Object.entries(submission.error ?? {})) if (messages?.length) errors[errorKeyOf(name)] ??= messages[0];
    return { ok: false, errors, values };
  }
  const values = form as Record<string, string>;
  const result = safeParse(schema, values);
  if (result.success) return { ok: true, data: result.data as output<S> };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[issue.path.join(".") || "_form"] ??= issue.message;
  return { ok: false, errors, values };
}
