import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordResetTokens, sessions } from "../../db/schema/index.ts";
import * as login from "../../app/routes/auth/login.tsx";
import * as logout from "../../app/routes/auth/logout.tsx";
import * as dashboard from "../../app/routes/dashboard/dashboard.tsx";
import * as reset from "../../app/routes/auth/password-reset.tsx";
import { LOGIN_FAILED, requestPasswordReset, resetMailsSettled, resetPassword, signIn } from "../../app/server/auth.server.ts";
import { CSRF_MESSAGE } from "../../app/server/csrf.server.ts";
import { REPLACED_MESSAGE } from "../../app/server/session.server.ts";
import { LIMITS } from "../../app/server/throttle.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import { anonymous, call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

function toastsOf(b: Browser) {
  const flash = b.cookies.get("colibri_flash");
  return flash ? readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? [] : [];
}

describe("sign-in", () => {
  it("signs in with the right password and lands on the dashboard with the active company", async () => {
    const user = await createUser(database.db);
    const company = await createCompany(database.db, { userIds: [user.id], name: "Ferretería El Clavo" });
    const b = anonymous();
    const res = await call(b, login.action, { path: "/login", form: { email: user.email.toUpperCase(), password: user.password } });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/dashboard");
    expect(b.cookies.has("colibri_session")).toBe(true);
    expect(toastsOf(b)).toEqual([{ type: "success", text: `La compañia ${company.name} esta activa` }]);
    const page = await call(b, dashboard.loader, { path: "/dashboard" });
    expect(page.status).toBe(200);
    expect(page.data.figures.invoices).toBe("0.00");
  });

  it("refuses a wrong password with the message and keeps the e-mail typed", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const res = await call(anonymous(), login.action, { path: "/login", form: { email: user.email, password: "incorrecta" } });
    expect(res.status).toBe(401);
    expect(res.data.message).toBe(LOGIN_FAILED);
    expect(res.data.values.email).toBe(user.email);
  });

  it("validates the form with the spec's rules", async () => {
    const res = await call(anonymous(), login.action, { path: "/login", form: { email: "a@b", password: "123" } });
    expect(res.status).toBe(400);
    expect(res.data.errors.email).toBeTruthy();
    expect(res.data.errors.password).toBe("La contraseña debe tener entre 6 y 30 caracteres");
    const long = await call(anonymous(), login.action, { path: "/login", form: { email: "x@ejemplo.cr", password: "a".repeat(31) } });
    expect(long.data.errors.password).toBe("La contraseña debe tener entre 6 y 30 caracteres");
  });

  it("rejects a form without the CSRF token", async () => {
    const res = await call(anonymous(), login.action, { path: "/login", form: { email: "x@ejemplo.cr", password: "secreto123" }, csrf: false });
    expect(res.status).toBe(403);
    expect(res.data).toBe(CSRF_MESSAGE);
  });

  it("rejects a form posted from another origin", async () => {
    const res = await call(anonymous(), login.action, { path: "/login", form: { email: "x@ejemplo.cr", password: "secreto123" }, headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
  });

  it("makes an account wait after repeated failures, even with the right password (tests/integration/auth-throttle.test.ts)", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const now = new Date();
    for (let i = 0; i < LIMITS.account.free; i++) {
      const r = await signIn(database.db, { email: user.email, password: "mala-clave", ip: `10.0.0.${i}`, userAgent: null, now });
      expect(r.ok).toBe(false);
    }
    const blocked = await signIn(database.db, { email: user.email, password: user.password, ip: "10.0.1.1", userAgent: null, now });
    expect(blocked).toMatchObject({ ok: false, message: expect.stringContaining("Demasiados intentos fallidos") });
    const later = await signIn(database.db, { email: user.email, password: user.password, ip: "10.0.1.1", userAgent: null, now: new Date(now.getTime() + LIMITS.account.baseSeconds * 1000) });
    expect(later.ok).toBe(true);
  });

  it("sends a signed-in user who opens /login to the dashboard", async () => {
    const user = await createUser(database.db);
    const company = await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, company.id);
    const res = await call(b, () => null, { path: "/login" });
    expect(res.location).toBe("/dashboard");
    const pw = await call(b, () => null, { path: "/password/email" });
    expect(pw.location).toBe("/dashboard");
  });
});

