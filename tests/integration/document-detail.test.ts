// /detail/:type/:id/:print? for an issued invoice: the preview from the stored view, the list of
// its type on the left, the actions and links, the rejection reasons, the print variant, the e-mail
// form (prefilled from the template, validated, recorded on the document), the e-mail status line,
// and another company's id as 404 with nothing leaked.
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { detalleMensaje } from "../../app/hacienda/sandbox/mensaje.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documents, jobs } from "../../db/schema/index.ts";
import { EMAIL_FORM_MESSAGES, parseAddresses } from "../../app/domain/email-form.ts";
import { NO_RECIPIENTS, nextEmailAttempt, sendDocumentEmailOnce } from "../../app/server/document-email.server.ts";
import { documentEmailJobKey, enqueueDocumentEmail } from "../../app/server/hacienda-pipeline.server.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { readToasts } from "../../app/server/flash.server.ts";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as detailPrint from "../../app/routes/documents/detail-print.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";
import { call, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
let smtpPort: number;
let received: SmtpCapture["received"];
beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture();
  smtpPort = smtp.port;
  received = smtp.received;
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

async function setup() {
  const a = await issuingCompany(database.db);
  const issued = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id), now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  const b = await signedIn(database.db, a.user.id, a.company.id);
  return { ...a, issued, b };
}

const open = (b: Awaited<ReturnType<typeof signedIn>>, type: string, id: number, print?: string) =>
  call(b, print ? detailPrint.loader : detail.loader, { path: `/detail/${type}/${id}${print ? `/${print}` : ""}`, params: { type, id: String(id), ...(print ? { print } : {}) } });

/** Server-renders the detail screen with loader data (what a browser without JavaScript gets). */
function render(path: string, loaderData: unknown, actionData?: unknown): string {
  const Stub = createRoutesStub([{ id: "detail-transaction", path: "/detail/:type/:id/:print?", Component: detail.default as never, loader: () => null, action: () => null }]);
  return renderToString(
    createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { "detail-transaction": loaderData }, ...(actionData ? { actionData: { "detail-transaction": actionData } } : {}) } }),
  );
}

/** Runs the loader and returns the 404 it throws (or the data). */
async function status(b: Awaited<ReturnType<typeof signedIn>>, type: string, id: number, print?: string) {
  try {
    const r = await open(b, type, id, print);
    return { status: r.status, data: r.data };
  } catch (e) {
    return { status: -1, data: e };
  }
}

