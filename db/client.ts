import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql, type SQL } from "drizzle-orm";
import postgres from "postgres";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { customPlansWanted } from "./custom-plans.ts";
import { preparedStatements } from "./pglite-prepared.ts";
import * as schema from "./schema/index.ts";
import { countShellChanges } from "./shell-changes.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the database or an open transaction: query functions accept both. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
  /**
   * Runs `fn` holding a PostgreSQL session-level advisory lock (on a connection of its own), so
   * processes started together do it one after another; a process that dies releases it with its
   * connection. PGlite: one process owns the folder (server/environment.ts lockDataDir), so `fn` just runs.
   */
  exclusive<T>(lockKey: bigint, fn: () => Promise<T>): Promise<T>;
  /** The PGlite instance, when embedded (for snapshots in tests). */
  pglite?: PGlite;
}

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

export interface OpenOptions {
  databaseUrl?: string;
  /** Folder for the embedded database; omit for an in-memory database. */
  dataDir?: string;
  /** A dumped PGlite data dir (tests load a migrated snapshot). */
  loadDataDir?: Blob | File;
  maxConnections?: number;
}

/**
 * Every query with parameters becomes a named prepared statement of its connection, kept by
 * postgres.js per SQL text (docs/decisions/179). drizzle asks postgres.js to prepare only the
 * queries given a name (`.prepare(name)`): all others were parsed, analysed and planned by the server
 * on every run, and the dashboard's three queries spent most of their time there. PostgreSQL replans a
 * statement when a table it reads changes, and postgres.js drops a statement whose plan can no
 * longer be used and runs the query again. Statements live as long as their connection (postgres.js
 * replaces each connection after 30 to 60 minutes). Queries without parameters keep the simple
 * protocol, so a text of several statements still runs. Inside `withCustomPlans` (reports) queries
 * go as drizzle sends them, planned for their own values (db/custom-plans.ts).
 */
export function preparedOnEachConnection(client: postgres.Sql) {
  const shipped = client.unsafe;
  client.unsafe = ((query: string, ...rest: unknown[]) => {
    const [args, options] = rest as [postgres.ParameterOrJSON<never>[], postgres.UnsafeQueryOptions | undefined];
    return Array.isArray(args) && !customPlansWanted() ? shipped(query, args, { ...options, prepare: true }) : shipped(query, ...(rest as []));
  }) as typeof client.unsafe;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const client = postgres(opts.databaseUrl, {
      max: opts.maxConnections ?? 10,
      onnotice: () => {},
      // No JIT: compiling a report's aggregate (estimated cost above jit_above_cost) took longer
      // than running it — 260 ms of the items report's 540 (docs/decisions/151).
      connection: { TimeZone: "UTC", jit: "off" },
    });
    preparedOnEachConnection(client);
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    // The lock lives on a connection of its own, so the pool (even of one) stays free for `fn`.
    const exclusive = async <T>(lockKey: bigint, fn: () => Promise<T>): Promise<T> => {
      const session = postgres(opts.databaseUrl!, { max: 1, onnotice: () => {} });
      try {
        await session`select pg_advisory_lock(${lockKey.toString()}::bigint)`;
        try {
          return await fn();
        } finally {
          await session`select pg_advisory_unlock(${lockKey.toString()}::bigint)`;
        }
      } finally {
        await session.end({ timeout: 5 });
      }
    };
    return { db, kind: "postgres", close: () => client.end({ timeout: 5 }), exclusive };
  }
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const pglite = new PGlite({ dataDir: opts.dataDir, loadDataDir: opts.loadDataDir });
  await pglite.waitReady;
  // Queries as named prepared statements, one call into PGlite each (docs/decisions/196).
  const db = drizzlePglite(preparedStatements(pglite) as unknown as PGlite, { schema }) as unknown as Db;
  // The session's row may be kept between requests (docs/decisions/201).
  await countShellChanges(db, pglite);
  return { db, kind: "pglite", pglite, close: () => pglite.close(), exclusive: (_key, fn) => fn() };
}

/** The advisory lock key of start-up work (migrations and seeding): any fixed 64-bit number of ours. */
export const STARTUP_LOCK_KEY = 0x636f6c6962726en; // "colibri"

/**
 * Applies the pending migrations, then `andThen` (seeding), under one advisory lock: web and jobs
 * processes started together on an empty PostgreSQL database migrate one after the other instead
 * of colliding ("duplicate key … pg_type"); the second finds nothing left to do
 * (docs/decisions/112-start-up-and-health.md).
 */
export async function migrateDatabase(database: Database, opts: { andThen?: (db: Db) => Promise<void> } = {}): Promise<void> {
  await database.exclusive(STARTUP_LOCK_KEY, async () => {
    if (database.kind === "postgres") {
      await migratePostgres(database.db as never, { migrationsFolder });
    } else {
      await migratePglite(database.db as never, { migrationsFolder });
    }
    await opts.andThen?.(database.db);
  });
}

/** Rows of a raw query on either driver (PGlite returns {rows}, postgres.js an array). */
export async function rows<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export { sql };

// One database per process. The web server (server/start.ts) opens it and the application
// bundle reads it from here; a global is used because the server and the built app bundle
// are separate module graphs that must share the same connection (PGlite is single-process).
const KEY = Symbol.for("colibri.database");
type GlobalWithDb = typeof globalThis & { [KEY]?: Database };

export function setDatabase(database: Database | undefined) {
  (globalThis as GlobalWithDb)[KEY] = database;
}

export function getDatabase(): Database {
  const database = (globalThis as GlobalWithDb)[KEY];
  if (!database) throw new Error("The database is not open (server/start.ts opens it).");
  return database;
}
