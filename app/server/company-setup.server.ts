// What every new company gets (generic client, tax list, templates and terms), in one place,
// called when a company is created and by the demo seed.
import type { DbOrTx } from "../../db/client.ts";
import { setupClientsForCompany } from "./clients-setup.server.ts";
import { setupItemsForCompany } from "./items-setup.server.ts";
import { setupConfigForCompany } from "./config-setup.server.ts";

export async function setupNewCompany(db: DbOrTx, companyId: number) {
  await setupClientsForCompany(db, companyId);
  await setupItemsForCompany(db, companyId);
  await setupConfigForCompany(db, companyId);
}
