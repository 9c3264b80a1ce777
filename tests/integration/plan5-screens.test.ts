// Plan 5 (read-only, issue 14 point 8): the new-document screens show the read-only message instead
// of a form nobody may save; /recurrings has no 'Nueva factura recurrente' and no actions, and its
// numbers open the template's preview (point 9: /detail/recurring/:id is a preview, not the editor).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { companies } from "../../db/schema/index.ts";
import { testSchemaSet } from "../../app/hacienda/testing/schemas.ts";
import { createRecurring } from "../../app/server/recurring.server.ts";
import { FORM_MESSAGES } from "../../app/domain/document-form.ts";
import * as formRoute from "../../app/routes/documents/document-form.tsx";
import * as recurringForm from "../../app/routes/documents/recurring-form.tsx";
import * as recurrings from "../../app/routes/documents/recurrings.tsx";
import * as recurringDetail from "../../app/routes/documents/recurring-detail.tsx";
import { issuingCompany, sampleDraft } from "../fixtures/issuing.ts";
import { createTestDatabase } from "../setup/db.ts";
import { call, signedIn } from "../setup/app.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.drop());

async function company(permission: number) {
  const a = await issuingCompany(database.db);
  const rec = await createRecurring(database.db, { companyId: a.company.id, userId: a.user.id, draft: sampleDraft("fe", a.client.id, { note: "Mantenimiento" }), startDay: "2026-12-01", cycle: "monthly", now: new Date(), schemaSet: testSchemaSet() });
  if (!rec.ok) throw new Error(JSON.stringify(rec.errors));
  await database.db.update(companies).set({ permission }).where(eq(companies.id, a.company.id));
  return { ...a, recurringId: rec.id, b: await signedIn(database.db, a.user.id, a.company.id) };
}

function render(id: string, path: string, pattern: string, Component: unknown, loaderData: unknown, ErrorBoundary?: unknown, error?: unknown) {
  const Stub = createRoutesStub([{ id, path: pattern, Component: Component as never, ErrorBoundary: ErrorBoundary as never, loader: () => null }]);
  return renderToString(createElement(Stub, { initialEntries: [path], hydrationData: error ? { errors: { [id]: error } } : { loaderData: { [id]: loaderData } } }));
}

describe("plan 5 screens", () => {
  it("/new-invoice, /new-ticket and /recurring-new show the read-only message, not the form", async () => {
    const p5 = await company(5);
    for (const [path, route] of [
      ["/new-invoice", formRoute],
      ["/new-ticket", formRoute],
      ["/recurring-new", recurringForm],
    ] as const) {
      const r = await call(p5.b, route.loader, { path });
      expect(r.status, path).toBe(403);
      expect(r.data, path).toBe(FORM_MESSAGES.readOnlyPlan);
    }
    const html = render("form", "/new-invoice", "/new-invoice", formRoute.default, null, formRoute.ErrorBoundary, { status: 403, statusText: "Forbidden", internal: false, data: FORM_MESSAGES.readOnlyPlan });
    expect(html).toContain(FORM_MESSAGES.readOnlyPlan);
    expect(html).not.toContain("<form");
    // Plan 1 still gets the form.
    const p1 = await company(1);
    expect((await call(p1.b, formRoute.loader, { path: "/new-invoice" })).status).toBe(200);
  });

  it("/recurrings hides 'Nueva factura recurrente' and the actions; the number opens the preview", async () => {
    const p5 = await company(5);
    const data = (await call(p5.b, recurrings.loader, { path: "/recurrings" })).data;
    expect(data.plan5).toBe(true);
    const html = render("recurrings", "/recurrings", "/recurrings", recurrings.default, data);
    expect(html).not.toContain("Nueva factura recurrente");
    expect(html).not.toContain("Acciones");
    expect(html).not.toContain("Pausar");
    expect(html).toContain(`href="/detail/recurring/${p5.recurringId}"`);
    const p1 = await company(1);
    const full = render("recurrings", "/recurrings", "/recurrings", recurrings.default, (await call(p1.b, recurrings.loader, { path: "/recurrings" })).data);
    expect(full).toContain("Nueva factura recurrente");
    expect(full).toContain(`href="/edit-recurring/recurring/${p1.recurringId}"`);
  });

  it("/detail/recurring/:id is a preview of the template: schedule, lines, totals; 'Editar' except on plan 5", async () => {
    for (const permission of [1, 5]) {
      const c = await company(permission);
      const r = await call(c.b, recurringDetail.loader, { path: `/detail/recurring/${c.recurringId}`, params: { id: String(c.recurringId) } });
      expect(r.status).toBe(200);
      expect(r.data.facts).toContainEqual({ label: "Ciclo", value: "Cada mes" });
      expect(r.data.facts).toContainEqual({ label: "Cliente", value: "Distribuidora La Sabana Limitada" });
      expect(r.data.lines.map((l: { description: string; total: string }) => [l.description, l.total])).toEqual([
        ["Computadora portátil 14 pulgadas", "₡966.150,00"],
        ["Horas de consultoría en sistemas", "₡260.000,00"],
      ]);
      const html = render("detail-recurring", `/detail/recurring/${c.recurringId}`, "/detail/recurring/:id", recurringDetail.default, r.data);
      expect(html).toContain("₡1.226.150,00");
      expect(html).not.toContain('name="');
      expect(html.includes(`href="/edit-recurring/recurring/${c.recurringId}"`)).toBe(permission !== 5);
    }
  });
});
