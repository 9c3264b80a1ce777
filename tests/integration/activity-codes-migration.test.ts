// Issue 11 point 1: the data migration 0015 (docs/decisions/132) turns stored activity codes of the
// catalogue before TRIBU-CR into CIIU 4 codes where the correspondence gives exactly one, and leaves
// the others for the user to choose (the screens flag them, issuing refuses them).
import fs from "node:fs";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, companies } from "../../db/schema/index.ts";
import { createCompany } from "../setup/app.ts";
import { createTestDatabase } from "../setup/db.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const migration = fs.readFileSync(new URL("../../db/migrations/0015_ciiu4_activity_codes.sql", import.meta.url), "utf8");

async function runMigrationAgain() {
  // The migration already ran on the empty test database; rows stored afterwards stand for the data
  // of an installation that upgrades. The statement is idempotent.
  await database.db.execute(migration);
}

describe("0015_ciiu4_activity_codes", () => {
  it("converts the old codes that have one CIIU 4 code, keeps the rest, leaves CIIU 4 codes alone", async () => {
    const company = await createCompany(database.db);
    const other = await createCompany(database.db, { identification: "3101777777" });
    await database.db.update(companies).set({ economicActivityCode: "722003" }).where(eq(companies.id, company.id)); // → 6201.0
    await database.db.update(companies).set({ economicActivityCode: "620100" }).where(eq(companies.id, other.id)); // not in the table
    const base = { companyId: company.id, identificationTypeId: 2, email: "c@example.cr", phone: "22224444", address: "Costado sur del parque", provinceNumber: 1, cantonNumber: 1, districtNumber: 1 };
    const rows = await database.db
      .insert(clients)
      .values([
        { ...base, name: "Con código viejo", identification: "3102000001", economicActivityCode: "011102" }, // → 0126.1 (leading zero)
        { ...base, name: "Excluido", identification: "3102000002", economicActivityCode: "960104" }, // EXCLUIR: no equivalent
        { ...base, name: "Ya CIIU 4", identification: "3102000003", economicActivityCode: "4649.0" },
        { ...base, name: "Sin actividad", identification: "3102000004", economicActivityCode: null },
        { ...base, name: "Varios viejos, un nuevo", identification: "3102000005", economicActivityCode: "011231" }, // → 0111.9, like 011201 and 011802
      ])
      .returning({ id: clients.id });
    await runMigrationAgain();
    await runMigrationAgain();
    const companyCodes = await database.db.select({ id: companies.id, code: companies.economicActivityCode }).from(companies).where(inArray(companies.id, [company.id, other.id]));
    expect(Object.fromEntries(companyCodes.map((c) => [c.id, c.code]))).toEqual({ [company.id]: "6201.0", [other.id]: "620100" });
    const clientCodes = await database.db.select({ code: clients.economicActivityCode }).from(clients).where(inArray(clients.id, rows.map((r) => r.id))).orderBy(clients.id);
    expect(clientCodes.map((c) => c.code)).toEqual(["0126.1", "960104", "4649.0", null, "0111.9"]);
  });

  it("holds only six-digit old codes and CIIU 4 codes, each old code once", () => {
    const pairs = [...migration.matchAll(/\('(\d+)','([^']+)'\)/g)].map((m) => [m[1], m[2]]);
    expect(pairs).toHaveLength(705);
    expect(pairs.every(([o, n]) => /^\d{6}$/.test(o) && /^\d{4}\.\d$/.test(n))).toBe(true);
    expect(new Set(pairs.map(([o]) => o)).size).toBe(705);
  });
});
