// A company's documents waiting for Hacienda as the session reads them for the pending banner
// (pendingOf, docs/decisions/147), for the tests that follow documents through the pipeline.
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { companies } from "../../db/schema/index.ts";
import { pendingOf } from "../../app/server/session.server.ts";

export async function pendingCount(db: DbOrTx, companyId: number): Promise<{ porEnviar: number; procesando: number; total: number }> {
  const [row] = await db
    .select({ porEnviar: pendingOf(companies.id, "por enviar"), procesando: pendingOf(companies.id, "procesando") })
    .from(companies)
    .where(eq(companies.id, companyId));
  const { porEnviar, procesando } = row ?? { porEnviar: 0, procesando: 0 };
  return { porEnviar, procesando, total: porEnviar + procesando };
}
