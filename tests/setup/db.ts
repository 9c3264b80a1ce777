// A fresh, migrated database with reference data for one test file.
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, setDatabase, type Database } from "../../db/client.ts";
import { adminUrl } from "./global.ts";

/** `url`: the clone's connection string on PostgreSQL, for child processes (none when embedded). */
export async function createTestDatabase(): Promise<Database & { drop(): Promise<void>; url?: string }> {
  const url = process.env.DATABASE_URL;
  const template = inject("pgTemplate");
  let database: Database;
  let drop = async () => {};
  let cloneUrl: string | undefined;
  if (url && template) {
    const name = `${template}_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${template}`);
    cloneUrl = adminUrl(url, name);
    database = await openDatabase({ databaseUrl: cloneUrl, maxConnections: 5 });
    drop = async () => {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    const snapshot = inject("pgliteSnapshot");
    if (!snapshot) throw new Error("No test database snapshot: tests/setup/global.ts did not run.");
    database = await openDatabase({ loadDataDir: new Blob([fs.readFileSync(snapshot)]) });
    drop = () => database.close();
  }
  setDatabase(database);
  return Object.assign(database, { drop, url: cloneUrl });
}
