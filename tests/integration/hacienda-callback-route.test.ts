import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { RouterContextProvider } from "react-router";
import * as callback from "../../app/routes/hacienda-callback.tsx";
import { requestContext } from "../../app/server/context.ts";
import { anonymous, call } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it("Hacienda's callback is reachable without a session or CSRF token, and refuses a body without a clave", async () => {
  const res = await call(anonymous(), callback.action, { path: "/hacienda/callback", form: { clave: "1".repeat(50) }, csrf: false });
  expect(res.status).toBe(400);
});

it("is rate limited per client address: a burst of 60, then 429 with a Spanish message; another address is not affected", async () => {
  const post = async (ip: string) => {
    const context = new RouterContextProvider();
    context.set(requestContext, { ip, csrf: "", toasts: [] });
    const request = new Request("http://localhost/hacienda/callback", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ clave: "7".repeat(50), indEstado: "aceptado" }) });
    const response = (await callback.action({ request, context, params: {} } as never)) as Response;
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get("retry-after") };
  };
  // The clock stands still, so no token comes back however slowly the requests run.
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-25T12:00:00Z") });
  try {
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push((await post("203.0.113.9")).status);
    expect(answers).toEqual(Array(60).fill(200));
    expect(await post("203.0.113.9")).toEqual({ status: 429, body: "Demasiadas notificaciones desde esta dirección. Espere un momento y vuelva a intentarlo.", retryAfter: "1" });
    expect((await post("203.0.113.10")).status).toBe(200);
    vi.setSystemTime(new Date("2026-11-25T12:00:01Z")); // a second later: ten more
    expect((await post("203.0.113.9")).status).toBe(200);
  } finally {
    vi.useRealTimers();
  }
});