describe("document detail viewer", () => {
  it("shows an issued invoice: preview, list, downloads, public link, actions", async () => {
    const s = await setup();
    const r = await open(s.b, "invoice", s.issued.documentId);
    expect(r.status).toBe(200);
    const d = r.data;
    expect(d.preview.clave).toBe(s.issued.clave);
    expect(d.preview.client.name).toBe("Distribuidora La Sabana Limitada");
    expect(d.preview.totals.total).toBe("1226150.00000");
    expect(d.preview.company.logo).toBeNull();
    expect(d.ribbon).toBe("por enviar");
    expect(d.list.map((x: { id: number }) => x.id)).toEqual([s.issued.documentId]);
    expect(d.list[0]).toMatchObject({ number: s.issued.consecutivo, total: "₡1.226.150,00" });
    expect(d.hasSignedXml).toBe(true);
    expect(d.hasResponseXml).toBe(false);
    expect(d.publicUrl).toMatch(/\/query-public\/[^/]+$/);
    expect(d.emailForm.emails).toContain("cliente@example.cr");
    expect(d.actions).toEqual({ clone: true, notes: true, pay: true, recurring: true, replace: false, reminder: null });
    expect(d.paymentStatus).toBe("No pagado");

    const html = render(`/detail/invoice/${s.issued.documentId}`, d);
    expect(html).toContain(s.issued.clave);
    expect(html).toContain("Distribuidora La Sabana Limitada");
    expect(html).toContain("₡1.226.150,00");
    expect(html).toContain(`href="/document-file/${s.issued.documentId}/pdf"`);
    expect(html).toContain(`href="/document-file/${s.issued.documentId}/xml"`);
    expect(html).not.toContain("/respuesta");
    expect(html).toContain(`value="${d.publicUrl}"`);
    expect(html).toContain('name="emails"');
    expect(html).toContain(`href="/new-clone/invoice/${s.issued.documentId}"`);
    expect(html).toContain(`href="/new-note/nc/invoice/${s.issued.documentId}"`);
    expect(html).toContain("data-status-ribbon");

    // Wrong type for the kind: 404
    expect((await status(s.b, "ticket", s.issued.documentId)).status).toBe(404);
    expect((await status(s.b, "nada", s.issued.documentId)).status).toBe(404);
  }, 60_000);

  it("tickets, notes and quotations open under their own type; quotations have no ribbon", async () => {
    const s = await setup();
    const now = new Date("2026-11-21T16:00:00Z");
    const te = await issueDocument(database.db, { companyId: s.company.id, userId: s.user.id, draft: sampleDraft("te", s.generic.id), now, schemaSet: testSchemaSet() });
    const qt = await issueDocument(database.db, { companyId: s.company.id, userId: s.user.id, draft: sampleDraft("qt", s.client.id), now, schemaSet: testSchemaSet() });
    const nc = await issueDocument(database.db, {
      companyId: s.company.id,
      userId: s.user.id,
      draft: sampleDraft("nc", s.client.id, { note: "Devolución", references: [{ documentId: s.issued.documentId, docType: "", number: "", issuedAt: "", code: "06", reason: "Devolución" }], lines: sampleDraft("fe", 1).lines.slice(0, 1) }),
      now,
      schemaSet: testSchemaSet(),
    });
    if (!te.ok || !qt.ok || !nc.ok) throw new Error("issue failed");
    const t = (await open(s.b, "ticket", te.documentId)).data;
    expect(t.list.map((x: { id: number }) => x.id)).toEqual([te.documentId]);
    expect(t.preview.client.generic).toBe(true);
    expect(t.actions.recurring).toBe(false);
    const n = (await open(s.b, "note", nc.documentId)).data;
    expect(n.preview.references).toHaveLength(1);
    expect(n.actions).toMatchObject({ clone: false, notes: false });
    const q = (await open(s.b, "quotation", qt.documentId)).data;
    expect(q.ribbon).toBeNull();
    expect(render(`/detail/quotation/${qt.documentId}`, q)).not.toContain("data-status-ribbon");
    expect((await status(s.b, "invoice", qt.documentId)).status).toBe(404);
  }, 60_000);

  it("a ticket to an international client shows that client; a purchase invoice names its provider 'Proveedor'", async () => {
    const s = await setup();
    const now = new Date("2026-11-21T16:00:00Z");
    const te = await issueDocument(database.db, { companyId: s.company.id, userId: s.user.id, draft: sampleDraft("te", s.generic.id, { internationalClient: { name: "John Smith", cedula: "P123456789" } }), now, schemaSet: testSchemaSet() });
    const fec = await issueDocument(database.db, {
      companyId: s.company.id,
      userId: s.user.id,
      draft: sampleDraft("fec", s.provider.id, { references: [{ docType: "14", number: "REG-ESP-2026-0005", issuedAt: "2026-11-21T14:00:00Z", code: "04", reason: "Compra a productor de régimen especial" }] }),
      now,
      schemaSet: testSchemaSet(),
    });
    if (!te.ok || !fec.ok) throw new Error("issue failed");
    const t = (await open(s.b, "ticket", te.documentId)).data;
    expect(t.preview.client).toMatchObject({ name: "John Smith", identification: { type: "05", number: "P123456789" }, generic: false });
    expect(t.list[0].client).toBe("John Smith");
    const ticket = render(`/detail/ticket/${te.documentId}`, t);
    expect(ticket).toContain("<b>Cliente<!-- -->:</b> <!-- -->John Smith");
    expect(ticket).toContain("Extranjero: P123456789");
    expect(ticket).not.toContain("Cliente genérico");
    const f = (await open(s.b, "simple", fec.documentId)).data;
    const simple = render(`/detail/simple/${fec.documentId}`, f);
    expect(simple).toContain("<b>Proveedor<!-- -->:</b> <!-- -->José Pérez Mora");
    expect(simple).not.toContain("<b>Cliente");
    // Every other document keeps 'Cliente'.
    expect(render(`/detail/invoice/${s.issued.documentId}`, (await open(s.b, "invoice", s.issued.documentId)).data)).toContain("<b>Cliente<!-- -->:</b> <!-- -->Distribuidora La Sabana Limitada");
  }, 60_000);

  it("a rejected invoice shows Hacienda's reasons in plain Spanish; the print variant only the document", async () => {
    const s = await setup();
    const rejectedDetail = detalleMensaje({
      estado: "rechazado",
      errores: [{ codigo: -37, mensaje: "El comprobante no cumple el esquema XSD v4.4 en /FacturaElectronica/Receptor/Identificacion/Numero: Element 'Numero': [facet 'pattern'] The value '12' is not accepted by the pattern '[0-9]{9,12}'.", fila: 0, columna: 0 }],
    });
    await database.db
      .update(documents)
      .set({ status: "rechazado", haciendaDetail: rejectedDetail, responseXml: Buffer.from("<MensajeHacienda/>") })
      .where(eq(documents.id, s.issued.documentId));
    const d = (await open(s.b, "invoice", s.issued.documentId)).data;
    expect(d.rejected).toBe(true);
    expect(d.ribbon).toBe("rechazado");
    expect(d.haciendaDetail).toBe(rejectedDetail);
    expect(d.rejectionReasons).toEqual(["El dato «Receptor › Identificacion › Numero» no tiene el formato que exige Hacienda."]);
    expect(d.hasResponseXml).toBe(true);
    expect(d.actions.pay).toBe(false);
    expect(d.paymentStatus).toBeNull();
    expect(d.actions.replace).toBe(true);
    const page = render(`/detail/invoice/${s.issued.documentId}`, d);
    expect(page).toContain(`href="/new-clone/invoice/${s.issued.documentId}?replace=1"`);
    expect(page).toContain("Corregir y reemplazar");
    expect(page).toContain("código de referencia 16, «Sustituye comprobante electrónico rechazado»: no necesita una nota de crédito");

    const p = await open(s.b, "invoice", s.issued.documentId, "print");
    expect(p.status).toBe(200);
    const printed = await p.response.text();
    expect(printed).toContain(s.issued.clave);
    expect(printed).toContain('aria-label="Código QR del documento"');
    expect(printed).not.toContain('name="emails"');
    expect(printed).not.toContain("/document-file/");
    expect(printed).not.toMatch(/<script/i);

    const html = render(`/detail/invoice/${s.issued.documentId}`, d);
    expect(html).toContain("Hacienda rechazó este documento.");
    expect(html).toContain("<li>El dato «Receptor › Identificacion › Numero» no tiene el formato que exige Hacienda.</li>");
    expect(html).toContain("Respuesta completa de Hacienda");
    expect(html).toContain(`href="/document-file/${s.issued.documentId}/respuesta"`);
  }, 60_000);

  it("the e-mail form: addresses, subject and body from the template, all required; what was typed is kept", async () => {
    const s = await setup();
    expect(parseAddresses("a@b.cr, c@d.com")).toEqual({ ok: true, to: ["a@b.cr", "c@d.com"] });
    expect(parseAddresses("  ")).toEqual({ ok: false, error: EMAIL_FORM_MESSAGES.emailsRequired });
    expect(parseAddresses("a@b.cr; malo")).toMatchObject({ ok: false, error: "malo: invalido" });
    // Prefilled: the client's address, the subject and body of the company's invoice template.
    await setupConfigForCompany(database.db, s.company.id);
    const d = (await open(s.b, "invoice", s.issued.documentId)).data;
    expect(d.emailForm).toEqual({
      emails: "cliente@example.cr",
      subject: expect.stringContaining(s.issued.consecutivo!),
      body: expect.stringContaining("Estimado(a) Distribuidora La Sabana Limitada:"),
    });
    expect(d.emailForm.subject).not.toContain("{");
    const html = render(`/detail/invoice/${s.issued.documentId}`, d);
    for (const name of ["emails", "subject", "body"]) expect(html).toContain(`name="${name}"`);
    expect(html).toContain(`value="${d.emailForm.subject}"`);

    const path = `/detail/invoice/${s.issued.documentId}`;
    const params = { type: "invoice", id: String(s.issued.documentId) };
    const r = await call(s.b, detail.action, { path, params, form: { intent: "email", emails: "no-es-correo", subject: "  ", body: "Mi mensaje escrito" } });
    expect(r.status).toBe(400);
    expect(r.data).toEqual({
      intent: "email",
      errors: { emails: "no-es-correo: invalido", subject: EMAIL_FORM_MESSAGES.subjectRequired },
      values: { intent: "email", emails: "no-es-correo", subject: "  ", body: "Mi mensaje escrito" },
    });
    const none = await call(s.b, detail.action, { path, params, form: { intent: "email", emails: "", subject: "Hola", body: "" } });
    expect(none.data.errors).toEqual({ emails: EMAIL_FORM_MESSAGES.emailsRequired, body: EMAIL_FORM_MESSAGES.bodyRequired });
    // Shown again without JavaScript: the messages and what was typed.
    const again = render(path, d, r.data);
    expect(again).toContain("no-es-correo: invalido");
    expect(again).toContain(EMAIL_FORM_MESSAGES.subjectRequired);
    expect(again).toContain('value="no-es-correo"');
    expect(again).toContain("Mi mensaje escrito</textarea>");
    const [doc] = await database.db.select().from(documents).where(eq(documents.id, s.issued.documentId));
    expect(doc.emailSentAt).toBeNull();
  }, 60_000);

  it("sends the document by e-mail with the typed subject and body, confirms, and records it so the job does not send it again", async () => {
    const s = await setup();
    await setupConfigForCompany(database.db, s.company.id);
    await saveOutgoingEmail(database.db, s.company.id, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtpPort, username: "u", password: "p", from_email: "facturas@colibri.example", from_name: "Colibri" });
    // Accepted, and the automatic e-mail had failed.
    await database.db.update(documents).set({ status: "aceptado", emailError: "No se logró conectar con el servidor de correo." }).where(eq(documents.id, s.issued.documentId));
    received.length = 0;
    const path = `/detail/invoice/${s.issued.documentId}`;
    const r = await call(s.b, detail.action, {
      path,
      params: { type: "invoice", id: String(s.issued.documentId) },
      form: { intent: "email", emails: "ana@example.cr, luis@example.cr", subject: "Su factura de noviembre", body: "Hola Ana, adjunto la factura de noviembre." },
    });
    expect(r.status).toBe(302);
    expect(r.location).toBe(path);
    const flash = s.b.cookies.get("colibri_flash");
    const toasts = flash ? (readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) ?? []) : [];
    expect(toasts).toContainEqual({ type: "success", text: "El email se envio correctamente" });
    expect(received).toHaveLength(1);
    expect(received[0].to.sort()).toEqual(["ana@example.cr", "luis@example.cr"]);
    expect(received[0].raw).toContain("Subject: Su factura de noviembre");
    expect(received[0].raw).toContain("Hola Ana, adjunto la factura de noviembre.");
    expect(received[0].raw).toContain(`${s.issued.clave}.pdf`);
    expect(received[0].raw).toContain(`${s.issued.clave}.xml`);

    const [doc] = await database.db.select().from(documents).where(eq(documents.id, s.issued.documentId));
    expect(doc.emailSentAt).toBeInstanceOf(Date);
    expect(doc).toMatchObject({ emailSentTo: "ana@example.cr, luis@example.cr", emailError: null, emailSendingAt: null });
    const d = (await open(s.b, "invoice", s.issued.documentId)).data;
    expect(d.emailStatus).toMatch(/^Enviado por correo a ana@example\.cr, luis@example\.cr el /);
    // The automatic job finds it sent.
    expect(await sendDocumentEmailOnce(database.db, { companyId: s.company.id, documentId: s.issued.documentId }, new Date())).toBe("already-sent");
    expect(received).toHaveLength(1);

    // Sent by hand before Hacienda accepts: the automatic e-mail, with Hacienda's answer, still goes.
    const [fe2] = await database.db.select().from(documents).where(eq(documents.id, s.issued.documentId));
    await database.db.update(documents).set({ status: "procesando", emailSentAt: null, emailSentTo: null }).where(eq(documents.id, fe2.id));
    const early = await call(s.b, detail.action, { path, params: { type: "invoice", id: String(fe2.id) }, form: { intent: "email", emails: "ana@example.cr", subject: "Adelanto", body: "Su factura." } });
    expect(early.status).toBe(302);
    expect(received).toHaveLength(2);
    const [pending] = await database.db.select().from(documents).where(eq(documents.id, fe2.id));
    expect(pending).toMatchObject({ emailSentAt: null, emailSendingAt: null });
    await database.db.update(documents).set({ status: "aceptado" }).where(eq(documents.id, fe2.id));
    expect(await sendDocumentEmailOnce(database.db, { companyId: s.company.id, documentId: fe2.id }, new Date())).toBe("sent");
    expect(received).toHaveLength(3);
  }, 60_000);

  it("the e-mail status says truthfully when the next automatic try is", async () => {
    const s = await setup();
    const id = s.issued.documentId;
    const failure = "El servidor de correo rechazó el mensaje.";
    await database.db.update(documents).set({ status: "aceptado", emailError: failure }).where(eq(documents.id, id));
    // A queued retry: its time.
    const runAt = new Date("2026-11-21T18:05:00Z");
    await enqueueDocumentEmail(database.db, { companyId: s.company.id, documentId: id }, runAt);
    expect(await nextEmailAttempt(database.db, id)).toEqual(runAt);
    let d = (await open(s.b, "invoice", id)).data;
    expect(d.emailStatus).toBe(`No se pudo enviar por correo: ${failure} Próximo intento automático: 21/11/2026 12:05 PM; también puede enviarlo desde aquí.`);
    // No job queued (it ran out): the sweep queues it within minutes.
    await database.db.delete(jobs).where(eq(jobs.uniqueKey, documentEmailJobKey(id)));
    d = (await open(s.b, "invoice", id)).data;
    expect(d.emailStatus).toBe(`No se pudo enviar por correo: ${failure} Se reintentará automáticamente en unos minutos; también puede enviarlo desde aquí.`);
    // Nobody to send it to: nothing automatic is promised.
    await database.db.update(documents).set({ clientSnapshot: { name: "Sin correo", email: "" }, emails: [], emailError: NO_RECIPIENTS }).where(eq(documents.id, id));
    d = (await open(s.b, "invoice", id)).data;
    expect(d.emailStatus).toBe(`No se pudo enviar por correo: ${NO_RECIPIENTS} Puede enviarlo desde aquí.`);
  }, 60_000);

  it("another company's document is 404 and leaks nothing", async () => {
    const s = await setup();
    const other = await issuingCompany(database.db);
    const ob = await signedIn(database.db, other.user.id, other.company.id);
    for (const print of [undefined, "print"]) {
      const r = await status(ob, "invoice", s.issued.documentId, print);
      expect(r.status).toBe(404);
      expect(JSON.stringify(r.data ?? null)).not.toContain(s.issued.clave!);
    }
    const sent = await call(ob, detail.action, { path: `/detail/invoice/${s.issued.documentId}`, params: { type: "invoice", id: String(s.issued.documentId) }, form: { intent: "email", emails: "x@y.cr", subject: "a", body: "b" } });
    expect(sent.status).toBe(404);
    const r = await status(ob, "invoice", s.issued.documentId);
    expect(r.status).toBe(404);
  }, 60_000);
});
