// Accounts the journeys use, created before the server starts. Each project (js, nojs) has its own
// accounts so that journeys that change state (password reset, takeover) do not interfere.
import type { Db } from "../../db/client.ts";
import { companies, companyUsers, generalConfigurations, users } from "../../db/schema/index.ts";
import { hashPassword } from "../../app/server/password.server.ts";
import { setupNewCompany } from "../../app/server/company-setup.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { seedReportData } from "../fixtures/reports.ts";

export const PASSWORD = "clave-e2e-123";
export const DEMO_PASSWORD = "demo-e2e-123";
export const PROJECTS = ["js", "nojs"] as const;

export const account = (kind: string, project: string) => `${kind}-${project}@e2e.colibri.cr`;

export async function seedE2E(db: Db) {
  const hash = await hashPassword(PASSWORD);
  const company = async (name: string, identification: string, permission: number, active: boolean) => {
    const [c] = await db
      .insert(companies)
      .values({ name, identificationTypeId: 2, identification, email: "empresa@e2e.colibri.cr", phone: "22223333", provinceNumber: 1, cantonNumber: 1, districtNumber: 1, otherSigns: "Frente al parque", permission, active })
      .returning();
    await db.insert(generalConfigurations).values({ companyId: c.id });
    await setupNewCompany(db, c.id);
    return c;
  };
  for (const p of PROJECTS) {
    const full = await company(`Comercial Pleno ${p} S.A.`, p === "js" ? "3101000101" : "3101000102", 1, true);
    const second = await company(`Segunda Empresa ${p} S.A.`, p === "js" ? "3101000201" : "3101000202", 1, true);
    const reception = await company(`Recepción ${p} S.A.`, p === "js" ? "3101000301" : "3101000302", 2, true);
    const inactive = await company(`Inactiva ${p} S.A.`, p === "js" ? "3101000401" : "3101000402", 1, false);
    const user = async (kind: string, name: string, links: number[], role = "user") => {
      const [u] = await db.insert(users).values({ name, email: account(kind, p), passwordHash: hash, role, defaultCompanyId: links[0] }).returning();
      for (const companyId of links) await db.insert(companyUsers).values({ companyId, userId: u.id });
      return u;
    };
    await user("staff", `Ana Pérez ${p}`, [full.id, second.id]);
    await user("reset", `Rosa Reset ${p}`, [full.id]);
    await user("takeover", `Tomás Doble ${p}`, [full.id]);
    await user("plan2", `Pedro Recepción ${p}`, [reception.id]);
    await user("inactive", `Iris Inactiva ${p}`, [inactive.id]);
    // The report journeys' company: the known documents and expenses of tests/fixtures/reports.ts.
    const reports = await issuingCompany(db, { name: `Reportes ${p} S.A.`, userEmail: account("reports", p), userPassword: PASSWORD });
    await setupNewCompany(db, reports.company.id);
    await seedReportData(db, { companyId: reports.company.id, userId: reports.user.id, clientId: reports.client.id, genericId: reports.generic.id, providerId: reports.provider.id });
  }
}
