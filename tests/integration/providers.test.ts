import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients } from "../../db/schema/index.ts";
import * as providers from "../../app/routes/clients/providers.tsx";
import * as clientsRoute from "../../app/routes/clients/clients.tsx";
import { readToasts } from "../../app/server/flash.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
beforeAll(async () => {
  database = await createTestDatabase();
  const u = await createUser(database.db);
  const c = await createCompany(database.db, { userIds: [u.id] });
  b = await signedIn(database.db, u.id, c.id);
});
afterAll(() => database.drop());

function clientForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "save",
    name: "Proveedor",
    identification_type: "2",
    identification: "3101123456",
    email: "ventas@proveedor.cr",
    phone: "88887777",
    address: "Zona industrial",
    country: "60",
    province: "1",
    canton: "1",
    district: "1",
    barrio: "Amón",
    contact_count: "1",
    contact_name_0: "Ventas",
    contact_email_0: "ventas@proveedor.cr",
    ...overrides,
  };
}

const toast = () => {
  const flash = b.cookies.get("colibri_flash");
  return (flash ? readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) : [])?.[0];
};

describe("providers", () => {
  it("empty list, creation flagged as provider with a required activity, sorted by name, real toggle and delete", async () => {
    const empty = await call(b, providers.loader, { path: "/providers" });
    expect(empty.data.rows).toHaveLength(0);
    expect(empty.data.provider).toBe(true);
    const missing = await call(b, providers.action, { path: "/providers?new=1", form: clientForm({ name: "Sin actividad" }) });
    expect(missing.data.form.errors.economic_activity_code).toBe("La actividad económica es obligatoria");
    expect(missing.data.form.provider).toBe(true);
    for (const name of ["Zeta Suministros", "Alfa Distribuidora"]) {
      const ok = await call(b, providers.action, { path: "/providers?new=1", form: clientForm({ name, economic_activity_code: "4711.0", economic_activity_name: "Venta" }) });
      expect(ok.status).toBe(302);
      expect(ok.location).toBe("/providers");
    }
    const list = await call(b, providers.loader, { path: "/providers" });
    expect(list.data.rows.map((r: { name: string }) => r.name)).toEqual(["Alfa Distribuidora", "Zeta Suministros"]);
    expect(list.data.rows[0].phone).toBe("88887777");
    // Providers are not in the clients list.
    const cl = await call(b, clientsRoute.loader, { path: "/clients" });
    expect(cl.data.rows.some((r: { name: string }) => r.name === "Alfa Distribuidora")).toBe(false);
    const id = list.data.rows[0].id;
    await call(b, providers.action, { path: "/providers", form: { intent: "toggle", client_id: String(id), confirm: "yes" } });
    expect(toast()?.text).toBe("Cliente desactivado correctamente");
    expect((await database.db.select().from(clients).where(eq(clients.id, id)))[0].active).toBe(false);
    await call(b, providers.action, { path: "/providers", form: { intent: "delete", client_id: String(id), confirm: "yes" } });
    expect(toast()?.text).toBe("Cliente eliminado");
    const after = await call(b, providers.loader, { path: "/providers" });
    expect(after.data.rows.map((r: { name: string }) => r.name)).toEqual(["Zeta Suministros"]);
  });
});
