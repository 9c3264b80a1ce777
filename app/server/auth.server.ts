// Sign-in, sign-out and password recovery use-cases.
import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { companies, companyUsers, passwordResetTokens, sessions, users } from "../../db/schema/index.ts";
import { env } from "./env.server.ts";
import { sendMail } from "./mail.server.ts";
import { dummyHash, hashPassword, verifyPassword } from "./password.server.ts";
import { randomToken, sha256Hex } from "./secrets.server.ts";
import { createSession } from "./session.server.ts";
import { claimAttempt, clearAttempts, LIMITS, releaseAttempt, throttleKeys, waitText } from "./throttle.server.ts";

export const LOGIN_FAILED = "Correo o contraseña incorrectos.";
export const NO_COMPANY = "Tu usuario no tiene compañías asignadas. Contacta al administrador.";
export const tooManyAttempts = (seconds: number) => `Demasiados intentos fallidos. Inténtalo de nuevo en ${waitText(seconds)}.`;

/** `throttled`: refused before the password was checked (the page answers 429). */
export type SignInResult = { ok: true; cookie: string; companyName: string } | { ok: false; message: string; throttled?: boolean };

/** The company a user works in after signing in: the default if still linked, else the first linked. */
export async function firstCompanyFor(db: Db, userId: number, preferred: number | null) {
  const linked = await db
    .select({ id: companies.id, name: companies.name })
    .from(companyUsers)
    .innerJoin(companies, eq(companies.id, companyUsers.companyId))
    .where(and(eq(companyUsers.userId, userId), isNull(companies.deletedAt)))
    .orderBy(asc(companies.id));
  return linked.find((c) => c.id === preferred) ?? linked[0];
}

/**
 * Signs in. The attempt is claimed on the client address and then on the account before the password
 * is checked (docs/decisions/122-sign-in-throttling.md): a correct password gives both back.
 */
export async function signIn(db: Db, input: { email: string; password: string; ip: string; userAgent: string | null; now: Date }): Promise<SignInResult> {
  const ipKey = throttleKeys.ip(input.ip);
  const accountKey = throttleKeys.account(input.email);
  const byIp = await claimAttempt(db, ipKey, LIMITS.ip, input.now);
  if (!byIp.ok) return { ok: false, message: tooManyAttempts(byIp.waitSeconds), throttled: true };
  const byAccount = await claimAttempt(db, accountKey, LIMITS.account, input.now);
  if (!byAccount.ok) {
    // No password was tried: this attempt does not count against the address.
    await releaseAttempt(db, ipKey, LIMITS.ip);
    return { ok: false, message: tooManyAttempts(byAccount.waitSeconds), throttled: true };
  }

  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, input.email.toLowerCase()), isNull(users.deletedAt)));
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !valid) return { ok: false, message: LOGIN_FAILED };
  await clearAttempts(db, accountKey);
  await releaseAttempt(db, ipKey, LIMITS.ip);
  const company = await firstCompanyFor(db, user.id, user.defaultCompanyId);
  if (!company) return { ok: false, message: NO_COMPANY };
  const { cookie } = await createSession(db, user.id, company.id, input);
  return { ok: true, cookie, companyName: company.name };
}

export const RESET_SENT = "Se ha enviado un link a tu correo desde el cual podras recuperar tu contraseña";
export const RESET_DONE = "Tu contraseña se cambio correctamente, ya puedes iniciar sesion con tu correo y nueva clave.";
export const RESET_FAILED = "No se logro cambiar tu contraseña.";
export const resetTooMany = (seconds: number) => `Demasiadas solicitudes de recuperación. Inténtalo de nuevo en ${waitText(seconds)}.`;

/** Reset e-mails still being prepared or sent (the request does not wait for them). */
const resetMails = new Set<Promise<void>>();

/** Waits until every reset e-mail started so far was sent or failed (tests, shutdown). */
export async function resetMailsSettled(): Promise<void> {
  await Promise.all([...resetMails]);
}

/**
 * A request for a reset link. The answer is the same whether or not the account exists and whether
 * or not the mail can be sent, and it takes the same time: after the throttle (per client address
 * and per target e-mail, docs/decisions/122) the request only starts the work and answers; looking up
 * the account, storing the token and sending happen afterwards.
 */
