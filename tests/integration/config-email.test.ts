// /config-email/:company_id: outgoing server ('Faltan datos'), reception mailbox, a real test e-mail
// captured by an in-process SMTP server (with AUTH), SMTP errors in Spanish, passwords encrypted.
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailConfigs } from "../../db/schema/index.ts";
import * as route from "../../app/routes/config/config-email.tsx";
import * as tabs from "../../app/routes/config/configurations.tsx";
import { KEPT_PASSWORD_MESSAGE, sendCompanyMail } from "../../app/server/company-mail.server.ts";
import { decryptSecret } from "../../app/server/secrets.server.ts";
import { call, createCompany, createUser, signedIn, type CallResult } from "../setup/app.ts";
import { allowSmtpPort } from "../fixtures/smtp.ts";
import net from "node:net";
import { createTestDatabase } from "../setup/db.ts";

function toastOf(res: CallResult): string | undefined {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("colibri_flash="));
  if (!cookie) return undefined;
  const body = cookie.split(";")[0]!.slice("colibri_flash=".length).split(".")[0]!;
  return JSON.parse(Buffer.from(body, "base64url").toString())[0]?.text;
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SMTPServer;
let smtpPort: number;
const received: { to: string[]; from: string; raw: string; user?: string }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === "smtp-user" && auth.password === "smtp-clave") cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", raw: Buffer.concat(chunks).toString(), user: session.user as string | undefined });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  smtpPort = (smtp.server.address() as { port: number }).port;
  allowSmtpPort(smtpPort);
});
afterAll(async () => {
  await new Promise<void>((r) => smtp.close(() => r()));
  await database.drop();
});

async function setup() {
  const admin = await createUser(database.db, { role: "admin" });
  const staff = await createUser(database.db);
  const company = await createCompany(database.db, { userIds: [admin.id, staff.id], name: "Correo S.A." });
  return { company, b: await signedIn(database.db, admin.id, company.id), s: await signedIn(database.db, staff.id, company.id) };
}

const outgoing = (over: Record<string, string> = {}) => ({
  section: "email-outgoing",
  protocol: "smtp",
  encryption: "none",
  host: "127.0.0.1",
  port: String(smtpPort),
  username: "smtp-user",
  password: "smtp-clave",
  from_email: "facturas@correo.cr",
  from_name: "Correo S.A.",
  ...over,
});
const p = (id: number) => ({ path: `/config-email/${id}`, params: { company_id: String(id) } });
const stored = async (companyId: number, kind: string) => (await database.db.select().from(emailConfigs).where(and(eq(emailConfigs.companyId, companyId), eq(emailConfigs.kind, kind))))[0];

describe("outgoing server", () => {
  it("saves with 'Configuración guardada correctamente', password encrypted and never shown back", async () => {
    const { b, company } = await setup();
    const res = await call(b, route.action, { ...p(company.id), form: outgoing() });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toBe("Configuración guardada correctamente");
    const row = (await stored(company.id, "outgoing"))!;
    expect(row.passwordEnc).not.toContain("smtp-clave");
    expect(decryptSecret(row.passwordEnc).toString()).toBe("smtp-clave");
    const loaded = await call(b, route.loader, p(company.id));
    expect(JSON.stringify(loaded.data)).not.toContain("smtp-clave");
    expect(JSON.stringify(loaded.data)).not.toContain(row.passwordEnc);
    expect(loaded.data.email.outgoing.values).toMatchObject({ host: "127.0.0.1", port: String(smtpPort), from_name: "Correo S.A." });
    expect(loaded.data.email.outgoing.hasPassword).toBe(true);
    // Blank password keeps the stored one.
    expect((await call(b, route.action, { ...p(company.id), form: outgoing({ password: "", from_name: "Nuevo" }) })).status).toBe(302);
    const again = (await stored(company.id, "outgoing"))!;
    expect(again.passwordEnc).toBe(row.passwordEnc);
    expect(again.fromName).toBe("Nuevo");
  });

  it.each(["protocol", "host", "port", "username", "password", "from_email", "from_name"])("missing %s → 'Faltan datos', nothing saved, values kept", async (field) => {
    const { b, company } = await setup();
    const res = await call(b, route.action, { ...p(company.id), form: outgoing({ [field]: "" }) });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("Faltan datos");
    expect(res.data.errors[field]).toBe("Faltan datos");
    expect(res.data.values.password).toBeUndefined();
    if (field !== "host") expect(res.data.values.host).toBe("127.0.0.1");
    expect(await stored(company.id, "outgoing")).toBeUndefined();
  });

  it("encryption is optional; a bad port or e-mail is 'Faltan datos'", async () => {
    const { b, company } = await setup();
    expect((await call(b, route.action, { ...p(company.id), form: outgoing({ port: "70000" }) })).data.message).toBe("Faltan datos");
    expect((await call(b, route.action, { ...p(company.id), form: outgoing({ from_email: "no" }) })).data.message).toBe("Faltan datos");
    expect((await call(b, route.action, { ...p(company.id), form: outgoing({ encryption: "" }) })).status).toBe(302);
    expect((await stored(company.id, "outgoing"))!.encryption).toBeNull();
  });
});

