// The reception mailbox against a real IMAP server (issue 12 item 5): Dovecot started by the test
// (tests/fixtures/dovecot.ts), messages put in with IMAP APPEND, the real jobs (scheduled task →
// one mailbox job per company → readMailbox: imapflow + mailparser → the upload's intake).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { zipSync } from "fflate";
import { emailConfigs, expenseCategories, jobs, receivedDocuments, receptionMailboxes, receptionSettings } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import type { Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { enqueue, runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import { configurePipeline } from "../../app/server/hacienda-pipeline.server.ts";
import { encryptSecret } from "../../app/server/secrets.server.ts";
import { PROCESSED_KEYWORD, readMailbox } from "../../app/server/receptions/mailbox.server.ts";
import { RECEPTION_MESSAGES } from "../../app/domain/receptions.ts";
import { ingestReceivedFiles } from "../../app/server/receptions/intake.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { acceptedBySandbox, supplierDocument } from "../fixtures/receptions.ts";
import { startDovecot, type Dovecot } from "../fixtures/dovecot.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sandbox: Sandbox;
let dovecot: Dovecot;
const schemaSet = testSchemaSet();

beforeAll(async () => {
  dovecot = await startDovecot();
  database = await createTestDatabase();
  sandbox = await startRealSandbox({ port: 0, schemaSet, processingDelayMs: 0, log: () => {} });
  configurePipeline({ clientOptions: { maxRetries: 1, backoffBaseMs: 2, backoffMaxMs: 10, timeoutMs: 5000, rateLimitPerSecond: 0 }, callbackUrl: null });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await database?.drop();
  await dovecot?.stop();
});

const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
async function email(opts: { subject: string; text: string; attachments?: { filename: string; content: string | Buffer; contentType?: string }[] }): Promise<Buffer> {
  const info = await transport.sendMail({ from: "facturas@proveedoradelvalle.cr", to: "recepcion@empresa.cr", ...opts });
  return info.message as Buffer;
}

/** Runs every due job (the scheduled task enqueues the mailbox job, which reads the mailbox). */
async function runJobs(now: Date) {
  for (let i = 0; i < 50 && (await runOne(database.db, handlers, "mailbox-test", () => now)); i++);
}

async function mailboxCompany() {
  const c = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
  const [category] = await database.db.insert(expenseCategories).values({ companyId: c.company.id, name: "Servicios" }).returning();
  await database.db.insert(emailConfigs).values({
    companyId: c.company.id,
    kind: "reception",
    protocol: "imap",
    encryption: "none",
    host: dovecot.host,
    port: dovecot.port,
    username: dovecot.user,
    passwordEnc: encryptSecret(dovecot.password),
    active: true,
  });
  await database.db.insert(receptionSettings).values({ companyId: c.company.id, taxCondition: "04", expenseCategoryId: category.id });
  return { ...c, category };
}

const stateOf = async (companyId: number) => (await database.db.select().from(receptionMailboxes).where(eq(receptionMailboxes.companyId, companyId)))[0]!;
const docsOf = (companyId: number) => database.db.select().from(receivedDocuments).where(eq(receivedDocuments.companyId, companyId)).orderBy(asc(receivedDocuments.id));

describe("reception mailbox (Dovecot)", () => {
  it("two e-mails — an invoice with its MensajeHacienda, and one without XML — give exactly one document, once; the first is marked, the second left alone and counted", async () => {
    const { company, category } = await mailboxCompany();
    const inv = supplierDocument({ receiver: { name: company.name, id: company.identification } });
    const mh = await acceptedBySandbox(sandbox.url, inv);
    const withInvoice = await dovecot.append(
      await email({
        subject: `Factura electrónica ${inv.consecutivo}`,
        text: "Adjuntamos la factura y la respuesta de Hacienda.",
        attachments: [
          { filename: `${inv.clave}.xml`, content: inv.xml, contentType: "application/xml" },
          { filename: `${inv.clave}_respuesta.xml`, content: mh.respuestaXml, contentType: "application/xml" },
          { filename: `${inv.clave}.pdf`, content: Buffer.from("%PDF-1.4 representación gráfica"), contentType: "application/pdf" },
        ],
      }),
    );
    const withoutXml = await dovecot.append(
      await email({ subject: "Reunión del lunes", text: "Nos vemos el lunes a las 9.", attachments: [{ filename: "agenda.pdf", content: Buffer.from("%PDF-1.4 agenda"), contentType: "application/pdf" }] }),
    );

    const now = new Date();
    await database.db.delete(jobs);
    await enqueue(database.db, "reception-mailboxes", {}, { runAt: now });
    await runJobs(now);

    const docs = await docsOf(company.id);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ clave: inv.clave, source: "email", message: 4, status: "pendiente", issuerStatus: "aceptado", taxCondition: "04", expenseCategoryId: category.id, uploadFilename: `${inv.clave}.xml` });
    expect(Buffer.from(docs[0]!.uploadXml).toString("utf8")).toBe(inv.xml);
    expect(await stateOf(company.id)).toMatchObject({ lastUid: withoutXml, messagesRead: 2, documentsIngested: 1, messagesWithoutDocument: 1, lastError: null });
    const flags = await dovecot.flags();
    expect(flags.get(withInvoice)).toEqual([PROCESSED_KEYWORD, "\\Seen"].sort());
    expect(flags.get(withoutXml)).toEqual([]);

    // The next run finds nothing new: the same document, once; nothing read again.
    await enqueue(database.db, "reception-mailboxes", {}, { runAt: now });
    await runJobs(now);
    expect(await docsOf(company.id)).toHaveLength(1);
    expect(await stateOf(company.id)).toMatchObject({ lastUid: withoutXml, messagesRead: 2, documentsIngested: 1, messagesWithoutDocument: 1 });
  });

  it("two reads at once ingest a new message once; after the mailbox is renumbered (new UIDVALIDITY) marked messages are not received again", async () => {
    const { company } = await mailboxCompany();
    const first = supplierDocument({ receiver: { name: company.name, id: company.identification } });
    await dovecot.append(await email({ subject: "Factura", text: "Adjunta.", attachments: [{ filename: "factura.xml", content: first.xml }] }));
    const now = new Date();
    // Two readers racing (two job runners that both got to the mailbox): one document, one count.
    const runs = await Promise.all([readMailbox(database.db, { companyId: company.id, now }), readMailbox(database.db, { companyId: company.id, now })]);
    expect((await docsOf(company.id)).filter((d) => d.clave === first.clave)).toHaveLength(1);
    expect(runs.reduce((n, r) => n + r!.ingested, 0)).toBe(1);
    const state = await stateOf(company.id);
    const read = state.messagesRead;
    const before = (await docsOf(company.id)).length;

    // The server renumbered the mailbox: everything is looked at again, nothing received twice.
    await database.db.update(receptionMailboxes).set({ uidValidity: 1 }).where(eq(receptionMailboxes.companyId, company.id));
    const again = await readMailbox(database.db, { companyId: company.id, now });
    expect(again!.ingested).toBe(0);
    expect((await docsOf(company.id)).length).toBe(before);
    expect((await stateOf(company.id)).messagesRead).toBeGreaterThan(read);
  });

  it("a wrong password is reported in Spanish on the mailbox's state and the job fails (it is retried)", async () => {
    const { company } = await mailboxCompany();
    await database.db.update(emailConfigs).set({ passwordEnc: encryptSecret("otra-clave") }).where(eq(emailConfigs.companyId, company.id));
    await expect(readMailbox(database.db, { companyId: company.id, now: new Date() })).rejects.toThrow(/No se pudo entrar al buzón de recepción/);
    expect((await stateOf(company.id)).lastError).toMatch(/Revise la configuración de recepción de email/);
  });

  it("is no port scanner: a mailbox saved on a port that is not IMAP's is not contacted, and every network failure reads the same", async () => {
    const { company } = await mailboxCompany();
    let contacted = 0;
    const probe = net.createServer((socket) => {
      contacted++;
      socket.end("-ERR not IMAP\r\n");
    });
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const probePort = (probe.address() as net.AddressInfo).port;
    try {
      // Saved before the port rule (or by hand): refused before connecting.
      await database.db.update(emailConfigs).set({ port: probePort }).where(eq(emailConfigs.companyId, company.id));
      await expect(readMailbox(database.db, { companyId: company.id, now: new Date() })).rejects.toThrow(/Use un puerto de servidor de correo: 143 o 993/);
      expect(contacted).toBe(0);
      // Allowed ports where no IMAP server answers: nothing listening, or something else listening.
      const closed = await new Promise<number>((r) => {
        const s = net.createServer().listen(0, "127.0.0.1", () => {
          const port = (s.address() as net.AddressInfo).port;
          s.close(() => r(port));
        });
      });
      const errors: string[] = [];
      for (const port of [closed, probePort]) {
        process.env.IMAP_EXTRA_PORTS = `${process.env.IMAP_EXTRA_PORTS},${port}`;
        await database.db.update(emailConfigs).set({ port }).where(eq(emailConfigs.companyId, company.id));
        await expect(readMailbox(database.db, { companyId: company.id, now: new Date() })).rejects.toThrow();
        errors.push((await stateOf(company.id)).lastError!);
      }
      expect(errors).toEqual(
        [closed, probePort].map((port) => `No se pudo entrar al buzón de recepción ${dovecot.user}@${dovecot.host}:${port}: no se logró conectar con el servidor de correo. Revise la configuración de recepción de email.`),
      );
    } finally {
      await new Promise((r) => probe.close(r));
    }
  });

  // Last in this file: the companies of the tests above read the whole mailbox again.
  it("a message whose attachments expand past the budget (50 MB of XML) is skipped whole — nothing stored, counted as without document — and the mailbox goes on after it", async () => {
    const { company } = await mailboxCompany();
    // The messages of the tests above first: this company's run below reads only the two new ones.
    await readMailbox(database.db, { companyId: company.id, now: new Date() });
    const seen = await stateOf(company.id);
    const to = { name: company.name, id: company.identification };
    const inBomb = supplierDocument({ receiver: to });
    const next = supplierDocument({ receiver: to });
    // Two archives of 10 × 4 MB of XML (each within what one archive was allowed alone), 40 kB each.
    const spaces = new Uint8Array(4 * 1024 * 1024).fill(0x20);
    const bomb = Buffer.from(zipSync(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.xml`, spaces])), { level: 9 }));
    const attachments = [
      { filename: "factura.xml", content: inBomb.xml, contentType: "application/xml" },
      { filename: "a.zip", content: bomb, contentType: "application/zip" },
      { filename: "b.zip", content: bomb, contentType: "application/zip" },
    ];
    const bombUid = await dovecot.append(await email({ subject: "Facturas", text: "Adjuntas.", attachments }));
    const nextUid = await dovecot.append(await email({ subject: "Factura", text: "Adjunta.", attachments: [{ filename: "factura.xml", content: next.xml }] }));

    const run = await readMailbox(database.db, { companyId: company.id, now: new Date() });
    expect((await docsOf(company.id)).map((d) => d.clave)).toEqual([next.clave]);
    expect(run).toEqual({ read: 2, withDocument: 1, withoutDocument: 1, ingested: 1, superseded: false });
    expect(await stateOf(company.id)).toMatchObject({ lastUid: nextUid, messagesRead: seen.messagesRead + 2, documentsIngested: 1, messagesWithoutDocument: seen.messagesWithoutDocument + 1, lastError: null });
    const flags = await dovecot.flags();
    expect(flags.get(bombUid)).toEqual([]);
    expect(flags.get(nextUid)).toEqual([PROCESSED_KEYWORD, "\\Seen"].sort());
    // Why it was skipped: the intake's refusal of the same attachments, one reason for the message.
    const again = await ingestReceivedFiles(database.db, { companyId: company.id, userId: null, source: "email", files: attachments.map((a) => ({ name: a.filename, bytes: Buffer.from(a.content) })), now: new Date() });
    expect(again.outcomes).toEqual([{ name: "b.zip", ok: false, message: RECEPTION_MESSAGES.intakeTooLarge(50) }]);
    // The next run starts after it.
    expect(await readMailbox(database.db, { companyId: company.id, now: new Date() })).toMatchObject({ read: 0, ingested: 0 });
  });
});
