// `npm test` runs this after the unit and database tests: the browser journeys with the system
// Chromium. Without one, it says so in one line and exits 0, unless REQUIRE_BROWSER=1 (CI), where a
// missing browser is a failure.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const chromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean).find((p) => fs.existsSync(p));
if (!chromium) {
  const line = "Pruebas de navegador omitidas: no se encontró Chromium (instala el paquete chromium o define CHROMIUM_PATH).";
  if (process.env.REQUIRE_BROWSER === "1") {
    console.error(line.replace("omitidas", "FALLIDAS") + " REQUIRE_BROWSER=1 exige ejecutarlas.");
    process.exit(1);
  }
  console.log(line);
  process.exit(0);
}
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env: process.env }).status ?? 1;
if (run("npx", ["react-router", "build"]) !== 0) process.exit(1);
// E2E_PROJECT=js or nojs runs one of the two projects (CI splits them between the databases).
const project = process.env.E2E_PROJECT ? [`--project=${process.env.E2E_PROJECT}`] : [];
process.exit(run("npx", ["playwright", "test", ...project, ...process.argv.slice(2)]));
