// Plan 5 (API) is read-only in the interface (spec part 1 §1, §6; part 2 §6), and the server says so
// too (issue 10 point 8, docs/decisions/124-plan5-read-only.md): every post to a screen of the
// company's data is refused in one place (the root middleware, from the route table's
// `plan5Writes`) with 403 and a Spanish message, and changes nothing — not even an e-mail. Each row of
// `REFUSED` is a mutation that went through before (a valid form). The session utilities and account
// administration stay writable (`ALLOWED`). The route table itself is checked: every signed-in route
// that may change data at plan 5 is listed here by name.
import { count, eq } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  banks,
  cabysCodes,
  clients,
  companies,
  emailTemplates,
  generalConfigurations,
  haciendaConfigs,
  items,
  payments,
  recurringDocuments,
  students,
  taxTypes,
  terms,
  documents,
  users,
} from "../../db/schema/index.ts";
import { PLAN5_READ_ONLY, ROUTES } from "../../app/domain/access.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import { saveOutgoingEmail } from "../../app/server/company-mail.server.ts";
import { createRecurring } from "../../app/server/recurring.server.ts";
import { costaRicaDay } from "../../app/domain/document-status.ts";
import * as logout from "../../app/routes/auth/logout.tsx";
import * as clientDetail from "../../app/routes/clients/client-detail.tsx";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import * as newClient from "../../app/routes/clients/new-client.tsx";
import * as providers from "../../app/routes/clients/providers.tsx";
import * as selectCompany from "../../app/routes/companies/select-company.tsx";
import * as configGenerals from "../../app/routes/config/config-generals.tsx";
import * as configurations from "../../app/routes/config/configurations.tsx";
import * as templateEmail from "../../app/routes/config/template-email.tsx";
import * as termsRoute from "../../app/routes/config/terms.tsx";
import * as seen from "../../app/routes/dashboard/advertisement-seen.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as documentForm from "../../app/routes/documents/document-form.tsx";
import * as recurrings from "../../app/routes/documents/recurrings.tsx";
import * as itemForm from "../../app/routes/items/item-form.tsx";
import * as itemsRoute from "../../app/routes/items/items.tsx";
import * as taxes from "../../app/routes/items/taxes.tsx";
import * as paymentsRoute from "../../app/routes/payments/payments.tsx";
import * as quotations from "../../app/routes/quotations/quotations.tsx";
import * as studentsRoute from "../../app/routes/students/students.tsx";
import * as userForm from "../../app/routes/users/user-form.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/smtp.ts";
import { call, createCompany, signedIn, type Browser, type CallResult } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: SmtpCapture;
let b: Browser;
let c: number;
let other: number;
let ids: { client: number; invoice: number; quotation: number; recurring: number; term: number; template: number; tax13: number };

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture();
  const db = database.db;
  const t = await issuingCompany(db);
  c = t.company.id;
  await db.update(users).set({ role: "admin" }).where(eq(users.id, t.user.id));
  await setupItemsForCompany(db, c);
  await setupConfigForCompany(db, c);
  await saveOutgoingEmail(db, c, { protocol: "smtp", encryption: "none", host: "127.0.0.1", port: smtp.port, username: "u", password: "p", from_email: "facturas@empresa.example", from_name: "Empresa" });
  await db.insert(cabysCodes).values({ code: "8313100000000", description: "Servicios de consultoría", taxRate: "13" }).onConflictDoNothing();
  const schemaSet = testSchemaSet();
  const invoice = await issueDocument(db, { companyId: c, userId: t.user.id, draft: sampleDraft("fe", t.client.id, { saleCondition: "02", creditDays: 5 }), now: new Date(), schemaSet });
  const quotation = await issueDocument(db, { companyId: c, userId: t.user.id, draft: sampleDraft("qt", t.client.id), now: new Date(), schemaSet });
  if (!invoice.ok || !quotation.ok) throw new Error("issue");
  await db.update(documents).set({ status: "aceptado" }).where(eq(documents.id, invoice.documentId));
  const recurring = await createRecurring(db, { companyId: c, userId: t.user.id, draft: sampleDraft("fe", t.client.id), startDay: costaRicaDay(new Date(Date.now() + 10 * 86400_000)), cycle: "monthly", now: new Date(), schemaSet });
  if (!recurring.ok) throw new Error("recurring");
  const [term] = await db.insert(terms).values({ companyId: c, name: "Garantía", body: "Seis meses." }).returning();
  const [template] = await db.select().from(emailTemplates).where(eq(emailTemplates.companyId, c));
  const tax13 = (await db.select().from(taxTypes).where(eq(taxTypes.companyId, c))).find((x) => x.name === "IVA 13%")!.id;
  ids = { client: t.client.id, invoice: invoice.documentId, quotation: quotation.documentId, recurring: recurring.id, term: term.id, template: template.id, tax13 };
  other = (await createCompany(db, { userIds: [t.user.id], name: "Otra Empresa Plan Uno" })).id;
  await db.update(companies).set({ permission: 5 }).where(eq(companies.id, c));
  b = await signedIn(db, t.user.id, c);
}, 180_000);
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

