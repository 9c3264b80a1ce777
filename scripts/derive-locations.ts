/**
 * Derives Colibrí's own compact location seed file (`db/seed/data/locations.json`) from the public
 * Costa Rica provincia / cantón / distrito / barrio code lists.
 *
 * Input: the Odoo import files kept OUTSIDE this repository (see shared/hacienda/data/SOURCES.md):
 *   res_country_state.xml         7 provinces (only xml-id + code; names are the official province names below)
 *   res.country.county.csv        id,code,name,state_id:id          (84 cantones)
 *   res.country.district.csv      id,code,name,county_id:id         (494 distritos)
 *   res.country.neighborhood.csv  id,code,name,district_id:id       (barrios)
 *
 * Output (codes and names only, no Odoo ids; arrays without repeated keys):
 *   { "provinces": [[province, name]…], "cantons": [[province, canton, name]…],
 *     "districts": [[province, canton, district, name]…], "barrios": [[province, canton, district, name]…] }
 *
 * Usage: npx tsx scripts/derive-locations.ts [inputDir]   (default ../shared/hacienda/data/location, relative to the repo root)
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const inputDir = resolve(repoRoot, process.argv[2] ?? "../shared/hacienda/data/location");
const outFile = join(repoRoot, "db/seed/data/locations.json");

/** Official province names by code (the XML only carries the code). */
const PROVINCE_NAMES: Record<number, string> = {
  1: "San José",
  2: "Alajuela",
  3: "Cartago",
  4: "Heredia",
  5: "Guanacaste",
  6: "Puntarenas",
  7: "Limón",
};

function fail(msg: string): never {
  console.error(`derive-locations: ${msg}`);
  process.exit(1);
}

function read(name: string): string {
  try {
    let text = readFileSync(join(inputDir, name), "utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text;
  } catch (e) {
    fail(`cannot read ${join(inputDir, name)}: ${(e as Error).message}`);
  }
}

/** Minimal RFC 4180 CSV parser (quoted fields, "" escapes, CRLF/LF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

type Rec = { id: string; code: number; name: string; parent: string };

function readTable(file: string, parentColumn: string): Rec[] {
  const [header, ...rows] = parseCsv(read(file));
  const expected = ["id", "code", "name", parentColumn];
  if (header.join(",") !== expected.join(",")) fail(`${file}: unexpected header ${header.join(",")} (want ${expected.join(",")})`);
  return rows.map((r, i) => {
    if (r.length !== 4) fail(`${file}: line ${i + 2} has ${r.length} fields`);
    const [id, code, name, parent] = r.map((s) => s.trim());
    if (!/^\d{1,3}$/.test(code)) fail(`${file}: line ${i + 2} bad code ${JSON.stringify(code)}`);
    const clean = cleanName(name);
    if (!clean) fail(`${file}: line ${i + 2} empty name`);
    return { id, code: Number(code), name: clean, parent };
  });
}

/**
 * Normalises a name: repairs UTF-8 read as Latin-1 ("JosÃ©" → "José") if present, NFC, collapses
 * whitespace, trims, and fixes the title-casing artefact "'S" after an apostrophe ("Michael'S" → "Michael's").
 */
function cleanName(raw: string): string {
  let s = raw;
  if (/[ÃÂ][\u0080-\u00ff]/.test(s)) {
    const repaired = Buffer.from(s, "latin1").toString("utf8");
    if (!repaired.includes("\ufffd")) s = repaired;
  }
  if (s.includes("\ufffd")) fail(`replacement character in name ${JSON.stringify(raw)}`);
  return s
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/'S\b/g, "'s");
}

// Provinces: <record id="base.state_SJ" model="res.country.state"><field name="code">1</field></record>
const xml = read("res_country_state.xml");
const provinceByXmlId = new Map<string, number>();
for (const m of xml.matchAll(/<record\s+id="([^"]+)"\s+model="res\.country\.state"\s*>\s*<field\s+name="code">\s*(\d+)\s*<\/field>/g)) {
  const code = Number(m[2]);
  if (!PROVINCE_NAMES[code]) fail(`unknown province code ${code}`);
  provinceByXmlId.set(m[1], code);
  // CSVs may reference the record with or without the module prefix.
  provinceByXmlId.set(m[1].replace(/^base\./, ""), code);
}
const provinces = [...new Set(provinceByXmlId.values())].sort((a, b) => a - b).map((n) => [n, PROVINCE_NAMES[n]] as const);

