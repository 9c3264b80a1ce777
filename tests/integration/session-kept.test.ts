// The session's row kept between requests on the embedded database (docs/decisions/201), read again
// after any change of a table the lookup reads. Checked here:
// - PostgreSQL reads it on every request (several processes share the database);
// - PGlite reads it once, then not until a change: one for each of the ten tables the lookup reads,
//   through the app's client, raw SQL, a transaction and PGlite's own query, each shows on the very
//   next lookup; a rolled-back transaction changes nothing and keeps the row;
// - a signed-out or expired session is never served from what was kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { advertisements, companies, companyUsers, currencies, documents, figuresVersions, generalConfigurations, haciendaConfigs, pendingDocuments, sessions, users } from "../../db/schema/index.ts";
import { closeSession, createSession, lookupSession, type SessionLookup } from "../../app/server/session.server.ts";
import { installQueryStats } from "../../db/query-stats.ts";
import { createCompany, createUser } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { counted } from "../setup/query-count.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let userId: number;
let companyId: number;
let sessionId: string;
const now = () => new Date();

/** The lookup and how many queries it ran. */
async function look(id = sessionId, at = now()) {
  const { result, queries } = await counted(() => lookupSession(database.db, id, at));
  return { lookup: result, queries };
}

const active = (l: SessionLookup) => {
  if (l.state !== "active") throw new Error(`expected an active session, got ${l.state}`);
  return l;
};

beforeAll(async () => {
  installQueryStats();
  database = await createTestDatabase();
  userId = (await createUser(database.db, { name: "Ana" })).id;
  companyId = (await createCompany(database.db, { userIds: [userId], name: "Alfa Comercial" })).id;
  ({ sessionId } = await createSession(database.db, userId, companyId, { ip: "127.0.0.1", userAgent: "test", now: now() }));
}, 120_000);
afterAll(async () => {
  await database?.drop();
});

describe("the session's row between requests", () => {
  it("PostgreSQL reads it on every request; the embedded database once, until something it reads changes", async () => {
    expect((await look()).queries).toBe(1);
    const second = await look();
    expect(active(second.lookup).user.name).toBe("Ana");
    expect(second.queries).toBe(database.kind === "pglite" ? 0 : 1);
  });

  it.skipIf(!!process.env.DATABASE_URL)("every table the lookup reads, however written, shows on the very next lookup", async () => {
    const pglite = database.pglite!;
    /** A change, then the next lookup reads again and sees it; the one after keeps the row again. */
    async function expectReadAgain(change: () => Promise<unknown>, sees: (l: Extract<SessionLookup, { state: "active" }>) => unknown, expected: unknown) {
      await look();
      expect((await look()).queries, "kept before the change").toBe(0);
      await change();
      const next = await look();
      expect(next.queries, "read after the change").toBe(1);
      expect(sees(active(next.lookup))).toEqual(expected);
      expect((await look()).queries, "kept after").toBe(0);
    }
    await expectReadAgain(() => database.db.update(users).set({ name: "Ana María" }).where(eq(users.id, userId)), (l) => l.user.name, "Ana María");
    await expectReadAgain(() => database.db.update(companies).set({ name: "Alfa Renombrada" }).where(eq(companies.id, companyId)), (l) => l.company?.name, "Alfa Renombrada");
    const beta = await createCompany(database.db, { name: "Beta Servicios" });
    await expectReadAgain(() => database.db.insert(companyUsers).values({ companyId: beta.id, userId }), (l) => l.companies.map((c) => c.name), ["Alfa Renombrada", "Beta Servicios"]);
    await expectReadAgain(() => database.db.update(sessions).set({ uiState: '{"x":1}' }).where(eq(sessions.id, sessionId)), (l) => l.uiState, '{"x":1}');
    await expectReadAgain(
      () => database.db.execute(sql`insert into ${pendingDocuments} (company_id, status, documents) values (${companyId}, 'por enviar', 3)`),
      (l) => l.banners.pending,
      { porEnviar: 3, procesando: 0 },
    );
    const notAfter = new Date("2027-01-31T06:00:00Z");
    await expectReadAgain(() => database.db.insert(haciendaConfigs).values({ companyId, keyNotAfter: notAfter }), (l) => l.banners.keyNotAfter?.getTime(), notAfter.getTime());
    // In a transaction, through PGlite's own query (not the app's client).
    await expectReadAgain(
      () =>
        database.db.transaction(async (tx) => {
          const [{ id }] = await tx.select({ id: currencies.id }).from(currencies).where(eq(currencies.code, "USD"));
          await tx.insert(generalConfigurations).values({ companyId, currencyId: id }).onConflictDoUpdate({ target: generalConfigurations.companyId, set: { currencyId: id } });
        }),
      (l) => l.company?.currencySymbol,
      "$",
    );
    await expectReadAgain(() => pglite.query(`update currencies set symbol = 'US$' where code = 'USD'`), (l) => l.company?.currencySymbol, "US$");
    await expectReadAgain(() => database.db.update(advertisements).set({ active: false }), (l) => l.banners.advertisementCode, null);
    // The dashboard's version (docs/decisions/202): written directly, and moved by an accepted invoice
    // (through the deferred triggers of document_days, at its commit).
    await expectReadAgain(() => database.db.insert(figuresVersions).values({ companyId, version: 41 }), (l) => l.banners.figuresVersion, 41);
    await expectReadAgain(
      () => database.db.insert(documents).values({ companyId, kind: "fe", status: "aceptado", issuedAt: new Date(), totalComprobante: "1.00000" }),
      (l) => l.banners.figuresVersion,
      42,
    );

    // A transaction rolled back announces nothing and changes nothing: the row is kept.
    await look();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(users).set({ name: "Nunca" }).where(eq(users.id, userId));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const after = await look();
    expect(after.queries).toBe(0);
    expect(active(after.lookup).user.name).toBe("Ana María");
  });

  it("a closed or expired session is never served from what was kept", async () => {
    await look();
    await look();
    const expired = await look(sessionId, new Date(Date.now() + 400 * 24 * 3600_000));
    expect(expired.lookup).toEqual({ state: "closed", message: "Tu sesión expiró. Inicia sesión de nuevo." });
    await closeSession(database.db, sessionId, now());
    expect((await look()).lookup).toEqual({ state: "none" });
    // A session that does not exist is not kept either.
    expect((await look("0".repeat(64))).lookup).toEqual({ state: "none" });
    expect((await look("0".repeat(64))).queries).toBe(1);
  });
});
