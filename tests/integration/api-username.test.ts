// API usernames are unique whatever their case among the companies not archived (docs/decisions/180,
// notes of 2026-11-27): the company form and the API configuration screen refuse a taken one with a
// field message, keeping what was typed and saving nothing; the unique index on lower(username_api)
// (migration 0050) holds against saves that race; and migration 0050 leaves a database that already
// had companies sharing a username with one company per username (the one that signed in with it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { eq, inArray } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, migrationsFolder, openDatabase, rows, sql, type Database } from "../../db/client.ts";
import { companies, sessions } from "../../db/schema/index.ts";
import * as companyForm from "../../app/routes/companies/company-form.tsx";
import { API_CREDENTIAL_MESSAGES, companySchema } from "../../app/domain/company-schemas.ts";
import { parseForm } from "../../app/domain/forms.ts";
import { createCompany as saveCompany } from "../../app/server/companies.server.ts";
import { apiUsernameConflict, setApiCredentials } from "../../app/server/api/tokens.server.ts";
import { call, createCompany, createUser, signedIn } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";
import { adminUrl } from "../setup/global.ts";
import { companyFormFields } from "../fixtures/company-form.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await database?.drop();
});
const db = () => database.db;
const TAKEN = "Ya existe una compañia registrada con este usuario API";

let seq = 0;
const nextIdentification = () => String(310180000 + ++seq).padEnd(10, "0");
/** A username of this test run: its case as given ('Caja-…' and 'caja-…' are one username). */
const unique = (stem: string) => `${stem}-${process.pid}-${++seq}`;

function companyFormValues(overrides: Record<string, string> = {}): Record<string, string> {
  return companyFormFields({ identification: nextIdentification(), permission: "5", password_api: "clave-api-1", ...overrides });
}

async function admin() {
  const user = await createUser(db(), { role: "admin" });
  const home = await createCompany(db(), { userIds: [user.id] });
  return { user, actor: { id: user.id, isAdmin: true, isSuperAdmin: false }, browser: await signedIn(db(), user.id, home.id) };
}

async function companyBy(identification: string) {
  return db().select().from(companies).where(eq(companies.identification, identification));
}

describe("the company form and the API configuration screen", () => {
  it("refuse an API username another company has in any case ('Caja' / 'caja'), keep what was typed and save nothing", async () => {
    const { browser } = await admin();
    const caja = unique("Caja");
    const first = await call(browser, companyForm.action, { path: "/new-company", form: companyFormValues({ username_api: caja }) });
    expect(first.status).toBe(302);

    // A new company with the other spelling.
    const identification = nextIdentification();
    const dup = await call(browser, companyForm.action, { path: "/new-company", form: companyFormValues({ identification, name: "Otra S.A.", username_api: caja.toLowerCase() }) });
    expect(dup.status).toBe(400);
    expect(dup.data.errors).toEqual({ username_api: TAKEN });
    expect(dup.data.values).toMatchObject({ name: "Otra S.A.", identification, username_api: caja.toLowerCase() });
    expect(await companyBy(identification)).toEqual([]);

    // An existing company edited to the same username, upper case: refused, its stored one kept.
    const other = await call(browser, companyForm.action, { path: "/new-company", form: companyFormValues({ identification, name: "Otra S.A.", username_api: unique("ventas") }) });
    expect(other.status).toBe(302);
    const [stored] = await companyBy(identification);
    const edit = companyFormValues({ identification, name: "Otra S.A. cambiada", username_api: caja.toUpperCase() });
    const edited = await call(browser, companyForm.action, { path: `/edit-company/${stored.id}`, params: { id: String(stored.id) }, form: edit });
    expect(edited.status).toBe(400);
    expect(edited.data.errors).toEqual({ username_api: TAKEN });
    expect(edited.data.values).toMatchObject({ name: "Otra S.A. cambiada", username_api: caja.toUpperCase() });
    const [after] = await companyBy(identification);
    expect({ name: after.name, usernameApi: after.usernameApi, hash: after.passwordApiHash }).toEqual({ name: stored.name, usernameApi: stored.usernameApi, hash: stored.passwordApiHash });

    // The API configuration screen's use-case: the same rule and message.
    expect(await setApiCredentials(db(), stored.id, { username: caja.toLowerCase(), password: "otra-clave-2" }, new Date())).toEqual({ ok: false, field: "username", message: TAKEN });
    expect((await companyBy(identification))[0].passwordApiHash).toBe(stored.passwordApiHash);
    expect(API_CREDENTIAL_MESSAGES.usernameTaken).toBe(TAKEN);

    // The company keeps its own username in another case; an archived company's does not count.
    expect((await call(browser, companyForm.action, { path: `/edit-company/${stored.id}`, params: { id: String(stored.id) }, form: { ...edit, username_api: stored.usernameApi!.toUpperCase() } })).status).toBe(302);
    await db().update(companies).set({ deletedAt: new Date() }).where(eq(companies.usernameApi, caja));
    expect((await call(browser, companyForm.action, { path: "/new-company", form: companyFormValues({ username_api: caja.toLowerCase() }) })).status).toBe(302);
  });
});