const cantonRecs = readTable("res.country.county.csv", "state_id:id");
const districtRecs = readTable("res.country.district.csv", "county_id:id");
const barrioRecs = readTable("res.country.neighborhood.csv", "district_id:id");

const cantonById = new Map<string, [number, number]>();
const cantons: [number, number, string][] = [];
for (const c of cantonRecs) {
  const p = provinceByXmlId.get(c.parent);
  if (p === undefined) fail(`canton ${c.id}: unknown province ${c.parent}`);
  if (cantonById.has(c.id)) fail(`duplicate canton id ${c.id}`);
  if (c.code < 1 || c.code > 99) fail(`canton ${c.id}: code ${c.code} is not 2-digit`);
  cantonById.set(c.id, [p, c.code]);
  cantons.push([p, c.code, c.name]);
}

const districtById = new Map<string, [number, number, number]>();
const districts: [number, number, number, string][] = [];
for (const d of districtRecs) {
  const pc = cantonById.get(d.parent);
  if (!pc) fail(`district ${d.id}: unknown canton ${d.parent}`);
  if (districtById.has(d.id)) fail(`duplicate district id ${d.id}`);
  if (d.code < 1 || d.code > 99) fail(`district ${d.id}: code ${d.code} is not 2-digit`);
  districtById.set(d.id, [pc[0], pc[1], d.code]);
  districts.push([pc[0], pc[1], d.code, d.name]);
}

// Barrios: keep the source's order within each district (its code order); the barrio code itself is not
// used by v4.4 (Barrio is free text), so only the name is kept.
const barrios: [number, number, number, string, number][] = [];
for (const b of barrioRecs) {
  const pcd = districtById.get(b.parent);
  if (!pcd) fail(`barrio ${b.id}: unknown district ${b.parent}`);
  barrios.push([pcd[0], pcd[1], pcd[2], b.name, b.code]);
}

const cmp = (a: readonly (number | string)[], b: readonly (number | string)[], n: number) => {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
};
cantons.sort((a, b) => cmp(a, b, 2));
districts.sort((a, b) => cmp(a, b, 3));
barrios.sort((a, b) => cmp(a, b, 3) || a[4] - b[4]);

function unique<T>(rows: T[], key: (r: T) => string, what: string) {
  const seen = new Set<string>();
  for (const r of rows) {
    const k = key(r);
    if (seen.has(k)) fail(`duplicate ${what} ${k}`);
    seen.add(k);
  }
}
unique(cantons, (r) => `${r[0]}-${r[1]}`, "canton");
unique(districts, (r) => `${r[0]}-${r[1]}-${r[2]}`, "district");
unique(barrios, (r) => `${r[0]}-${r[1]}-${r[2]}-${r[4]}`, "barrio code");

if (provinces.length !== 7) fail(`expected 7 provinces, got ${provinces.length}`);
if (cantons.length !== 84) fail(`expected 84 cantons, got ${cantons.length}`);
if (districts.length !== 494) fail(`expected 494 districts, got ${districts.length}`);
// Every canton has at least one district.
for (const [p, c] of cantons) if (!districts.some((d) => d[0] === p && d[1] === c)) fail(`canton ${p}-${c} has no districts`);

// One row per line keeps the file compact and diff-friendly.
const block = (rows: readonly (readonly unknown[])[]) => rows.map((r) => JSON.stringify(r)).join(",\n");
const out =
  "{\n" +
  `"provinces":[\n${block(provinces)}\n],\n` +
  `"cantons":[\n${block(cantons)}\n],\n` +
  `"districts":[\n${block(districts)}\n],\n` +
  `"barrios":[\n${block(barrios.map((b) => [b[0], b[1], b[2], b[3]]))}\n]\n` +
  "}\n";
JSON.parse(out); // sanity
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, out);
console.log(
  `derive-locations: ${provinces.length} provinces, ${cantons.length} cantons, ${districts.length} districts, ${barrios.length} barrios → ${outFile} (${Buffer.byteLength(out)} bytes)`,
);
