// The automatic e-mail after Hacienda accepts: the pipeline queues one send-document-email job per
// document; the job sends through the company's SMTP server (an in-process smtp-server here) with
// the PDF, the signed XML and Hacienda's answer, marks the document, never sends twice, and a failure
// is written on the document and retried by the runner.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { clients, documents, jobs } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";
import type { Sandbox } from "../../app/hacienda/sandbox/server.ts";
import { runOne } from "../../jobs/runner.ts";
import { handlers } from "../../jobs/registry.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { configurePipeline, documentEmailJobKey, sweepPending } from "../../app/server/hacienda-pipeline.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { EMAIL_BUSY, NO_RECIPIENTS, sendDocumentEmailOnce } from "../../app/server/document-email.server.ts";
import { documentRecipients } from "../../app/email/document-email.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import type { DocumentDraft } from "../../app/domain/document-draft.ts";
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from "../fixtures/smtp.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sandbox: Sandbox;
let smtp: SmtpCapture;
let smtpPort: number;
let refuseMail = false;
let received: CapturedMail[] = [];
const schemaSet = testSchemaSet();
const clock = { now: new Date("2026-11-21T15:30:00Z") };

beforeAll(async () => {
  database = await createTestDatabase();
  // The sandbox judges FechaEmision against its own clock: the same virtual clock the documents are issued on.
  sandbox = await startRealSandbox({ port: 0, schemaSet, processingDelayMs: 0, callbackRetryDelayMs: 10, log: () => {}, now: () => clock.now.getTime() });
  configurePipeline({ clientOptions: { maxRetries: 4, backoffBaseMs: 2, backoffMaxMs: 10, maxRetryAfterMs: 20, timeoutMs: 5000, rateLimitPerSecond: 0 }, callbackUrl: null });
  smtp = await startSmtpCapture({ auth: false, refuse: () => refuseMail });
  smtpPort = smtp.port;
  received = smtp.received;
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await sandbox?.close();
  await database?.drop();
});

/** Runs due jobs on a virtual clock: when nothing is due, jumps to the next job's run_at. */
async function drain(maxSteps = 500) {
  for (let i = 0; i < maxSteps; i++) {
    const ran = await runOne(database.db, handlers, "test-worker", () => clock.now);
    if (ran) continue;
    const [next] = await database.db.select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.status, "pending")).orderBy(asc(jobs.runAt)).limit(1);
    if (!next) return;
    clock.now = new Date(Math.max(clock.now.getTime(), next.runAt.getTime()));
  }
  throw new Error("drain: too many steps");
}

async function companyWithMail() {
  const setup = await issuingCompany(database.db, { sandboxUrl: sandbox.url });
  await saveOutgoingEmail(database.db, setup.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtpPort, username: "", password: "", from_email: "facturas@empresa.example", from_name: "Empresa" });
  return setup;
}

async function issue(companyId: number, userId: number, draft: DocumentDraft) {
  const r = await issueDocument(database.db, { companyId, userId, draft, now: clock.now, schemaSet });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}

const docOf = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0];
/** The e-mail jobs of a document (a finished job gives its unique key back, so look at the payload). */
const emailJobsOf = async (documentId: number) =>
  (await database.db.select().from(jobs).where(eq(jobs.type, "send-document-email"))).filter((j) => (j.payload as { documentId?: number }).documentId === documentId);
const filenames = (raw: string) => [...raw.matchAll(/filename="?([^";\r\n]+)"?/gi)].map((m) => m[1]);

