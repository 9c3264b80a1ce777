import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { clientContacts, clients } from "../../db/schema/index.ts";

export const GENERIC_CLIENT_NAME = "Cliente genérico";

/** Rows a new company needs for this area (idempotent): exactly one generic client, used for tickets. */
export async function setupClientsForCompany(db: DbOrTx, companyId: number): Promise<void> {
  const [existing] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.companyId, companyId), eq(clients.generic, true)))
    .limit(1);
  if (existing) return;
  const [row] = await db
    .insert(clients)
    .values({
      companyId,
      name: GENERIC_CLIENT_NAME,
      identificationTypeId: 1,
      identification: "000000000",
      email: "",
      phone: "",
      address: "",
      countryId: 60,
      generic: true,
    })
    .returning({ id: clients.id });
  await db.insert(clientContacts).values({ companyId, clientId: row.id, position: 0 });
}
