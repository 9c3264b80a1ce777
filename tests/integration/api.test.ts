// The integrator API against its contract (issue 15): every answer validated against the served
// OpenAPI document; authentication, documents, validation equal to the form's, idempotency, the
// integrator's consecutive, notes, clients, items, webhooks, errors and tenancy.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { apiIdempotencyKeys, companies, companyUsers, documents, sessions } from "../../db/schema/index.ts";
import { createTestDatabase } from "../setup/db.ts";
import { createUser } from "../setup/app.ts";
import { apiCompany, apiRequest, contractChecker, tokenFor, API_PASSWORD } from "../fixtures/api.ts";
import { submitDocumentForm } from "../../app/server/document-form.server.ts";
import { DRAFT_MESSAGES } from "../../app/domain/document-draft.ts";
import { FORM_MESSAGES } from "../../app/domain/document-form.ts";
import { API_MESSAGES } from "../../app/domain/api/schemas.ts";
import { REP_MESSAGES } from "../../app/domain/rep.ts";
import { resetRateLimits } from "../../app/server/api/rate-limit.server.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { verifyPassword } from "../../app/server/password.server.ts";

// The password check, counted (it still checks): a sign-in runs it once whatever the username.
vi.mock("../../app/server/password.server.ts", async (original) => {
  const real = await original<typeof import("../../app/server/password.server.ts")>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let contract: Awaited<ReturnType<typeof contractChecker>>;
const schemaSet = testSchemaSet();

beforeAll(async () => {
  database = await createTestDatabase();
  contract = await contractChecker(database.db);
}, 60_000);
afterAll(async () => {
  await database?.drop();
});

const db = () => database.db;
const ticket = (over: Record<string, unknown> = {}) => ({
  kind: "te",
  lines: [{ cabys: "4523000000100", description: "Café chorreado", quantity: 2, unitPrice: "1500", tax: { code: "01", tarifaCode: "08" } }],
  ...over,
});

/** A call checked against the contract; returns the response and its body. */
async function api(method: string, template: string, path: string, opts: Parameters<typeof apiRequest>[3] = {}) {
  const res = await apiRequest(db(), method, path, opts);
  const body = await contract.check(method, template, res);
  return { res, body: body as any };
}

const pointers = (body: { errors?: { pointer: string; detail: string }[] }) => {
  const out: Record<string, string> = {};
  for (const e of body.errors ?? []) out[e.pointer] ??= e.detail;
  return out;
};

describe("OpenAPI document and reference", () => {
  it("is OpenAPI 3.1 generated from the operations: every path, its schemas by $ref, problem answers, rate-limit headers", async () => {
    const doc = contract.doc as any;
    expect(doc.openapi).toBe("3.1.0");
    for (const p of ["/auth/token", "/auth/refresh", "/documents", "/documents/{id}", "/documents/{id}/xml", "/documents/{id}/pdf", "/documents/{id}/credit-note", "/clients", "/items/{id}", "/webhooks"]) expect(doc.paths[p], p).toBeDefined();
    expect(doc.paths["/documents"].post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/DocumentCreate" });
    expect(doc.components.schemas.DocumentCreate.properties.lines.items).toEqual({ $ref: "#/components/schemas/DocumentLineInput" });
    expect(doc.paths["/documents"].post.responses["409"].content["application/problem+json"]).toBeDefined();
    // A field the zod schema has is in the document (no hand-written copy to forget it).
    expect(doc.components.schemas.DocumentCreate.properties.controlNumber.maxLength).toBe(50);
    expect(doc.webhooks.documentEvent).toBeDefined();
  });

  it("/api/docs is rendered from the same document, without JavaScript", async () => {
    const docs = await import("../../app/routes/api/docs.tsx");
    const data = docs.loader();
    expect(data.operations.some((o) => o.method === "POST" && o.path === "/documents" && o.idempotent && o.body === "DocumentCreate")).toBe(true);
    expect(data.schemas.find((s) => s.name === "DocumentCreate")!.fields.some((f) => f.field === "controlNumber")).toBe(true);
    expect(docs.handle.hydrate).toBe(false);
  });
});

describe("authentication", () => {
  it("the company's API user gets a bearer token and a refresh token (stored hashed); refresh rotates once; revoke ends it", async () => {
    const a = await apiCompany(db());
    const { res, body } = await api("POST", "/auth/token", "/auth/token", { body: { username: a.username, password: API_PASSWORD } });
    expect(res.status).toBe(200);
    expect(body.company).toEqual({ id: a.company.id, name: a.company.name });
    const rows = await db().select().from(sessions).where(eq(sessions.apiCompanyId, a.company.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].kind).toBe("api");
    expect(rows[0].id).not.toBe(body.access_token);
    expect(JSON.stringify(rows[0])).not.toContain(body.refresh_token);
    const list = await api("GET", "/documents", "/documents", { token: body.access_token });
    expect(list.res.status).toBe(200);

    const refreshed = await api("POST", "/auth/refresh", "/auth/refresh", { body: { refresh_token: body.refresh_token } });
    expect(refreshed.res.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(body.access_token);
    // The old pair no longer works.
    expect((await api("POST", "/auth/refresh", "/auth/refresh", { body: { refresh_token: body.refresh_token } })).res.status).toBe(401);
    expect((await api("GET", "/documents", "/documents", { token: body.access_token })).res.status).toBe(401);
    expect((await api("GET", "/documents", "/documents", { token: refreshed.body.access_token })).res.status).toBe(200);

    expect((await api("POST", "/auth/revoke", "/auth/revoke", { token: refreshed.body.access_token })).res.status).toBe(204);
    expect((await api("GET", "/documents", "/documents", { token: refreshed.body.access_token })).res.status).toBe(401);
    expect((await api("POST", "/auth/refresh", "/auth/refresh", { body: { refresh_token: refreshed.body.refresh_token } })).res.status).toBe(401);
  });

  it("a bearer token lasts its minutes; then 401 'token-vencido' (the refresh token still works)", async () => {
    const a = await apiCompany(db());
    const t0 = new Date("2026-11-25T12:00:00Z");
    const res = await apiRequest(db(), "POST", "/auth/token", { body: { username: a.username, password: API_PASSWORD }, now: t0 });
    const pair = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
    expect(pair.expires_in).toBe(900);
    expect((await api("GET", "/documents", "/documents", { token: pair.access_token, now: new Date(t0.getTime() + 14 * 60_000) })).res.status).toBe(200);
    const late = await api("GET", "/documents", "/documents", { token: pair.access_token, now: new Date(t0.getTime() + 16 * 60_000) });
    expect(late.res.status).toBe(401);
    expect(late.body.detail).toBe(API_MESSAGES.expired);
    expect((await api("POST", "/auth/refresh", "/auth/refresh", { body: { refresh_token: pair.refresh_token }, now: new Date(t0.getTime() + 16 * 60_000) })).res.status).toBe(200);
  });

  it("wrong credentials: 401 in Spanish, then throttled like the sign-in (429 with Retry-After)", async () => {
    resetRateLimits();
    const a = await apiCompany(db());
    for (let i = 0; i < 5; i++) {
      const { res, body } = await api("POST", "/auth/token", "/auth/token", { body: { username: a.username, password: "mala-clave" } });
      expect(res.status).toBe(401);
      expect(body.detail).toBe(API_MESSAGES.badCredentials);
    }
    const blocked = await api("POST", "/auth/token", "/auth/token", { body: { username: a.username, password: API_PASSWORD } });
    expect(blocked.res.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Demasiados intentos fallidos/);
    expect(Number(blocked.res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  // Two companies can no longer share a username (the unique index of migration 0050: api-username.test.ts).
  it("one password check per attempt, whatever the username: a company's, a user's, an unknown one", async () => {
    resetRateLimits();
    const a = await apiCompany(db());
    const user = await createUser(db(), { password: "secreto123" });
    const checks = vi.mocked(verifyPassword);
    const attempt = async (username: string, password: string) => {
      checks.mockClear();
      const res = await apiRequest(db(), "POST", "/auth/token", { body: { username, password } });
      return { status: res.status, checks: checks.mock.calls.length };
    };
    expect(await attempt(a.username, "mala-clave")).toEqual({ status: 401, checks: 1 });
    expect(await attempt(`nadie-${a.username}`, "mala-clave")).toEqual({ status: 401, checks: 1 });
    expect(await attempt(user.email, "mala-clave")).toEqual({ status: 401, checks: 1 });
    expect(await attempt(a.username, API_PASSWORD)).toEqual({ status: 200, checks: 1 });
    expect(await attempt(user.email, "secreto123")).toEqual({ status: 200, checks: 1 });
  });

  it("the lockout counts per account as the lookup finds it: spellings the database lowers alike ('İ', 'i') share one counter", async () => {
    resetRateLimits();
    const a = await apiCompany(db());
    const username = `caja-i-${a.company.id}`;
    await db().update(companies).set({ usernameApi: username }).where(eq(companies.id, a.company.id));
    const dotted = username.replace("-i-", "-İ-");
    // Both spellings find the company (the database's lower() makes 'İ' an 'i').
    expect((await apiRequest(db(), "POST", "/auth/token", { body: { username: dotted, password: API_PASSWORD } })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await apiRequest(db(), "POST", "/auth/token", { body: { username: dotted, password: "mala-clave" } })).status).toBe(401);
    const other = await apiRequest(db(), "POST", "/auth/token", { body: { username, password: API_PASSWORD } });
    expect(other.status).toBe(429);
  });

  it("no token, a malformed one, or only a web session cookie: 401 with WWW-Authenticate", async () => {
    const none = await api("GET", "/documents", "/documents");
    expect(none.res.status).toBe(401);
    expect(none.res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(none.body.detail).toBe(API_MESSAGES.unauthorized);
    expect((await api("GET", "/documents", "/documents", { token: "col_at_nothing-like-a-token" })).res.status).toBe(401);
  });

  it("only plan-5, active companies; a user's token names its company with x-Company (checked on every call)", async () => {
    const plan1 = await apiCompany(db(), { permission: 1 });
    const refused = await api("POST", "/auth/token", "/auth/token", { body: { username: plan1.username, password: API_PASSWORD } });
    expect(refused.res.status).toBe(403);
    expect(refused.body.detail).toBe(API_MESSAGES.planOnly);

    const a = await apiCompany(db());
    const b = await apiCompany(db());
    const other = await apiCompany(db());
    const user = await createUser(db(), { password: "secreto123" });
    await db().insert(companyUsers).values([{ companyId: a.company.id, userId: user.id }, { companyId: b.company.id, userId: user.id }]);
    const token = await tokenFor(db(), user.email, "secreto123");
    const ambiguous = await api("GET", "/documents", "/documents", { token });
    expect(ambiguous.res.status).toBe(400);
    expect(ambiguous.body.detail).toBe(API_MESSAGES.companyRequired);
    expect((await api("GET", "/documents", "/documents", { token, headers: { "x-company": String(b.company.id) } })).res.status).toBe(200);
    const foreign = await api("GET", "/documents", "/documents", { token, headers: { "x-company": String(other.company.id) } });
    expect(foreign.res.status).toBe(403);
    // Unlinked later: refused on the next call.
    await db().delete(companyUsers).where(and(eq(companyUsers.userId, user.id), eq(companyUsers.companyId, b.company.id)));
    expect((await api("GET", "/documents", "/documents", { token, headers: { "x-company": String(b.company.id) } })).res.status).toBe(403);
    // A company token may not name another company.
    const companyToken = await tokenFor(db(), a.username);
    expect((await api("GET", "/documents", "/documents", { token: companyToken, headers: { "x-company": String(b.company.id) } })).res.status).toBe(403);
    // An inactive company: 403.
    await db().update(companies).set({ active: false }).where(eq(companies.id, a.company.id));
    const inactive = await api("GET", "/documents", "/documents", { token: companyToken });
    expect(inactive.res.status).toBe(403);
    expect(inactive.body.detail).toBe(API_MESSAGES.inactive);
  });
});

describe("documents", () => {
  it("issues a ticket (signed, numbered, queued), with its control number; get, list with filters and cursor, downloads", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const { res, body } = await api("POST", "/documents", "/documents", { token, body: ticket({ controlNumber: "CAJA3-000123" }) });
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/documents/${body.id}`);
    expect(body).toMatchObject({ kind: "te", status: "por enviar", controlNumber: "CAJA3-000123", number: 1 });
    expect(body.clave).toMatch(/^\d{50}$/);
    expect(body.consecutive).toMatch(/^\d{20}$/);
    expect(body.totals.total).toBe("3390.00000");
    expect(body.client.name).toBe("Cliente genérico");
    expect(body.lines[0]).toMatchObject({ description: "Café chorreado", quantity: "2.000", tarifaCode: "08" });

    const got = await api("GET", "/documents/{id}", `/documents/${body.id}`, { token });
    expect(got.body.clave).toBe(body.clave);

    const second = await api("POST", "/documents", "/documents", { token, body: ticket({ controlNumber: "CAJA3-000124" }) });
    const invoice = await api("POST", "/documents", "/documents", {
      token,
      body: { kind: "fe", clientId: a.client.id, lines: [{ cabys: "4523000000100", description: "Portátil", quantity: "1", unitPrice: "450000", taxTypeId: undefined, tax: { code: "01", tarifaCode: "08" } }] },
    });
    expect(invoice.res.status, JSON.stringify(invoice.body)).toBe(201);

    const byControl = await api("GET", "/documents", "/documents?controlNumber=CAJA3-000124", { token });
    expect(byControl.body.data.map((d: { id: number }) => d.id)).toEqual([second.body.id]);
    const tickets = await api("GET", "/documents", "/documents?kind=te", { token });
    expect(tickets.body.data.map((d: { id: number }) => d.id)).toEqual([second.body.id, body.id]);
    const page1 = await api("GET", "/documents", "/documents?limit=2", { token });
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.nextCursor).toBeTruthy();
    const page2 = await api("GET", "/documents", `/documents?limit=2&cursor=${page1.body.nextCursor}`, { token });
    expect(page2.body.data.map((d: { id: number }) => d.id)).toEqual([body.id]);
    expect(page2.body.nextCursor).toBeNull();
    const byClient = await api("GET", "/documents", `/documents?clientId=${a.client.id}`, { token });
    expect(byClient.body.data.map((d: { id: number }) => d.id)).toEqual([invoice.body.id]);
    const badCursor = await api("GET", "/documents", "/documents?cursor=abc", { token });
    expect(badCursor.res.status).toBe(400);

    const xml = await api("GET", "/documents/{id}/xml", `/documents/${body.id}/xml`, { token });
    expect(xml.res.status).toBe(200);
    expect(Buffer.from(xml.body as ArrayBuffer).toString("utf8")).toContain(body.clave);
    const pdf = await api("GET", "/documents/{id}/pdf", `/documents/${body.id}/pdf`, { token });
    expect(Buffer.from(pdf.body as ArrayBuffer).subarray(0, 4).toString()).toBe("%PDF");
    const answer = await api("GET", "/documents/{id}/response", `/documents/${body.id}/response`, { token });
    expect(answer.res.status).toBe(404);
    expect(answer.body.detail).toBe(API_MESSAGES.fileUnavailable);
  });

  it("refuses with the form's own Spanish messages, at the same paths (JSON pointers), and saves nothing", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const vat13 = (await apiRequest(db(), "GET", "/tax-types", { token }).then((r) => r.json())) as { data: { id: number; vatCode: string }[] };
    const taxId = vat13.data.find((t) => t.vatCode === "08")!.id;
    const cases: Array<{ api: Record<string, unknown>; form: Record<string, string>; kind: "fe" | "te" }> = [
      {
        kind: "te",
        api: ticket({ lines: [{ description: "", quantity: 0, unitPrice: "1500", taxTypeId: taxId }] }),
        form: { client_id: "", sale_condition: "01", "payments[0].code": "01", currency: "CRC", "lines[0].description": "", "lines[0].quantity": "0", "lines[0].price": "1500", "lines[0].taxTypeId": String(taxId) },
      },
      {
        kind: "fe",
        api: { kind: "fe", saleCondition: "02", creditDays: 400, emails: ["bien@example.cr", "mal-correo"], lines: [{ description: "Servicio", quantity: 1, unitPrice: "0.01", taxTypeId: taxId }] },
        form: { client_id: "", sale_condition: "02", credit_days: "400", emails: "bien@example.cr, mal-correo", "payments[0].code": "01", currency: "CRC", "lines[0].description": "Servicio", "lines[0].quantity": "1", "lines[0].price": "0.01", "lines[0].taxTypeId": String(taxId) },
      },
    ];
    const before = (await db().select().from(documents).where(eq(documents.companyId, a.company.id))).length;
    for (const c of cases) {
      const viaApi = await api("POST", "/documents", "/documents", { token, body: c.api });
      expect(viaApi.res.status).toBe(400);
      const viaForm = await submitDocumentForm(db(), { companyId: a.company.id, userId: a.user.id, kind: c.kind, values: c.form, intent: "save", now: new Date(), schemaSet });
      expect(viaForm && !viaForm.ok && viaForm.status).toBe(400);
      const formErrors = (viaForm as { state: { errors: Record<string, string> } }).state.errors;
      const expected = Object.fromEntries(Object.entries(formErrors).map(([field, message]) => ["/" + field.split(".").join("/"), message]));
      expect(pointers(viaApi.body)).toEqual(expected);
    }
    expect(pointers((await api("POST", "/documents", "/documents", { token, body: cases[0].api })).body)["/lines/0/quantity"]).toBe(DRAFT_MESSAGES.quantityRange);
    expect((await db().select().from(documents).where(eq(documents.companyId, a.company.id))).length).toBe(before);

    // A client of another company is not offered, like the form's select.
    const b = await apiCompany(db());
    const foreign = await api("POST", "/documents", "/documents", { token, body: { kind: "fe", clientId: b.client.id, lines: ticket().lines } });
    expect(pointers(foreign.body)["/clientId"]).toBe(FORM_MESSAGES.clientNotAllowed);
    // zod's own refusals are Spanish too.
    const typed = await api("POST", "/documents", "/documents", { token, body: { kind: "te", lines: [{ quantity: true }] } });
    expect(pointers(typed.body)["/lines/0/quantity"]).toMatch(/inválid/i);
    const wrongKind = await api("POST", "/documents", "/documents", { token, body: ticket({ kind: "qt" }) });
    expect(pointers(wrongKind.body)["/kind"]).toBe(API_MESSAGES.kindNotIssued);
  });

  it("another company's document is 404 everywhere", async () => {
    const a = await apiCompany(db());
    const b = await apiCompany(db());
    const tokenA = await tokenFor(db(), a.username);
    const tokenB = await tokenFor(db(), b.username);
    const doc = (await api("POST", "/documents", "/documents", { token: tokenB, body: ticket() })).body;
    for (const [template, path] of [
      ["/documents/{id}", `/documents/${doc.id}`],
      ["/documents/{id}/xml", `/documents/${doc.id}/xml`],
      ["/documents/{id}/pdf", `/documents/${doc.id}/pdf`],
    ]) {
      expect((await api("GET", template, path, { token: tokenA })).res.status, path).toBe(404);
    }
    expect((await api("POST", "/documents/{id}/credit-note", `/documents/${doc.id}/credit-note`, { token: tokenA, body: { reason: "Devolución" } })).res.status).toBe(404);
    expect((await api("POST", "/documents/{id}/email", `/documents/${doc.id}/email`, { token: tokenA, body: {} })).res.status).toBe(404);
    expect((await api("GET", "/documents", `/documents?controlNumber=x`, { token: tokenA })).body.data).toEqual([]);
  });

  it("a credit note of a document: client, currency and reference are the document's; the reason is required", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const fe = (await api("POST", "/documents", "/documents", { token, body: { kind: "fe", clientId: a.client.id, lines: ticket().lines } })).body;
    const missing = await api("POST", "/documents/{id}/credit-note", `/documents/${fe.id}/credit-note`, { token, body: { reason: "" } });
    expect(missing.res.status).toBe(400);
    expect(pointers(missing.body)["/reason"]).toBe(DRAFT_MESSAGES.referenceFields);
    const nc = await api("POST", "/documents/{id}/credit-note", `/documents/${fe.id}/credit-note`, { token, body: { reason: "Devolución total", controlNumber: "DEV-1" } });
    expect(nc.res.status, JSON.stringify(nc.body)).toBe(201);
    expect(nc.body).toMatchObject({ kind: "nc", controlNumber: "DEV-1", client: { id: a.client.id } });
    expect(nc.body.totals.total).toBe(fe.totals.total);
    expect(nc.body.references[0]).toMatchObject({ documentId: fe.id, number: fe.clave, code: "01", docType: "01", reason: "Devolución total" });
    const partial = await api("POST", "/documents/{id}/debit-note", `/documents/${fe.id}/debit-note`, { token, body: { reason: "Cargo por envío", lines: [{ cabys: "8313100000000", description: "Envío", quantity: 1, unitPrice: "2000", tax: { code: "01", tarifaCode: "08" } }] } });
    expect(partial.res.status, JSON.stringify(partial.body)).toBe(201);
    expect(partial.body).toMatchObject({ kind: "nd", totals: { total: "2260.00000" } });
  });
});

describe("payments: deleting one through the API", () => {
  it("the interface's 'Eliminar': the document's payments, paid amount and balance follow; another company's or another document's payment is 404 like a missing one; a payment whose REP was issued is refused (409) with the interface's reason", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const sale = (await api("POST", "/documents", "/documents", { token, body: ticket() })).body;
    const total = sale.totals.total as string;
    expect(total).toBe("3390.00000");
    expect(sale).toMatchObject({ paidAmount: "0.00000", due: total, payments: [] });
    const pay = (amount: string) => api("POST", "/documents/{id}/payments", `/documents/${sale.id}/payments`, { token, body: { amount, payment_form: "01" } });
    const first = (await pay("1000")).body.payment;
    const second = (await pay("390")).body.payment;
    expect((await api("GET", "/documents/{id}", `/documents/${sale.id}`, { token })).body).toMatchObject({ paidAmount: "1390.00000", due: "2000.00000" });

    const tpl = "/documents/{id}/payments/{paymentId}";
    const deleted = await api("DELETE", tpl, `/documents/${sale.id}/payments/${first.id}`, { token });
    expect(deleted.res.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ id: sale.id, paidAmount: "390.00000", due: "3000.00000" });
    expect(deleted.body.payments.map((p: { id: number }) => p.id)).toEqual([second.id]);
    expect((await api("GET", "/documents/{id}", `/documents/${sale.id}`, { token })).body).toMatchObject({ paidAmount: "390.00000", due: "3000.00000", payments: [{ id: second.id }] });
    // Already deleted, never existed, not a number: 404, the same answer.
    const missing = await api("DELETE", tpl, `/documents/${sale.id}/payments/999999999`, { token });
    expect(missing.res.status).toBe(404);
    expect((await api("DELETE", tpl, `/documents/${sale.id}/payments/${first.id}`, { token })).body).toEqual(missing.body);
    expect((await api("DELETE", tpl, `/documents/${sale.id}/payments/abc`, { token })).res.status).toBe(404);
    // A payment named under another of the company's documents: 404, and it stays.
    const other = (await api("POST", "/documents", "/documents", { token, body: ticket() })).body;
    expect((await api("DELETE", tpl, `/documents/${other.id}/payments/${second.id}`, { token })).body).toEqual(missing.body);

    // Another company: its own document with A's payment, or A's document: 404 exactly like a missing one.
    const b = await apiCompany(db());
    const tokenB = await tokenFor(db(), b.username);
    const theirs = (await api("POST", "/documents", "/documents", { token: tokenB, body: ticket() })).body;
    expect((await api("DELETE", tpl, `/documents/${theirs.id}/payments/${second.id}`, { token: tokenB })).body).toEqual(missing.body);
    expect((await api("DELETE", tpl, `/documents/${sale.id}/payments/${second.id}`, { token: tokenB })).body).toEqual(missing.body);
    expect((await api("GET", "/documents/{id}", `/documents/${sale.id}`, { token })).body).toMatchObject({ paidAmount: "390.00000", payments: [{ id: second.id }] });

    // A payment of an invoice sold with condition 10 issued its REP: it stays, as in the interface.
    const invoice = (await api("POST", "/documents", "/documents", { token, body: { kind: "fe", clientId: a.client.id, saleCondition: "10", lines: ticket().lines } })).body;
    const withRep = await api("POST", "/documents/{id}/payments", `/documents/${invoice.id}/payments`, { token, body: { amount: "1000", payment_form: "04" } });
    expect(withRep.body.payment.rep.documentId, JSON.stringify(withRep.body)).toEqual(expect.any(Number));
    const refused = await api("DELETE", tpl, `/documents/${invoice.id}/payments/${withRep.body.payment.id}`, { token });
    expect(refused.res.status).toBe(409);
    expect(refused.res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 409, type: "/api/docs#pago-con-rep", detail: REP_MESSAGES.cannotDelete });
    expect((await api("GET", "/documents/{id}", `/documents/${invoice.id}`, { token })).body).toMatchObject({ paidAmount: "1000.00000", due: "2390.00000", payments: [{ id: withRep.body.payment.id }] });
    // A REP takes no payments: its balance is null.
    expect((await api("GET", "/documents/{id}", `/documents/${withRep.body.payment.rep.documentId}`, { token })).body.due).toBeNull();
    // The operation is in the served document, from the operations table.
    const op = (contract.doc as any).paths[tpl].delete;
    expect(op.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Document" });
    expect(op.responses["409"].content["application/problem+json"]).toBeDefined();
    expect(op.parameters.map((p: { name?: string }) => p.name)).toEqual(expect.arrayContaining(["id", "paymentId"]));
  });
});

describe("idempotency keys", () => {
  it("same key and body: the first answer (same document, 201); another body: 409; a refused request leaves the key free", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const headers = { "Idempotency-Key": "venta-0001" };
    const first = await api("POST", "/documents", "/documents", { token, headers, body: ticket() });
    expect(first.res.status).toBe(201);
    const again = await api("POST", "/documents", "/documents", { token, headers, body: { lines: ticket().lines, kind: "te" } });
    expect(again.res.status).toBe(201);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(again.res.headers.get("location")).toBe(first.res.headers.get("location"));
    const other = await api("POST", "/documents", "/documents", { token, headers, body: ticket({ controlNumber: "otra" }) });
    expect(other.res.status).toBe(409);
    expect(other.body.detail).toBe(API_MESSAGES.idempotencyMismatch);
    expect((await db().select().from(documents).where(eq(documents.companyId, a.company.id))).length).toBe(1);

    const refusedKey = { "Idempotency-Key": "venta-0002" };
    expect((await api("POST", "/documents", "/documents", { token, headers: refusedKey, body: ticket({ lines: [] }) })).res.status).toBe(400);
    const fixed = await api("POST", "/documents", "/documents", { token, headers: refusedKey, body: ticket() });
    expect(fixed.res.status).toBe(201);
    // Keys are the company's: another company may use the same key.
    const b = await apiCompany(db());
    const tokenB = await tokenFor(db(), b.username);
    const theirs = await api("POST", "/documents", "/documents", { token: tokenB, headers, body: ticket() });
    expect(theirs.res.status).toBe(201);
    expect(theirs.res.headers.get("idempotent-replayed")).toBeNull();
    // Kept at least 24 hours.
    const [row] = await db().select().from(apiIdempotencyKeys).where(and(eq(apiIdempotencyKeys.companyId, a.company.id), eq(apiIdempotencyKeys.key, "venta-0001")));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600_000);
  });

  it("two concurrent requests with one key create one document", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const headers = { "Idempotency-Key": "concurrente-1" };
    const results = await Promise.all(Array.from({ length: 4 }, () => apiRequest(db(), "POST", "/documents", { token, headers, body: ticket() })));
    const ids = new Set<number>();
    for (const r of results) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) ids.add(((await r.json()) as { id: number }).id);
    }
    expect(ids.size).toBe(1);
    expect((await db().select().from(documents).where(eq(documents.companyId, a.company.id))).length).toBe(1);
  });
});

describe("integrator-supplied consecutive (modo_consecutive_api)", () => {
  it("must be exactly the next number: missing, used or leaving a gap is refused; two at once with one number give one document", async () => {
    const a = await apiCompany(db(), { modoConsecutiveApi: true });
    const token = await tokenFor(db(), a.username);
    expect(pointers((await api("POST", "/documents", "/documents", { token, body: ticket() })).body)["/consecutive"]).toBe(API_MESSAGES.consecutiveRequired);
    const one = await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 1 }) });
    expect(one.res.status, JSON.stringify(one.body)).toBe(201);
    expect(one.body.number).toBe(1);
    expect(pointers((await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 1 }) })).body)["/consecutive"]).toBe("El consecutivo 1 ya fue usado: el siguiente es 2.");
    expect(pointers((await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 3 }) })).body)["/consecutive"]).toBe("El consecutivo 3 dejaría un hueco en la numeración: el siguiente es 2.");
    const both = await Promise.all([2, 2].map(() => apiRequest(db(), "POST", "/documents", { token, body: ticket({ consecutive: 2 }) })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    const numbers = (await db().select({ n: documents.number }).from(documents).where(eq(documents.companyId, a.company.id))).map((r) => r.n).sort();
    expect(numbers).toEqual([1, 2]);
    // A company without the mode refuses a consecutive.
    const b = await apiCompany(db());
    const tokenB = await tokenFor(db(), b.username);
    expect(pointers((await api("POST", "/documents", "/documents", { token: tokenB, body: ticket({ consecutive: 1 }) })).body)["/consecutive"]).toBe(API_MESSAGES.consecutiveNotUsed);
  });
});

describe("points of sale", () => {
  it("each terminal has its own gapless numbering (a cash register of a chain names its terminal)", async () => {
    const a = await apiCompany(db(), { modoConsecutiveApi: true });
    const token = await tokenFor(db(), a.username);
    const t1 = await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 1 }) });
    const t7 = await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 1, terminal: 7 }) });
    const t7b = await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 2, terminal: 7, branch: 1 }) });
    expect([t1.res.status, t7.res.status, t7b.res.status]).toEqual([201, 201, 201]);
    expect(t1.body.consecutive).toBe("00100001040000000001");
    expect(t7.body.consecutive).toBe("00100007040000000001");
    expect(t7b.body.consecutive).toBe("00100007040000000002");
    const gap = await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 5, terminal: 7 }) });
    expect(pointers(gap.body)["/consecutive"]).toBe("El consecutivo 5 dejaría un hueco en la numeración: el siguiente es 3.");
    const out = await api("POST", "/documents", "/documents", { token, body: ticket({ consecutive: 1, terminal: 100000 }) });
    expect(Object.keys(pointers(out.body))).toEqual(["/terminal"]);
  });
});

describe("clients and items", () => {
  it("create, find by identification, update; the client form's messages at the same fields", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const client = { name: "Soda La Esquina", identification_type: 2, identification: "3101777777", email: "soda@example.cr", phone: "22225555", address: "Frente a la escuela", province: 1, canton: 1, district: 1, economic_activity_code: "5610.0" };
    const bad = await api("POST", "/clients", "/clients", { token, body: { ...client, identification: "123", email: "no-es-correo" } });
    expect(bad.res.status).toBe(400);
    expect(pointers(bad.body)).toMatchObject({ "/identification": "La cédula jurídica debe tener exactamente 10 dígitos", "/email": "Ingresa un correo válido" });
    const created = await api("POST", "/clients", "/clients", { token, body: { ...client, contacts: [{ name: "Ana", email: "ana@example.cr", send_copy: true }] }, headers: { "Idempotency-Key": "cliente-1" } });
    expect(created.res.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.contacts).toEqual([{ name: "Ana", email: "ana@example.cr", workstation: null, send_copy: true }]);
    const replay = await api("POST", "/clients", "/clients", { token, body: { ...client, contacts: [{ name: "Ana", email: "ana@example.cr", send_copy: true }] }, headers: { "Idempotency-Key": "cliente-1" } });
    expect(replay.body.id).toBe(created.body.id);
    const found = await api("GET", "/clients", "/clients?identification=3101777777", { token });
    expect(found.body.data.map((c: { id: number }) => c.id)).toEqual([created.body.id]);
    const updated = await api("PUT", "/clients/{id}", `/clients/${created.body.id}`, { token, body: { ...client, name: "Soda La Esquina S.A." } });
    expect(updated.body.name).toBe("Soda La Esquina S.A.");
    // And the client can be invoiced.
    const fe = await api("POST", "/documents", "/documents", { token, body: { kind: "fe", clientId: created.body.id, lines: ticket().lines } });
    expect(fe.res.status, JSON.stringify(fe.body)).toBe(201);
    const b = await apiCompany(db());
    expect((await api("GET", "/clients/{id}", `/clients/${created.body.id}`, { token: await tokenFor(db(), b.username) })).res.status).toBe(404);
  });

  it("items: create, find by code, a duplicate code refused like the form; a line by itemId takes the item's data", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const taxes = ((await apiRequest(db(), "GET", "/tax-types", { token }).then((r) => r.json())) as { data: { id: number; vatCode: string }[] }).data;
    const item = { code: "CAF-01", cabys_code: "4523000000100", name: "Café", description: "Café chorreado", category: 1, unit: "Unid", tax_type: taxes.find((t) => t.vatCode === "08")!.id, currency: 2, price: "1500" };
    const created = await api("POST", "/items", "/items", { token, body: item });
    expect(created.res.status, JSON.stringify(created.body)).toBe(201);
    const dup = await api("POST", "/items", "/items", { token, body: item });
    expect(pointers(dup.body)["/code"]).toBe("Ya existe un artículo con este código");
    const found = await api("GET", "/items", "/items?code=caf-01", { token });
    expect(found.body.data.map((i: { id: number }) => i.id)).toEqual([created.body.id]);
    const doc = await api("POST", "/documents", "/documents", { token, body: { kind: "te", lines: [{ itemId: created.body.id, quantity: 3 }] } });
    expect(doc.res.status, JSON.stringify(doc.body)).toBe(201);
    expect(doc.body.lines[0]).toMatchObject({ itemId: created.body.id, code: "CAF-01", description: "Café chorreado", unitPrice: "1500.00000", quantity: "3.000" });
  });
});

describe("webhooks through the API", () => {
  it("registers (secret once), lists, refuses a bad URL, deletes", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const created = await api("POST", "/webhooks", "/webhooks", { token, body: { url: "https://integrador.example.com/hooks", events: ["document.accepted"] } });
    expect(created.res.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const list = await api("GET", "/webhooks", "/webhooks", { token });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].secret).toBeUndefined();
    const bad = await api("POST", "/webhooks", "/webhooks", { token, body: { url: "ftp://user:pw@x" } });
    expect(pointers(bad.body)["/url"]).toBe(API_MESSAGES.webhookUrl);
    const deliveries = await api("GET", "/webhooks/{id}/deliveries", `/webhooks/${created.body.id}/deliveries`, { token });
    expect(deliveries.body.data).toEqual([]);
    expect((await api("DELETE", "/webhooks/{id}", `/webhooks/${created.body.id}`, { token })).res.status).toBe(204);
    expect((await api("DELETE", "/webhooks/{id}", `/webhooks/${created.body.id}`, { token })).res.status).toBe(404);
  });
});

describe("idempotency keys and secrets", () => {
  it("a webhook's answer is stored encrypted: its secret is nowhere in the table, and a replay gives the same secret", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const headers = { "Idempotency-Key": "webhook-1" };
    const body = { url: "https://integrador.example.com/hooks-1", events: ["document.accepted"] };
    const created = await api("POST", "/webhooks", "/webhooks", { token, headers, body });
    expect(created.res.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const stored = await db().select().from(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.companyId, a.company.id));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret.slice("whsec_".length, 20));

    const replay = await api("POST", "/webhooks", "/webhooks", { token, headers, body });
    expect(replay.res.status).toBe(201);
    expect(replay.res.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.res.headers.get("location")).toBe(created.res.headers.get("location"));
    expect(replay.body).toEqual(created.body);
  });
});

describe("errors", () => {
  it("unknown route 404, wrong method 405 with Allow, no JSON 415, bad JSON 400, too large 413 — all problem+json in Spanish", async () => {
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    const unknown = await apiRequest(db(), "GET", "/nada", { token });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await unknown.json()) as { detail: string }).detail).toBe(API_MESSAGES.routeNotFound);
    expect(unknown.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
    const method = await apiRequest(db(), "DELETE", "/documents", { token });
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("POST, GET");
    const form = await api("POST", "/documents", "/documents", { token, rawBody: "kind=te", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.res.status).toBe(415);
    const broken = await api("POST", "/documents", "/documents", { token, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(broken.res.status).toBe(400);
    expect(broken.body.detail).toBe(API_MESSAGES.invalidJson);
    const huge = await api("POST", "/documents", "/documents", { token, body: ticket({ note: "x".repeat(600 * 1024) }) });
    expect(huge.res.status).toBe(413);
    expect(huge.body.detail).toBe(API_MESSAGES.tooLarge("512 kB"));
  });

  it("over the rate limit: 429 with Retry-After, and the headers count down", async () => {
    resetRateLimits();
    const a = await apiCompany(db());
    const token = await tokenFor(db(), a.username);
    process.env.API_RATE_LIMIT_PER_MINUTE = "3";
    try {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await api("GET", "/documents", "/documents", { token });
        expect(r.res.status).toBe(200);
        seen.push(r.res.headers.get("ratelimit-remaining")!);
      }
      expect(seen).toEqual(["2", "1", "0"]);
      const over = await api("GET", "/documents", "/documents", { token });
      expect(over.res.status).toBe(429);
      expect(Number(over.res.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      delete process.env.API_RATE_LIMIT_PER_MINUTE;
      resetRateLimits();
    }
  });

  it("every answer above matched the served OpenAPI document", () => {
    expect(contract.count()).toBeGreaterThan(60);
  });
});
