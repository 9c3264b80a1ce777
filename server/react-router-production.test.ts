// In production the server resolves React Router to its production build (server/start.ts registers
// server/react-router-production.mjs; docs/decisions/198): its package exports give the development
// build to every import. Checked in a fresh Node process with the hook registered as start.ts does.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

function resolveIn(code: string): string {
  const script = `import { register } from "node:module";
register("./server/react-router-production.mjs", ${JSON.stringify(pathToFileURL(repo + "/").href)});
${code}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim();
}

describe("React Router in production", () => {
  it("resolves to its production build (without the hook: the development one)", () => {
    const ours = resolveIn(`console.log(import.meta.resolve("react-router"));`);
    expect(ours).toMatch(/\/node_modules\/react-router\/dist\/production\/index\.mjs$/);
    expect(resolveIn(`console.log(import.meta.resolve("react-router/dom"));`)).toMatch(/\/react-router\/dist\/production\/dom-export\.mjs$/);
    // The development build is what the package gives without the hook.
    const plain = spawnSync(process.execPath, ["--input-type=module", "-e", `console.log(import.meta.resolve("react-router"))`], { cwd: repo, encoding: "utf8" });
    expect(plain.stdout.trim()).toMatch(/\/dist\/development\//);
  });
});
