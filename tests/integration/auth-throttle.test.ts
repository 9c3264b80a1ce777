// Sign-in and password-reset throttling (issue 10 point 7, docs/decisions/122-sign-in-throttling.md):
// each attempt is claimed atomically before the password is checked, so a burst of concurrent wrong
// passwords gets no more guesses than allowed; past the free attempts an account waits a growing
// delay (the message says how long) instead of a lockout; a successful reset clears it; the IP limit
// is high and separate, so an office behind one address is not locked out by one person.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "../../db/client.ts";
import { authThrottle, passwordResetTokens } from "../../db/schema/index.ts";
import * as login from "../../app/routes/auth/login.tsx";
import * as passwordEmail from "../../app/routes/auth/password-email.tsx";
import * as passwordReset from "../../app/routes/auth/password-reset.tsx";
import * as passwords from "../../app/server/password.server.ts";
import { LOGIN_FAILED, RESET_FAILED, resetPassword, signIn } from "../../app/server/auth.server.ts";
import { randomToken, sha256Hex } from "../../app/server/secrets.server.ts";
import { LIMITS, accountDelaySeconds, claimAttempt, throttleKeys, waitText } from "../../app/server/throttle.server.ts";
import { anonymous, call, createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
/** Real concurrent connections on PostgreSQL (the embedded database is one connection anyway). */
let wide: Database | undefined;
const burstDb = () => wide?.db ?? database.db;

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.url) wide = await openDatabase({ databaseUrl: database.url, maxConnections: 25 });
});
afterAll(async () => {
  await wide?.close();
  await database?.drop();
});

let seq = 0;
const ip = () => `198.51.100.${++seq}`;
async function account() {
  const user = await createUser(database.db);
  await createCompany(database.db, { userIds: [user.id] });
  return user;
}
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);
const attempt = (email: string, password: string, from: string, now: Date) => signIn(burstDb(), { email, password, ip: from, userAgent: null, now });
/** The refusal's message (null when signed in). */
const messageOf = (r: Awaited<ReturnType<typeof signIn>>) => (r.ok ? null : r.message);

describe("the numbers", () => {
  it("5 free attempts, then 2 s doubling per failure, capped at 15 minutes; the wait said in Spanish", () => {
    expect(LIMITS.account.free).toBe(5);
    expect([1, 4, 5, 6, 7, 8].map((f) => accountDelaySeconds(f))).toEqual([0, 0, 2, 4, 8, 16]);
    expect(accountDelaySeconds(14)).toBe(900);
    expect(accountDelaySeconds(1000)).toBe(900);
    expect(LIMITS.ip.limit).toBeGreaterThanOrEqual(100);
    expect(waitText(1)).toBe("1 segundo");
    expect(waitText(4)).toBe("4 segundos");
    expect(waitText(60)).toBe("1 minuto");
    expect(waitText(61)).toBe("2 minutos");
  });
});

describe("several web processes", () => {
  it("a process whose clock is a little behind is not told to wait where there is no wait", async () => {
    const t = new Date("2026-11-25T15:00:00.100Z");
    const key = throttleKeys.account(`reloj-${++seq}@example.cr`);
    const address = throttleKeys.ip(ip());
    expect(await claimAttempt(database.db, key, LIMITS.account, t)).toEqual({ ok: true });
    expect(await claimAttempt(database.db, address, LIMITS.ip, t)).toEqual({ ok: true });
    const behind = new Date(t.getTime() - 50);
    expect(await claimAttempt(database.db, key, LIMITS.account, behind)).toEqual({ ok: true });
    expect(await claimAttempt(database.db, address, LIMITS.ip, behind)).toEqual({ ok: true });
  });
});

