// Sign-in, sign-out and password recovery use-cases.
import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { companies, companyUsers, passwordResetTokens, sessions, users } from "../../db/schema/index.ts";
import { env } from "./env.server.ts";
import { sendMail } from "./mail.server.ts";
import { dummyHash, hashPassword, verifyPassword } from "./password.server.ts";
import { randomToken, sha256Hex } from "./secrets.server.ts";
import { createSession } from "./session.server.ts";
import { blockedMinutes, clearFailures, LIMITS, recordFailure, throttleKeys } from "./throttle.server.ts";

export const LOGIN_FAILED = "Correo o contraseña incorrectos.";
export const NO_COMPANY = "Tu usuario no tiene compañías asignadas. Contacta al administrador.";
export const tooManyAttempts = (minutes: number) =>
  `Demasiados intentos fallidos. Inténtalo de nuevo en ${minutes} ${minutes === 1 ? "minuto" : "minutos"}.`;

export type SignInResult = { ok: true; cookie: string; companyName: string } | { ok: false; message: string };

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

export async function signIn(db: Db, input: { email: string; password: string; ip: string; userAgent: string | null; now: Date }): Promise<SignInResult> {
  const keys = throttleKeys(input.email, input.ip);
  const wait = await blockedMinutes(db, [keys.account, keys.ip], input.now);
  if (wait) return { ok: false, message: tooManyAttempts(wait) };

  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, input.email.toLowerCase()), isNull(users.deletedAt)));
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !valid) {
    await recordFailure(db, keys.account, LIMITS.perAccount, input.now);
    await recordFailure(db, keys.ip, LIMITS.perIp, input.now);
    return { ok: false, message: LOGIN_FAILED };
  }
  await clearFailures(db, keys.account);
  const company = await firstCompanyFor(db, user.id, user.defaultCompanyId);
  if (!company) return { ok: false, message: NO_COMPANY };
  const { cookie } = await createSession(db, user.id, company.id, input);
  return { ok: true, cookie, companyName: company.name };
}

export const RESET_SENT = "Se ha enviado un link a tu correo desde el cual podras recuperar tu contraseña";
export const RESET_SEND_FAILED = "No logro enviar el link de recuperación de cotranseña verifica tu correo.";
export const RESET_DONE = "Tu contraseña se cambio correctamente, ya puedes iniciar sesion con tu correo y nueva clave.";
export const RESET_FAILED = "No se logro cambiar tu contraseña.";

/**
 * Sends a single-use reset link. The answer is the same whether or not the account exists,
 * so the form cannot be used to discover accounts.
 */
export async function requestPasswordReset(db: Db, email: string, now: Date): Promise<{ ok: boolean }> {
  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.deletedAt)));
  if (!user) return { ok: true };
  const token = randomToken();
  const minutes = env().resetTokenMinutes;
  await db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + minutes * 60_000), createdAt: now });
  const link = `${env().appUrl}/password/reset/${token}`;
  try {
    await sendMail({
      to: user.email,
      subject: "Recupera tu contraseña de Colibrí",
      text: `Hola ${user.name}:\n\nPara elegir una nueva contraseña abre este enlace (vence en ${minutes} minutos y sirve una sola vez):\n\n${link}\n\nSi no lo pediste, ignora este correo.\n`,
      html: `<p>Hola ${escapeHtml(user.name)}:</p><p>Para elegir una nueva contraseña abre este enlace (vence en ${minutes} minutos y sirve una sola vez):</p><p><a href="${link}">${link}</a></p><p>Si no lo pediste, ignora este correo.</p>`,
    });
    return { ok: true };
  } catch (error) {
    console.error("[mail] No se pudo enviar el correo de recuperación:", (error as Error).message);
    return { ok: false };
  }
}

export async function resetPassword(db: Db, input: { token: string; email: string; password: string; now: Date }): Promise<{ ok: boolean }> {
  const hash = sha256Hex(input.token);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: passwordResetTokens.id, userId: passwordResetTokens.userId, email: users.email })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(and(eq(passwordResetTokens.tokenHash, hash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, input.now)))
      .for("update");
    if (!row || row.email.toLowerCase() !== input.email.toLowerCase()) return { ok: false };
    await tx.update(passwordResetTokens).set({ usedAt: input.now }).where(eq(passwordResetTokens.userId, row.userId));
    await tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId));
    // A changed password ends every open session of the account.
    await tx.update(sessions).set({ closedAt: input.now, closedReason: "password" }).where(and(eq(sessions.userId, row.userId), isNull(sessions.closedAt)));
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
