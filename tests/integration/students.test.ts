import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, students } from "../../db/schema/index.ts";
import * as studentsRoute from "../../app/routes/students/students.tsx";
import { readToasts } from "../../app/server/flash.server.ts";
import { call, createCompany, createUser, signedIn, type Browser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let b: Browser;
let companyId: number;
let parent: number;
let provider: number;
beforeAll(async () => {
  database = await createTestDatabase();
  const u = await createUser(database.db);
  const c = await createCompany(database.db, { userIds: [u.id], permission: 3 });
  companyId = c.id;
  b = await signedIn(database.db, u.id, c.id);
  const base = { companyId, identificationTypeId: 1, identification: "109870654", email: "p@example.cr", phone: "88887777", address: "San José" };
  [{ id: parent }] = await database.db.insert(clients).values({ ...base, name: "Padre Representante" }).returning({ id: clients.id });
  [{ id: provider }] = await database.db.insert(clients).values({ ...base, name: "Proveedor", provider: true }).returning({ id: clients.id });
});
afterAll(() => database.drop());

const toast = () => {
  const flash = b.cookies.get("colibri_flash");
  return (flash ? readToasts(new Request("http://x/", { headers: { cookie: `colibri_flash=${flash}` } })) : [])?.[0];
};

describe("students", () => {
  it("starts empty and offers only non-provider clients as representatives", async () => {
    const list = await call(b, studentsRoute.loader, { path: "/students?new=1" });
    expect(list.data.rows).toHaveLength(0);
    expect(list.data.form).toEqual({ id: null, values: {}, errors: {} });
    expect(list.data.representatives.map((r: { id: number }) => r.id)).toEqual([parent]);
  });

  it("requires name, surname and representative, and keeps what was typed", async () => {
    const res = await call(b, studentsRoute.action, { path: "/students?new=1", form: { intent: "save", name: "", surname: "", client_id: "", email: "escrito@" } });
    expect(res.status).toBe(400);
    expect(res.data.form.errors).toMatchObject({ name: "El nombre es obligatorio", surname: "El apellido es obligatorio", client_id: "El representante es obligatorio", email: "Ingresa un correo válido" });
    expect(res.data.form.values.email).toBe("escrito@");
    const prov = await call(b, studentsRoute.action, { path: "/students?new=1", form: { intent: "save", name: "Ana", surname: "Mora", client_id: String(provider) } });
    expect(prov.data.form.errors.client_id).toBe("El representante es obligatorio");
  });

  it("creates, lists by name, edits, toggles after confirmation and deletes", async () => {
    for (const name of ["Zoe", "Ana"]) {
      const res = await call(b, studentsRoute.action, { path: "/students?new=1", form: { intent: "save", name, surname: "Mora", client_id: String(parent) } });
      expect(res.status).toBe(302);
      expect(toast()?.text).toBe("Estudiante guardado correctamente");
    }
    const list = await call(b, studentsRoute.loader, { path: "/students" });
    expect(list.data.rows.map((r: { name: string }) => r.name)).toEqual(["Ana", "Zoe"]);
    expect(list.data.rows[0]).toMatchObject({ representative: "Padre Representante", balance: "0", active: true });
    const id = list.data.rows[0].id;
    const edit = await call(b, studentsRoute.loader, { path: `/students?edit=${id}` });
    expect(edit.data.form.values).toMatchObject({ name: "Ana", surname: "Mora", client_id: String(parent) });
    await call(b, studentsRoute.action, { path: `/students?edit=${id}`, form: { intent: "save", name: "Ana María", surname: "Mora", client_id: String(parent) } });
    expect(toast()?.text).toBe("Estudiante actualizado correctamente");
    await call(b, studentsRoute.action, { path: "/students", form: { intent: "toggle", student_id: String(id), confirm: "cancel" } });
    expect(toast()?.text).toBe("Acción cancelada");
    expect((await database.db.select().from(students).where(eq(students.id, id)))[0].active).toBe(true);
    await call(b, studentsRoute.action, { path: "/students", form: { intent: "toggle", student_id: String(id), confirm: "yes" } });
    expect((await database.db.select().from(students).where(eq(students.id, id)))[0]).toMatchObject({ active: false, name: "Ana María" });
    await call(b, studentsRoute.action, { path: "/students", form: { intent: "delete", student_id: String(id), confirm: "yes" } });
    expect(toast()?.text).toBe("Estudiante eliminado");
    const after = await call(b, studentsRoute.loader, { path: "/students" });
    expect(after.data.rows.map((r: { name: string }) => r.name)).toEqual(["Zoe"]);
  });
});