describe("enviar correo de prueba", () => {
  it("sends a real message through the company's server (with AUTH) to the typed address", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { ...p(company.id), form: outgoing() });
    const before = received.length;
    const res = await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "prueba@destino.cr" } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, message: "Correo de prueba enviado a prueba@destino.cr" });
    expect(received.length).toBe(before + 1);
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(["prueba@destino.cr"]);
    expect(mail.from).toBe("facturas@correo.cr");
    expect(mail.user).toBe("smtp-user");
    expect(mail.raw).toContain("Correo de prueba de Correo S.A.");
  });

  it("reports SMTP errors in Spanish: wrong password, connection refused; no server saved yet", async () => {
    const { b, company } = await setup();
    const none = await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "a@b.cr" } });
    expect(none.data.message).toBe("Guarde primero la configuración del servidor de correo para poder probarlo.");
    await call(b, route.action, { ...p(company.id), form: outgoing({ password: "mala" }) });
    const auth = await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "a@b.cr" } });
    expect(auth.status).toBe(502);
    expect(auth.data.ok).toBe(false);
    expect(auth.data.message).toMatch(/^El servidor de correo rechazó el usuario o la contraseña/);
    // Nothing listens on an allowed port: the same message as for any other network failure.
    const closed = await closedPort();
    allowSmtpPort(closed);
    await call(b, route.action, { ...p(company.id), form: outgoing({ port: String(closed) }) });
    const refused = await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "a@b.cr" } });
    expect(refused.data.message).toBe(`No se logró conectar con el servidor de correo 127.0.0.1:${closed}. Revise el servidor, el puerto y el cifrado.`);
    const bad = await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "no-es-correo" } });
    expect(bad.status).toBe(400);
    expect(bad.data.errors.test_to).toBe("Ingrese un correo válido para la prueba");
  });

  it("is no port scanner: only mail ports are saved or contacted, and every network failure reads the same", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { ...p(company.id), form: outgoing() });
    const before = await stored(company.id, "outgoing");
    // Another port (an internal service's, say) is refused when saving: nothing saved, values kept.
    const ssh = await call(b, route.action, { ...p(company.id), form: outgoing({ port: "22" }) });
    expect(ssh.status).toBe(400);
    expect(ssh.data.errors.port).toBe("Use un puerto de servidor de correo: 25, 465, 587 o 2525.");
    expect(ssh.data.values.port).toBe("22");
    expect((await stored(company.id, "outgoing")).port).toBe(before.port);
    // A row saved on such a port anyway (before this rule) is never contacted.
    const probe = net.createServer((socket) => {
      contacted++;
      socket.destroy();
    });
    let contacted = 0;
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const probePort = (probe.address() as net.AddressInfo).port;
    try {
      await database.db.update(emailConfigs).set({ port: probePort }).where(eq(emailConfigs.id, before.id));
      const test = await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "a@b.cr" } });
      expect(test.data.ok).toBe(false);
      expect(test.data.message).toBe(`No se logró conectar con el servidor de correo 127.0.0.1:${probePort}. Use un puerto de servidor de correo: 25, 465, 587 o 2525.`);
      expect(contacted).toBe(0);
    } finally {
      await new Promise((r) => probe.close(r));
    }
    // Refused, unreachable host, no SMTP at all: one message.
    const noSmtp = net.createServer((socket) => socket.end("SSH-2.0-OpenSSH_9.6\r\n"));
    await new Promise<void>((r) => noSmtp.listen(0, "127.0.0.1", r));
    const noSmtpPort = (noSmtp.address() as net.AddressInfo).port;
    allowSmtpPort(noSmtpPort);
    try {
      const messages: string[] = [];
      for (const [host, port] of [["127.0.0.1", noSmtpPort], ["no-existe.invalid", 587]] as const) {
        await call(b, route.action, { ...p(company.id), form: outgoing({ host, port: String(port) }) });
        messages.push((await call(b, route.action, { ...p(company.id), form: { section: "email-test", test_to: "a@b.cr" } })).data.message);
      }
      expect(messages).toEqual([
        `No se logró conectar con el servidor de correo 127.0.0.1:${noSmtpPort}. Revise el servidor, el puerto y el cifrado.`,
        "No se logró conectar con el servidor de correo no-existe.invalid:587. Revise el servidor, el puerto y el cifrado.",
      ]);
    } finally {
      await new Promise((r) => noSmtp.close(r));
    }
  });

  it("sendCompanyMail falls back to the global sender when the company has no server", async () => {
    const { company } = await setup();
    const sent = await sendCompanyMail(database.db, company.id, { to: "x@y.cr", subject: "Hola", text: "texto" });
    expect(sent.via).toBe("global");
  });
});

