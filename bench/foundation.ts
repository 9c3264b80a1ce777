// Foundation benchmark: cold start, server time of /dashboard and /companies under 50 concurrent
// clients (PGlite, and PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set), and the gzip
// bytes of JavaScript and CSS that /login and /companies ship.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import postgres from "postgres";

const DEMO_PASSWORD = "bench-demo-123";

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function waitFor(url: string, proc: ChildProcess, log: () => string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited:\n${log()}`);
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startServer(opts: { command: string[]; port: number; dataDir: string; databaseUrl?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(opts.port), HOST: "127.0.0.1", DATA_DIR: opts.dataDir, DEMO_PASSWORD, APP_SECRET: "bench-secret", NODE_ENV: "production", COOKIE_SECURE: "false" };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  const taken = await fetch(`http://127.0.0.1:${opts.port}/login`).then(() => true, () => false);
  if (taken) throw new Error(`Port ${opts.port} is already in use: stop that server first.`);
  const t0 = performance.now();
  // Own process group, so stopping it stops npm, tsx and the server (and its workers) together.
  const proc = spawn(opts.command[0], opts.command.slice(1), { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  proc.stdout!.on("data", (d) => (log += d));
  proc.stderr!.on("data", (d) => (log += d));
  await waitFor(`http://127.0.0.1:${opts.port}/login`, proc, () => log);
  const ms = performance.now() - t0;
  return {
    ms,
    stop: async () => {
      const exited = new Promise((r) => proc.once("exit", r));
      process.kill(-proc.pid!, "SIGTERM");
      await exited;
      // Wait until the port is free again (the server finishes closing after its parent exits).
      for (let i = 0; i < 100 && (await fetch(`http://127.0.0.1:${opts.port}/login`).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
    },
  };
}

export async function signIn(base: string): Promise<string> {
  const page = await fetch(`${base}/login`);
  const csrfCookie = page.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: token, email: "demo@colibri.cr", password: DEMO_PASSWORD }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("colibri_session="));
  if (!session) throw new Error(`sign-in failed: ${res.status}`);
  return `${csrfCookie}; ${session.split(";")[0]}`;
}

/**
 * 50 concurrent clients on one path, each waiting for its answer before the next request.
 * `perClientRate` paces each client (1 = a person clicking once a second); without it the clients
 * send as fast as the server answers (saturation: latency is then mostly queueing behind the
 * other 49). Latency is measured per request, from send to the last byte.
 */
async function load(base: string, pathName: string, cookie: string, perClientRate?: number) {
  const seconds = Number(process.env.BENCH_SECONDS || 8);
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const client = async (i: number) => {
    if (perClientRate) await new Promise((r) => setTimeout(r, (i * 1000) / 50 / perClientRate));
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await fetch(base + pathName, { headers: { cookie }, redirect: "manual" });
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        else latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
      if (perClientRate) {
        const wait = t0 + 1000 / perClientRate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 50 }, (_, i) => client(i)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ms = (v: number) => Number(v.toFixed(1));
  return {
    requests: latencies.length,
    rps: Math.round(latencies.length / elapsed),
    errors,
    medianMs: ms(percentile(latencies, 50)),
    p95Ms: ms(percentile(latencies, 95)),
    p99Ms: ms(percentile(latencies, 99)),
  };
}

async function warmUp(base: string, pathName: string, cookie: string) {
  const deadline = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (performance.now() < deadline) await (await fetch(base + pathName, { headers: { cookie } })).arrayBuffer();
    }),
  );
}

/** The bytes a response puts on the wire when the client accepts gzip (not decoded, unlike fetch). */
function wireBytes(url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        let n = 0;
        res.on("data", (c: Buffer) => (n += c.length));
        res.on("end", () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`${url}: ${res.statusCode}`))));
      })
      .on("error", reject);
  });
}

/**
 * What a page makes a browser download, gzip as sent: the scripts and stylesheets it loads
 * (script src, modulepreload, stylesheet links and the module it imports; not the route manifest
 * file, which lazy route discovery never fetches — checked against Chromium's requests) measured on
 * the wire, plus its inline scripts (hydration data, route manifest) counted as what they add to the
 * compressed HTML.
 */
export async function shipped(base: string, pathName: string, cookie?: string) {
  const html = await (await fetch(base + pathName, { headers: cookie ? { cookie } : {} })).text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.(?:js|css))"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(m[1]);
  let js = 0;
  let css = 0;
  for (const u of urls) {
    const n = await wireBytes(new URL(u, base));
    if (u.endsWith(".css")) css += n;
    else js += n;
  }
  const inline = /<script(?![^>]*src=)([^>]*)>([\s\S]*?)<\/script>/g;
  const inlineGzip = gzipSync(html).length - gzipSync(html.replace(inline, "<script$1></script>")).length;
  return { jsGzipBytes: js + inlineGzip, jsFilesGzipBytes: js, inlineScriptsGzipBytes: inlineGzip, cssGzipBytes: css, htmlGzipBytes: gzipSync(html).length };
}

/** The value each route parameter takes when every route of the table is measured. */
async function routeParams(base: string, cookie: string): Promise<Record<string, string>> {
  const page = async (path: string) => (await fetch(base + path, { headers: { cookie } })).text();
  const first = (html: string, re: RegExp) => re.exec(html)?.[1];
  const companies = await page("/companies");
  const users = await page("/users");
  return {
    company_id: first(companies, /\/main-configurations\/(\d+)/) ?? first(companies, /\/edit-company\/(\d+)/) ?? "1",
    user_id: first(users, /\/edit-user\/(\d+)/) ?? "1",
    id: "1",
    type: "invoice",
    document_type: "invoice",
    document_id: "1",
    note_type: "nc",
    print: "print",
    token: "x".repeat(64),
    code64: "x",
  };
}

