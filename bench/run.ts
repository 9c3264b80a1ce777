// `npm run bench`: every benchmark of the project, printed and saved to bench/results.json.
// Numbers are measured on the machine that runs it; budgets are printed beside them, never asserted,
// except the JavaScript budget of the pages: a page over it prints OVER BUDGET and the run exits with 1
// (bench/foundation.ts, docs/decisions/155).
import fs from "node:fs";

const only = process.argv.slice(2);
const resultsFile = new URL("./results.json", import.meta.url);
// A run of some suites keeps the saved numbers of the others.
const previous = only.length && fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, "utf8")) as Record<string, unknown>) : {};
const results: Record<string, unknown> = { ...previous, machine: { cpus: (await import("node:os")).cpus().length, node: process.version, date: new Date().toISOString() } };
const suites: [string, () => Promise<unknown>][] = [
  ["foundation", async () => (await import("./foundation.ts")).benchFoundation()],
];
// Each further suite lives in bench/<name>.ts and exports bench<Name>().
for (const name of ["hacienda", "clients", "items", "issuing", "pdf", "documents", "api", "receptions", "reports"]) {
  const file = new URL(`./${name}.ts`, import.meta.url);
  if (!fs.existsSync(file)) continue;
  const fn = `bench${name[0].toUpperCase()}${name.slice(1)}`;
  suites.push([name, async () => ((await import(file.href)) as Record<string, () => Promise<unknown>>)[fn]()]);
}
for (const [name, run] of suites) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n== ${name}`);
  const r = await run();
  console.log(JSON.stringify(r, null, 2));
  results[name] = r;
}
fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2) + "\n");
console.log(
  "\nBudgets: every signed-in list and the dashboard: median server time ≤ 2× /login's in the same run and ≤ 6 ms, 50 users × 1 page/s p95 ≤ 50 ms, saturated ≥ 200 pages/s on PGlite and ≥ 300 on PostgreSQL (foundation's overBudget lists what misses); /login ≤ 60 kB gzip JavaScript; hacienda ≥ 500 signed 1-line invoices/s/core, ≥ 300 with 50 lines, verify ≥ 1,000/s (1 line) and ≥ 200/s (50 lines), a 1,000-line document in ≤ 0.5 s, peak RSS ≤ 150 MB; client search p95 ≤ 50 ms (100,000 clients, PostgreSQL); CABYS search ≤ 30 ms (25,000 codes); invoice list p95 ≤ 50 ms (1,000,000 documents); PDF ≤ 100 ms warm; every hydrated page and every dialog or tab a query parameter opens ≤ 120 kB gzip JavaScript (/new-invoice's budget; foundation prints OVER BUDGET); each report's first page for a month p95 ≤ 100 ms (1,000,000 documents); Excel of 100,000 rows: first bytes ≤ 1 s, whole file ≤ 5 s, ≤ 100 MB added.",
);
