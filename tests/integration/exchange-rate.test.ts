// Dollar exchange rate: fetched from indicadores/tc/dolar (fake server), stored per date by the job
// (idempotent), and the fallback: the last known rate with a visible warning, or an error — never 1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { exchangeRates, jobs } from "../../db/schema/index.ts";
import * as itemsRoute from "../../app/routes/items/items.tsx";
import { crDate, parseDollarReply } from "../../app/domain/exchange-rate.ts";
import { currentRate, fetchDollarRate, refreshExchangeRate } from "../../app/server/exchange-rate.server.ts";
import { enqueue, runOne } from "../../jobs/runner.ts";
import { handlers, schedules } from "../../jobs/registry.ts";
import { startFakeHaciendaPublic, type FakePublic } from "../fixtures/fake-hacienda-public.ts";
import { call, createCompany, createUser, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: FakePublic;
// 2 Nov 2026, 08:00 in Costa Rica.
const NOW = new Date("2026-11-02T14:00:00Z");
const DAY = 24 * 3600_000;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeHaciendaPublic({ slowMs: 1500 });
  process.env.HACIENDA_PUBLIC_API_URL = fake.url;
  process.env.HACIENDA_LOOKUP_TIMEOUT_MS = "300";
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});
beforeEach(async () => {
  await database.db.delete(exchangeRates);
  fake.dollar = { status: 200, body: { compra: { fecha: "2026-11-02 00:00:00", valor: 505.12 }, venta: { fecha: "2026-11-02 00:00:00", valor: 511.45 } } };
});

describe("reply parsing (lenient)", () => {
  it.each([
    [{ compra: { fecha: "2026-11-02", valor: 505.1 }, venta: { fecha: "2026-11-02", valor: 511.4 } }, { date: "2026-11-02", buy: "505.1", sell: "511.4" }],
    [{ dolar: { compra: { valor: "505,10" }, venta: { valor: "511,40" } } }, { date: "2026-11-02", buy: "505.1", sell: "511.4" }],
    [{ compra: 505, venta: 511, fecha: "01/11/2026" }, { date: "2026-11-01", buy: "505", sell: "511" }],
    [[{ fecha: "2026-10-31 00:00:00", compra: 500, venta: 510 }], { date: "2026-10-31", buy: "500", sell: "510" }],
  ])("%j", (body, expected) => {
    expect(parseDollarReply(body, "2026-11-02")).toEqual(expected);
  });
  it("refuses replies without a positive rate", () => {
    expect(parseDollarReply({ venta: { valor: 0 } }, "2026-11-02")).toBeNull();
    expect(parseDollarReply({}, "2026-11-02")).toBeNull();
    expect(parseDollarReply("x", "2026-11-02")).toBeNull();
  });
  it("the Costa Rica date, not the server's", () => {
    expect(crDate(new Date("2026-11-03T05:00:00Z"))).toBe("2026-11-02");
  });
});

describe("fetching", () => {
  it("reads indicadores/tc/dolar", async () => {
    expect(await fetchDollarRate({ now: NOW })).toEqual({ ok: true, date: "2026-11-02", buy: "505.12", sell: "511.45" });
    expect(fake.requests).toContain("/indicadores/tc/dolar");
  });
  it("fails clearly on 5xx, garbage and timeouts, and an injected fetch is used", async () => {
    fake.dollar = { status: 503, body: {} };
    expect(await fetchDollarRate({ now: NOW })).toMatchObject({ ok: false });
    fake.dollar = "garbage";
    expect(await fetchDollarRate({ now: NOW })).toEqual({ ok: false, message: "Hacienda respondió con un tipo de cambio inválido" });
    fake.dollar = "slow";
    expect(await fetchDollarRate({ now: NOW, timeoutMs: 200 })).toEqual({ ok: false, message: "No se pudo obtener el tipo de cambio de Hacienda" });
    const injected = await fetchDollarRate({ now: NOW, fetch: async () => Response.json({ venta: { valor: 600 }, compra: { valor: 590 } }) });
    expect(injected).toEqual({ ok: true, date: "2026-11-02", buy: "590", sell: "600" });
  });
});

describe("current rate and its fallback", () => {
  it("with no rate at all: an error, never a silent 1", async () => {
    const r = await currentRate(database.db, { currency: "USD", now: NOW });
    expect(r).toEqual({ ok: false, message: "No hay tipo de cambio registrado y no se pudo obtener el de hoy de Hacienda. Inténtalo más tarde." });
  });

  it("today's rate once stored", async () => {
    expect(await refreshExchangeRate(database.db, { now: NOW })).toEqual({ status: "stored", date: "2026-11-02" });
    expect(await currentRate(database.db, { now: NOW })).toEqual({ ok: true, rate: "511.45", buy: "505.12", sell: "511.45", date: "2026-11-02", stale: false });
  });

  it("when today's is missing: the last known one, stale, with the Spanish warning", async () => {
    await refreshExchangeRate(database.db, { now: NOW });
    fake.dollar = { status: 500, body: {} };
    const tomorrow = new Date(NOW.getTime() + DAY);
    expect(await refreshExchangeRate(database.db, { now: tomorrow })).toMatchObject({ status: "failed" });
    const r = await currentRate(database.db, { now: tomorrow });
    expect(r).toEqual({
      ok: true,
      rate: "511.45",
      buy: "505.12",
      sell: "511.45",
      date: "2026-11-02",
      stale: true,
      warning: "No se pudo obtener el tipo de cambio de hoy; se usa el del 02/11/2026.",
    });
  });

  it("the items page shows the rate and the warning", async () => {
    await refreshExchangeRate(database.db, { now: new Date(NOW.getTime() - 400 * DAY) });
    const u = await createUser(database.db);
    const c = await createCompany(database.db, { userIds: [u.id] });
    const r = await call(await signedIn(database.db, u.id, c.id), itemsRoute.loader, { path: "/items" });
    expect(r.data.rate.ok).toBe(true);
    expect(r.data.rate.stale).toBe(true);
    expect(r.data.rate.warning).toMatch(/^No se pudo obtener el tipo de cambio de hoy; se usa el del \d\d\/\d\d\/\d{4}\.$/);
  });
});

describe("the job", () => {
  it("is registered and scheduled", () => {
    expect(handlers["exchange-rate"]).toBeTypeOf("function");
    expect(schedules.find((s) => s.type === "exchange-rate")?.cron).toBe("5 * * * *");
  });

  it("stores once per date (later runs only check) and retries on failure", async () => {
    await database.db.delete(jobs);
    await enqueue(database.db, "exchange-rate", {}, { runAt: new Date(NOW.getTime() - 60_000) });
    expect(await runOne(database.db, handlers, "test", () => NOW)).toBe(true);
    const before = fake.requests.length;
    await enqueue(database.db, "exchange-rate", {}, { runAt: new Date(NOW.getTime() - 60_000) });
    await runOne(database.db, handlers, "test", () => NOW);
    expect(fake.requests.length).toBe(before); // idempotent: no second fetch for the same date
    const rows = await database.db.select().from(exchangeRates);
    expect(rows).toHaveLength(1);

    fake.dollar = { status: 502, body: {} };
    await database.db.delete(jobs);
    await enqueue(database.db, "exchange-rate", {}, { runAt: new Date(NOW.getTime() - 60_000) });
    await runOne(database.db, handlers, "test", () => new Date(NOW.getTime() + DAY));
    const [job] = await database.db.select().from(jobs);
    expect(job.status).toBe("pending");
    expect(job.lastError).toMatch(/No se pudo obtener el tipo de cambio de Hacienda/);
  });
});
