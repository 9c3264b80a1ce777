// The company's reception mailbox (issue 12 item 5; DESIGN §5 "Mailbox ingestion";
// docs/decisions/175). A jobs task reads the IMAP server saved on the configuration screen
// ('Configuración recepción de email') with imapflow, parses each new message with mailparser, and
// ingests its XML and .zip attachments exactly like an upload (the same intake: pending, with the
// company's default tax condition and expense category). A message that brought a comprobante for the
// company is marked (\Seen and the keyword $ColibriRecibido); a message with none is left alone and
// counted. Never twice: the mailbox's UIDVALIDITY and the highest UID handled are kept per company
// (progress saved after each message, conditionally), one job per company at a time (its unique key
// in the jobs table), and the clave is unique per company anyway.
import { and, eq, lt, or, isNull, sql } from "drizzle-orm";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import type { Db } from "../../../db/client.ts";
import { emailConfigOf } from "../../../db/queries/config.ts";
import { receptionSettingsOf } from "../../../db/queries/receptions.ts";
import { emailConfigs, receptionMailboxes } from "../../../db/schema/index.ts";
import { enqueue } from "../../../jobs/runner.ts";
import { mailPortProblem } from "../company-mail.server.ts";
import { decryptSecret } from "../secrets.server.ts";
import type { IncomingFile } from "./files.server.ts";
import { ingestReceivedFiles } from "./intake.server.ts";

/** Keyword added to a message whose comprobantes were received (besides \Seen). */
export const PROCESSED_KEYWORD = "$ColibriRecibido";
/** Messages read per run (the next run goes on from where this one stopped). */
export const MAILBOX_BATCH = 100;
/** Messages larger than this are not downloaded (counted as without document). */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

export const mailboxJobKey = (companyId: number) => `reception-mailbox:${companyId}`;

export interface MailboxRun {
  /** Messages looked at in this run. */
  read: number;
  /** Messages that brought at least one comprobante for the company (marked). */
  withDocument: number;
  /** Messages with no comprobante for the company (left alone). */
  withoutDocument: number;
  /** Documents stored. */
  ingested: number;
  /** The run stopped early because another run had moved the mailbox's position. */
  superseded: boolean;
}

export class MailboxError extends Error {}

function isAttachmentOfInterest(a: { filename?: string; contentType?: string }): boolean {
  const name = (a.filename ?? "").toLowerCase();
  const type = (a.contentType ?? "").toLowerCase();
  return name.endsWith(".xml") || name.endsWith(".zip") || type === "application/xml" || type === "text/xml" || type === "application/zip" || type === "application/x-zip-compressed";
}

