// Global test setup: builds one migrated database with reference data, then each test file gets
// its own copy: a PostgreSQL database cloned from a template (DATABASE_URL set) or a PGlite
// instance loaded from a snapshot (embedded).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "../../db/client.ts";
import { seedReferenceData } from "../../db/seed/index.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplate: string;
  }
}

export function adminUrl(url: string, dbName = "postgres") {
  const u = new URL(url);
  u.pathname = `/${dbName}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `colibri_tpl_${process.pid}`;
    const admin = postgres(adminUrl(url), { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${template}`);
    await admin.unsafe(`create database ${template}`);
    const database = await openDatabase({ databaseUrl: adminUrl(url, template), maxConnections: 1 });
    await migrateDatabase(database);
    await seedReferenceData(database.db);
    await database.close();
    project.provide("pgTemplate", template);
    project.provide("pgliteSnapshot", "");
    return async () => {
      // Drop the clones left by test files, then the template.
      const left = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${template + "%"}`;
      for (const { datname } of left) if (datname !== template) await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.unsafe(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const database = await openDatabase({});
  await migrateDatabase(database);
  await seedReferenceData(database.db);
  const dump = await database.pglite!.dumpDataDir("none");
  const file = path.join(os.tmpdir(), `colibri-test-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("pgliteSnapshot", file);
  project.provide("pgTemplate", "");
  return () => fs.rmSync(file, { force: true });
}