/**
 * The JavaScript of every screen of the route table (app/domain/access.ts, the spec's part 1 §2.1),
 * signed in as the demo administrator (public ones without a session), and the heaviest page that
 * hydrates. Parameters take the demo company's and user's ids, else 1: a screen's scripts are its
 * route module's whatever the record (a missing one shows its error boundary with the same modules).
 */
export async function shippedByRoute(base: string, cookie: string) {
  const { ROUTES } = await import("../app/domain/access.ts");
  const params = await routeParams(base, cookie);
  const out: Record<string, number> = {};
  let heaviest = { path: "", jsGzipBytes: 0 };
  for (const r of ROUTES as readonly { pattern: string; public?: boolean; utility?: boolean; csrfExempt?: boolean }[]) {
    if (r.utility || r.csrfExempt) continue;
    // An optional parameter (the detail's :print?) is measured with and without it.
    const patterns = r.pattern.includes("?") ? [r.pattern, r.pattern.replace(/\/:\w+\?/g, "")] : [r.pattern];
    for (const pattern of patterns) {
      const path = pattern.replace(/\/:(\w+)\??/g, (_, name: string) => `/${params[name] ?? "1"}`);
      const m = await shipped(base, path, r.public ? undefined : cookie);
      out[path] = m.jsGzipBytes;
      if (m.jsGzipBytes > heaviest.jsGzipBytes) heaviest = { path, jsGzipBytes: m.jsGzipBytes };
    }
  }
  return { routes: out, heaviest };
}

export async function benchFoundation() {
  const out: Record<string, unknown> = {};
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-bench-"));
  // BENCH_SHIPPED_ONLY=1: only the JavaScript each page ships (on the production build), no load.
  if (process.env.BENCH_SHIPPED_ONLY) {
    // BENCH_PORT: another port when 3302 is taken (several worktrees on one machine).
    const port = Number(process.env.BENCH_PORT || 3302);
    const server = await startServer({ command: ["npx", "tsx", "server/start.ts"], port, dataDir: path.join(tmp, "shipped") });
    try {
      const base = `http://127.0.0.1:${port}`;
      const cookie = await signIn(base);
      out["shipped:/login"] = await shipped(base, "/login");
      out["shipped:/new-invoice"] = await shipped(base, "/new-invoice", cookie);
      const all = await shippedByRoute(base, cookie);
      out["shipped:every route (gzip JavaScript bytes)"] = all.routes;
      out["shipped:heaviest hydrated route"] = all.heaviest;
      console.log(`Heaviest page: ${all.heaviest.path} ${all.heaviest.jsGzipBytes} B gzip JavaScript (budget of /new-invoice: 120000 B)`);
    } finally {
      await server.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    return out;
  }
  try {
    // Cold start: `npm start` (build + migrate + seed + serve) on a fresh embedded database.
    const cold = await startServer({ command: ["npm", "start", "--silent"], port: 3301, dataDir: path.join(tmp, "cold") });
    out.coldStartNpmStartMs = Math.round(cold.ms);
    await cold.stop();
    const warm = await startServer({ command: ["npx", "tsx", "server/start.ts"], port: 3301, dataDir: path.join(tmp, "cold") });
    out.restartExistingDataMs = Math.round(warm.ms);
    await warm.stop();

    const targets: [string, string | undefined][] = [["pglite", undefined]];
    const pgUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
    let dropPg = async () => {};
    if (pgUrl) {
      const name = `colibri_bench_${process.pid}`;
      const u = new URL(pgUrl);
      u.pathname = "/postgres";
      const admin = postgres(u.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      u.pathname = `/${name}`;
      targets.push(["postgres", u.toString()]);
      dropPg = async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      };
    }
    try {
      for (const [kind, databaseUrl] of targets) {
        const server = await startServer({ command: ["npx", "tsx", "server/start.ts"], port: 3302, dataDir: path.join(tmp, kind), databaseUrl });
        try {
          const base = "http://127.0.0.1:3302";
          const cookie = await signIn(base);
          // Warm-up: a few seconds of traffic on both pages, so every worker has compiled its hot code
          // (a server that has been up for a minute); only then is the latency measured.
          for (const p of ["/dashboard", "/companies"]) await warmUp(base, p, cookie);
          for (const p of ["/dashboard", "/companies"]) {
            out[`${kind}:${p} 50 clients, 1 req/s each`] = await load(base, p, cookie, 1);
            out[`${kind}:${p} 50 clients, saturated`] = await load(base, p, cookie);
          }
          if (kind === "pglite") {
            out["shipped:/login"] = await shipped(base, "/login");
            out["shipped:/companies"] = await shipped(base, "/companies", cookie);
            out["shipped:/new-invoice"] = await shipped(base, "/new-invoice", cookie);
            const all = await shippedByRoute(base, cookie);
            out["shipped:every route (gzip JavaScript bytes)"] = all.routes;
            out["shipped:heaviest hydrated route"] = all.heaviest;
            console.log(`Heaviest page: ${all.heaviest.path} ${all.heaviest.jsGzipBytes} B gzip JavaScript (budget of /new-invoice: 120000 B)`);
          }
        } finally {
          await server.stop();
        }
      }
    } finally {
      await dropPg();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchFoundation(), null, 2));
}
