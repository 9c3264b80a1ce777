// `npm run jobs`: the jobs process for PostgreSQL deployments (with PGlite the web process runs jobs).
import fs from "node:fs";
import { openDatabase, migrateDatabase } from "../db/client.ts";
import { handlers, schedules } from "./registry.ts";
import { startRunner } from "./runner.ts";
import { prepareEnvironment } from "../server/environment.ts";

const config = prepareEnvironment();
if (!config.databaseUrl) {
  console.error("npm run jobs necesita DATABASE_URL: con la base embebida el servidor web ejecuta las tareas.");
  process.exit(1);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, maxConnections: 4 });
// Under the start-up lock: a web process starting at the same time migrates first, or after (decision 112).
await migrateDatabase(database);
// JOBS_HEARTBEAT_FILE: touched while the runner's loop turns; the container's health check reads its age.
const heartbeatFile = process.env.JOBS_HEARTBEAT_FILE;
const runner = startRunner(database.db, { handlers, schedules, heartbeat: heartbeatFile ? () => fs.writeFileSync(heartbeatFile, new Date().toISOString()) : undefined });
console.log("[jobs] en marcha");
const shutdown = async () => {
  console.log("[jobs] deteniendo…");
  await runner.stop();
  await database.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
