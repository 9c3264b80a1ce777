// The document e-mail captured by an in-process SMTP server: the company's template for the type
// fills subject and body; the PDF, <clave>.xml and <clave>_respuesta.xml are attached with their
// content types (quotations: the PDF only); the company's server is used when configured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentMessage, fillDocumentTemplate, fillTemplate } from "../../app/email/document-email.ts";
import { feColones, quotation, teGeneric } from "../../app/domain/document-view.fixtures.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { MISSING_SIGNED_XML, NO_RECIPIENTS, sendDocumentEmail } from "../../app/server/document-email.server.ts";
import type { OutgoingEmailInput } from "../../app/domain/config-schemas.ts";
import { createCompany } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from "../fixtures/smtp.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
let smtpPort: number;
let received: CapturedMail[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture();
  smtpPort = smtp.port;
  received = smtp.received;
});
afterAll(async () => {
  await smtp?.close();
  await database.drop();
});

interface Part {
  headers: string;
  body: string;
}

/** Minimal MIME split: the parts of the top multipart (one level of nesting followed). */
function parts(raw: string): Part[] {
  const out: Part[] = [];
  const walk = (text: string) => {
    const m = /boundary="?([^";\r\n]+)"?/i.exec(text.split(/\r?\n\r?\n/)[0]);
    if (!m) return;
    for (const chunk of text.split(`--${m[1]}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      const idx = chunk.search(/\r?\n\r?\n/);
      const headers = chunk.slice(0, idx).replace(/\r?\n[ \t]+/g, " ");
      const body = chunk.slice(idx).trim();
      if (/multipart\//i.test(headers)) walk(chunk.trimStart());
      else out.push({ headers, body });
    }
  };
  walk(raw);
  return out;
}

const decode = (p: Part) => (/base64/i.test(p.headers) ? Buffer.from(p.body.replace(/\s+/g, ""), "base64") : Buffer.from(p.body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1"));
const attachments = (raw: string) => parts(raw).filter((p) => /filename=/i.test(p.headers));
const filename = (p: Part) => /filename="?([^";]+)"?/i.exec(p.headers)?.[1];
const decodedSubject = (raw: string) => {
  const line = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)![1].replace(/\r?\n[ \t]/g, " ");
  return line.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, txt: string) =>
    enc.toLowerCase() === "b" ? Buffer.from(txt, "base64").toString("utf8") : Buffer.from(txt.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m: string, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8"),
  );
};

async function companyWithServer() {
  const company = await createCompany(database.db, { name: "Ñandú S.A." });
  await setupConfigForCompany(database.db, company.id);
  await saveOutgoingEmail(database.db, company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtpPort, username: "u", password: "p", from_email: "facturas@nandu.example", from_name: "Ñandú" } satisfies OutgoingEmailInput);
  return company;
}

describe("document e-mail", () => {
  it("fills placeholders and leaves unknown ones as typed", () => {
    expect(fillTemplate("Hola {cliente}, {otro}", { cliente: "Peña" })).toBe("Hola Peña, {otro}");
    const mail = documentMessage(feColones, fillDocumentTemplate(feColones, { subject: "Factura {referencia}\r\nBcc: x@y", body: "{monto}" }), { pdf: Buffer.from("%PDF") });
    expect(mail.subject).toBe("Factura 00100001010000000125 Bcc: x@y");
    expect(mail.text).toContain("₡74.248,69");
  });

  it("sends an invoice through the company's server with the PDF, the signed XML and Hacienda's answer", async () => {
    const company = await companyWithServer();
    received.length = 0;
    const signedXml = '<?xml version="1.0" encoding="utf-8"?><FacturaElectronica><Clave>' + feColones.clave + "</Clave></FacturaElectronica>";
    const responseXml = '<?xml version="1.0" encoding="utf-8"?><MensajeHacienda><Mensaje>1</Mensaje></MensajeHacienda>';
    const res = await sendDocumentEmail(database.db, { companyId: company.id, view: feColones, signedXml, responseXml, to: ["maria.munoz@correo.example", "contabilidad@correo.example", "maria.munoz@correo.example"] });
    expect(res.via).toBe("company");
    expect(received).toHaveLength(1);
    const mail = received[0];
    expect(mail.to.sort()).toEqual(["contabilidad@correo.example", "maria.munoz@correo.example"]);
    expect(decodedSubject(mail.raw)).toBe(`Factura electrónica ${feColones.consecutive} de Diseño y Cómputo Ñandú`);
    const text = parts(mail.raw).find((p) => /text\/plain/i.test(p.headers) && !/filename=/i.test(p.headers))!;
    const body = decode(text).toString("utf8");
    expect(body).toContain("Estimado(a) María José Muñoz Peña:");
    expect(body).toContain("₡74.248,69");
    expect(body).toContain("14/12/2026");
    expect(body).toContain(feColones.publicUrl);
    const files = attachments(mail.raw);
    expect(files.map(filename)).toEqual([`${feColones.clave}.pdf`, `${feColones.clave}.xml`, `${feColones.clave}_respuesta.xml`]);
    expect(files[0].headers).toMatch(/Content-Type: application\/pdf/i);
    expect(files[1].headers).toMatch(/Content-Type: application\/xml/i);
    expect(files[2].headers).toMatch(/Content-Type: application\/xml/i);
    expect(decode(files[0]).subarray(0, 5).toString()).toBe("%PDF-");
    expect(decode(files[1]).toString("utf8")).toBe(signedXml);
    expect(decode(files[2]).toString("utf8")).toBe(responseXml);
  });

  it("uses the ticket template for a ticket and sends a quotation with its PDF only", async () => {
    const company = await companyWithServer();
    received.length = 0;
    await sendDocumentEmail(database.db, { companyId: company.id, view: teGeneric, signedXml: "<TiqueteElectronico/>", responseXml: "<MensajeHacienda/>", to: ["a@b.example"] });
    expect(decodedSubject(received[0].raw)).toContain("Tiquete electrónico");
    await sendDocumentEmail(database.db, { companyId: company.id, view: quotation, to: ["a@b.example"] });
    expect(decodedSubject(received[1].raw)).toBe(`Cotización ${quotation.consecutive} de Diseño y Cómputo Ñandú`);
    const files = attachments(received[1].raw);
    expect(files.map(filename)).toEqual([`cotizacion-${quotation.consecutive}.pdf`]);
  });

  it("refuses without recipients or without the signed XML", async () => {
    const company = await companyWithServer();
    await expect(sendDocumentEmail(database.db, { companyId: company.id, view: feColones, signedXml: "<x/>", to: [" "] })).rejects.toThrow(NO_RECIPIENTS);
    await expect(sendDocumentEmail(database.db, { companyId: company.id, view: feColones, to: ["a@b.example"] })).rejects.toThrow(MISSING_SIGNED_XML);
  });
});
