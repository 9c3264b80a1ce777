// `npm start` / `npm run serve`: migrate, seed, serve the built app, and (embedded database) run jobs.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@react-router/express";
import { RouterContextProvider } from "react-router";
import { migrateDatabase, openDatabase, setDatabase } from "../db/client.ts";
import { seedDemo, seedReferenceData } from "../db/seed/index.ts";
import { handlers, schedules } from "../jobs/registry.ts";
import { startRunner, type Runner } from "../jobs/runner.ts";
import { lockDataDir, prepareEnvironment } from "./environment.ts";
import { anyCompanyUsesSandbox } from "../app/server/hacienda-config.server.ts";

const started = Date.now();
const config = prepareEnvironment();
const embedded = !config.databaseUrl;
const unlock = embedded ? lockDataDir(config.dataDir) : () => {};

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: embedded ? path.join(config.dataDir, "pglite") : undefined });
setDatabase(database);
await migrateDatabase(database);
await seedReferenceData(database.db);

if (process.env.SEED_DEMO !== "false") {
  const demoFile = path.join(config.dataDir, "demo-user.txt");
  const demo = await seedDemo(database.db, { password: process.env.DEMO_PASSWORD || undefined });
  if (demo.created && demo.password) fs.writeFileSync(demoFile, `${demo.email} / ${demo.password}\n`, { mode: 0o600 });
  if (fs.existsSync(demoFile)) console.log(`Usuario demo: ${fs.readFileSync(demoFile, "utf8").trim()}`);
}

// The local Hacienda simulator, when a company (the demo one) uses environment 'sandbox'
// (docs/decisions/060-company-configuration.md). Its URL reaches 'probar acceso' through HACIENDA_SANDBOX_URL.
let sandbox: { url: string; close(): Promise<void> } | undefined;
if (process.env.HACIENDA_SANDBOX !== "false" && !process.env.HACIENDA_SANDBOX_URL && (await anyCompanyUsesSandbox(database.db))) {
  try {
    const { startRealSandbox } = await import("../app/hacienda/sandbox/real.ts");
    const port = Number(process.env.HACIENDA_SANDBOX_PORT || 8089);
    sandbox = await startRealSandbox({ port }).catch(() => startRealSandbox({ port: 0 })); // port taken: any free one
    process.env.HACIENDA_SANDBOX_URL = sandbox.url;
    console.log(`Simulador de Hacienda en ${sandbox.url}`);
  } catch (error) {
    console.warn(`No se pudo iniciar el simulador de Hacienda: ${(error as Error).message}`);
  }
}

const buildPath = path.resolve("build/server/index.js");
const build = await import(pathToFileURL(buildPath).href);

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
app.use(express.static("build/client", { maxAge: "1h" }));
app.use((req, res, next) => {
  // Server time of each response (read by the benchmark and visible in the browser's dev tools).
  const t0 = process.hrtime.bigint();
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    if (!res.headersSent) res.setHeader("Server-Timing", `app;dur=${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(2)}`);
    return writeHead.apply(this, args);
  } as typeof writeHead;
  // The app reads the client address from this header; whatever a client sent in it is replaced.
  req.headers["x-colibri-client-ip"] = req.socket.remoteAddress ?? "unknown";
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Frame-Options", "SAMEORIGIN");
  next();
});
app.all(
  "/{*splat}",
  createRequestHandler({
    build,
    getLoadContext: () => new RouterContextProvider(),
  }),
);

let runner: Runner | undefined;
if (embedded || process.env.JOBS_IN_PROCESS === "true") {
  runner = startRunner(database.db, { handlers, schedules });
}

const server = app.listen(config.port, config.host, () => {
  const url = `http://localhost:${config.port}`;
  console.log(`Colibrí escuchando en ${url} (${embedded ? "base embebida en " + path.join(config.dataDir, "pglite") : "PostgreSQL"}; listo en ${Date.now() - started} ms)`);
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.close();
  await runner?.stop();
  await sandbox?.close().catch(() => {});
  await database.close();
  unlock();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