describe("e-mail after acceptance", () => {
  it("documentRecipients: the client's e-mail then the notify list, each once, blanks dropped", () => {
    expect(documentRecipients({ email: "a@x.cr" }, ["b@x.cr", "a@x.cr", " ", 3])).toEqual(["a@x.cr", "b@x.cr"]);
    expect(documentRecipients(null, null)).toEqual([]);
  });

  it("an accepted invoice reaches the client and the notify list once, with its three attachments", async () => {
    const { company, user, client } = await companyWithMail();
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id, { emails: ["contabilidad@cliente.example"] }));
    const before = received.length;
    await drain();
    const doc = await docOf(r.documentId);
    expect(doc.status).toBe("aceptado");
    const mails = received.slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].to.sort()).toEqual(["cliente@example.cr", "contabilidad@cliente.example"]);
    expect(filenames(mails[0].raw)).toEqual(expect.arrayContaining([`${r.clave}.xml`, `${r.clave}_respuesta.xml`]));
    expect(filenames(mails[0].raw).some((f) => f.endsWith(".pdf"))).toBe(true);
    expect(doc.emailSentAt).toBeInstanceOf(Date);
    expect(doc.emailSentTo).toBe("cliente@example.cr, contabilidad@cliente.example");
    expect(doc.emailError).toBeNull();

    // The job cannot run twice for the document, and a second run of the handler sends nothing.
    await handlers["send-document-email"]({ companyId: company.id, documentId: r.documentId }, { db: database.db, now: () => clock.now });
    expect(received.length).toBe(before + 1);
    expect(await emailJobsOf(r.documentId)).toHaveLength(1);
  });

  it("a sending failure is written on the document and retried by the runner until it goes out", async () => {
    const { company, user, client } = await companyWithMail();
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    refuseMail = true;
    // Submit, then poll until accepted, then the first e-mail attempt fails.
    for (let i = 0; i < 20 && !(await docOf(r.documentId)).emailError; i++) await drain(1).catch(() => {});
    const failed = await docOf(r.documentId);
    expect(failed.status).toBe("aceptado");
    expect(failed.emailSentAt).toBeNull();
    expect(failed.emailError).toBeTruthy();
    const [job] = await database.db.select().from(jobs).where(and(eq(jobs.uniqueKey, `document-email:${r.documentId}`)));
    expect(job).toMatchObject({ status: "pending", attempts: 1 });
    expect(job.runAt.getTime()).toBeGreaterThan(clock.now.getTime());

    refuseMail = false;
    const before = received.length;
    await drain();
    const sent = await docOf(r.documentId);
    expect(sent.emailSentAt).toBeInstanceOf(Date);
    expect(sent.emailError).toBeNull();
    expect(received.length).toBe(before + 1);
  });

  it("a document without any recipient is noted, not retried; a rejected one is not e-mailed", async () => {
    const { company, user, client } = await companyWithMail();
    await database.db.update(clients).set({ email: "" }).where(eq(clients.id, client.id));
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    const before = received.length;
    await drain();
    const doc = await docOf(r.documentId);
    expect(doc.status).toBe("aceptado");
    expect(doc.emailError).toBe(NO_RECIPIENTS);
    const [job] = await emailJobsOf(r.documentId);
    expect(job.status).toBe("done");
    expect(received.length).toBe(before);

    const other = await companyWithMail();
    const bad = await issue(other.company.id, other.user.id, sampleDraft("fe", other.client.id));
    const d0 = await docOf(bad.documentId);
    await database.db.update(documents).set({ signedXml: Buffer.from(d0.signedXml!.toString("utf8").replace("Computadora portátil", "Computadora portatil"), "utf8") }).where(eq(documents.id, bad.documentId));
    await drain();
    expect((await docOf(bad.documentId)).status).toBe("rechazado");
    expect(await emailJobsOf(bad.documentId)).toHaveLength(0);
    expect(received.length).toBe(before);
  });

  it("keeps retrying a broken mail server past the old eight attempts, at most hourly, and sends once it works", async () => {
    const { company, user, client } = await companyWithMail();
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    refuseMail = true;
    const key = documentEmailJobKey(r.documentId);
    const jobOf = async () => (await database.db.select().from(jobs).where(eq(jobs.uniqueKey, key)))[0];
    for (let i = 0; i < 200 && ((await jobOf())?.attempts ?? 0) < 12; i++) await drain(1).catch(() => {});
    const job = await jobOf();
    expect(job).toMatchObject({ status: "pending", attempts: 12 });
    // The runner's backoff: never sooner than an hour apart by now.
    expect(job.runAt.getTime() - clock.now.getTime()).toBe(3_600_000);
    const failed = await docOf(r.documentId);
    expect(failed.emailSentAt).toBeNull();
    expect(failed.emailError).toBeTruthy();

    refuseMail = false;
    const before = received.length;
    await drain();
    expect((await docOf(r.documentId)).emailSentAt).toBeInstanceOf(Date);
    expect(received.length).toBe(before + 1);
  });

  it("the sweep queues again an accepted document whose e-mail job ran out, once, and never a sent one or one without recipients", async () => {
    const { company, user, client } = await companyWithMail();
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    refuseMail = true;
    for (let i = 0; i < 20 && !(await docOf(r.documentId)).emailError; i++) await drain(1).catch(() => {});
    expect((await docOf(r.documentId)).status).toBe("aceptado");
    // Its job gave up (as jobs queued before this change did after 8 attempts).
    await database.db.update(jobs).set({ status: "failed", uniqueKey: null }).where(eq(jobs.uniqueKey, documentEmailJobKey(r.documentId)));
    // Another accepted one nobody can receive, and one already sent.
    await database.db.update(clients).set({ email: "" }).where(eq(clients.id, client.id));
    const silent = await issue(company.id, user.id, sampleDraft("fe", client.id));
    const sentOne = await issue(company.id, user.id, sampleDraft("fe", client.id, { emails: ["x@cliente.example"] }));
    await database.db.update(clients).set({ email: "cliente@example.cr" }).where(eq(clients.id, client.id));
    await database.db.update(documents).set({ status: "aceptado", emailError: NO_RECIPIENTS }).where(eq(documents.id, silent.documentId));
    await database.db.update(documents).set({ status: "aceptado", emailError: "viejo", emailSentAt: clock.now }).where(eq(documents.id, sentOne.documentId));

    await sweepPending(database.db, clock.now);
    await sweepPending(database.db, clock.now);
    const queued = (await database.db.select().from(jobs).where(and(eq(jobs.type, "send-document-email"), isNotNull(jobs.uniqueKey)))).map((j) => (j.payload as { documentId: number }).documentId);
    expect(queued.filter((id) => id === r.documentId)).toHaveLength(1);
    expect(queued).not.toContain(silent.documentId);
    expect(queued).not.toContain(sentOne.documentId);

    refuseMail = false;
    const before = received.length;
    await drain();
    expect((await docOf(r.documentId)).emailSentAt).toBeInstanceOf(Date);
    expect(received.length).toBe(before + 1);
    // Sent: the sweep leaves it alone.
    await sweepPending(database.db, clock.now);
    expect((await emailJobsOf(r.documentId)).filter((j) => j.status === "pending")).toHaveLength(0);
  });

  it("two runners sending the same document at once e-mail it once", async () => {
    const { company, user, client } = await companyWithMail();
    const r = await issue(company.id, user.id, sampleDraft("fe", client.id));
    refuseMail = true;
    for (let i = 0; i < 20 && !(await docOf(r.documentId)).emailError; i++) await drain(1).catch(() => {});
    refuseMail = false;
    const before = received.length;
    const ids = { companyId: company.id, documentId: r.documentId };
    const results = await Promise.allSettled([sendDocumentEmailOnce(database.db, ids, clock.now), sendDocumentEmailOnce(database.db, ids, clock.now)]);
    expect(received.length).toBe(before + 1);
    expect(results.filter((x) => x.status === "fulfilled" && x.value === "sent")).toHaveLength(1);
    const other = results.find((x) => !(x.status === "fulfilled" && x.value === "sent"))!;
    expect(other.status === "fulfilled" ? other.value : (other.reason as Error).message).toMatch(new RegExp(`^(already-sent|${EMAIL_BUSY})$`));
    const doc = await docOf(r.documentId);
    expect(doc.emailSentAt).toBeInstanceOf(Date);
    expect(doc.emailSendingAt).toBeNull();
    // The queued retry then finds it sent.
    await drain();
    expect(received.length).toBe(before + 1);
  });
});
