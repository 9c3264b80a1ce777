// A company's e-mail servers (spec part 1 §3 E-mail server configuration, §5 E-mail server, §7
// configuration-email): the outgoing SMTP server (with a real test message) and the reception
// mailbox. `sendCompanyMail` sends through the company's own server when one is configured, else
// through the global one (mail.server.ts). Passwords are stored encrypted and never sent back.
import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db } from "../../db/client.ts";
import { emailConfigOf } from "../../db/queries/config.ts";
import { emailConfigs, receptionSettings } from "../../db/schema/index.ts";
import { categoriesOf, mailboxStateOf, receptionSettingsOf } from "../../db/queries/receptions.ts";
import { formatDateTime } from "../domain/format.ts";
import { CONFIG_MESSAGES, type OutgoingEmailInput, type ReceptionEmailInput } from "../domain/config-schemas.ts";
import { sendMail, type MailMessage } from "./mail.server.ts";
import { decryptSecret, encryptSecret } from "./secrets.server.ts";

type Kind = "outgoing" | "reception";

/**
 * The ports a company's mail servers may use (docs/decisions/114): the usual SMTP ports for the
 * outgoing server, the IMAP ports for the reception mailbox, plus SMTP_EXTRA_PORTS and
 * IMAP_EXTRA_PORTS (comma-separated; tests put their local servers' ports there). Any other port is
 * refused before connecting, so neither the test e-mail nor the mailbox job can probe the server's
 * network.
 */
export const MAIL_PORTS: Record<Kind, readonly number[]> = { outgoing: [25, 465, 587, 2525], reception: [143, 993] };
const EXTRA_PORTS: Record<Kind, string> = { outgoing: "SMTP_EXTRA_PORTS", reception: "IMAP_EXTRA_PORTS" };

function allowedMailPorts(kind: Kind): number[] {
  const extra = (process.env[EXTRA_PORTS[kind]] ?? "")
    .split(",")
    .map((p) => Number(p.trim()))
    .filter((p) => Number.isInteger(p) && p > 0 && p < 65536);
  return [...MAIL_PORTS[kind], ...extra];
}

/** The message for a port that is not a mail port of its kind, or null when it is one. */
export function mailPortProblem(kind: Kind, port: number): string | null {
  const usual = MAIL_PORTS[kind];
  return allowedMailPorts(kind).includes(port) ? null : `Use un puerto de servidor de correo: ${usual.slice(0, -1).join(", ")} o ${usual.at(-1)}.`;
}

export const KEPT_PASSWORD_MESSAGE = "Escriba la contraseña: el servidor, el puerto o el usuario cambió.";

/**
 * A stored password is kept only for the server it was given for: with another host, port or user,
 * a blank password would send it to a server nobody typed it for (docs/decisions/114).
 */
async function keptPasswordProblem(db: Db, companyId: number, kind: Kind, input: MailServerInput): Promise<string | null> {
  if (input.password) return null;
  const current = await emailConfigOf(db, companyId, kind);
  if (!current) return null;
  const same = current.host.toLowerCase() === input.host.toLowerCase() && current.port === input.port && current.username === input.username;
  return same ? null : KEPT_PASSWORD_MESSAGE;
}

type MailServerInput = { host: string; port: number; username: string; password: string | null };

/** Why a mail server's form cannot be saved as it is, and on which field; null when it can. */
export async function mailServerProblem(db: Db, companyId: number, kind: Kind, input: MailServerInput): Promise<{ field: "port" | "password"; message: string } | null> {
  const port = mailPortProblem(kind, input.port);
  if (port) return { field: "port", message: port };
  const password = await keptPasswordProblem(db, companyId, kind, input);
  return password ? { field: "password", message: password } : null;
}

/** What the e-mail screen shows: values without the password, and whether one is stored. */
export async function emailFormState(db: Db, companyId: number) {
  const [out, rec, settings, categories, mailbox] = await Promise.all([
    emailConfigOf(db, companyId, "outgoing"),
    emailConfigOf(db, companyId, "reception"),
    receptionSettingsOf(db, companyId),
    categoriesOf(db, companyId),
    mailboxStateOf(db, companyId),
  ]);
  return {
    outgoing: {
      values: {
        protocol: out?.protocol ?? "smtp",
        encryption: out?.encryption ?? "",
        host: out?.host ?? "",
        port: out ? String(out.port) : "",
        username: out?.username ?? "",
        from_email: out?.fromEmail ?? "",
        from_name: out?.fromName ?? "",
      } as Record<string, string>,
      hasPassword: !!out?.passwordEnc,
    },
    reception: {
      values: {
        host: rec?.host ?? "",
        port: rec ? String(rec.port) : "",
        username: rec?.username ?? "",
        encryption: rec?.encryption ?? "",
        default_tax_condition: settings?.taxCondition ?? "01",
        default_expense_category: settings?.expenseCategoryId ? String(settings.expenseCategoryId) : "",
      } as Record<string, string>,
      hasPassword: !!rec?.passwordEnc,
      categories,
      /** How the jobs last read the mailbox (issue 12 item 5). */
      mailbox: mailbox
        ? { lastRunAt: mailbox.lastRunAt ? formatDateTime(mailbox.lastRunAt) : null, lastError: mailbox.lastError, read: mailbox.messagesRead, ingested: mailbox.documentsIngested, withoutDocument: mailbox.messagesWithoutDocument }
        : null,
    },
  };
}

