// The API configuration screen (/config-api/:company_id, admins): the company's API user, password
// and consecutive mode, the open API tokens ('Revocar'), the webhooks and their delivery log
// ('Reenviar'). Posts of the screen: one intent each.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { companies } from "../../../db/schema/index.ts";
import { apiCredentialsSchema, webhookFormSchema } from "../../domain/api/config-forms.ts";
import { WEBHOOK_EVENTS } from "../../domain/api/schemas.ts";
import { parseForm } from "../../domain/forms.ts";
import { ApiError } from "./http.server.ts";
import { API_CONFIG_MESSAGES, apiSessionsOf, generatedApiPassword, revokeApiSessionOf, setApiCredentials } from "./tokens.server.ts";
import { createWebhook, deleteWebhook, deliveriesOf, resendDelivery, WEBHOOK_MESSAGES, webhooksOf, type WebhookEventType } from "./webhooks.server.ts";

export async function apiConfigState(db: Db, companyId: number, now: Date) {
  const [c] = await db.select({ usernameApi: companies.usernameApi, hasPassword: companies.passwordApiHash, modo: companies.modoConsecutiveApi, permission: companies.permission }).from(companies).where(eq(companies.id, companyId));
  const [sessions, webhooks, deliveries] = await Promise.all([apiSessionsOf(db, companyId, now), webhooksOf(db, companyId), deliveriesOf(db, companyId, { limit: 50 })]);
  return {
    plan5: c?.permission === 5,
    credentials: { username_api: c?.usernameApi ?? "", hasPassword: !!c?.hasPassword, modo_consecutive_api: !!c?.modo },
    sessions: sessions.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), expiresAt: s.expiresAt.toISOString() })),
    webhooks,
    deliveries,
  };
}

export type ApiConfigOutcome =
  | { kind: "redirect"; message: string }
  | { kind: "shown"; status: number; section: "credentials" | "webhook"; errors: Record<string, string>; values: Record<string, string>; secret?: { label: string; value: string }; message?: string };

/** One post of the screen. */
export async function handleApiConfig(db: Db, companyId: number, form: FormData, now: Date): Promise<ApiConfigOutcome> {
  const intent = String(form.get("intent") ?? "");
  if (intent === "credentials" || intent === "generate") {
    const parsed = parseForm(apiCredentialsSchema, form);
    const values = { username_api: String(form.get("username_api") ?? ""), modo_consecutive_api: form.get("modo_consecutive_api") ? "on" : "" };
    if (!parsed.ok) return { kind: "shown", status: 400, section: "credentials", errors: parsed.errors, values };
    const password = intent === "generate" ? generatedApiPassword() : parsed.data.password_api;
    const saved = await setApiCredentials(db, companyId, { username: parsed.data.username_api, password }, now);
    if (!saved.ok) return { kind: "shown", status: 400, section: "credentials", errors: { username_api: saved.message }, values };
    await db.update(companies).set({ modoConsecutiveApi: parsed.data.modo_consecutive_api }).where(eq(companies.id, companyId));
    if (intent === "generate") return { kind: "shown", status: 200, section: "credentials", errors: {}, values, secret: { label: "Contraseña API", value: password! }, message: API_CONFIG_MESSAGES.generated };
    return { kind: "redirect", message: API_CONFIG_MESSAGES.saved };
  }
  if (intent.startsWith("revoke:")) {
    if (!(await revokeApiSessionOf(db, companyId, intent.slice("revoke:".length), now))) throw new ApiError(404, "no-encontrado", "No encontrado");
    return { kind: "redirect", message: API_CONFIG_MESSAGES.revoked };
  }
  if (intent === "webhook") {
    const parsed = parseForm(webhookFormSchema, form);
    const events = form.getAll("events").map(String).filter((e): e is WebhookEventType => (WEBHOOK_EVENTS as readonly string[]).includes(e));
    const values = { url: String(form.get("url") ?? ""), description: String(form.get("description") ?? "") };
    if (!parsed.ok) return { kind: "shown", status: 400, section: "webhook", errors: parsed.errors, values };
    try {
      const created = await createWebhook(db, companyId, { url: parsed.data.url, description: parsed.data.description, events }, now);
      return { kind: "shown", status: 200, section: "webhook", errors: {}, values: {}, secret: { label: `Clave de firma de ${created.url}`, value: created.secret! }, message: WEBHOOK_MESSAGES.created };
    } catch (error) {
      if (error instanceof ApiError && error.errors?.length) return { kind: "shown", status: 400, section: "webhook", errors: { url: error.errors[0].detail }, values };
      throw error;
    }
  }
  const id = /^(delete-webhook|resend):(\d{1,12})$/.exec(intent);
  if (id) {
    const ok = id[1] === "resend" ? await resendDelivery(db, companyId, Number(id[2]), now) : await deleteWebhook(db, companyId, Number(id[2]), now);
    if (!ok) throw new ApiError(404, "no-encontrado", "No encontrado");
    return { kind: "redirect", message: id[1] === "resend" ? WEBHOOK_MESSAGES.resent : WEBHOOK_MESSAGES.deleted };
  }
  throw new ApiError(400, "validacion", "Acción desconocida");
}
