// Forms checked as you type (issue 14 point 7, docs/decisions/166): conform's useForm with the form's
// zod schema — the one the server parses the same form with (app/domain/forms.ts). A field is checked
// when it loses focus and again as it is corrected; a save with errors does not leave the page. The
// server's messages (a form posted without JavaScript, or refused by the server) are conform's last
// result, so one set of messages shows either way; buttons that are not a save (add a contact, look
// up an activity, refresh the cantons) are not held back by the checks.
import { useMemo } from "react";
import { parse } from "@conform-to/dom";
import { useForm } from "@conform-to/react";
import type { $ZodType } from "zod/v4/core";
import { submissionOf, type CheckOptions } from "./form-checks-core.ts";

/** A form's error key ('contacts.0.name', '_form') as its field's name ('contacts[0].name', ''). */
const defaultName = (key: string) => (key === "_form" ? "" : key.replace(/\.(\d+)(?=\.|$)/g, "[$1]"));

export interface FieldChecksOptions extends CheckOptions {
  /** The server's errors of the form as shown (key → message). */
  serverErrors?: Record<string, string> | null;
  /** The field name of a server error key, when the form names its fields otherwise. */
  keyToName?: (key: string) => string;
  /** The submit buttons' intents that save (checked before they leave); default: no intent or "save". */
  saveIntents?: readonly string[];
}

export function useFieldChecks(schema: $ZodType | null, opts: FieldChecksOptions = {}) {
  const toName = opts.keyToName ?? defaultName;
  const saves = opts.saveIntents ?? ["save"];
  const serverErrors = opts.serverErrors ?? null;
  const lastResult = useMemo(() => {
    const entries = Object.entries(serverErrors ?? {}).filter(([, message]) => !!message);
    if (!entries.length) return null;
    const names = entries.map(([key]) => toName(key));
    return {
      status: "error" as const,
      error: Object.fromEntries(entries.map(([, message], i) => [names[i], [message]])),
      state: { validated: Object.fromEntries(names.map((n) => [n, true])) },
    };
    // The errors' identity is what changes between answers.
  }, [serverErrors]); // toName: a fixed mapping of each form

  const [form] = useForm<Record<string, unknown>>({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData, submitter }) {
      const intent = submitter?.name === "intent" ? submitter.value : "";
      if (!schema || (intent && !saves.includes(intent))) return parse(formData, { resolve: () => ({ value: {} }) });
      return submissionOf(schema, formData, opts);
    },
  });
  const all = form.allErrors;
  const error = (key: string): string | undefined => all[toName(key)]?.[0];
  return {
    /** Spread on the form: its id, conform's submit handler, the browser's own checks off. */
    formProps: { id: form.id, onSubmit: form.onSubmit, noValidate: true },
    /** The message of a field (by the form's error key), from the checks or the server. */
    error,
    /** Whether any field has a message now (the form's summary alert). */
    hasErrors: Object.values(all).some((m) => m?.length),
    /** The same as a record keyed like the server's errors (errors.amount, errors["contacts.0.name"]). */
    errors: new Proxy({} as Record<string, string | undefined>, { get: (_, key) => (typeof key === "string" ? error(key) : undefined) }),
  };
}
