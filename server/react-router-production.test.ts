// In production the server resolves React Router to its production build (server/start.ts registers
// server/react-router-production.mjs; docs/decisions/198): its package exports give the development
// build to every import. Checked in a fresh Node process with the hook registered as start.ts does.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

function resolveIn(code: string): string {
  // The hooks as start.ts registers them in production.
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

describe("React Router's per-build memos (docs/decisions/146)", () => {
  it("are appended to the module that declares the functions they wrap, and to no other", async () => {
    const { withMemos, MEMO_SOURCE, MEMOIZED } = await import("./react-router-production.mjs");
    const declaring = MEMOIZED.map((name: string) => `\nfunction ${name}() {}`).join("");
    expect(withMemos(declaring)).toBe(declaring + MEMO_SOURCE);
    // A version that no longer declares one of them is left as shipped (and start.ts stops).
    const partial = MEMOIZED.slice(1).map((name: string) => `\nfunction ${name}() {}`).join("");
    expect(withMemos(partial)).toBe(partial);
  });

  it("are in place in the production build, and a remembered match is the same match, each caller's own copy", () => {
    const out = resolveIn(`
const { matchRoutes } = await import("react-router");
const routes = [{ id: "root", path: "/", children: [{ id: "list", path: "invoices" }, { id: "detail", path: "detail/:type/:id" }, { id: "any", path: "*" }] }];
const first = matchRoutes(routes, "/detail/fe/7");
first[1].params.id = "changed";
const second = matchRoutes(routes, "/detail/fe/7");
const other = matchRoutes(routes, "/detail/te/8");
console.log(JSON.stringify({
  memos: globalThis[Symbol.for("colibri.react-router-memos")] === true,
  second: second.map((m) => [m.route.id, m.pathname, m.params]),
  sharedParams: second[0].params === second[1].params,
  other: other.map((m) => [m.route.id, m.params]),
  splat: matchRoutes(routes, "/no/such/page").map((m) => m.route.id),
  none: matchRoutes([{ id: "only", path: "/a" }], "/b"),
}));`);
    expect(JSON.parse(out)).toEqual({
      memos: true,
      second: [
        ["root", "/", { type: "fe", id: "7" }],
        ["detail", "/detail/fe/7", { type: "fe", id: "7" }],
      ],
      sharedParams: true,
      other: [
        ["root", { type: "te", id: "8" }],
        ["detail", { type: "te", id: "8" }],
      ],
      splat: ["root", "any"],
      none: null,
    });
  });
});