describe("the unique index on lower(username_api)", () => {
  it("refuses a second spelling written past the checks, but not beside an archived company", async () => {
    const a = await createCompany(db());
    const b = await createCompany(db());
    const name = unique("Caja");
    await db().update(companies).set({ usernameApi: name }).where(eq(companies.id, a.id));
    const error = await db()
      .update(companies)
      .set({ usernameApi: name.toLowerCase() })
      .where(eq(companies.id, b.id))
      .then(() => null, (e: unknown) => e);
    expect(apiUsernameConflict(error)).toBe(true);
    await db().update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, a.id));
    await db().update(companies).set({ usernameApi: name.toLowerCase() }).where(eq(companies.id, b.id));
  });

  it("two company forms saving one username at once ('Caja', 'caja'): one saved, the other gets the field message", async () => {
    const { actor } = await admin();
    const name = unique("Caja");
    const schema = companySchema({ creating: true, isAdmin: true, isSuperAdmin: false, hasApiPassword: false, storedActivityCode: null });
    const input = (username: string) => {
      const parsed = parseForm(schema, companyFormValues({ username_api: username }));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      return parsed.data;
    };
    const results = await Promise.all([saveCompany(db(), actor, input(name), null), saveCompany(db(), actor, input(name.toLowerCase()), null)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, errors: { username_api: TAKEN } }]);
    const saved = await rows<{ n: number }>(db(), sql`select count(*)::int as n from companies where lower(username_api) = lower(${name})`);
    expect(saved[0].n).toBe(1);
  });

  // The race for certain: a save that passed its check while another, not yet committed, wrote the
  // username. Only the index can refuse it (PostgreSQL: the embedded database runs one at a time).
  it.runIf(!!process.env.DATABASE_URL)("PostgreSQL: a save whose check passed while another wrote the username waits on the index and is refused with the field message", async () => {
    const { actor } = await admin();
    const name = unique("Caja");
    const holder = postgres(database.url!, { max: 2, onnotice: () => {} });
    const parsed = parseForm(companySchema({ creating: true, isAdmin: true, isSuperAdmin: false, hasApiPassword: false, storedActivityCode: null }), companyFormValues({ username_api: name.toLowerCase() }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const lockWaits = async () => (await holder`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0].n as number;
    const writer = await holder.reserve();
    try {
      await writer`begin`;
      await writer`insert into companies (name, identification_type_id, identification, email, phone, username_api) values ('Primera', 2, ${nextIdentification()}, 'a@example.cr', '22223333', ${name})`;
      let done = false;
      const second = saveCompany(db(), actor, parsed.data, null).finally(() => (done = true));
      for (let i = 0; i < 200 && !done && (await lockWaits()) < 1; i++) await new Promise((r) => setTimeout(r, 25));
      expect(done).toBe(false); // its check found nothing; its insert waits for the writer's
      await writer`commit`;
      expect(await second).toEqual({ ok: false, errors: { username_api: TAKEN } });
    } finally {
      writer.release();
      await holder.end({ timeout: 5 });
    }
    expect(await companyBy(parsed.data.identification)).toEqual([]);
  });
});

describe("migration 0050 on a database with companies sharing a username", () => {
  let old: Database;
  let dropOld = async () => {};
  beforeAll(async () => {
    // A fresh database migrated up to 0049 only: the migrations folder with the journal cut there.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-0049-"));
    fs.mkdirSync(path.join(folder, "meta"));
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.idx <= 49);
    expect(journal.entries.at(-1)!.tag).toBe("0049_reception_days_triggers");
    fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
    for (const e of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
    const url = process.env.DATABASE_URL;
    if (url) {
      const name = `colibri_m0049_${randomBytes(4).toString("hex")}`;
      const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      old = await openDatabase({ databaseUrl: adminUrl(url, name), maxConnections: 2 });
      dropOld = async () => {
        await old.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      };
      await migratePostgres(old.db as never, { migrationsFolder: folder });
    } else {
      old = await openDatabase({});
      dropOld = () => old.close();
      await migratePglite(old.db as never, { migrationsFolder: folder });
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }, 120_000);
  afterAll(() => dropOld());

  it("keeps each username for the company that signed in with it, clears the others' credentials and ends their API sessions", async () => {
    const odb = old.db;
    expect(await rows(odb, sql`select 1 from pg_indexes where indexname = 'companies_username_api_unique'`)).toEqual([]);
    const insert = async (name: string, usernameApi: string | null, passwordApiHash: string | null, deletedAt: Date | null = null) => {
      const [c] = await rows<{ id: number }>(
        odb,
        sql`insert into companies (name, identification_type_id, identification, email, phone, permission, username_api, password_api_hash, deleted_at)
            values (${name}, 2, ${nextIdentification()}, 'a@example.cr', '22223333', 5, ${usernameApi}, ${passwordApiHash}, ${deletedAt?.toISOString() ?? null})
            returning id`,
      );
      return c.id;
    };
    const session = async (companyId: number) => {
      const id = randomBytes(16).toString("hex");
      await rows(odb, sql`insert into sessions (id, kind, api_company_id, expires_at, access_expires_at, refresh_hash, label) values (${id}, 'api', ${companyId}, now() + interval '30 days', now() + interval '1 hour', ${`r-${id}`}, 'Usuario API')`);
      return id;
    };
    // 'Caja': the oldest with a password keeps it. 'Ventas': the oldest has no password (it could
    // not sign in), so the newer one with a password, which signed in, keeps it.
    const caja = await insert("Caja 1", "Caja", "hash-caja-1");
    const caja2 = await insert("Caja 2", "caja", "hash-caja-2");
    const caja3 = await insert("Caja 3", "CAJA", null);
    const archived = await insert("Caja archivada", "cAjA", "hash-archivada", new Date());
    const ventasOld = await insert("Ventas sin clave", "Ventas", null);
    const ventas = await insert("Ventas", "ventas", "hash-ventas");
    const alone = await insert("Sola", "Sola", "hash-sola");
    const none = await insert("Sin API", null, null);
    const kept = await session(caja);
    const lost = await session(caja2);
    const keptVentas = await session(ventas);

    await migrateDatabase(old); // applies 0050 only

    const after = await odb.select({ id: companies.id, usernameApi: companies.usernameApi, hash: companies.passwordApiHash }).from(companies).orderBy(companies.id);
    expect(after).toEqual([
      { id: caja, usernameApi: "Caja", hash: "hash-caja-1" },
      { id: caja2, usernameApi: null, hash: null },
      { id: caja3, usernameApi: null, hash: null },
      { id: archived, usernameApi: "cAjA", hash: "hash-archivada" },
      { id: ventasOld, usernameApi: null, hash: null },
      { id: ventas, usernameApi: "ventas", hash: "hash-ventas" },
      { id: alone, usernameApi: "Sola", hash: "hash-sola" },
      { id: none, usernameApi: null, hash: null },
    ]);
    const sess = await odb.select({ id: sessions.id, closedReason: sessions.closedReason, closedAt: sessions.closedAt, refreshHash: sessions.refreshHash }).from(sessions).where(inArray(sessions.id, [kept, lost, keptVentas]));
    const byId = Object.fromEntries(sess.map((s) => [s.id, s]));
    expect(byId[kept]).toMatchObject({ closedReason: null, closedAt: null, refreshHash: `r-${kept}` });
    expect(byId[keptVentas]).toMatchObject({ closedReason: null, closedAt: null });
    expect(byId[lost]).toMatchObject({ closedReason: "api-username", refreshHash: null });
    expect(byId[lost].closedAt).not.toBeNull();
    // The index now holds.
    const error = await odb
      .update(companies)
      .set({ usernameApi: "CAJA" })
      .where(eq(companies.id, alone))
      .then(() => null, (e: unknown) => e);
    expect(apiUsernameConflict(error)).toBe(true);
  });
});
