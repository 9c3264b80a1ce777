// The part of a form's browser checks that arrives when the form is first used (docs/decisions/166,
// 155): conform's form context (@conform-to/dom) run with the form's zod schema — the one the
// server parses the same form with. A field is checked when it loses focus and again as it is
// corrected; a save with errors stays on the page and focuses the first field with a message;
// buttons that do not save pass unchecked. The server's messages are conform's last result, so they
// show until the field is checked again. Part of the field-checks script (app/enhance/field-checks.ts)
// that useFieldChecks (form-checks.tsx) adds to the page, so neither conform nor zod is in what a
// page loads before anyone types.
import { parse, unstable_createFormContext as createFormContext, type SubmissionResult } from "@conform-to/dom";
import type { $ZodType } from "zod/v4/core";
import { submissionOf, type CheckOptions } from "./form-checks-core.ts";

export type FieldErrors = Record<string, string[] | null | undefined>;

export interface StartOptions extends CheckOptions {
  formId: string;
  schema: $ZodType;
  /** The server's errors as the form keys them ('contacts.0.name' → message). */
  serverErrors: Record<string, string> | null;
  /** The field name of an error key. */
  toName: (key: string) => string;
  /** The submit buttons' intents that save (the others are not held back). */
  saves: readonly string[];
  /** Called with every field's messages (by field name) whenever they change. */
  onChange: (errors: FieldErrors) => void;
}

export interface RunningChecks {
  /** Checks a submission; false when it must not leave (the caller prevents it). */
  submit(event: SubmitEvent): boolean;
  /** Checks one field as if it had just been left (a field left before the checks arrived). */
  validate(name: string): void;
  /** New errors from the server. */
  update(serverErrors: Record<string, string> | null): void;
  stop(): void;
}

/** The server's errors as conform's last result: each field marked checked, with its message. */
function resultOf(serverErrors: Record<string, string> | null, toName: (key: string) => string): SubmissionResult<string[]> | null {
  const entries = Object.entries(serverErrors ?? {}).filter(([, message]) => !!message);
  if (!entries.length) return null;
  const names = entries.map(([key]) => toName(key));
  return {
    status: "error",
    error: Object.fromEntries(entries.map(([, message], i) => [names[i], [message]])),
    state: { validated: Object.fromEntries(names.map((n) => [n, true])) },
  };
}

/** The intent of the button that submitted a form (the forms' buttons are named 'intent'). */
const intentOf = (submitter: HTMLElement | null | undefined) => {
  const button = submitter as HTMLButtonElement | null | undefined;
  return button?.name === "intent" ? button.value : "";
};

export function startChecks(o: StartOptions): RunningChecks {
  const context = createFormContext<Record<string, unknown>, string[]>({
    formId: o.formId,
    lastResult: resultOf(o.serverErrors, o.toName),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData, submitter }) {
      const intent = intentOf(submitter);
      if (intent && !o.saves.includes(intent)) return parse(formData, { resolve: () => ({ value: {} }) });
      return submissionOf(o.schema, formData, o);
    },
  });
  const unsubscribe = context.subscribe(() => o.onChange(context.getState().error));
  document.addEventListener("input", context.onInput);
  document.addEventListener("focusout", context.onBlur);
  o.onChange(context.getState().error);
  return {
    submit(event) {
      const s = context.submit(event).submission;
      return !s || s.status === "success" || s.error === null;
    },
    validate(name) {
      context.validate({ name });
    },
    update(serverErrors) {
      const lastResult = resultOf(serverErrors, o.toName);
      if (lastResult) context.onUpdate({ lastResult });
    },
    stop() {
      unsubscribe();
      document.removeEventListener("input", context.onInput);
      document.removeEventListener("focusout", context.onBlur);
    },
  };
}
