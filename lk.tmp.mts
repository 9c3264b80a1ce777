import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { writeFileSync } from "node:fs";
let captured: any[] = [];
const client = postgres("postgres://postgres:postgres@127.0.0.1:5432/colibri_bench_reports_9be7e0b0", { max: 1, debug: (_c, q, p) => { captured.push({ q, p }); } });
const { documentList } = await import("/work/main/db/queries/document-lists.ts");
const db = drizzle(client);
const companyId = Number(process.argv[2]);
await documentList(db as any, { companyId, kinds: ["fe"], page: 1, perPage: 10 });
const lit = (v: any) => v === null ? "null" : Array.isArray(v) ? `'{${v.join(",")}}'` : `'${String(v).replace(/'/g, "''")}'`;
let out = "\\timing on\n";
captured.forEach(({ q, p }, k) => {
  out += `prepare s${k} as ${q};\n` + Array.from({ length: 8 }, () => `execute s${k}(${p.map(lit).join(",")});`).join("\n") + `\nexplain (analyze, buffers) execute s${k}(${p.map(lit).join(",")});\n`;
});
writeFileSync("/tmp/dl.sql", out);
await client.end();
