// The API through the web: the root middleware lets /api/v1 through without cookie session or
// CSRF (and never takes a cookie there), API tokens are never a browser's session and a browser
// sign-in does not close them; the API configuration screen (credentials stored hashed, a generated
// password shown once, tokens revoked, webhooks registered, deliveries resent), admins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { companies, companyUsers, jobs, sessions, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, createUser, signedIn } from "../setup/app.ts";
import { apiCompany, apiRequest, tokenFor } from "../fixtures/api.ts";
import * as v1 from "../../app/routes/api/v1.ts";
import * as configApi from "../../app/routes/config/config-api.tsx";
import * as companyForm from "../../app/routes/companies/company-form.tsx";
import { verifyPassword } from "../../app/server/password.server.ts";
import { createSession, lookupSession } from "../../app/server/session.server.ts";
import { sha256Hex } from "../../app/server/secrets.server.ts";
import { API_MESSAGES } from "../../app/domain/api/schemas.ts";
import { queueWebhookEvent } from "../../app/server/api/webhooks.server.ts";
import { companyFormFields } from "../fixtures/company-form.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});
const db = () => database.db;

async function admin(companyId: number) {
  const user = await createUser(db(), { role: "admin" });
  await db().insert(companyUsers).values({ companyId, userId: user.id });
  return { user, browser: await signedIn(db(), user.id, companyId) };
}

describe("the root middleware and sessions", () => {
  it("a POST to /api/v1 needs no CSRF token and a web session cookie is not a credential there", async () => {
    const a = await apiCompany(db());
    const { browser } = await admin(a.company.id);
    // Signed in to the web, no bearer token: the API says 401 (the cookie is not read).
    const get = await call(browser, v1.loader, { path: "/api/v1/documents", params: { "*": "documents" } });
    expect(get.status).toBe(401);
    // A POST without CSRF token reaches the API (which answers for itself) instead of the CSRF 403.
    const token = await tokenFor(db(), a.username);
    const post = await call(browser, v1.action, {
      path: "/api/v1/auth/revoke",
      params: { "*": "auth/revoke" },
      csrf: false,
      form: {},
      headers: { authorization: `Bearer ${token}` },
    });
    expect(post.status).toBe(204);
  });

  it("an API token is never a browser's session, and a browser sign-in does not close the user's API tokens", async () => {
    const a = await apiCompany(db());
    const user = await createUser(db(), { password: "secreto123" });
    await db().insert(companyUsers).values({ companyId: a.company.id, userId: user.id });
    const token = await tokenFor(db(), user.email, "secreto123");
    expect((await lookupSession(db(), sha256Hex(token), new Date())).state).toBe("none");
    await createSession(db(), user.id, a.company.id, { ip: "127.0.0.1", userAgent: "test", now: new Date() });
    expect((await apiRequest(db(), "GET", "/documents", { token })).status).toBe(200);
    const [row] = await db().select().from(sessions).where(eq(sessions.id, sha256Hex(token)));
    expect(row.closedAt).toBeNull();
  });
});

