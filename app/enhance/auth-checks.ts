// The sign-in and password pages ship no React (decision 003): this small script is all their
// JavaScript (docs/decisions/166). With conform's form context (@conform-to/dom) and the pages' zod
// schemas (app/domain/auth-schemas.ts, the ones the server parses with), a field is checked when
// it loses focus and again as it is corrected, its message shown under it; the submit button stays
// disabled until the required fields are filled (spec part 1 §2.3 'Entrar'). Without JavaScript the
// server answers the same messages.
import { unstable_createFormContext as createFormContext } from "@conform-to/dom";
import type { $ZodType } from "zod/v4/core";
import { AUTH_REQUIRED_FIELDS, forgotPasswordSchema, loginSchema, resetPasswordSchema, type AuthForm } from "../domain/auth-schemas.ts";
import { submissionOf } from "../components/form-checks-core.ts";

const SCHEMAS: Record<AuthForm, $ZodType> = { login: loginSchema, forgot: forgotPasswordSchema, reset: resetPasswordSchema };

function enhance(form: HTMLFormElement) {
  const kind = form.dataset.checks as AuthForm;
  const schema = SCHEMAS[kind];
  if (!schema || !form.id) return;
  const context = createFormContext({
    formId: form.id,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => submissionOf(schema, formData),
  });
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const required = AUTH_REQUIRED_FIELDS[kind].map((name) => form.elements.namedItem(name) as HTMLInputElement | null);
  const updateButton = () => {
    if (button) button.disabled = required.some((input) => !input || input.value.trim() === "");
  };
  // Each field's message: the server's (already in the page) until conform has checked the field.
  const show = () => {
    const { error, validated } = context.getState();
    for (const input of Array.from(form.elements) as HTMLInputElement[]) {
      if (!input.name || !validated[input.name]) continue;
      const message = error[input.name]?.[0] ?? "";
      const id = `${input.id || input.name}-error`;
      let note = document.getElementById(id);
      if (message && !note) {
        note = document.createElement("p");
        note.id = id;
        note.className = "field-error";
        input.parentElement!.after(note);
      }
      if (note) note.textContent = message;
      if (message) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", id);
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
  };
  context.subscribe(show);
  document.addEventListener("input", (event) => {
    context.onInput(event);
    updateButton();
  });
  document.addEventListener("focusout", context.onBlur);
  form.addEventListener("submit", (event) => {
    const result = context.submit(event);
    const s = result.submission;
    if (s && s.status !== "success" && s.error !== null) event.preventDefault();
  });
  form.noValidate = true;
  updateButton();
}

for (const form of Array.from(document.querySelectorAll<HTMLFormElement>("form[data-checks]"))) enhance(form);