/** Everything of the company a post could change, and the mails sent. */
async function snapshot() {
  const db = database.db;
  const n = async (table: PgTable) => Number((await db.select({ n: count() }).from(table))[0].n);
  return {
    counts: {
      clients: await n(clients),
      items: await n(items),
      students: await n(students),
      terms: await n(terms),
      taxes: await n(taxTypes),
      documents: await n(documents),
      payments: await n(payments),
      banks: await n(banks),
      recurring: await n(recurringDocuments),
    },
    general: await db.select().from(generalConfigurations).where(eq(generalConfigurations.companyId, c)),
    templates: await db.select().from(emailTemplates).where(eq(emailTemplates.companyId, c)),
    termRows: await db.select().from(terms).where(eq(terms.companyId, c)),
    hacienda: (await db.select().from(haciendaConfigs).where(eq(haciendaConfigs.companyId, c))).map((r) => ({ ...r, keyEnc: null, updatedAt: null })),
    clientRows: await db.select().from(clients).where(eq(clients.companyId, c)),
    documentRows: (await db.select({ id: documents.id, status: documents.status, paymentAmount: documents.paymentAmount, emailSentAt: documents.emailSentAt, remindersSent: documents.remindersSent }).from(documents).where(eq(documents.companyId, c))),
    recurringRows: await db.select({ id: recurringDocuments.id, paused: recurringDocuments.paused }).from(recurringDocuments).where(eq(recurringDocuments.companyId, c)),
    mails: smtp.received.length,
  };
}

const service = (i = 0) => ({
  [`lines[${i}].cabys`]: "8313100000000",
  [`lines[${i}].description`]: "Horas de consultoría",
  [`lines[${i}].unit`]: "Sp",
  [`lines[${i}].quantity`]: "1",
  [`lines[${i}].price`]: "25000",
  [`lines[${i}].discount`]: "0",
  [`lines[${i}].taxTypeId`]: String(ids.tax13),
});
const documentForm_ = (extra: Record<string, string> = {}) => ({ intent: "save", sale_condition: "01", "payments[0].code": "01", currency: "CRC", client_id: String(ids.client), ...service(), ...extra });
const clientForm = () => ({ name: "Cliente Nuevo Plan Cinco", identification_type: "02", identification: "3101777777", email: "nuevo@cliente.example", phone: "22225555", address: "San José", country: "60", province: "1", canton: "1", district: "1", barrio: "1", "contacts[0].name": "", "contacts[0].email": "" });
const itemForm_ = () => ({ intent: "save", code: "P5-1", cabys_code: "8313100000000", name: "Consultoría", description: "Hora de consultoría", category: "1", unit: "Sp", tax_type: String(ids.tax13), currency: "2", price: "1000" });

type Post = { name: string; run: () => Promise<CallResult> };
const id = (n: number) => String(n);