describe("/config-api/:company_id", () => {
  it("admins only; another company's screen is 404", async () => {
    const a = await apiCompany(db());
    const staff = await createUser(db());
    await db().insert(companyUsers).values({ companyId: a.company.id, userId: staff.id });
    const b = await signedIn(db(), staff.id, a.company.id);
    await expect(call(b, configApi.loader, { path: `/config-api/${a.company.id}`, params: { company_id: String(a.company.id) } })).resolves.toMatchObject({ status: 403 });
    const other = await apiCompany(db());
    const { browser } = await admin(a.company.id);
    const foreign = await call(browser, configApi.loader, { path: `/config-api/${other.company.id}`, params: { company_id: String(other.company.id) } });
    expect(foreign.status).toBe(404);
  });

  it("sets the API user and password (hashed; the old password's tokens end), generates one shown once, refuses a taken username", async () => {
    const a = await apiCompany(db());
    const { browser } = await admin(a.company.id);
    const here = `/config-api/${a.company.id}`;
    const params = { company_id: String(a.company.id) };
    const oldToken = await tokenFor(db(), a.username);
    const page = await call(browser, configApi.loader, { path: here, params });
    expect(page.data.credentials).toMatchObject({ username_api: a.username, hasPassword: true });
    expect(page.data.sessions.map((s: { label: string }) => s.label)).toEqual(["Usuario API"]);

    const short = await call(browser, configApi.action, { path: here, params, form: { intent: "credentials", username_api: "caja-central", password_api: "123" } });
    expect(short.status).toBe(400);
    expect(short.data.errors.password_api).toBe("La contraseña API debe tener entre 6 y 30 caracteres");

    const saved = await call(browser, configApi.action, { path: here, params, form: { intent: "credentials", username_api: "caja-central", password_api: "nueva-clave-1", modo_consecutive_api: "on" } });
    expect(saved.status).toBe(302);
    const [c] = await db().select().from(companies).where(eq(companies.id, a.company.id));
    expect(c.usernameApi).toBe("caja-central");
    expect(c.modoConsecutiveApi).toBe(true);
    expect(c.passwordApiHash).not.toContain("nueva-clave-1");
    expect(await verifyPassword("nueva-clave-1", c.passwordApiHash!)).toBe(true);
    expect((await apiRequest(db(), "GET", "/documents", { token: oldToken })).status).toBe(401);
    expect((await apiRequest(db(), "POST", "/auth/token", { body: { username: "caja-central", password: "nueva-clave-1" } })).status).toBe(200);

    const generated = await call(browser, configApi.action, { path: here, params, form: { intent: "generate", username_api: "caja-central" } });
    expect(generated.status).toBe(200);
    const secret = generated.data.secret.value as string;
    expect(secret.length).toBeGreaterThanOrEqual(20);
    expect((await apiRequest(db(), "POST", "/auth/token", { body: { username: "caja-central", password: secret } })).status).toBe(200);
    expect((await apiRequest(db(), "POST", "/auth/token", { body: { username: "caja-central", password: "nueva-clave-1" } })).status).toBe(401);
    // Shown once: the page never has it.
    expect(JSON.stringify((await call(browser, configApi.loader, { path: here, params })).data)).not.toContain(secret);

    const b = await apiCompany(db());
    const taken = await call(browser, configApi.action, { path: here, params, form: { intent: "credentials", username_api: b.username.toUpperCase() } });
    expect(taken.status).toBe(400);
    expect(taken.data.errors.username_api).toBe("Ya existe una compañia registrada con este usuario API");
  });

  it("a new API password saved in the company form also ends the tokens of the old one (a stolen refresh token stops working)", async () => {
    const a = await apiCompany(db());
    const { browser } = await admin(a.company.id);
    const old = await apiRequest(db(), "POST", "/auth/token", { body: { username: a.username, password: a.password } });
    const pair = (await old.json()) as { access_token: string; refresh_token: string };
    const form = companyFormFields({ name: a.company.name, identification: a.company.identification, economic_activity_code: "", economic_activity_name: "", permission: "5", username_api: a.username });
    const path = `/edit-company/${a.company.id}`;
    const params = { id: String(a.company.id) };
    // Saved without a new password: the tokens stay.
    expect((await call(browser, companyForm.action, { path, params, form })).status).toBe(302);
    expect((await apiRequest(db(), "GET", "/documents", { token: pair.access_token })).status).toBe(200);
    // A new password: the old tokens and refresh token end, the new password signs in.
    expect((await call(browser, companyForm.action, { path, params, form: { ...form, password_api: "otra-clave-9" } })).status).toBe(302);
    expect((await apiRequest(db(), "GET", "/documents", { token: pair.access_token })).status).toBe(401);
    expect((await apiRequest(db(), "POST", "/auth/refresh", { body: { refresh_token: pair.refresh_token } })).status).toBe(401);
    const [closed] = await db().select().from(sessions).where(eq(sessions.id, sha256Hex(pair.access_token)));
    expect(closed.closedReason).toBe("api-password");
    expect((await apiRequest(db(), "POST", "/auth/token", { body: { username: a.username, password: "otra-clave-9" } })).status).toBe(200);
  });

  it("lists and revokes tokens; registers a webhook (key shown once), lists deliveries and resends one; another company's ids are 404", async () => {
    const a = await apiCompany(db());
    const { browser } = await admin(a.company.id);
    const here = `/config-api/${a.company.id}`;
    const params = { company_id: String(a.company.id) };
    const token = await tokenFor(db(), a.username);
    const page = await call(browser, configApi.loader, { path: here, params });
    const sessionId = page.data.sessions[0].id as string;
    const revoked = await call(browser, configApi.action, { path: here, params, form: { intent: `revoke:${sessionId}` } });
    expect(revoked.status).toBe(302);
    expect((await apiRequest(db(), "GET", "/documents", { token })).status).toBe(401);

    const bad = await call(browser, configApi.action, { path: here, params, form: { intent: "webhook", url: "no es una url" } });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.url).toBe(API_MESSAGES.webhookUrl);
    const hook = await call(browser, configApi.action, { path: here, params, form: { intent: "webhook", url: "https://erp.example.com/colibri", description: "ERP", events: "document.accepted" } });
    expect(hook.status).toBe(200);
    expect(hook.data.secret.value).toMatch(/^whsec_/);
    const [endpoint] = await db().select().from(webhookEndpoints).where(and(eq(webhookEndpoints.companyId, a.company.id), isNull(webhookEndpoints.deletedAt)));
    expect(endpoint.secretEnc).not.toContain(hook.data.secret.value);
    expect(endpoint.events).toEqual(["document.accepted"]);

    await queueWebhookEvent(db(), { companyId: a.company.id, type: "document.accepted", data: {} }, new Date());
    const listed = await call(browser, configApi.loader, { path: here, params });
    expect(listed.data.webhooks.map((w: { url: string }) => w.url)).toEqual(["https://erp.example.com/colibri"]);
    const delivery = listed.data.deliveries[0];
    expect(delivery).toMatchObject({ status: "pendiente", attempts: 0, url: "https://erp.example.com/colibri" });
    // A given-up delivery is resent from the screen.
    await db().update(webhookDeliveries).set({ status: "fallido", attempts: 30 }).where(eq(webhookDeliveries.id, delivery.id));
    await db().delete(jobs).where(eq(jobs.uniqueKey, `webhook:${delivery.id}`));
    const resent = await call(browser, configApi.action, { path: here, params, form: { intent: `resend:${delivery.id}` } });
    expect(resent.status).toBe(302);
    const [again] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    expect(again.status).toBe("pendiente");
    expect(await db().select().from(jobs).where(and(eq(jobs.uniqueKey, `webhook:${delivery.id}`), eq(jobs.status, "pending")))).toHaveLength(1);

    const other = await apiCompany(db());
    const { browser: otherAdmin } = await admin(other.company.id);
    const otherHere = `/config-api/${other.company.id}`;
    const otherParams = { company_id: String(other.company.id) };
    await expect(call(otherAdmin, configApi.action, { path: otherHere, params: otherParams, form: { intent: `resend:${delivery.id}` } })).resolves.toMatchObject({ status: 404 });
    await expect(call(otherAdmin, configApi.action, { path: otherHere, params: otherParams, form: { intent: `delete-webhook:${endpoint.id}` } })).resolves.toMatchObject({ status: 404 });

    const deleted = await call(browser, configApi.action, { path: here, params, form: { intent: `delete-webhook:${endpoint.id}` } });
    expect(deleted.status).toBe(302);
    expect((await call(browser, configApi.loader, { path: here, params })).data.webhooks).toEqual([]);
  });
});