describe("a burst of concurrent wrong passwords", () => {
  it("50 at once get at most the 5 free guesses; the right password is refused while the delay runs, and signs in after it", async () => {
    const user = await account();
    const now = new Date();
    const from = ip();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => attempt(user.email, `mala-clave-${i}`, from, now)));
    const guessed = results.filter((r) => messageOf(r) === LOGIN_FAILED).length;
    const refused = results.filter((r) => !r.ok && messageOf(r) !== LOGIN_FAILED);
    expect(guessed).toBeGreaterThan(0);
    expect(guessed).toBeLessThanOrEqual(LIMITS.account.free);
    expect(guessed + refused.length).toBe(50);
    expect(results.some((r) => r.ok)).toBe(false);
    for (const r of refused) expect(r).toMatchObject({ ok: false, throttled: true, message: expect.stringMatching(/^Demasiados intentos fallidos\. Inténtalo de nuevo en \d+ segundos?\.$/) });

    // The right password while the delay runs: refused, and the message says how long to wait.
    const early = await attempt(user.email, user.password, from, at(now, 1));
    expect(early).toMatchObject({ ok: false, message: "Demasiados intentos fallidos. Inténtalo de nuevo en 1 segundo." });
    // After the delay it signs in (and the counter is cleared: the next mistake is free again).
    const later = await attempt(user.email, user.password, from, at(now, 3));
    expect(later.ok).toBe(true);
    expect(await database.db.select().from(authThrottle).where(eq(authThrottle.key, `email:${user.email.toLowerCase()}`))).toEqual([]);
  });

  it("the delay grows with each further failure (2, 4, 8 s…) instead of a lockout", async () => {
    const user = await account();
    const from = ip();
    let now = new Date();
    for (let i = 0; i < LIMITS.account.free; i++) expect(messageOf(await attempt(user.email, "mala-clave", from, now))).toBe(LOGIN_FAILED);
    for (const wait of [2, 4, 8, 16]) {
      expect(messageOf(await attempt(user.email, user.password, from, at(now, wait - 1)))).toContain(`${waitText(1)}.`);
      now = at(now, wait);
      expect(messageOf(await attempt(user.email, "otra-mala", from, now))).toBe(LOGIN_FAILED);
    }
    // The owner waits 32 s, not 15 minutes.
    expect((await attempt(user.email, user.password, from, at(now, 32))).ok).toBe(true);
  });

  it("a successful password reset clears the account's delay at once", async () => {
    const user = await account();
    const now = new Date();
    await Promise.all(Array.from({ length: 20 }, () => attempt(user.email, "mala-clave", ip(), now)));
    expect((await attempt(user.email, user.password, ip(), at(now, 1))).ok).toBe(false);
    const token = randomToken();
    await database.db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt: at(now, 600) });
    expect(await resetPassword(database.db, { token, email: user.email, password: "nueva-clave-9", ip: ip(), now: at(now, 2) })).toEqual({ ok: true });
    expect((await attempt(user.email, "nueva-clave-9", ip(), at(now, 3))).ok).toBe(true);
  });

  it("the sign-in page shows the wait (status 429) and keeps the e-mail typed", async () => {
    const user = await account();
    const b = anonymous();
    for (let i = 0; i < LIMITS.account.free; i++) await call(b, login.action, { path: "/login", form: { email: user.email, password: "mala-clave" } });
    const res = await call(b, login.action, { path: "/login", form: { email: user.email, password: user.password } });
    expect(res.status).toBe(429);
    expect(res.data.message).toMatch(/^Demasiados intentos fallidos\. Inténtalo de nuevo en \d+ segundos?\.$/);
    expect(res.data.values.email).toBe(user.email);
  });
});

describe("per IP: a separate, high limit", () => {
  it("an office's mistakes (five people, four wrong passwords each) do not lock out a colleague behind the same address", async () => {
    const office = ip();
    const now = new Date();
    for (const person of await Promise.all(Array.from({ length: 5 }, () => account()))) {
      for (let i = 0; i < 4; i++) expect(messageOf(await attempt(person.email, "mala-clave", office, now))).toBe(LOGIN_FAILED);
    }
    const colleague = await account();
    expect((await attempt(colleague.email, colleague.password, office, now)).ok).toBe(true);
  });

  it("one person's 20 failures, waiting out his delays, do not lock out a colleague either", async () => {
    const office = ip();
    const clumsy = await account();
    const colleague = await account();
    let now = new Date();
    for (let i = 0; i < 20; i++) {
      now = at(now, accountDelaySeconds(i) + 1);
      expect(messageOf(await attempt(clumsy.email, "mala-clave", office, now))).toBe(LOGIN_FAILED);
    }
    expect((await attempt(colleague.email, colleague.password, office, now)).ok).toBe(true);
  });

  it("past the IP limit every account is refused from that address (not from another), until the window ends", async () => {
    const sprayer = ip();
    const now = new Date();
    // A few real guesses on other accounts, then the rest of the address's allowance claimed directly
    // (the same statement signIn runs first; a password check each would only make the test slow).
    for (let i = 0; i < 3; i++) expect(messageOf(await attempt(`nadie-${seq}-${i}@example.cr`, "adivina-1", sprayer, now))).toBe(LOGIN_FAILED);
    for (let i = 3; i < LIMITS.ip.limit; i++) expect(await claimAttempt(database.db, throttleKeys.ip(sprayer), LIMITS.ip, now)).toEqual({ ok: true });
    const user = await account();
    const blocked = await attempt(user.email, user.password, sprayer, at(now, 1));
    expect(blocked).toMatchObject({ ok: false, message: expect.stringMatching(/^Demasiados intentos fallidos\. Inténtalo de nuevo en \d+ minutos?\.$/) });
    // Refused by the IP limit, the attempt is no guess on the account: its counter did not move.
    expect(await database.db.select().from(authThrottle).where(eq(authThrottle.key, `email:${user.email.toLowerCase()}`))).toEqual([]);
    expect((await attempt(user.email, user.password, ip(), at(now, 1))).ok).toBe(true);
    expect((await attempt(user.email, user.password, sprayer, at(now, LIMITS.ip.windowMs / 1000 + 1))).ok).toBe(true);
  });
});