/** A mutation per route of the company's data, each a valid form (it went through before). */
const REFUSED: Post[] = [
  { name: "/clients (new client in the dialog)", run: () => call(b, clientsRoute.action, { path: "/clients?new=1", form: clientForm() }) },
  { name: "/clients (edit)", run: () => call(b, clientsRoute.action, { path: `/clients?edit=${ids.client}`, form: { ...clientForm(), name: "Cambiado" } }) },
  { name: "/clients (deactivate)", run: () => call(b, clientsRoute.action, { path: "/clients", form: { intent: "toggle", client_id: id(ids.client), confirm: "yes" } }) },
  { name: "/clients (e-mail the account statement)", run: () => call(b, clientsRoute.action, { path: "/clients", form: { intent: "send-statement", client_id: id(ids.client) } }) },
  { name: "/new-client", run: () => call(b, newClient.action, { path: "/new-client", form: clientForm() }) },
  { name: "/providers (new provider)", run: () => call(b, providers.action, { path: "/providers?new=1", form: { ...clientForm(), economic_activity_code: "620100" } }) },
  { name: "/client-detail/:id (save Información)", run: () => call(b, clientDetail.action, { path: `/client-detail/${ids.client}`, params: { id: id(ids.client) }, form: { ...clientForm(), name: "Cambiado" } }) },
  { name: "/students (new student)", run: () => call(b, studentsRoute.action, { path: "/students?new=1", form: { intent: "save", name: "Ana", surname: "Mora", client_id: id(ids.client) } }) },
  { name: "/items (new item in the dialog)", run: () => call(b, itemsRoute.action, { path: "/items?new=1", form: itemForm_() }) },
  { name: "/new-item", run: () => call(b, itemForm.action, { path: "/new-item", form: itemForm_() }) },
  { name: "/taxes/:company_id (new VAT)", run: () => call(b, taxes.action, { path: `/taxes/${c}`, params: { company_id: id(c) }, form: { intent: "save", name: "IVA transitorio 8%", rate: "8", vat_code: "07" } }) },
  { name: "/terms/:company_id (new term)", run: () => call(b, termsRoute.action, { path: `/terms/${c}?term=new`, params: { company_id: id(c) }, form: { id: "", name: "Devoluciones", body: "8 días." } }) },
  { name: "/template-email/:company_id", run: () => call(b, templateEmail.action, { path: `/template-email/${c}?template=${ids.template}`, params: { company_id: id(c) }, form: { id: id(ids.template), subject: "Otro asunto", body: "Otro cuerpo" } }) },
  { name: "/config-generals/:company_id", run: () => call(b, configGenerals.action, { path: `/config-generals/${c}`, params: { company_id: id(c) }, form: { custom_quotation_name: "Proforma", currency: "1", mode_pos: "1", currency_emit_doc: "2" } }) },
  { name: "/main-configurations/:company_id (generals)", run: () => call(b, configurations.action, { path: `/main-configurations/${c}`, params: { company_id: id(c) }, form: { section: "generals", custom_quotation_name: "Proforma", currency: "1", mode_pos: "1", currency_emit_doc: "2" } }) },
  { name: "/all-configurations/:company_id (test e-mail)", run: () => call(b, configurations.action, { path: `/all-configurations/${c}`, params: { company_id: id(c) }, form: { section: "email-test", test_to: "prueba@empresa.example" } }) },
  { name: "/new-invoice", run: () => call(b, documentForm.action, { path: "/new-invoice", form: documentForm_() }) },
  { name: "/new-ticket", run: () => call(b, documentForm.action, { path: "/new-ticket", form: documentForm_() }) },
  { name: "/new-quotation", run: () => call(b, documentForm.action, { path: "/new-quotation", form: documentForm_() }) },
  { name: "/new-simple", run: () => call(b, documentForm.action, { path: "/new-simple", form: documentForm_() }) },
  { name: "/recurring-new", run: () => call(b, documentForm.action, { path: "/recurring-new", form: documentForm_() }) },
  { name: "/new-note/nc/invoice/:id", run: () => call(b, documentForm.action, { path: `/new-note/nc/invoice/${ids.invoice}`, params: { note_type: "nc", document_type: "invoice", document_id: id(ids.invoice) }, form: documentForm_({ note: "Devolución" }) }) },
  { name: "/new-clone/invoice/:id", run: () => call(b, documentForm.action, { path: `/new-clone/invoice/${ids.invoice}`, params: { document_type: "invoice", document_id: id(ids.invoice) }, form: documentForm_() }) },
  { name: "/new-recurring/invoice/:id", run: () => call(b, documentForm.action, { path: `/new-recurring/invoice/${ids.invoice}`, params: { document_type: "invoice", document_id: id(ids.invoice) }, form: documentForm_() }) },
  { name: "/edit-quotation/quotation/:id", run: () => call(b, documentForm.action, { path: `/edit-quotation/quotation/${ids.quotation}`, params: { document_type: "quotation", document_id: id(ids.quotation) }, form: documentForm_() }) },
  { name: "/edit-recurring/recurring/:id", run: () => call(b, documentForm.action, { path: `/edit-recurring/recurring/${ids.recurring}`, params: { document_type: "recurring", document_id: id(ids.recurring) }, form: documentForm_() }) },
  { name: "/quotations (convert)", run: () => call(b, quotations.action, { path: "/quotations", form: { intent: "convert", quotation_id: id(ids.quotation), confirm: "yes" } }) },
  { name: "/recurrings (pause)", run: () => call(b, recurrings.action, { path: "/recurrings", form: { intent: "pause", id: id(ids.recurring), confirm: "yes" } }) },
  { name: "/detail/invoice/:id (e-mail the document)", run: () => call(b, detail.action, { path: `/detail/invoice/${ids.invoice}`, params: { type: "invoice", id: id(ids.invoice) }, form: { intent: "email", emails: "cliente@example.cr", subject: "Factura", body: "Adjunta" } }) },
  { name: "/payments (pay)", run: () => call(b, paymentsRoute.action, { path: `/payments?document_id=${ids.invoice}`, form: { intent: "pay", document_id: id(ids.invoice), amount: "10", payment_form: "01", currency_id: "2", date: costaRicaDay(new Date()), description: "Abono" } }) },
  { name: "/payments (new bank)", run: () => call(b, paymentsRoute.action, { path: "/payments", form: { intent: "bank", name: "Banco de Costa Rica" } }) },
];