describe("sessions", () => {
  it("a newer sign-in closes the older session, which lands on /login with the message", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const first = anonymous();
    await call(first, login.action, { path: "/login", form: { email: user.email, password: user.password } });
    const second = anonymous();
    await call(second, login.action, { path: "/login", form: { email: user.email, password: user.password } });
    const old = await call(first, dashboard.loader, { path: "/dashboard" });
    expect(old.status).toBe(302);
    expect(old.location).toBe("/login");
    expect(first.cookies.has("colibri_session")).toBe(false);
    expect(toastsOf(first)).toEqual([{ type: "warning", text: REPLACED_MESSAGE }]);
    const fresh = await call(second, dashboard.loader, { path: "/dashboard" });
    expect(fresh.status).toBe(200);
  });

  it("an expired session goes to /login", async () => {
    const user = await createUser(database.db);
    const company = await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, company.id);
    await database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const res = await call(b, dashboard.loader, { path: "/dashboard" });
    expect(res.location).toBe("/login");
  });

  it("logout closes the session", async () => {
    const user = await createUser(database.db);
    const company = await createCompany(database.db, { userIds: [user.id] });
    const b = await signedIn(database.db, user.id, company.id);
    const out = await call(b, logout.action, { path: "/logout", form: {} });
    expect(out.location).toBe("/login");
    const again = await call(b, dashboard.loader, { path: "/dashboard" });
    expect(again.location).toBe("/login");
  });

  it("no session: protected routes go to /login, public ones are served", async () => {
    const res = await call(anonymous(), dashboard.loader, { path: "/dashboard" });
    expect(res.location).toBe("/login");
    const pub = await call(anonymous(), () => ({ ok: true }), { path: "/password/email" });
    expect(pub.status).toBe(200);
  });
});

describe("password reset", () => {
  it("stores only the hash of an expiring token; a wrong token changes nothing", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const now = new Date();
    expect(await requestPasswordReset(database.db, { email: user.email, ip: "10.9.9.9", now })).toEqual({ ok: true });
    await resetMailsSettled();
    const [row] = await database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(row.expiresAt.getTime()).toBeGreaterThan(now.getTime());
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    // A wrong token fails and changes nothing.
    const wrong = await call(anonymous(), reset.action, { path: "/password/reset/nope", params: { token: "nope" }, form: { email: user.email, password: "nueva-clave", password_confirmation: "nueva-clave" } });
    expect(wrong.status).toBe(400);
    expect(wrong.data.message).toBe("No se logro cambiar tu contraseña.");
  });

  it("resetPassword accepts the token once and for the right e-mail only", async () => {
    const user = await createUser(database.db);
    await createCompany(database.db, { userIds: [user.id] });
    const { randomToken, sha256Hex } = await import("../../app/server/secrets.server.ts");
    const token = randomToken();
    const now = new Date();
    await database.db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + 60_000) });
    expect(await resetPassword(database.db, { token, email: "otro@example.cr", password: "nueva-clave", ip: "10.9.9.9", now })).toEqual({ ok: false });
    const b = anonymous();
    const ok = await call(b, reset.action, { path: `/password/reset/${token}`, params: { token }, form: { email: user.email, password: "nueva-clave", password_confirmation: "nueva-clave" } });
    expect(ok.location).toBe("/login");
    expect(toastsOf(b)[0].text).toBe("Tu contraseña se cambio correctamente, ya puedes iniciar sesion con tu correo y nueva clave.");
    expect(await resetPassword(database.db, { token, email: user.email, password: "otra-clave", ip: "10.9.9.9", now })).toEqual({ ok: false });
    expect((await signIn(database.db, { email: user.email, password: "nueva-clave", ip: "1.1.1.1", userAgent: null, now })).ok).toBe(true);
    const expiredToken = randomToken();
    await database.db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256Hex(expiredToken), expiresAt: new Date(now.getTime() - 1) });
    expect(await resetPassword(database.db, { token: expiredToken, email: user.email, password: "otra-clave", ip: "10.9.9.9", now })).toEqual({ ok: false });
  });

  it("the confirmation must match", async () => {
    const res = await call(anonymous(), reset.action, { path: "/password/reset/x", params: { token: "x" }, form: { email: "a@ejemplo.cr", password: "secreto1", password_confirmation: "secreto2" } });
    expect(res.data.errors.password_confirmation).toBe("La confirmación no coincide con la contraseña");
  });
});