describe("password reset requests", () => {
  const ask = (email: string, from: string) => call(anonymous(), passwordEmail.action, { path: "/password/email", form: { email }, headers: { "x-colibri-client-ip": from } });

  it("per target e-mail: a few per hour, then the wait (whatever the address asking, whether or not the account exists)", async () => {
    for (const email of [(await account()).email, `no-existe-${seq}@example.cr`]) {
      for (let i = 0; i < LIMITS.resetEmail.limit; i++) expect((await ask(email, ip())).status).toBe(302);
      const res = await ask(email, ip());
      expect(res.status).toBe(429);
      expect(res.data.message).toMatch(/^Demasiadas solicitudes de recuperación\. Inténtalo de nuevo en \d+ minutos?\.$/);
      expect(res.data.values.email).toBe(email);
    }
  });

  it("per IP: more requests, then the wait", async () => {
    const from = ip();
    for (let i = 0; i < LIMITS.resetIp.limit; i++) expect((await ask(`varios-${seq}-${i}@example.cr`, from)).status).toBe(302);
    const res = await ask(`uno-mas-${seq}@example.cr`, from);
    expect(res.status).toBe(429);
    expect(res.data.message).toMatch(/^Demasiadas solicitudes de recuperación\. Inténtalo de nuevo en \d+ minutos?\.$/);
  });
});

describe("password reset links (/password/reset/:token)", () => {
  const post = (token: string, email: string, from: string, password = "nueva-clave-9") =>
    call(anonymous(), passwordReset.action, { path: `/password/reset/${token}`, params: { token }, form: { email, password, password_confirmation: password }, headers: { "x-colibri-client-ip": from } });
  async function link(userId: number) {
    const token = randomToken();
    await database.db.insert(passwordResetTokens).values({ userId, tokenHash: sha256Hex(token), expiresAt: at(new Date(), 600) });
    return token;
  }

  it("per IP: made-up tokens get the same answer as before up to the sign-in limit, then the wait (429); a real link still works from another address", async () => {
    const user = await account();
    const token = await link(user.id);
    const flooder = ip();
    for (let i = 0; i < LIMITS.ip.limit; i++) {
      const res = await post(randomToken(), user.email, flooder);
      expect([res.status, res.data.message]).toEqual([400, RESET_FAILED]);
    }
    const refused = await post(randomToken(), user.email, flooder);
    expect(refused.status).toBe(429);
    expect(refused.data.message).toMatch(/^Demasiados intentos fallidos\. Inténtalo de nuevo en \d+ minutos?\.$/);
    expect(refused.data.values.email).toBe(user.email);
    // The flooded address is refused even with the real link; the owner, elsewhere, is not.
    expect((await post(token, user.email, flooder)).status).toBe(429);
    const ok = await post(token, user.email, ip());
    expect([ok.status, ok.location]).toEqual([302, "/login"]);
    expect((await attempt(user.email, "nueva-clave-9", ip(), new Date())).ok).toBe(true);
  });

  it("a wrong, used or expired token, or another account's e-mail, is answered without hashing the new password; a real link hashes it once", async () => {
    const user = await account();
    const token = await link(user.id);
    const expired = randomToken();
    await database.db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256Hex(expired), expiresAt: at(new Date(), -1) });
    const hash = vi.spyOn(passwords, "hashPassword");
    try {
      for (const [t, email] of [[randomToken(), user.email], [expired, user.email], [token, "otra-persona@example.cr"]]) {
        const res = await post(t, email, ip());
        expect([res.status, res.data.message]).toEqual([400, RESET_FAILED]);
      }
      expect(hash).not.toHaveBeenCalled();
      expect((await post(token, user.email, ip())).location).toBe("/login");
      expect(hash).toHaveBeenCalledTimes(1);
      // Used now: refused, again without a hash.
      expect((await post(token, user.email, ip())).data.message).toBe(RESET_FAILED);
      expect(hash).toHaveBeenCalledTimes(1);
    } finally {
      hash.mockRestore();
    }
  });
});
