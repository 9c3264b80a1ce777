// Forms checked as you type (issue 14 point 7, docs/decisions/166 and 155): conform with the form's
// zod schema — the one the server parses the same form with (app/domain/forms.ts). A field is checked
// when it loses focus and again as it is corrected; a save with errors does not leave the page. The
// server's messages (a form posted without JavaScript, or refused by the server) are conform's last
// result, so one set of messages shows either way; buttons that are not a save (add a contact, look
// up an activity, refresh the cantons) are not held back by the checks.
//
// The checks themselves (conform, zod and the forms' schemas: about 35 kB gzip) are not part of the
// page's first load: they are a script of their own (app/enhance/field-checks.ts) added to the page
// when the form is first focused. A field left before it arrives is checked as soon as it does, and a
// button pressed before it arrives waits for it (or, if it cannot be loaded, goes to the server,
// which checks the same way).
import { useEffect, useId, useRef, useState } from "react";
import fieldChecksScript from "../enhance/field-checks.ts?worker&url";
import type { CheckedForms, FieldChecksScript } from "../enhance/field-checks.ts";
import { FIELD_CHECKS_GLOBAL, type CheckOptions } from "./form-checks-core.ts";
import type { FieldErrors, RunningChecks } from "./form-checks-run.ts";

/** A form's error key ('contacts.0.name', '_form') as its field's name ('contacts[0].name', ''). */
const defaultName = (key: string) => (key === "_form" ? "" : key.replace(/\.(\d+)(?=\.|$)/g, "[$1]"));

let script: Promise<FieldChecksScript> | null = null;

/** The field-checks script, added to the page once (a failed load is tried again next time). */
export function loadFieldChecks(): Promise<FieldChecksScript> {
  const loaded = () => (window as unknown as Record<string, FieldChecksScript | undefined>)[FIELD_CHECKS_GLOBAL];
  return (script ??= new Promise<FieldChecksScript>((resolve, reject) => {
    const element = document.createElement("script");
    element.src = fieldChecksScript;
    element.onload = () => {
      const api = loaded();
      if (api) resolve(api);
      else reject(new Error("field checks did not start"));
    };
    element.onerror = () => {
      element.remove();
      reject(new Error("field checks not loaded"));
    };
    document.head.append(element);
  }).catch((error: unknown) => {
    script = null;
    throw error;
  }));
}

export interface FieldChecksOptions extends CheckOptions {
  /** The server's errors of the form as shown (key → message). */
  serverErrors?: Record<string, string> | null;
  /** The field name of a server error key, when the form names its fields otherwise. */
  keyToName?: (key: string) => string;
  /** The submit buttons' intents that save (checked before they leave); default: no intent or "save". */
  saveIntents?: readonly string[];
}

/**
 * The checks of one form: `form` names its schema in the field-checks script and `args` are what
 * that schema is built from (the same call the form's action makes on the server).
 */
export function useFieldChecks<F extends keyof CheckedForms>(form: F, args: Parameters<CheckedForms[F]>[0], opts: FieldChecksOptions = {}) {
  const formId = useId();
  const toName = opts.keyToName ?? defaultName;
  const serverErrors = opts.serverErrors ?? null;
  // The checks' messages (by field name) once they run, with the server answer they started from.
  const [checked, setChecked] = useState<{ from: typeof serverErrors; errors: FieldErrors } | null>(null);
  const latest = useRef({ args, opts, serverErrors });
  latest.current = { args, opts, serverErrors };
  const running = useRef<RunningChecks | null>(null);
  const starting = useRef<Promise<unknown> | null>(null);
  const failed = useRef(false);
  /** Fields left (or corrected after a message) before the checks arrived. */
  const waiting = useRef(new Set<string>());

  const start = () =>
    (starting.current ??= loadFieldChecks().then(
      (api) => {
        if (!document.forms.namedItem(formId)) return void (failed.current = true); // the form left the page meanwhile
        const { args: a, opts: o, serverErrors: from } = latest.current;
        const checks = api.startChecks({
          formId,
          schema: (api.schemas[form] as (args: unknown) => ReturnType<CheckedForms[F]>)(a),
          serverErrors: from,
          toName,
          saves: o.saveIntents ?? ["save"],
          prepare: o.prepare,
          nameOf: o.nameOf,
          onChange: (errors) => setChecked({ from: latest.current.serverErrors, errors }),
        });
        running.current = checks;
        for (const name of waiting.current) checks.validate(name);
      },
      () => {
        failed.current = true; // the server checks every save the same way
        starting.current = null;
      },
    ));

  useEffect(() => () => running.current?.stop(), []);
  useEffect(() => running.current?.update(serverErrors), [serverErrors]);

  const own = checked?.from === serverErrors ? checked.errors : null;
  const error = (key: string): string | undefined => (own ? own[toName(key)]?.[0] : serverErrors?.[key]) || undefined;
  /** A field left, or typed in after a message, before the checks arrived: checked when they do. */
  const note = (target: EventTarget, typed: boolean) => {
    const name = (target as HTMLInputElement).name;
    if (!running.current && typeof name === "string" && name && (!typed || Object.keys(serverErrors ?? {}).some((k) => toName(k) === name))) waiting.current.add(name);
  };
  return {
    /** Spread on the form: its id, the checks' handlers, the browser's own checks off. */
    formProps: {
      id: formId,
      noValidate: true,
      onFocus: () => void start(),
      onBlur: (e: React.FocusEvent<HTMLFormElement>) => note(e.target, false),
      onInput: (e: React.FormEvent<HTMLFormElement>) => note(e.target, true),
      onSubmit: (e: React.FormEvent<HTMLFormElement>) => {
        const event = e.nativeEvent as SubmitEvent;
        if (running.current) {
          if (!running.current.submit(event)) e.preventDefault();
        } else if (!failed.current) {
          // Pressed before the checks arrived: sent again once they have (they let other buttons through).
          e.preventDefault();
          const element = e.currentTarget;
          const submitter = event.submitter;
          void start().then(() => element.isConnected && element.requestSubmit(submitter?.isConnected ? submitter : undefined));
        }
      },
    },
    /** The message of a field (by the form's error key), from the checks or the server. */
    error,
    /** Whether any field has a message now (the form's summary alert). */
    hasErrors: Object.values(own ?? serverErrors ?? {}).some((m) => m?.length),
    /** The same as a record keyed like the server's errors (errors.amount, errors["contacts.0.name"]). */
    errors: new Proxy({} as Record<string, string | undefined>, { get: (_, key) => (typeof key === "string" ? error(key) : undefined) }),
  };
}
