// /detail/:type/:id/:print? for an issued invoice: the preview from the stored view, the list of
// its type on the left, the actions and links, the rejection reasons, the print variant, the e-mail
// form's validation, and another company's id as 404 with nothing leaked.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documents } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import * as detail from "../../app/routes/documents/detail.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { call, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(() => database?.drop());

async function setup() {
  const a = await issuingCompany(database.db);
  const issued = await issueDocument(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id), now: new Date("2026-11-21T15:30:00Z"), schemaSet: testSchemaSet() });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  const b = await signedIn(database.db, a.user.id, a.company.id);
  return { ...a, issued, b };
}

const open = (b: Awaited<ReturnType<typeof signedIn>>, type: string, id: number, print?: string) =>
  call(b, detail.loader, { path: `/detail/${type}/${id}${print ? `/${print}` : ""}`, params: { type, id: String(id), ...(print ? { print } : {}) } });

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
    expect(d.print).toBe(false);
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
    expect(d.defaultEmails).toContain("cliente@example.cr");
    expect(d.actions).toEqual({ clone: true, notes: true, pay: true, recurring: true });
    expect(d.paymentStatus).toBe("No pagado");

    // Wrong type for the kind: 404
    expect((await status(s.b, "ticket", s.issued.documentId)).status).toBe(404);
    expect((await status(s.b, "nada", s.issued.documentId)).status).toBe(404);
  }, 60_000);

  it("a rejected invoice shows Hacienda's reasons; the print variant only the document", async () => {
    const s = await setup();
    await database.db
      .update(documents)
      .set({ status: "rechazado", haciendaDetail: "El campo Receptor/Identificacion/Numero no es válido.", responseXml: Buffer.from("<MensajeHacienda/>") })
      .where(eq(documents.id, s.issued.documentId));
    const d = (await open(s.b, "invoice", s.issued.documentId)).data;
    expect(d.rejected).toBe(true);
    expect(d.ribbon).toBe("rechazado");
    expect(d.haciendaDetail).toBe("El campo Receptor/Identificacion/Numero no es válido.");
    expect(d.hasResponseXml).toBe(true);
    expect(d.actions.pay).toBe(false);
    expect(d.paymentStatus).toBeNull();

    const p = (await open(s.b, "invoice", s.issued.documentId, "print")).data;
    expect(p.print).toBe(true);
    expect(p.preview.clave).toBe(s.issued.clave);
    expect(p.list).toBeUndefined();
  }, 60_000);

  it("the e-mail form rejects invalid addresses", async () => {
    const s = await setup();
    expect(detail.parseAddresses("a@b.cr, c@d.com")).toEqual({ ok: true, to: ["a@b.cr", "c@d.com"] });
    expect(detail.parseAddresses("  ")).toEqual({ ok: false, error: detail.DETAIL_MESSAGES.required });
    expect(detail.parseAddresses("a@b.cr; malo")).toMatchObject({ ok: false, error: "malo: invalido" });
    const r = await call(s.b, detail.action, { path: `/detail/invoice/${s.issued.documentId}`, params: { type: "invoice", id: String(s.issued.documentId) }, form: { intent: "email", emails: "no-es-correo" } });
    expect(r.status).toBe(400);
    expect(r.data).toEqual({ error: "no-es-correo: invalido", emails: "no-es-correo" });
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
    const sent = await call(ob, detail.action, { path: `/detail/invoice/${s.issued.documentId}`, params: { type: "invoice", id: String(s.issued.documentId) }, form: { intent: "email", emails: "x@y.cr" } });
    expect(sent.status).toBe(404);
    const r = await status(ob, "invoice", s.issued.documentId);
    expect(r.status).toBe(404);
  }, 60_000);
});