/** Options for imapflow from the saved configuration: TLS as configured, verified certificates, bounded waits. */
function clientFor(cfg: { host: string; port: number; username: string; password: string; encryption: string | null }) {
  return new ImapFlow({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.encryption === "ssl",
    // 'tls' = STARTTLS required; 'none' (or unset) = as configured, no upgrade.
    doSTARTTLS: cfg.encryption === "tls" ? true : cfg.encryption === "ssl" ? undefined : false,
    auth: { user: cfg.username, pass: cfg.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 120_000,
  });
}

/**
 * Reads the company's reception mailbox once: new messages since the last UID handled, at most
 * MAILBOX_BATCH. Throws MailboxError (Spanish) when the mailbox cannot be read; the job retries.
 */
export async function readMailbox(db: Db, { companyId, now }: { companyId: number; now: Date }): Promise<MailboxRun | null> {
  const cfg = await emailConfigOf(db, companyId, "reception");
  if (!cfg || !cfg.active) return null;
  const settings = await receptionSettingsOf(db, companyId);
  await db.insert(receptionMailboxes).values({ companyId }).onConflictDoNothing();
  const [state] = await db.select().from(receptionMailboxes).where(eq(receptionMailboxes.companyId, companyId));
  const run: MailboxRun = { read: 0, withDocument: 0, withoutDocument: 0, ingested: 0, superseded: false };
  const refuse = async (reason: string) => {
    const message = `No se pudo entrar al buzón de recepción ${cfg.username}@${cfg.host}:${cfg.port}: ${reason}. Revise la configuración de recepción de email.`;
    await db.update(receptionMailboxes).set({ lastRunAt: now, lastError: message.slice(0, 1000) }).where(eq(receptionMailboxes.companyId, companyId));
    return new MailboxError(message);
  };
  // A server saved on another port before the rule is not contacted (docs/decisions/114).
  const portProblem = mailPortProblem("reception", cfg.port);
  if (portProblem) throw await refuse(portProblem.replace(/\.$/, ""));
  const client = clientFor({ host: cfg.host, port: cfg.port, username: cfg.username, password: decryptSecret(cfg.passwordEnc).toString("utf8"), encryption: cfg.encryption });
  // An error event of the socket must not crash the process; the awaited calls report it.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    // What an IMAP server answered (credentials refused…) is told; any failure on the way to one
    // (refused, unreachable, unknown host, timeout, TLS, not IMAP) reads the same, so the state
    // shown tells nothing about the server's network.
    throw await refuse((error as { responseText?: string }).responseText ?? "no se logró conectar con el servidor de correo");
  }
  try {
    const lock = await client.getMailboxLock("INBOX");
    try {
      const mailbox = client.mailbox;
      const uidValidity = mailbox ? Number(mailbox.uidValidity) : 0;
      let lastUid = state.lastUid;
      if (state.uidValidity !== uidValidity) {
        // A new mailbox (or the server renumbered it): start again; what was received stays
        // received (unique clave) and marked messages are skipped by their keyword.
        const [moved] = await db
          .update(receptionMailboxes)
          .set({ uidValidity, lastUid: 0 })
          .where(and(eq(receptionMailboxes.companyId, companyId), state.uidValidity === null ? isNull(receptionMailboxes.uidValidity) : eq(receptionMailboxes.uidValidity, state.uidValidity)))
          .returning({ companyId: receptionMailboxes.companyId });
        if (!moved) return { ...run, superseded: true };
        lastUid = 0;
      }
      const found = await client.search({ uid: `${lastUid + 1}:*` }, { uid: true });
      const uids = (found || []).filter((u) => u > lastUid).sort((a, b) => a - b).slice(0, MAILBOX_BATCH);
      for (const uid of uids) {
        const head = await client.fetchOne(String(uid), { flags: true, size: true }, { uid: true });
        let hasDocument = false;
        let stored = 0;
        if (head && !head.flags?.has(PROCESSED_KEYWORD) && (head.size ?? 0) <= MAX_MESSAGE_BYTES) {
          const msg = await client.fetchOne(String(uid), { source: true }, { uid: true });
          const parsed = msg && msg.source ? await simpleParser(msg.source, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true }) : null;
          // The attachments as they are (no copy), however many: the intake takes them within one budget
          // for the message (INTAKE_LIMITS, files.server.ts). A message past it is refused whole as soon
          // as the budget runs out and stores nothing; it is counted as without document below and its
          // UID saved like any other, so the next run goes on after it.
          const files: IncomingFile[] = (parsed?.attachments ?? []).filter(isAttachmentOfInterest).map((a) => ({ name: a.filename ?? "adjunto.xml", bytes: new Uint8Array(a.content.buffer, a.content.byteOffset, a.content.byteLength) }));
          if (files.length) {
            const report = await ingestReceivedFiles(db, {
              companyId,
              userId: null,
              source: "email",
              files,
              now,
              expenseCategoryId: settings?.expenseCategoryId ?? null,
              taxCondition: settings?.taxCondition ?? "01",
            });
            stored = report.stored.length;
            run.ingested += stored;
            // A comprobante (or Hacienda's answer) for this company, new or already received.
            hasDocument = report.outcomes.some((o) => o.ok || /ya fue recibido/.test(o.message));
          }
        } else if (head && head.flags?.has(PROCESSED_KEYWORD)) hasDocument = true;
        run.read++;
        if (hasDocument) {
          run.withDocument++;
          await client.messageFlagsAdd(String(uid), ["\\Seen", PROCESSED_KEYWORD], { uid: true });
        } else run.withoutDocument++;
        // Progress, only forward: a run that finds the position moved by another stops.
        const [saved] = await db
          .update(receptionMailboxes)
          .set({
            lastUid: uid,
            lastRunAt: now,
            lastError: null,
            messagesRead: sql`${receptionMailboxes.messagesRead} + 1`,
            documentsIngested: sql`${receptionMailboxes.documentsIngested} + ${stored}`,
            messagesWithoutDocument: sql`${receptionMailboxes.messagesWithoutDocument} + ${hasDocument ? 0 : 1}`,
          })
          .where(and(eq(receptionMailboxes.companyId, companyId), lt(receptionMailboxes.lastUid, uid), eq(receptionMailboxes.uidValidity, uidValidity)))
          .returning({ companyId: receptionMailboxes.companyId });
        if (!saved) {
          run.superseded = true;
          break;
        }
      }
      if (!uids.length) await db.update(receptionMailboxes).set({ lastRunAt: now, lastError: null }).where(eq(receptionMailboxes.companyId, companyId));
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return run;
}

/** Scheduled: one mailbox job per company with an active reception mailbox (unique key: never two at once). */
export async function enqueueMailboxReads(db: Db, now: Date): Promise<number> {
  const rows = await db
    .select({ companyId: emailConfigs.companyId })
    .from(emailConfigs)
    .where(and(eq(emailConfigs.kind, "reception"), eq(emailConfigs.active, true), or(eq(emailConfigs.protocol, "imap"), isNull(emailConfigs.protocol))));
  for (const r of rows) await enqueue(db, "reception-mailbox", { companyId: r.companyId }, { runAt: now, uniqueKey: mailboxJobKey(r.companyId), maxAttempts: 3 });
  return rows.length;
}
