// Hostile list parameters on every list (issue 10 point 8): an absurd, negative or non-numeric page or
// page size, and a search holding a NUL byte or other control characters, answer the list (200), never
// a server error; and since the page is remembered per section, the same list opened again without
// parameters still works and shows a page that exists. One row per list in `lists`; one row per
// parameter in `hostile`. The JSON lookups that take a search are checked with the same searches.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documents, users } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { issueDocument } from "../../app/server/issue-document.server.ts";
import { setupConfigForCompany } from "../../app/server/config-setup.server.ts";
import { setupItemsForCompany } from "../../app/server/items-setup.server.ts";
import * as activitiesSearch from "../../app/routes/clients/activities-search.tsx";
import * as clientDetail from "../../app/routes/clients/client-detail.tsx";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import * as providers from "../../app/routes/clients/providers.tsx";
import * as companiesRoute from "../../app/routes/companies/companies.tsx";
import * as detail from "../../app/routes/documents/detail.tsx";
import * as lists from "../../app/routes/documents/documents-list.tsx";
import * as recurrings from "../../app/routes/documents/recurrings.tsx";
import * as cabysSearch from "../../app/routes/items/cabys-search.tsx";
import * as items from "../../app/routes/items/items.tsx";
import * as taxes from "../../app/routes/items/taxes.tsx";
import * as payments from "../../app/routes/payments/payments.tsx";
import * as quotations from "../../app/routes/quotations/quotations.tsx";
import * as students from "../../app/routes/students/students.tsx";
import * as companiesUser from "../../app/routes/users/companies-user.tsx";
import * as usersRoute from "../../app/routes/users/users.tsx";
import { MAX_PAGE } from "../../app/domain/pagination.ts";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { call, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let ids: { company: number; user: number; client: number; invoice: number };

beforeAll(async () => {
  database = await createTestDatabase();
  // No real network: a CABYS search with nothing local asks this closed port and answers at once.
  process.env.HACIENDA_PUBLIC_API_URL = "http://127.0.0.1:1";
  const db = database.db;
  const t = await issuingCompany(db);
  await db.update(users).set({ role: "admin" }).where(eq(users.id, t.user.id));
  await setupItemsForCompany(db, t.company.id);
  await setupConfigForCompany(db, t.company.id);
  const issued = await issueDocument(db, { companyId: t.company.id, userId: t.user.id, draft: sampleDraft("fe", t.client.id), now: new Date(), schemaSet: testSchemaSet() });
  if (!issued.ok) throw new Error(JSON.stringify(issued.errors));
  await db.update(documents).set({ status: "aceptado" }).where(eq(documents.id, issued.documentId));
  ids = { company: t.company.id, user: t.user.id, client: t.client.id, invoice: issued.documentId };
  b = await signedIn(db, t.user.id, t.company.id);
}, 120_000);
afterAll(() => database?.drop());

type Loader = (args: any) => unknown;
/** Every paged list: its loader, its path (with what it needs) and its route params. */
const LISTS: { name: string; loader: Loader; path: () => string; params?: () => Record<string, string> }[] = [
  { name: "/users", loader: usersRoute.loader, path: () => "/users" },
  { name: "/companies", loader: companiesRoute.loader, path: () => "/companies" },
  { name: "/all-companies", loader: companiesRoute.loader, path: () => "/all-companies" },
  { name: "/companies-user/:id", loader: companiesUser.loader, path: () => `/companies-user/${ids.user}`, params: () => ({ user_id: String(ids.user) }) },
  { name: "/clients", loader: clientsRoute.loader, path: () => "/clients" },
  { name: "/clients?tab=inactive", loader: clientsRoute.loader, path: () => "/clients?tab=inactive" },
  { name: "/providers", loader: providers.loader, path: () => "/providers" },
  { name: "/students", loader: students.loader, path: () => "/students" },
  { name: "/items", loader: items.loader, path: () => "/items" },
  { name: "/taxes/:company_id", loader: taxes.loader, path: () => `/taxes/${ids.company}`, params: () => ({ company_id: String(ids.company) }) },
  { name: "/quotations", loader: quotations.loader, path: () => "/quotations" },
  { name: "/recurrings", loader: recurrings.loader, path: () => "/recurrings" },
  { name: "/invoices", loader: lists.loader, path: () => "/invoices" },
  { name: "/invoices?filter=aceptado", loader: lists.loader, path: () => "/invoices?filter=aceptado" },
  { name: "/tickets", loader: lists.loader, path: () => "/tickets" },
  { name: "/notes", loader: lists.loader, path: () => "/notes" },
  { name: "/simples", loader: lists.loader, path: () => "/simples" },
  { name: "/payments", loader: payments.loader, path: () => "/payments" },
  { name: "/client-detail/:id (invoices tab)", loader: clientDetail.loader, path: () => `/client-detail/${ids.client}?tab=invoices`, params: () => ({ id: String(ids.client) }) },
  { name: "/detail/invoice/:id (its list)", loader: detail.loader, path: () => `/detail/invoice/${ids.invoice}`, params: () => ({ type: "invoice", id: String(ids.invoice) }) },
];

/** Query parameters that broke the lists (500) and, remembered, kept them broken. */
const HOSTILE = ["page=1e308", "page=-5", "page=NaN", "page=Infinity", "page=99999999999999999999", "page=2.5", "page=0x10", "perPage=1e308", "perPage=-10", "search=%00", "search=ana%00maria", "search=%01%1F%7F%C2%9F", "search=%E2%80%AE%00", `search=${"x".repeat(500)}`];

const withQuery = (path: string, q: string) => `${path}${path.includes("?") ? "&" : "?"}${q}`;

describe("every list answers hostile parameters, and stays usable after them", () => {
  for (const list of LISTS) {
    it(list.name, async () => {
      for (const q of HOSTILE) {
        const res = await call(b, list.loader, { path: withQuery(list.path(), q), params: list.params?.() });
        expect(res.status, `${list.name} ${q}`).toBe(200);
        const page = res.data.page ?? res.data.documents?.page;
        if (page !== undefined) expect(Number.isSafeInteger(page) && page >= 1 && page <= MAX_PAGE, `${list.name} ${q}: page ${page}`).toBe(true);
        const search: string | undefined = res.data.search ?? res.data.documents?.search;
        if (search !== undefined) expect(/[\u0000-\u001f\u007f-\u009f]/.test(search), `${list.name} ${q}: search ${JSON.stringify(search)}`).toBe(false);
        // The remembered page: the same list without parameters.
        const again = await call(b, list.loader, { path: list.path(), params: list.params?.() });
        expect(again.status, `${list.name} after ${q}`).toBe(200);
      }
    });
  }
});

describe("the JSON lookups that take a search", () => {
  it("/activities and /cabys-search answer a NUL or control characters", async () => {
    for (const q of ["%00", "ana%00", "%01%7F", "%E2%80%AE%00"]) {
      const a = await call(b, activitiesSearch.loader, { path: `/activities?search=${q}` });
      expect(a.status).toBe(200);
      const c = await call(b, cabysSearch.loader, { path: `/cabys-search?q=${q}` });
      expect(c.status).toBe(200);
    }
  });
});
