// Issues due recurring invoices (app/server/recurring.server.ts): exactly once per period, even
// with two job processes; safe to retry.
import type { JobHandler } from "../runner.ts";
import type { CompiledSchemaSet } from "../../app/hacienda/xsd/index.ts";
import { loadSchemaSet } from "../../app/hacienda/xsd/load.server.ts";
import { defaultXsdDir } from "../../app/hacienda/sandbox/real.ts";
import { runDueRecurring } from "../../app/server/recurring.server.ts";

let schemaSet: CompiledSchemaSet | undefined;

export const recurringTask: JobHandler = async (_payload, { db, now }) => {
  schemaSet ??= loadSchemaSet(defaultXsdDir());
  const r = await runDueRecurring(db, { now: now(), schemaSet });
  if (r.issued.length) console.log(`[jobs] ${r.issued.length} documento(s) recurrente(s) emitido(s)`);
};
