// Prepares a fresh database (a PGlite folder, or a new PostgreSQL database when DATABASE_URL is set),
// starts an in-process SMTP server that keeps every message, and starts the real app server.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { SMTPServer } from "smtp-server";
import { migrateDatabase, openDatabase } from "../../db/client.ts";
import { seedDemo, seedReferenceData } from "../../db/seed/index.ts";
import { DEMO_PASSWORD, SUPER_ADMIN, seedE2E } from "./fixtures.ts";
import { startFakeHaciendaAe } from "../fixtures/fake-hacienda-ae.ts";
import { startRealSandbox } from "../../app/hacienda/sandbox/real.ts";

function dbUrl(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT);
  const taken = await fetch(`http://127.0.0.1:${port}/login`).then(() => true, () => false);
  if (taken) throw new Error(`Port ${port} is already in use: stop that server or set E2E_PORT.`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-e2e-"));
  const mailDir = path.join(work, "mail");
  fs.mkdirSync(mailDir);

  // One mailbox for the whole run: the app's own SMTP_URL and, once the configuration journey saves
  // it, the demo company's server (user 'empresa', password 'clave-smtp') both deliver here.
  const smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "empresa" && auth.password === "clave-smtp") callback(null, { user: "empresa" });
      else callback(new Error("Credenciales SMTP inválidas"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        fs.writeFileSync(path.join(mailDir, `${Date.now()}_${encodeURIComponent(to)}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;

  // Hacienda's public API (economic activities) is simulated locally, and so is its reception API
  // (the demo company's 'sandbox' environment): one simulator for the web and the jobs process,
  // on a free port, answering through the app's callback endpoint.
  const haciendaPublic = await startFakeHaciendaAe();
  const haciendaSandbox = await startRealSandbox({ port: 0, processingDelayMs: 300, log: () => {} });

  let databaseUrl: string | undefined;
  let dropDb = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `colibri_e2e_${process.pid}`;
    const admin = postgres(dbUrl(process.env.DATABASE_URL, "postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
    databaseUrl = dbUrl(process.env.DATABASE_URL, name);
    dropDb = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const dataDir = path.join(work, "data");
  process.env.APP_SECRET = "e2e-secret"; // the seed encrypts the demo company's secrets with it
  const database = await openDatabase({ databaseUrl, dataDir: databaseUrl ? undefined : path.join(dataDir, "pglite") });
  await migrateDatabase(database);
  await seedReferenceData(database.db);
  await seedDemo(database.db, { password: DEMO_PASSWORD });
  await seedE2E(database.db);
  await database.close();

  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // The configuration journey saves this server as the demo company's: a test port the app must accept.
    SMTP_EXTRA_PORTS: String(smtpPort),
    APP_SECRET: "e2e-secret",
    NODE_ENV: "production",
    COOKIE_SECURE: "false",
    SUPER_ADMIN_EMAIL: SUPER_ADMIN,
    HACIENDA_PUBLIC_API_URL: haciendaPublic.url,
    HACIENDA_SANDBOX_URL: haciendaSandbox.url,
    HACIENDA_CALLBACK_URL: `http://127.0.0.1:${port}/hacienda/callback`,
    // Journeys wait for the jobs: look for due jobs often.
    JOBS_POLL_MS: "250",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  if (databaseUrl) (env as Record<string, string>).DATABASE_URL = databaseUrl;
  // Own process group, so stopping it stops npx, tsx and the server together (no orphan keeps the port).
  const server: ChildProcess = spawn("npx", ["tsx", "server/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  server.stdout!.on("data", (d) => (log += d));
  server.stderr!.on("data", (d) => (log += d));
  // With PostgreSQL the jobs run in their own process, as in production (`npm run jobs`).
  const jobsProcess: ChildProcess | undefined = databaseUrl ? spawn("npx", ["tsx", "jobs/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true }) : undefined;
  jobsProcess?.stdout!.on("data", (d) => (log += d));
  jobsProcess?.stderr!.on("data", (d) => (log += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The app server exited:\n${log}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/login`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`The app server did not start in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_SMTP_PORT = String(smtpPort);
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
  // The reception journeys send suppliers' invoices to the same simulator first (as the supplier would).
  process.env.E2E_SANDBOX_URL = haciendaSandbox.url;

  return async () => {
    for (const child of [server, jobsProcess]) {
      if (!child || child.exitCode !== null) continue;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
    await haciendaSandbox.close();
    await new Promise<void>((r) => smtp.close(() => r()));
    await haciendaPublic.close();
    await dropDb();
    if (process.env.E2E_KEEP !== "1") fs.rmSync(work, { recursive: true, force: true });
    if (process.env.E2E_SHOW_SERVER_LOG === "1") console.log(log);
  };
}
