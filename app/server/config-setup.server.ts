import type { DbOrTx } from "../../db/client.ts";

/** Rows a new company needs for this area (idempotent). */
export async function setupConfigForCompany(_db: DbOrTx, _companyId: number): Promise<void> {}

/** The demo company: a generated test key and the local Hacienda sandbox (idempotent). */
export async function setupDemoCompany(_db: DbOrTx, _companyId: number): Promise<void> {}
