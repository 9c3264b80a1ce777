// `npm start` / `npm run serve`: migrate, seed, serve the built app, and (embedded database) run jobs.
// With PostgreSQL the server forks one worker per core (WEB_CONCURRENCY); the primary migrates and
// seeds first. With PGlite one process owns the database folder and also runs the jobs.
import cluster from "node:cluster";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import { RouterContextProvider } from "react-router";
import { migrateDatabase, openDatabase, setDatabase, sql, type Database } from "../db/client.ts";
import { seedDemo, seedReferenceData } from "../db/seed/index.ts";
import { handlers, schedules } from "../jobs/registry.ts";
import { startRunner, type Runner } from "../jobs/runner.ts";
import { lockDataDir, prepareEnvironment } from "./environment.ts";
import { precompressedAssets } from "./precompressed-assets.ts";
import { clientAddress } from "./client-ip.ts";
import { createRequestHandler } from "./request-handler.ts";
import { anyCompanyUsesSandbox } from "../app/server/hacienda-config.server.ts";

/** The built app (`react-router build`); BUILD_DIR lets tests serve a build of their own. */
const buildDir = path.resolve(process.env.BUILD_DIR || "build");

const started = Date.now();
const config = prepareEnvironment();
const embedded = !config.databaseUrl;
const workers = embedded ? 1 : Math.max(1, Number(process.env.WEB_CONCURRENCY || os.availableParallelism()));
const isWorker = cluster.isWorker;

/** Migrations, reference data, the demo company and the local Hacienda simulator: once, before serving. */
async function prepare(database: Database) {
  // Migrations and seeding under one PostgreSQL advisory lock: web and jobs processes started
  // together take turns (docs/decisions/112-start-up-and-health.md).
  await migrateDatabase(database, {
    andThen: async (db) => {
      await seedReferenceData(db);
      if (process.env.SEED_DEMO === "false") return;
      const demoFile = path.join(config.dataDir, "demo-user.txt");
      const demo = await seedDemo(db, { password: process.env.DEMO_PASSWORD || undefined });
      if (demo.created && demo.password) fs.writeFileSync(demoFile, `${demo.email} / ${demo.password}\n`, { mode: 0o600 });
      // The password is printed when the demo company was just created, and on every start in
      // development only; a production log never repeats it (it stays in DATA_DIR/demo-user.txt).
      if (demo.created && demo.password) console.log(`Usuario demo: ${demo.email} / ${demo.password}`);
      else if (process.env.NODE_ENV === "development" && fs.existsSync(demoFile)) console.log(`Usuario demo: ${fs.readFileSync(demoFile, "utf8").trim()}`);
    },
  });
  // The local Hacienda simulator, when a company (the demo one) uses environment 'sandbox'
  // (docs/decisions/060-company-configuration.md). Its URL reaches 'probar acceso' through HACIENDA_SANDBOX_URL.
  if (process.env.HACIENDA_SANDBOX !== "false" && !process.env.HACIENDA_SANDBOX_URL && (await anyCompanyUsesSandbox(database.db))) {
    try {
      const { startRealSandbox } = await import("../app/hacienda/sandbox/real.ts");
      const port = Number(process.env.HACIENDA_SANDBOX_PORT || 8089);
      const sandbox = await startRealSandbox({ port }).catch(() => startRealSandbox({ port: 0 })); // port taken: any free one
      process.env.HACIENDA_SANDBOX_URL = sandbox.url;
      console.log(`Simulador de Hacienda en ${sandbox.url}`);
      return sandbox;
    } catch (error) {
      console.warn(`No se pudo iniciar el simulador de Hacienda: ${(error as Error).message}`);
    }
  }
  return undefined;
}

let closing = false;

if (cluster.isPrimary && workers > 1) {
  // Primary: prepare the database, then fork the web workers and replace any that dies.
  const database = await openDatabase({ databaseUrl: config.databaseUrl, maxConnections: 2 });
  const sandbox = await prepare(database);
  await database.close();
  const fork = () => cluster.fork({ HACIENDA_SANDBOX_URL: process.env.HACIENDA_SANDBOX_URL ?? "" });
  for (let i = 0; i < workers; i++) fork();
  let listening = 0;
  cluster.on("listening", () => {
    if (++listening === workers) console.log(`Colibrí escuchando en http://localhost:${config.port} (PostgreSQL, ${workers} procesos; listo en ${Date.now() - started} ms)`);
  });
  cluster.on("exit", (worker, code) => {
    if (!closing) {
      console.error(`[web] el proceso ${worker.process.pid} terminó (código ${code}); se reinicia`);
      fork();
    }
  });
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
    await sandbox?.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
} else {
  const unlock = embedded ? lockDataDir(config.dataDir) : () => {};
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: embedded ? path.join(config.dataDir, "pglite") : undefined });
  setDatabase(database);
  const sandbox = isWorker ? undefined : await prepare(database);

  const build = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
  const app = express();
  app.disable("x-powered-by");
  app.use((req, res, next) => {
    // The app reads the client address from this header; whatever a client sent in it is replaced.
    req.headers["x-colibri-client-ip"] = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "same-origin");
    next();
  });
  // For the container's health check and load balancers: the process serves and the database answers. No session.
  app.get("/healthz", async (_req, res) => {
    const ok = await Promise.race([database.db.execute(sql`select 1`).then(() => true, () => false), new Promise<boolean>((r) => setTimeout(() => r(false), 3000).unref())]);
    res.status(ok ? 200 : 503).set("Cache-Control", "no-store").type("text/plain; charset=utf-8").send(ok ? "ok" : "sin base de datos");
  });
  app.use(compression());
  app.use("/assets", precompressedAssets(path.join(buildDir, "client/assets")));
  app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h" }));
  // Request bodies are limited per route on the bytes read (app/domain/request-limits.ts).
  app.all("/{*splat}", createRequestHandler({ build, getLoadContext: () => new RouterContextProvider() }));

  let runner: Runner | undefined;
  if (embedded || (!isWorker && process.env.JOBS_IN_PROCESS === "true")) {
    runner = startRunner(database.db, { handlers, schedules });
  }

  const server = app.listen(config.port, config.host, () => {
    if (!isWorker) {
      const where = embedded ? "base embebida en " + path.join(config.dataDir, "pglite") : "PostgreSQL";
      console.log(`Colibrí escuchando en http://localhost:${config.port} (${where}; listo en ${Date.now() - started} ms)`);
    }
  });

  const shutdown = async () => {
    if (closing) return;
    closing = true;
    server.close();
    await runner?.stop();
    await sandbox?.close().catch(() => {});
    await database.close();
    unlock();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  // A worker whose primary went away stops too (no orphan keeps the port).
  if (isWorker) process.on("disconnect", shutdown);
}
