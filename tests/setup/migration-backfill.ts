// The backfill of a table the database keeps with triggers (decisions 156, 193): the one
// `insert into <table> … from <source>` statement of its custom migration, so a test can run it
// again and compare with what the triggers wrote, and a benchmark's bulk load can add up once what
// the triggers would have added up row by row (bench/documents.ts).
import fs from "node:fs";
import path from "node:path";

/** The statement of migration `*_<name>.sql` that fills `table` from `source`; throws unless exactly one. */
export function backfillStatement(name: string, table: string, source: string): string {
  const dir = path.join(import.meta.dirname, "../../db/migrations");
  // The whole name after the number: expense_days_triggers is not received_expense_days_triggers.
  const file = fs.readdirSync(dir).find((f) => /^\d+_/.test(f) && f.replace(/^\d+_/, "") === `${name}.sql`);
  if (!file) throw new Error(`no migration named ${name}`);
  const pattern = new RegExp(`insert into ${table}\\b[\\s\\S]*from ${source}\\b`);
  const found = fs
    .readFileSync(path.join(dir, file), "utf8")
    .split("--> statement-breakpoint")
    .filter((s) => pattern.test(s));
  if (found.length !== 1) throw new Error(`${file}: ${found.length} statements fill ${table} from ${source}`);
  return found[0];
}
