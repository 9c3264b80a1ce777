// Outgoing e-mail through nodemailer. With SMTP_URL set, a real SMTP exchange; without it, each
// message is written as an .eml file into the outbox folder of the data directory (the log says where).
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "./env.server.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer | string; contentType?: string }[];
}

let transport: Transporter | undefined;
let transportKey = "";

function getTransport(): { transporter: Transporter; outbox?: string } {
  const { smtpUrl, dataDir } = env();
  const key = smtpUrl || `outbox:${dataDir}`;
  if (!transport || key !== transportKey) {
    transportKey = key;
    transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  }
  return { transporter: transport, outbox: smtpUrl ? undefined : path.join(dataDir, "outbox") };
}

export async function sendMail(message: MailMessage): Promise<{ messageId: string; file?: string }> {
  const { transporter, outbox } = getTransport();
  const info = await transporter.sendMail({ from: env().mailFrom, ...message });
  if (outbox) {
    fs.mkdirSync(outbox, { recursive: true });
    const file = path.join(outbox, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.eml`);
    fs.writeFileSync(file, (info as unknown as { message: Buffer }).message);
    console.log(`[mail] Sin SMTP configurado: mensaje guardado en ${file}`);
    return { messageId: info.messageId, file };
  }
  return { messageId: info.messageId };
}
