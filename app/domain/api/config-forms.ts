// The forms of the API configuration screen (/config-api/:company_id): the company's API user and
// password (the company form's rules and messages), the integrator's consecutive mode, and a webhook.
import { z } from "zod";
import { API_CREDENTIAL_MESSAGES, apiPasswordLengthOk } from "../company-texts.ts";

const text = (v: unknown) => (typeof v === "string" ? v : "");

export const apiCredentialsSchema = z.object({
  username_api: z.preprocess(text, z.string().trim().min(1, API_CREDENTIAL_MESSAGES.usernameRequired).max(100, "Máximo 100 caracteres")),
  password_api: z.preprocess(
    text,
    z
      .string()
      .refine((v) => v === "" || apiPasswordLengthOk(v), API_CREDENTIAL_MESSAGES.passwordLength)
      .transform((v) => v || null),
  ),
  modo_consecutive_api: z.preprocess((v) => v === "on" || v === "1" || v === "true", z.boolean()),
});

export { WEBHOOK_EVENT_LABELS } from "./webhook-events.ts";

export const webhookFormSchema = z.object({
  url: z.preprocess(text, z.string().trim().min(1, "La URL es obligatoria").max(500, "Máximo 500 caracteres")),
  description: z.preprocess(text, z.string().trim().max(200, "Máximo 200 caracteres")),
});
