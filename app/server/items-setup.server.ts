import type { DbOrTx } from "../../db/client.ts";

/** Rows a new company needs for this area (idempotent). */
export async function setupItemsForCompany(_db: DbOrTx, _companyId: number): Promise<void> {}