describe("a stored password is kept only for the server it was given for", () => {
  it("another host, port or user needs the password again: nothing saved, values kept; the same server keeps it", async () => {
    const { b, company } = await setup();
    await call(b, route.action, { ...p(company.id), form: outgoing() });
    const before = (await stored(company.id, "outgoing"))!;
    const changes: Record<string, string>[] = [{ host: "correo.atacante.example" }, { host: "127.0.0.1", port: "2525" }, { username: "otro-usuario" }];
    for (const change of changes) {
      const res = await call(b, route.action, { ...p(company.id), form: outgoing({ ...change, password: "" }) });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.data.errors.password).toBe(KEPT_PASSWORD_MESSAGE);
      expect(res.data.message).toBe(KEPT_PASSWORD_MESSAGE);
      for (const [field, value] of Object.entries(change)) expect(res.data.values[field]).toBe(value);
      expect(await stored(company.id, "outgoing")).toEqual(before);
    }
    // The same server (the host's case aside) with another sender name: the password stays.
    const same = await call(b, route.action, { ...p(company.id), form: outgoing({ host: "127.0.0.1", from_name: "Correo Dos", password: "" }) });
    expect(same.status).toBe(302);
    expect(await stored(company.id, "outgoing")).toMatchObject({ fromName: "Correo Dos", passwordEnc: before.passwordEnc });
    // Another server with its password typed: saved.
    expect((await call(b, route.action, { ...p(company.id), form: outgoing({ host: "localhost", password: "otra-clave" }) })).status).toBe(302);
    expect((await stored(company.id, "outgoing")).host).toBe("localhost");
    // The reception mailbox follows the same rule.
    const mailbox = { section: "email-reception", host: "imap.correo.cr", port: "993", username: "recibos@correo.cr", password: "imap-clave", encryption: "ssl" };
    expect((await call(b, route.action, { ...p(company.id), form: mailbox })).status).toBe(302);
    const moved = await call(b, route.action, { ...p(company.id), form: { ...mailbox, host: "imap.atacante.example", password: "" } });
    expect(moved.status).toBe(400);
    expect(moved.data.errors.password).toBe(KEPT_PASSWORD_MESSAGE);
    expect((await stored(company.id, "reception")).host).toBe("imap.correo.cr");
  });
});

describe("reception mailbox ('Configuración recepción de email')", () => {
  it("only IMAP ports are saved: another port is refused on its field, nothing saved, values kept", async () => {
    const { b, company } = await setup();
    const redis = await call(b, route.action, { ...p(company.id), form: { section: "email-reception", host: "10.0.0.5", port: "6379", username: "u", password: "p", encryption: "" } });
    expect(redis.status).toBe(400);
    expect(redis.data.errors.port).toBe("Use un puerto de servidor de correo: 143 o 993.");
    expect(redis.data.values).toMatchObject({ host: "10.0.0.5", port: "6379", username: "u" });
    expect(await stored(company.id, "reception")).toBeUndefined();
  });

  it("saves host, port, user, password (encrypted) and encryption; missing data → 'Faltan datos'", async () => {
    const { b, company } = await setup();
    const bad = await call(b, route.action, { ...p(company.id), form: { section: "email-reception", host: "imap.correo.cr", port: "", username: "", password: "" } });
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe("Faltan datos");
    expect(bad.data.values.host).toBe("imap.correo.cr");
    const ok = await call(b, route.action, { ...p(company.id), form: { section: "email-reception", host: "imap.correo.cr", port: "993", username: "recibos@correo.cr", password: "imap-clave", encryption: "ssl" } });
    expect(ok.status).toBe(302);
    const row = (await stored(company.id, "reception"))!;
    expect(row).toMatchObject({ host: "imap.correo.cr", port: 993, username: "recibos@correo.cr", encryption: "ssl" });
    expect(row.passwordEnc).not.toContain("imap-clave");
    const loaded = await call(b, route.loader, p(company.id));
    expect(JSON.stringify(loaded.data)).not.toContain("imap-clave");
    expect(loaded.data.email.reception.values.host).toBe("imap.correo.cr");
  });
});

describe("admins only", () => {
  it("staff get 403 on the screen, its forms, and the 'Servidor Email' tab is hidden and refused", async () => {
    const { s, company } = await setup();
    expect((await call(s, route.loader, p(company.id))).status).toBe(403);
    expect((await call(s, route.action, { ...p(company.id), form: outgoing() })).status).toBe(403);
    expect((await call(s, route.action, { ...p(company.id), form: { section: "email-test", test_to: "a@b.cr" } })).status).toBe(403);
    const tab = await call(s, tabs.loader, { path: `/main-configurations/${company.id}?tab=email`, params: { company_id: String(company.id) } });
    expect(tab.data.tab).toBe("generales");
    expect(tab.data.email).toBeUndefined();
    const post = await call(s, tabs.action, { path: `/main-configurations/${company.id}?tab=email`, params: { company_id: String(company.id) }, form: outgoing() });
    expect(post.status).toBe(403);
    expect(await stored(company.id, "outgoing")).toBeUndefined();
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}