export async function requestPasswordReset(db: Db, input: { email: string; ip: string; now: Date }): Promise<{ ok: true } | { ok: false; message: string }> {
  const byIp = await claimAttempt(db, throttleKeys.resetIp(input.ip), LIMITS.resetIp, input.now);
  if (!byIp.ok) return { ok: false, message: resetTooMany(byIp.waitSeconds) };
  const byEmail = await claimAttempt(db, throttleKeys.resetEmail(input.email), LIMITS.resetEmail, input.now);
  if (!byEmail.ok) return { ok: false, message: resetTooMany(byEmail.waitSeconds) };
  const work = sendResetLink(db, input.email, input.now).catch((error: unknown) => {
    console.error("[mail] No se pudo enviar el correo de recuperación:", (error as Error).message);
  });
  resetMails.add(work);
  void work.finally(() => resetMails.delete(work));
  return { ok: true };
}

/** Stores a single-use token for the account (if there is one) and e-mails the link. */
async function sendResetLink(db: Db, email: string, now: Date): Promise<void> {
  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)));
  if (!user) return;
  const token = randomToken();
  const minutes = env().resetTokenMinutes;
  await db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + minutes * 60_000), createdAt: now });
  const link = `${env().appUrl}/password/reset/${token}`;
  await sendMail({
    to: user.email,
    subject: "Recupera tu contraseña de Colibrí",
    text: `Hola ${user.name}:\n\nPara elegir una nueva contraseña abre este enlace (vence en ${minutes} minutos y sirve una sola vez):\n\n${link}\n\nSi no lo pediste, ignora este correo.\n`,
    html: `<p>Hola ${escapeHtml(user.name)}:</p><p>Para elegir una nueva contraseña abre este enlace (vence en ${minutes} minutos y sirve una sola vez):</p><p><a href="${link}">${link}</a></p><p>Si no lo pediste, ignora este correo.</p>`,
  });
}

/** `throttled`: refused before the token was looked up (the page answers 429). */
export type ResetResult = { ok: true } | { ok: false; message?: string; throttled?: boolean };

/**
 * Sets a new password with a reset link. The attempt is claimed on the client address first, as a
 * sign-in is (same limit, own key; docs/decisions/122), and the token is looked up (a SHA-256 and an
 * indexed read) before the new password is hashed: a made-up token costs no scrypt. A valid link
 * gives the address's claim back.
 */
export async function resetPassword(db: Db, input: { token: string; email: string; password: string; ip: string; now: Date }): Promise<ResetResult> {
  const ipKey = throttleKeys.resetTokenIp(input.ip);
  const byIp = await claimAttempt(db, ipKey, LIMITS.ip, input.now);
  if (!byIp.ok) return { ok: false, message: tooManyAttempts(byIp.waitSeconds), throttled: true };
  const hash = sha256Hex(input.token);
  const usable = (tx: DbOrTx) =>
    tx
      .select({ id: passwordResetTokens.id, userId: passwordResetTokens.userId, email: users.email })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(and(eq(passwordResetTokens.tokenHash, hash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, input.now)));
  const matches = (row: { email: string } | undefined): row is { id: number; userId: number; email: string } => !!row && row.email.toLowerCase() === input.email.toLowerCase();
  if (!matches((await usable(db))[0])) return { ok: false };
  // Hashed outside the transaction (the embedded database's one connection is not held for it); the
  // token is checked again under its row lock, so a link used meanwhile is refused.
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [row] = await usable(tx).for("update");
    if (!matches(row)) return { ok: false };
    await tx.update(passwordResetTokens).set({ usedAt: input.now }).where(eq(passwordResetTokens.userId, row.userId));
    await tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId));
    // A changed password ends every open session of the account, and lifts the sign-in delay.
    await tx.update(sessions).set({ closedAt: input.now, closedReason: "password" }).where(and(eq(sessions.userId, row.userId), isNull(sessions.closedAt)));
    await clearAttempts(tx, throttleKeys.account(row.email));
    await releaseAttempt(tx, ipKey, LIMITS.ip);
    return { ok: true };
  });
}

export function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export async function purgeResetTokens(db: Db, now: Date) {
  const rows = await db.delete(passwordResetTokens).where(or(lt(passwordResetTokens.expiresAt, now), isNotNull(passwordResetTokens.usedAt))).returning({ id: passwordResetTokens.id });
  return rows.length;
}
