import { afterAll, beforeAll, expect, it } from "vitest";
import * as callback from "../../app/routes/hacienda-callback.tsx";
import { anonymous, call } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it("Hacienda's callback is reachable without a session or CSRF token, and refuses what it cannot verify", async () => {
  const res = await call(anonymous(), callback.action, { path: "/hacienda/callback", form: { clave: "1".repeat(50) }, csrf: false });
  expect(res.status).toBe(400);
});
