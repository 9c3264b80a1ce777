import { describe, expect, it } from "vitest";
import { matchRoutes } from "react-router";
import { companyIdParam, decideAccess, matchRoute, PLAN5_READ_ONLY, ROUTES, targetCompanyId, type AccessState } from "./access.ts";

// Every authenticated route of spec part 1 §2.1, written out again so the table cannot drift.
const SPEC_ROUTES = `/dashboard, /rdashboard, /advertisement, /clients, /new-client, /client-detail/:id, /students, /items, /new-item, /edit-item/:id, /companies, /new-company, /edit-company/:id, /quotations, /recurrings, /new-quotation, /recurring-new, /edit-quotation/:document_type/:document_id, /edit-recurring/:document_type/:document_id, /invoices, /new-invoice, /tickets, /new-ticket, /detail/:type/:id/:print?, /main-configurations/:company_id, /all-configurations/:company_id, /config-hacienda/:company_id, /config-generals/:company_id, /config-email/:company_id, /template-email/:company_id, /notes, /new-note/:note_type/:document_type/:document_id, /payments, /expenses, /message-receptors, /new-message-receptor, /new-clone/:document_type/:document_id, /new-recurring/:document_type/:document_id, /report-tickets, /report-invoices, /report-notes, /report-expenses, /report-items, /report-purchases, /terms/:company_id, /taxes/:company_id, /add-user, /edit-user/:user_id, /users, /assign-company, /companies-user/:user_id, /all-companies, /simples, /new-simple, /providers, /report-document-receptions`
  .split(",")
  .map((s) => s.trim());
const PUBLIC = ["/login", "/query-public/:code64", "/password/reset/:token", "/password/email"];

const sample = (pattern: string) => pattern.replace(/\/:[a-z_0-9]+\?/g, "").replace(/:([a-z_0-9]+)/g, "7");

const base: AccessState = { signedIn: true, hasCompany: true, isAdmin: false, companyActive: true, permission: 1 };
const PLAN2 = new Set(["/message-receptors", "/new-message-receptor", "/dashboard", "/report-expenses"]);
const INACTIVE = new Set(["/dashboard", "/companies"]);

describe("route table", () => {
  it("covers every route of spec part 1 §2.1 with a section title", () => {
    for (const p of [...SPEC_ROUTES, ...PUBLIC]) {
      const rule = ROUTES.find((r) => r.pattern === p);
      expect(rule, p).toBeDefined();
      expect(rule!.title.length).toBeGreaterThan(2);
      expect(matchRoute(sample(p))?.pattern).toBe(p);
    }
  });

  it("matches the optional print segment of the detail viewer", () => {
    expect(matchRoute("/detail/invoice/5")?.name).toBe("detail-transaction");
    expect(matchRoute("/detail/invoice/5/print")?.name).toBe("detail-transaction");
    expect(matchRoute("/detail/invoice")).toBeUndefined();
  });
});

