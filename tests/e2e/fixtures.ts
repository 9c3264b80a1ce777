// Accounts the journeys use, created before the server starts. Each project (js, nojs) has its own
// accounts so that journeys that change state (password reset, takeover) do not interfere.
import type { Db } from "../../db/client.ts";
import { eq } from "drizzle-orm";
import { clients, companies, companyUsers, generalConfigurations, users } from "../../db/schema/index.ts";
import { hashPassword } from "../../app/server/password.server.ts";
import { setupNewCompany } from "../../app/server/company-setup.server.ts";
import { issuingCompany } from "../fixtures/issuing.ts";
import { seedReportData } from "../fixtures/reports.ts";
import { seedReceivedReportData } from "../fixtures/received-reports.ts";

export const PASSWORD = "clave-e2e-123";
export const DEMO_PASSWORD = "demo-e2e-123";
export const PROJECTS = ["js", "nojs"] as const;

export const account = (kind: string, project: string) => `${kind}-${project}@e2e.colibri.cr`;

/** The super-admin of the e2e server (SUPER_ADMIN_EMAIL): the shared catalogues and the advertisement are his (decision 121). */
export const SUPER_ADMIN = "raiz@e2e.colibri.cr";

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
  const operator = await company("Operadora Colibrí S.A.", "3101000901", 1, true);
  const [root] = await db.insert(users).values({ name: "Raíz Operadora", email: SUPER_ADMIN, passwordHash: hash, role: "admin", defaultCompanyId: operator.id }).returning();
  await db.insert(companyUsers).values({ companyId: operator.id, userId: root.id });
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
    await user("throttled", `Teresa Tecleo ${p}`, [full.id]);
    await user("plan2", `Pedro Recepción ${p}`, [reception.id]);
    await user("inactive", `Iris Inactiva ${p}`, [inactive.id]);
    // Issue 11 point 1: a company and a client still carrying a code of the activity catalogue before
    // TRIBU-CR that the migration could not convert (their screens ask for the new CIIU 4 code).
    const legacy = await company(`Actividad Anterior ${p} S.A.`, p === "js" ? "3101900501" : "3101900502", 1, true);
    await db.update(companies).set({ economicActivityCode: "620100", economicActivityName: "Actividades de programación informática" }).where(eq(companies.id, legacy.id));
    const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.email, "demo@colibri.cr"));
    if (demo) await db.insert(companyUsers).values({ companyId: legacy.id, userId: demo.id });
    await db.insert(clients).values({
      companyId: full.id,
      name: `Cliente Actividad Anterior ${p}`,
      identificationTypeId: 2,
      identification: p === "js" ? "3102900501" : "3102900502",
      email: "anterior@example.cr",
      phone: "22224444",
      address: "Costado norte del parque",
      provinceNumber: 1,
      cantonNumber: 1,
      districtNumber: 1,
      barrio: "Barrio Amón",
      economicActivityCode: "960104",
      economicActivityName: "Actividad sin equivalente",
    });
    // Plan 5 (integrator API): numbered and validated without Hacienda (no key needed), an admin to configure it.
    const api = await company(`Integrador ${p} S.A.`, p === "js" ? "3101000501" : "3101000502", 5, true);
    await db.update(companies).set({ noHacienda: true, economicActivityCode: "6201.0" }).where(eq(companies.id, api.id));
    await user("apiadmin", `Iván Integrador ${p}`, [api.id], "admin");
    // The report journeys' company: the known documents and expenses of tests/fixtures/reports.ts.
    const reports = await issuingCompany(db, { name: `Reportes ${p} S.A.`, userEmail: account("reports", p), userPassword: PASSWORD });
    await setupNewCompany(db, reports.company.id);
    await seedReportData(db, { companyId: reports.company.id, userId: reports.user.id, clientId: reports.client.id, genericId: reports.generic.id, providerId: reports.provider.id });
    await seedReceivedReportData(db, { companyId: reports.company.id, receiver: { name: reports.company.name, id: reports.company.identification } });
  }
}