export async function hasEmailPassword(db: Db, companyId: number, kind: Kind) {
  return !!(await emailConfigOf(db, companyId, kind))?.passwordEnc;
}

async function upsert(db: Db, companyId: number, kind: Kind, values: Omit<typeof emailConfigs.$inferInsert, "companyId" | "kind" | "passwordEnc">, password: string | null) {
  const current = await emailConfigOf(db, companyId, kind);
  if (current) {
    await db
      .update(emailConfigs)
      .set({ ...values, ...(password ? { passwordEnc: encryptSecret(password) } : {}) })
      .where(and(eq(emailConfigs.id, current.id), eq(emailConfigs.companyId, companyId)));
  } else {
    // The schema requires the password on first save, so it is present here.
    await db.insert(emailConfigs).values({ companyId, kind, ...values, passwordEnc: encryptSecret(password ?? "") });
  }
}

export async function saveOutgoingEmail(db: Db, companyId: number, input: OutgoingEmailInput) {
  await upsert(
    db,
    companyId,
    "outgoing",
    { protocol: input.protocol, encryption: input.encryption, host: input.host, port: input.port, username: input.username, fromEmail: input.from_email, fromName: input.from_name, active: true },
    input.password,
  );
}

export async function saveReceptionEmail(db: Db, companyId: number, input: ReceptionEmailInput) {
  await upsert(db, companyId, "reception", { protocol: "imap", encryption: input.encryption, host: input.host, port: input.port, username: input.username, active: true }, input.password);
  // The defaults of documents received by e-mail: a category of this company only.
  const category = input.default_expense_category && (await categoriesOf(db, companyId)).some((c) => c.id === input.default_expense_category) ? input.default_expense_category : null;
  const settings = { taxCondition: input.default_tax_condition, expenseCategoryId: category, updatedAt: new Date() };
  await db.insert(receptionSettings).values({ companyId, ...settings }).onConflictDoUpdate({ target: receptionSettings.companyId, set: settings });
}

function transportFor(cfg: NonNullable<Awaited<ReturnType<typeof emailConfigOf>>>) {
  return nodemailer.createTransport({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.encryption === "ssl",
    requireTLS: cfg.encryption === "tls",
    ignoreTLS: cfg.encryption === "none",
    auth: { user: cfg.username, pass: decryptSecret(cfg.passwordEnc).toString("utf8") },
    connectionTimeout: 8_000,
    greetingTimeout: 8_000,
    socketTimeout: 20_000,
  });
}

/**
 * Sends through the company's outgoing server when it has one, else through the global sender.
 * SMTP failures throw an Error whose message is plain Spanish (see smtpErrorText).
 */
export async function sendCompanyMail(db: Db, companyId: number, message: MailMessage): Promise<{ via: "company" | "global"; messageId: string }> {
  const cfg = await emailConfigOf(db, companyId, "outgoing");
  if (!cfg || !cfg.active || cfg.protocol !== "smtp") {
    const sent = await sendMail(message);
    return { via: "global", messageId: sent.messageId };
  }
  // A server saved on another port before the rule (or by hand) is not contacted.
  const portProblem = mailPortProblem("outgoing", cfg.port);
  if (portProblem) throw new Error(`No se logró conectar con el servidor de correo ${cfg.host}:${cfg.port}. ${portProblem}`);
  const transporter = transportFor(cfg);
  try {
    const info = await transporter.sendMail({ from: { name: cfg.fromName ?? "", address: cfg.fromEmail ?? cfg.username }, ...message });
    return { via: "company", messageId: info.messageId };
  } catch (error) {
    throw new Error(smtpErrorText(error, cfg.host, cfg.port), { cause: error });
  } finally {
    transporter.close();
  }
}

/**
 * A nodemailer error in plain Spanish, with what to check next. Whatever went wrong on the way to
 * the server (refused, unreachable, no such host, timeout, TLS) gets the same message, so the
 * answer tells nothing about the server's network; only what an SMTP server itself answered
 * (credentials, recipients, the message) is told apart.
 */
export function smtpErrorText(error: unknown, host: string, port: number): string {
  const e = error as { code?: string; responseCode?: number; response?: string };
  const reply = e.response ? ` Respuesta del servidor: «${e.response.slice(0, 200)}».` : "";
  switch (e.code) {
    case "EAUTH":
      return `El servidor de correo rechazó el usuario o la contraseña. Revíselos y guarde de nuevo.${reply}`;
    case "EENVELOPE":
      return `El servidor de correo rechazó el remitente o el destinatario.${reply}`;
    case "EMESSAGE":
      return `El servidor de correo rechazó el mensaje.${reply}`;
    default:
      return `No se logró conectar con el servidor de correo ${host}:${port}. Revise el servidor, el puerto y el cifrado.`;
  }
}

/** 'enviar correo de prueba': a real message through the stored outgoing server. */
export async function sendTestMail(db: Db, companyId: number, companyName: string, to: string): Promise<{ ok: boolean; message: string }> {
  const cfg = await emailConfigOf(db, companyId, "outgoing");
  if (!cfg) return { ok: false, message: CONFIG_MESSAGES.noOutgoingServer };
  try {
    await sendCompanyMail(db, companyId, {
      to,
      subject: `Correo de prueba de ${companyName}`,
      text: `Este es un correo de prueba enviado desde Colibrí con el servidor ${cfg.host}:${cfg.port} de ${companyName}. Si lo recibe, la configuración funciona.`,
    });
    return { ok: true, message: `${CONFIG_MESSAGES.testMailSent} ${to}` };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
