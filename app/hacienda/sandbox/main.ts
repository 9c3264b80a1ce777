/**
 * `npm run hacienda:sandbox [-- --port 8089 --delay-ms 1000 --polls 0]`: starts the local Hacienda
 * simulator (IdP + recepción API) wired to the real validator, verifier and signer.
 * Port from --port, env HACIENDA_SANDBOX_PORT, default 8089. Faults can be set at start
 * (--faults '{"error5xxShare":0.2}') or later with `npm run hacienda -- faults …`.
 */
import { parseArgs } from "node:util";
import { startRealSandbox } from "./real.ts";
import { DEFAULT_SANDBOX_USER } from "./server.ts";

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      "delay-ms": { type: "string" },
      polls: { type: "string" },
      faults: { type: "string" },
      xsd: { type: "string" },
      user: { type: "string" },
      password: { type: "string" },
    },
  });
  const port = Number(values.port ?? process.env.HACIENDA_SANDBOX_PORT ?? 8089);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Puerto inválido: ${values.port}`);
  const user = {
    username: values.user ?? process.env.HACIENDA_SANDBOX_USER ?? DEFAULT_SANDBOX_USER.username,
    password: values.password ?? process.env.HACIENDA_SANDBOX_PASSWORD ?? DEFAULT_SANDBOX_USER.password,
  };
  const sandbox = await startRealSandbox({
    port,
    host: values.host,
    xsdDir: values.xsd,
    users: [user],
    processingDelayMs: values["delay-ms"] !== undefined ? Number(values["delay-ms"]) : 1000,
    processingPolls: values.polls !== undefined ? Number(values.polls) : 0,
    faults: values.faults ? JSON.parse(values.faults) : undefined,
    log: (line) => console.error(`[simulador] ${line}`),
  });
  console.log(`Simulador de Hacienda escuchando en ${sandbox.url}`);
  console.log(`  Token (staging, client_id api-stag): ${sandbox.tokenUrl}`);
  console.log(`  Token (producción, client_id api-prod): ${sandbox.tokenUrlProduction}`);
  console.log(`  Recepción:                          ${sandbox.recepcionUrl}`);
  console.log(`  Fallos:                             POST ${sandbox.url}/__sandbox/faults   Estado: GET ${sandbox.url}/__sandbox/state`);
  console.log(`  Usuario: ${user.username}`);
  console.log(`  Contraseña: ${user.password}`);
  console.log(`Ejemplo: HACIENDA_ENV=sandbox HACIENDA_BASE_URL=${sandbox.url} npm run hacienda -- send --file firmado.xml`);
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err) => {
  console.error(`No se pudo iniciar el simulador de Hacienda: ${(err as Error)?.message ?? String(err)}`);
  process.exit(1);
});