describe("decideAccess", () => {
  it("/ goes to the dashboard and unknown paths to the 404 page", () => {
    expect(decideAccess("/", base)).toEqual({ kind: "redirect", to: "/dashboard" });
    expect(decideAccess("/no-such-page", base)).toEqual({ kind: "redirect", to: "/pages/error-404" });
    expect(decideAccess("/no-such-page", { ...base, signedIn: false, hasCompany: false })).toEqual({ kind: "redirect", to: "/pages/error-404" });
  });

  for (const p of SPEC_ROUTES) {
    const path = sample(p);
    it(`${p}: rules for session, company, inactive company and plans`, () => {
      // No session, or a session without company: only public routes.
      expect(decideAccess(path, { ...base, signedIn: false, hasCompany: false })).toEqual({ kind: "redirect", to: "/login" });
      expect(decideAccess(path, { ...base, hasCompany: false })).toEqual({ kind: "redirect", to: "/login" });
      // Inactive company, non-admin: only dashboard and companies.
      const inactive = decideAccess(path, { ...base, companyActive: false });
      expect(inactive.kind === "allow", `inactive ${p}`).toBe(INACTIVE.has(path));
      if (inactive.kind === "redirect") expect(inactive.to).toBe("/dashboard");
      // Inactive company, admin: everything (plan rules still apply).
      expect(decideAccess(path, { ...base, companyActive: false, isAdmin: true }).kind).toBe("allow");
      // Plan 2: reception only.
      const plan2 = decideAccess(path, { ...base, permission: 2 });
      expect(plan2.kind === "allow", `plan 2 ${p}`).toBe(PLAN2.has(path));
      if (plan2.kind === "redirect") expect(plan2.to).toBe("/dashboard");
      // Plans 1, 3, 4, 5: everything.
      for (const permission of [1, 3, 4, 5]) expect(decideAccess(path, { ...base, permission }).kind).toBe("allow");
    });
  }

  for (const p of PUBLIC) {
    const path = sample(p);
    it(`${p} is public`, () => {
      expect(decideAccess(path, { ...base, signedIn: false, hasCompany: false }).kind).toBe("allow");
    });
  }

  it("a signed-in user who opens login or the password screens goes to the dashboard", () => {
    for (const path of ["/login", "/password/email", "/password/reset/abc"]) {
      expect(decideAccess(path, base)).toEqual({ kind: "redirect", to: "/dashboard" });
    }
    // The public document stays reachable when signed in.
    expect(decideAccess("/query-public/abc", base).kind).toBe("allow");
  });

  it("signed-in utilities (logout, company switch) are never gated by plan or status", () => {
    for (const path of ["/logout", "/select-company"]) {
      expect(decideAccess(path, { ...base, permission: 2, companyActive: false }).kind).toBe("allow");
      expect(decideAccess(path, { ...base, signedIn: false, hasCompany: false })).toEqual({ kind: "redirect", to: "/login" });
    }
  });

  it("plan 5: writes to the company's data are refused, reads and the marked routes are not (decision 124)", () => {
    const plan5 = { ...base, permission: 5 };
    const refused = { kind: "refuse", status: 403, message: PLAN5_READ_ONLY };
    for (const path of ["/clients", "/new-invoice", "/items", "/config-generals/3", "/detail/invoice/9", "/payments", "/company-logo/3"]) {
      expect(decideAccess(path, { ...plan5, writing: true }), path).toEqual(refused);
      expect(decideAccess(path, plan5).kind, path).toBe("allow");
    }
    for (const path of ["/logout", "/select-company", "/advertisement-seen", "/users", "/add-user", "/edit-company/3", "/companies"]) {
      expect(decideAccess(path, { ...plan5, writing: true }).kind, path).toBe("allow");
    }
    // A route that names its company is judged by that company's plan.
    expect(decideAccess("/terms/4", { ...base, writing: true, targetPermission: 5 })).toEqual(refused);
    expect(decideAccess("/terms/4", { ...plan5, writing: true, targetPermission: 1 }).kind).toBe("allow");
    expect(targetCompanyId(matchRoute("/config-hacienda/42")!, "/config-hacienda/42")).toBe(42);
    expect(targetCompanyId(matchRoute("/clients")!, "/clients")).toBeNull();
    // The id the route will receive: React Router decodes each segment before matching, so an
    // encoded id is judged as the company it names, and what is not plain digits names none.
    for (const [path, id] of [["/config-generals/%31%32", 12], ["/terms/%34%32", 42], ["/config-generals/%2012", null], ["/taxes/0x0c", null]] as const) {
      expect(targetCompanyId(matchRoute(path)!, path), path).toBe(id);
      const routed = matchRoutes([{ path: path.split("/")[1] + "/:company_id" }], path)?.[0]?.params.company_id;
      expect(companyIdParam(routed), path).toBe(id);
    }
    expect(targetCompanyId(matchRoute("/terms/%E0%A4%A")!, "/terms/%E0%A4%A")).toBeNull();
    // Not signed in: still the sign-in page, not the refusal.
    expect(decideAccess("/clients", { ...plan5, writing: true, signedIn: false, hasCompany: false })).toEqual({ kind: "redirect", to: "/login" });
  });

  it("the expense dialogs and the report exports follow their screen's rules (plan 2: only the expenses report and its Excel)", () => {
    const plan2 = { ...base, permission: 2 };
    expect(decideAccess("/report-expenses/excel", plan2).kind).toBe("allow");
    for (const path of ["/report-invoices/excel", "/report-tickets/excel", "/report-notes/excel", "/report-items/excel", "/report-iva", "/report-iva/excel", "/expenses/new", "/expenses/new/category", "/expenses/categories", "/expenses/payment-methods", "/expense-file/7"])
      expect(decideAccess(path, plan2), path).toEqual({ kind: "redirect", to: "/dashboard" });
    for (const permission of [1, 3, 4, 5])
      for (const path of ["/report-invoices/excel", "/report-iva", "/expenses/new/category", "/expense-file/7"]) expect(decideAccess(path, { ...base, permission }).kind, path).toBe("allow");
    expect(decideAccess("/expense-file/7", { ...base, signedIn: false, hasCompany: false })).toEqual({ kind: "redirect", to: "/login" });
  });
});