describe("plan 5: every post to the company's data is refused on the server", () => {
  for (const post of REFUSED) {
    it(post.name, async () => {
      const before = await snapshot();
      const res = await post.run();
      expect(res.status).toBe(403);
      expect(res.data).toBe(PLAN5_READ_ONLY);
      expect(await snapshot()).toEqual(before);
    });
  }
});

describe("plan 5: the session and the account stay usable", () => {
  it("mark the advertisement seen, add a user (admin), switch company, sign out", async () => {
    expect((await call(b, seen.action, { path: "/advertisement-seen", form: { code: "3" } })).status).toBe(302);
    const added = await call(b, userForm.action, { path: "/add-user", form: { name: "Contadora", email: `contadora-${process.pid}@example.cr`, password: "secreto1" } });
    expect(added.status).toBe(302);
    const switched = await call(b, selectCompany.action, { path: "/select-company", form: { company_id: id(other) } });
    expect(switched.status).toBe(302);
    // Back in a plan-1 company, the same kind of post goes through.
    const term = await call(b, termsRoute.action, { path: `/terms/${other}?term=new`, params: { company_id: id(other) }, form: { id: "", name: "Devoluciones", body: "8 días." } });
    expect(term.status).toBe(302);
    // But a plan-5 company's configuration stays read-only from another company's session.
    const foreign = await call(b, configGenerals.action, { path: `/config-generals/${c}`, params: { company_id: id(c) }, form: { custom_quotation_name: "Proforma", currency: "1", mode_pos: "1", currency_emit_doc: "2" } });
    expect(foreign.status).toBe(403);
    // The same with the id percent-encoded: React Router hands the route company_id "…" decoded.
    const encoded = [...String(id(c))].map((d) => "%3" + d).join("");
    const disguised = await call(b, configGenerals.action, { path: `/config-generals/${encoded}`, params: { company_id: id(c) }, form: { custom_quotation_name: "Proforma", currency: "1", mode_pos: "1", currency_emit_doc: "2" } });
    expect(disguised.status).toBe(403);
    expect(disguised.data).toBe(PLAN5_READ_ONLY);
    // An id that is not plain digits names no company, on the way in and in the route: not found.
    for (const raw of [` ${id(c)}`, `${id(c)}.0`, `0x${c.toString(16)}`]) {
      const path = `/taxes/${encodeURIComponent(raw)}`;
      const odd = await call(b, taxes.action, { path, params: { company_id: raw }, form: { name: "IVA raro", rate: "13", vat_code: "08" } });
      expect(odd.status, raw).toBe(404);
    }
    expect((await call(b, logout.action, { path: "/logout", form: {} })).status).toBe(302);
  });
});

describe("the route table", () => {
  it("lists, by name, every signed-in route whose posts stay allowed at plan 5", () => {
    const writable = ROUTES.filter((r) => !("public" in r && r.public) && "plan5Writes" in r && r.plan5Writes).map((r) => r.name);
    expect(writable.sort()).toEqual(
      [
        // the session's own utilities
        "logout",
        "select-company",
        "advertisement-seen",
        // account and company administration (how a company leaves plan 5)
        "advertisement",
        "companies",
        "all-companies",
        "new-company",
        "edit-company",
        "users",
        "add-user",
        "edit-user",
        "assign-company",
        "companies-user",
        // the integration's own set-up: the API issues with this key and mail server, through these credentials
        "config-hacienda",
        "config-email",
        "config-api",
      ].sort(),
    );
  });
});
