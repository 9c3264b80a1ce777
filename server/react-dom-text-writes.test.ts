// React's Node server renderer writes each page as text in few writes in production
// (server/react-dom-text-writes.mjs; docs/decisions/178). Checked in fresh Node processes: the same
// page rendered with and without the rewrite is the same HTML, byte for byte.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const repo = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

// A page with multi-byte text (₡, ñ, an emoji split across a 4 kB view), more than 8 kB of HTML, an
// SVG, and a Suspense boundary that completes after the shell (a second flush with React's script).
const RENDER = `
const React = (await import("react")).default;
const { renderToPipeableStream } = await import("react-dom/server");
const { Writable } = await import("node:stream");
const h = React.createElement;
let resolveLate;
const late = new Promise((r) => (resolveLate = r));
function Late() { return h("p", { className: "late" }, "Después: ", React.use(late)); }
const rows = Array.from({ length: 400 }, (_, i) => h("tr", { key: i }, h("td", null, "Línea " + i), h("td", { className: "text-right" }, "₡" + (i * 1234.5).toFixed(2)), h("td", null, i % 7 === 0 ? "🐦 colibrí" : "año")));
const page = h("html", { lang: "es" }, h("body", null,
  h("svg", { viewBox: "0 0 10 10" }, h("circle", { cx: 5, cy: 5, r: 4 }, h("title", null, "Día 1: ₡1.000,00"))),
  h("table", null, h("tbody", null, rows)),
  h(React.Suspense, { fallback: h("p", null, "Cargando…") }, h(Late))));
const writes = [];
const out = new Writable({ write(chunk, _enc, done) { writes.push(Buffer.from(chunk)); done(); } });
await new Promise((resolve, reject) => {
  out.on("finish", resolve);
  const { pipe } = renderToPipeableStream(page, { onShellReady() { pipe(out); setTimeout(() => resolveLate("₡5,00 ñandú"), 20); }, onShellError: reject });
});
const html = Buffer.concat(writes);
console.log(JSON.stringify({ rewritten: globalThis[Symbol.for("colibri.react-dom-text-writes")] === true, writes: writes.length, base64: html.toString("base64") }));
`;

function render(withHook: boolean) {
  const script = withHook
    ? `const { installTextWrites } = await import(${JSON.stringify(pathToFileURL(path.join(repo, "server/react-dom-text-writes.mjs")).href)});
installTextWrites();
${RENDER}`
    : RENDER;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim()) as { rewritten: boolean; writes: number; base64: string };
}

describe("React's server renderer writing text (docs/decisions/178)", () => {
  it("renders the same bytes as shipped, in fewer writes", () => {
    const shipped = render(false);
    const ours = render(true);
    expect(shipped.rewritten).toBe(false);
    expect(ours.rewritten).toBe(true);
    const html = Buffer.from(ours.base64, "base64").toString("utf8");
    expect(html).toContain("🐦 colibrí");
    expect(html).toContain("₡5,00 ñandú");
    expect(html.length).toBeGreaterThan(8192 * 2);
    expect(ours.base64).toBe(shipped.base64);
    expect(ours.writes).toBeLessThan(shipped.writes);
  });

  it("changes nothing in a version without the text it rewrites", async () => {
    const { withTextWrites, TEXT_WRITES_SOURCE } = await import("./react-dom-text-writes.mjs");
    const source = "function stringToPrecomputedChunk(content) {\n  return textEncoder.encode(content);\n}\nvar currentView = null, writtenBytes = 0;\nfunction writeChunk(d, c) {}\nfunction completeWriting(d) {}\nfunction writeToDestination(d, v) {}\n";
    expect(withTextWrites(source)).toBe(source.replace("return textEncoder.encode(content);", "return content;") + TEXT_WRITES_SOURCE);
    const without = source.replace("function completeWriting(d) {}\n", "");
    expect(withTextWrites(without)).toBe(without);
  });
});
