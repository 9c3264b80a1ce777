import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { taxTypes } from "../../db/schema/index.ts";
import { taxTypes as defaultTaxTypes } from "../../db/seed/reference-data.ts";

/** Rows a new company needs for this area (idempotent): the default 'Lista de IVA'. */
export async function setupItemsForCompany(db: DbOrTx, companyId: number): Promise<void> {
  const [existing] = await db.select({ id: taxTypes.id }).from(taxTypes).where(eq(taxTypes.companyId, companyId)).limit(1);
  if (existing) return;
  await db.insert(taxTypes).values(defaultTaxTypes.map((t) => ({ companyId, name: t.name, rate: t.rate, taxCode: t.taxCode, vatCode: t.vatCode })));
}
