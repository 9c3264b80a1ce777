import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import * as t from "../schema/index.ts";
import { hashPassword } from "../../app/server/password.server.ts";
import { setupNewCompany } from "../../app/server/company-setup.server.ts";
import { setupDemoCompany } from "../../app/server/config-setup.server.ts";
import * as ref from "./reference-data.ts";
import { loadLocations } from "./locations.ts";

async function insertChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

type CodeRow = { id: number; code?: string; name?: string; description?: string; symbol?: string; rate?: string } & Record<string, unknown>;

function codeRows(kind: string, rows: readonly CodeRow[]) {
  return rows.map((r) => {
    const { id, code, name, description, rate, ...rest } = r;
    return {
      kind,
      id,
      code: code ?? (typeof rest.symbol === "string" ? rest.symbol : null),
      name: String(name ?? description ?? code),
      rate: rate ?? null,
      extra: Object.keys(rest).length ? JSON.stringify(rest) : null,
    };
  });
}

/** Reference data: idempotent (insert … on conflict do nothing). */
export async function seedReferenceData(db: Db) {
  await db.insert(t.identificationTypes).values(ref.identificationTypes.map((r) => ({ id: r.id, code: r.code, name: r.name, forCompanies: r.forCompanies }))).onConflictDoNothing();
  await db.insert(t.currencies).values(ref.currencies.map((r) => ({ id: r.id, code: r.code, name: r.name, symbol: r.symbol }))).onConflictDoNothing();
  await db.insert(t.countries).values(ref.countries.map((r) => ({ id: r.id, code: r.code, name: r.name }))).onConflictDoNothing();

  const [{ n: provinceCount }] = await db.select({ n: sql<number>`count(*)::int` }).from(t.provinces);
  if (provinceCount === 0) {
    const loc = loadLocations();
    await db.insert(t.provinces).values(loc.provinces).onConflictDoNothing();
    await db.insert(t.cantons).values(loc.cantons).onConflictDoNothing();
    await insertChunks(loc.districts, 1000, (c) => db.insert(t.districts).values(c).onConflictDoNothing());
    await insertChunks(loc.barrios, 2000, (c) => db.insert(t.barrios).values(c));
  }

  const tables: [string, readonly CodeRow[]][] = [
    ["unit", ref.unitsOfMeasure as unknown as CodeRow[]],
    ["vat_rate", ref.vatRates as unknown as CodeRow[]],
    ["tax_type", ref.taxTypes as unknown as CodeRow[]],
    ["payment_method", ref.paymentMethods as unknown as CodeRow[]],
    ["sale_condition", ref.saleConditions as unknown as CodeRow[]],
    ["payment_term", ref.paymentTerms as unknown as CodeRow[]],
    ["reference_code", ref.referenceCodes as unknown as CodeRow[]],
    ["reference_document_type", ref.referenceDocumentTypes as unknown as CodeRow[]],
    ["email_protocol", ref.emailProtocols as unknown as CodeRow[]],
    ["category", ref.categories as unknown as CodeRow[]],
  ];
  for (const [kind, rows] of tables) {
    await db.insert(t.codeTables).values(codeRows(kind, rows)).onConflictDoNothing();
  }
}

export const DEMO_EMAIL = "demo@colibri.cr";
export const DEMO_COMPANY = "Colibrí Demo S.A.";

/**
 * Creates the demo company and its admin user on the first run. Returns the password when it
 * created the user (it is random and shown once; the caller keeps it in the data folder).
 */
export async function seedDemo(db: Db, opts: { password?: string } = {}): Promise<{ created: boolean; email: string; password?: string }> {
  const existing = await db.select({ id: t.users.id }).from(t.users).where(eq(sql`lower(${t.users.email})`, DEMO_EMAIL));
  if (existing.length) return { created: false, email: DEMO_EMAIL };
  const password = opts.password ?? randomBytes(9).toString("base64url");
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [company] = await tx
      .insert(t.companies)
      .values({
        name: DEMO_COMPANY,
        fantasyName: "Colibrí Demo",
        identificationTypeId: 2,
        identification: "3101123456",
        email: "facturacion@colibri-demo.cr",
        phone: "22223333",
        countryId: 60,
        provinceNumber: 1,
        cantonNumber: 1,
        districtNumber: 1,
        otherSigns: "Avenida Central, calle 1, edificio Colibrí",
        economicActivityCode: "6201.0",
        economicActivityName: "Actividades de programación informática",
        permission: 1,
        active: true,
      })
      .returning({ id: t.companies.id });
    const [user] = await tx
      .insert(t.users)
      .values({ name: "Administrador Demo", email: DEMO_EMAIL, passwordHash, role: "admin", defaultCompanyId: company.id })
      .returning({ id: t.users.id });
    await tx.update(t.companies).set({ userId: user.id }).where(eq(t.companies.id, company.id));
    await tx.insert(t.companyUsers).values({ companyId: company.id, userId: user.id });
    await tx.insert(t.generalConfigurations).values({ companyId: company.id }).onConflictDoNothing();
    await setupNewCompany(tx, company.id);
    await setupDemoCompany(tx, company.id);
  });
  return { created: true, email: DEMO_EMAIL, password };
}

export async function findUserIdByEmail(db: Db, email: string) {
  const [row] = await db.select({ id: t.users.id }).from(t.users).where(and(eq(sql`lower(${t.users.email})`, email.toLowerCase())));
  return row?.id;
}
