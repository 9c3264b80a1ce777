// The real HTTP server (server/start.ts) over a real build of the app, as `npm start` runs it, in
// its own OS process (issue 10 points 5, 6 and 8):
// - request bodies are limited per route on the bytes read: a chunked 300 MB POST to /login gets
//   413 and the server's memory barely moves; an upload past its route's limit gets 413;
// - browser security headers: a Content-Security-Policy whose nonce every inline script carries,
//   frame-ancestors, nosniff, no-store on signed-in pages and their data only;
// - GET /healthz without a session; the demo password printed on the first start only;
// - a page compressed in one piece, sent with its length, in the encoding the client accepts; other
//   answers still compressed as a stream (docs/decisions/202);
// - the session's row kept by the embedded database between pages (queries counted per answer);
// - PostgreSQL: the web server and the jobs process started together on an empty database.
// The app is built once for this file into node_modules/.cache (BUILD_DIR), which takes a while.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl } from "../setup/global.ts";
import { createTestDatabase } from "../setup/db.ts";

const repo = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const buildDir = path.join(repo, "node_modules", ".cache", `colibri-test-build-${process.pid}`);
const DEMO = { email: "demo@colibri.cr", password: "demo-clave-1234" };
const WAIT_MS = 120_000;
const running = new Set<ChildProcessWithoutNullStreams>();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-http-"));

beforeAll(() => {
  const built = spawnSync("npx", ["react-router", "build"], { cwd: repo, env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" }, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`react-router build failed:\n${built.stdout}\n${built.stderr}`);
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  fs.rmSync(buildDir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

interface Proc {
  pid: number;
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves once `pattern` appears on stdout; fails if the process ends first or is too slow. */
  until(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/** `node --import tsx <script>` (node itself, so the pid is the server's). */
function startProcess(script: string, env: Record<string, string | undefined>): Proc {
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: repo, env: env as NodeJS.ProcessEnv });
  running.add(child);
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (d: string) => (out += d));
  child.stderr.on("data", (d: string) => (out += d));
  let ended = false;
  const closed = new Promise<void>((r) =>
    child.on("close", () => {
      ended = true;
      running.delete(child);
      r();
    }),
  );
  return {
    pid: child.pid!,
    child,
    output: () => out,
    until: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`${script}: no ${pattern} within ${WAIT_MS} ms\n${out}`)), WAIT_MS);
        const check = () => {
          if (pattern.test(out)) finish();
          else if (ended) finish(new Error(`${script} ended before ${pattern}:\n${out}`));
        };
        const finish = (error?: Error) => {
          clearTimeout(timer);
          child.stdout.off("data", check);
          child.off("close", check);
          if (error) reject(error);
          else resolve();
        };
        child.stdout.on("data", check);
        child.on("close", check);
        check();
      }),
    stop: async () => {
      if (!ended) child.kill("SIGTERM");
      await closed;
    },
  };
}

interface Server extends Proc {
  url: string;
}

async function startServer(opts: { dataDir: string; databaseUrl?: string; extra?: Record<string, string> }): Promise<Server> {
  const port = await freePort();
  const env = {
    ...process.env,
    BUILD_DIR: buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: opts.dataDir,
    DEMO_PASSWORD: DEMO.password,
    NODE_ENV: "production",
    HACIENDA_SANDBOX: "false",
    WEB_CONCURRENCY: "1",
    SMTP_URL: "",
    DATABASE_URL: opts.databaseUrl,
    ...opts.extra,
  };
  const proc = startProcess("server/start.ts", env);
  await proc.until(/Colibrí escuchando/);
  return { ...proc, url: `http://127.0.0.1:${port}` };
}

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** A minimal browser: cookies kept, redirects not followed. */
function browser(base: string) {
  const cookies = new Map<string, string>();
  const request = async (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(base + pathname, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  };
  return {
    request,
    cookieHeader: () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    async csrf(pathname: string) {
      const html = await (await request(pathname)).text();
      return /name="_csrf" value="([^"]+)"/.exec(html)![1];
    },
    async signIn() {
      const token = await this.csrf("/login");
      const res = await request("/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ _csrf: token, email: DEMO.email, password: DEMO.password }) });
      expect(res.status, "sign-in redirects").toBe(302);
    },
  };
}

/**
 * POSTs `total` bytes with chunked transfer encoding (no Content-Length), chunk by chunk as the
 * socket takes them, and stops as soon as the server answers. Resolves with the answer and how
 * much was written.
 */
function chunkedPost(url: string, opts: { headers: Record<string, string>; head: string; total: number; filler?: string }): Promise<{ status: number; body: string; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, opts.filler ?? "a");
    const req = http.request(url, { method: "POST", headers: { ...opts.headers, "transfer-encoding": "chunked" } });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body, sentBytes: sent }));
    });
    // Once the server has answered and closed, writing fails: expected.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && !req.destroyed && sent < opts.total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", () => setImmediate(pump));
          return;
        }
      }
      if (!answered && !req.destroyed) req.end();
    };
    req.write(opts.head);
    pump();
  });
}

const MB = 1024 * 1024;

describe("the app server over a real build", () => {
  let server: Server;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const dataDir = path.join(work, "data");

  beforeAll(async () => {
    if (process.env.DATABASE_URL) database = await createTestDatabase();
    server = await startServer({ dataDir, databaseUrl: database?.url });
  }, WAIT_MS + 10_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("prints the demo password when it creates the demo company, and not on the next start", async () => {
    expect(server.output()).toContain(`Usuario demo: ${DEMO.email} / ${DEMO.password}`);
    await server.stop();
    server = await startServer({ dataDir, databaseUrl: database?.url });
    expect(server.output()).not.toContain("Usuario demo");
    expect(server.output()).not.toContain(DEMO.password);
  }, 2 * WAIT_MS);

  it("GET /healthz answers 200 without a session", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("a chunked 300 MB POST to /login is cut off with 413 and a Spanish message; the server's memory barely moves", async () => {
    // Warm up what a sign-in attempt loads, so only the body could make the process grow.
    const b = browser(server.url);
    const token = await b.csrf("/login");
    await b.request("/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ _csrf: token, email: "nadie@example.cr", password: "incorrecta" }) });

    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 20);
    let answer: Awaited<ReturnType<typeof chunkedPost>>;
    try {
      answer = await chunkedPost(`${server.url}/login`, {
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: b.cookieHeader() },
        head: `_csrf=${token}&email=nadie%40example.cr&password=`,
        total: 300 * MB,
      });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssMb(server.pid));
    console.info(`[http-server] chunked 300 MB to /login: RSS before ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB (+${(peak - before).toFixed(1)} MB); ${(answer.sentBytes / MB).toFixed(1)} MB written before the answer`);
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("El formulario o el archivo enviado es demasiado grande (máximo 16 kB). Reduzca el tamaño e inténtelo de nuevo.");
    expect(answer.sentBytes, "the sender was stopped long before 300 MB").toBeLessThan(300 * MB);
    expect(peak - before, `RSS before ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB`).toBeLessThan(50);
    // The server goes on serving.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 120_000);

  it("an upload past its route's limit gets 413, chunked or declared; one within it reaches the route", async () => {
    const b = browser(server.url);
    await b.signIn();
    const companies = await (await b.request("/companies")).text();
    const companyId = /data-company-id="(\d+)"/.exec(companies)![1];
    const page = `/config-hacienda/${companyId}`;
    const token = await b.csrf(page);
    const boundary = "----colibri" + randomBytes(8).toString("hex");
    const head = [`--${boundary}`, 'Content-Disposition: form-data; name="_csrf"', "", token, `--${boundary}`, 'Content-Disposition: form-data; name="intent"', "", "save", `--${boundary}`, 'Content-Disposition: form-data; name="file_key"; filename="llave.p12"', "Content-Type: application/x-pkcs12", "", ""].join("\r\n");
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}`, cookie: b.cookieHeader() };

    const chunked = await chunkedPost(`${server.url}${page}`, { headers, head, total: 8 * MB, filler: "\u0001" });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toBe("El formulario o el archivo enviado es demasiado grande (máximo 1 MB). Reduzca el tamaño e inténtelo de nuevo.");

    const declared = await b.request(page, { method: "POST", headers: { "content-type": headers["content-type"] }, body: head + "x".repeat(2 * MB) + `\r\n--${boundary}--\r\n` });
    expect(declared.status).toBe(413);

    // A small (not a real) key reaches the form, which answers with its own message.
    const small = await b.request(page, { method: "POST", headers: { "content-type": headers["content-type"] }, body: head + "x".repeat(2000) + `\r\n--${boundary}--\r\n` });
    expect(small.status).toBe(400);
    expect(await small.text()).toContain("Revisa los datos marcados.");
  }, 120_000);

  it("pages carry a Content-Security-Policy whose nonce every inline script has; nosniff; no-store on signed-in pages and their data only", async () => {
    const b = browser(server.url);
    const login = await b.request("/login");
    expect(login.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(login.headers.get("cache-control")).toBeNull();
    expect(login.headers.get("x-frame-options")).toBeNull();

    await b.signIn();
    const res = await b.request("/dashboard");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, csp).toBeTruthy();
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, "the dashboard is hydrated").toBeGreaterThan(0);
    for (const tag of scripts) if (!/\bsrc=/.test(tag)) expect(tag, "inline script without the nonce").toContain(`nonce="${nonce}"`);
    expect(html, "no inline style attribute (style-src 'self')").not.toMatch(/<[^>]+\sstyle="/);
    // A second page gets another nonce.
    const again = (await b.request("/dashboard")).headers.get("content-security-policy")!;
    expect(again).not.toContain(nonce);

    const data = await b.request("/dashboard.data");
    expect(data.status).toBe(200);
    expect(data.headers.get("cache-control")).toBe("no-store");
    expect(data.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    const asset = /<script[^>]*type="module"[^>]*>[^<]*import\("([^"]+)"\)/.exec(html)?.[1] ?? /href="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await b.request(asset);
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toMatch(/max-age=31536000/);
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");

    // The ticket print page is printed from a hidden frame of the form: only it may be framed, by the app itself.
    const print = await b.request("/detail/ticket/999999/print");
    expect(print.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");

    // The public document page: no script at all, its inline CSS allowed by hash.
    const pub = await fetch(`${server.url}/query-public/no-existe`);
    expect(pub.status).toBe(404);
    const pubCsp = pub.headers.get("content-security-policy")!;
    const css = /<style>([\s\S]*?)<\/style>/.exec(await pub.text())![1];
    expect(pubCsp).toContain(`style-src 'sha256-${createHash("sha256").update(css).digest("base64")}'`);
    expect(pubCsp).toContain("default-src 'none'");
  }, 60_000);

  it("a page leaves compressed in one piece with its length, in the encoding the client accepts; data and files stay streamed", async () => {
    const b = browser(server.url);
    await b.signIn();
    /** The answer as sent (not decoded by the client). */
    const raw = (pathname: string, acceptEncoding?: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> =>
      new Promise((resolve, reject) => {
        http
          // /login signed out (signed in, it sends to the dashboard).
          .get(server.url + pathname, { headers: { ...(pathname === "/login" ? {} : { cookie: b.cookieHeader() }), ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const;
    for (const [accept, encoding] of [["gzip, deflate, br, zstd", "br"], ["gzip, deflate", "gzip"], ["br;q=0, gzip", "gzip"], [undefined, undefined]] as const) {
      for (const pathname of ["/login", "/dashboard", "/invoices"]) {
        const { headers, body } = await raw(pathname, accept);
        expect(headers["content-encoding"], `${pathname} ${accept}`).toBe(encoding);
        expect(headers["transfer-encoding"], "sent with its length, not chunked").toBeUndefined();
        expect(Number(headers["content-length"])).toBe(body.length);
        expect(headers.vary).toMatch(/Accept-Encoding/i);
        const html = (encoding ? decode[encoding](body) : body).toString("utf8");
        expect(html.startsWith("<!DOCTYPE html>"), pathname).toBe(true);
        expect(html.trimEnd().endsWith("</html>"), pathname).toBe(true);
      }
    }
    // A client navigation's data and a script are streamed through the compression middleware.
    const data = await raw("/dashboard.data", "gzip");
    expect(data.headers["content-encoding"]).toBe("gzip");
    expect(data.headers["transfer-encoding"]).toBe("chunked");
    expect(zlib.gunzipSync(data.body).length).toBeGreaterThan(0);
  }, 60_000);

  it("a toast waits for the page that shows it: a resource's answer or data without the root loader keep it (docs/decisions/205)", async () => {
    const b = browser(server.url);
    await b.signIn(); // the sign-in's toast: "La compañia … esta activa"
    const flashOf = (res: Response) => res.headers.getSetCookie().filter((c) => c.startsWith("colibri_flash="));
    expect(b.cookieHeader()).toMatch(/colibri_flash=[^;]+\./);

    const lookup = await b.request("/locations?province=1");
    expect(lookup.status).toBe(200);
    expect(flashOf(lookup), "a JSON lookup does not clear the toast").toEqual([]);
    const routeOnly = await b.request("/dashboard.data?_routes=dashboard");
    expect(routeOnly.status).toBe(200);
    await routeOnly.text();
    expect(flashOf(routeOnly), "data for the page's route alone does not clear it").toEqual([]);

    const page = await b.request("/dashboard");
    expect(await page.text()).toContain("esta activa</div>");
    expect(flashOf(page), "the page that shows it clears it").toEqual([expect.stringMatching(/^colibri_flash=;.*Max-Age=0/i)]);
    expect(await (await b.request("/dashboard")).text()).not.toContain("esta activa</div>");
  }, 60_000);
});

describe("the session's row in the served app (QUERY_STATS: each answer counts its queries)", () => {
  let server: Server;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  beforeAll(async () => {
    if (process.env.DATABASE_URL) database = await createTestDatabase();
    server = await startServer({ dataDir: path.join(work, "data-stats"), databaseUrl: database?.url, extra: { QUERY_STATS: "1" } });
  }, WAIT_MS + 10_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("the embedded database reads it once and keeps it; PostgreSQL reads it on each page (docs/decisions/201)", async () => {
    const b = browser(server.url);
    await b.signIn();
    const queries = async (pathname: string) => {
      const res = await b.request(pathname);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return Number(/db;desc="(\d+) consultas"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
    };
    await queries("/users"); // remembers the page: a change of the session's row
    // The list's rows, and the session's lookup: read again after that change, then kept by the
    // embedded database (so the app's bundle and the server share one count of its changes).
    const views = [await queries("/users"), await queries("/users"), await queries("/users")];
    expect(views).toEqual(database ? [2, 2, 2] : [2, 1, 1]);
  }, 60_000);

  it.runIf(!!process.env.DATABASE_URL)("PostgreSQL: a page made while the session is read is sent only if the reading agrees (docs/decisions/204)", async () => {
    const b = browser(server.url);
    await b.signIn();
    const page = async (pathname: string) => {
      const res = await b.request(pathname);
      const html = await res.text();
      return { status: res.status, location: res.headers.get("location"), html, queries: Number(/db;desc="(\d+) consultas"/.exec(res.headers.get("server-timing") ?? "")?.[1]) };
    };
    await page("/users");
    const [company] = (await database!.db.execute(sql`select c.id, c.name from sessions s join companies c on c.id = s.company_id where s.closed_at is null and s.kind = 'web'`)) as unknown as { id: number; name: string }[];
    // Answered with the session as last read, checked by its reading: the rows and the lookup.
    const kept = await page("/users");
    expect(kept.status).toBe(200);
    expect(kept.queries).toBe(2);
    expect(kept.html).toContain(company.name);
    // An address that takes a form's stash (?restore) is never answered ahead: made once, after the
    // reading (taken twice, the stash would be gone the second time).
    await database!.db.execute(sql`update companies set name = 'Compañía Leída Antes' where id = ${company.id}`);
    const restoring = await page("/users?restore=1");
    expect(restoring.queries).toBe(2);
    expect(restoring.html).toContain("Compañía Leída Antes");
    // Renamed by another process: the answer made from the old reading is thrown away and made
    // again with the new one (the rows twice, one lookup).
    await database!.db.execute(sql`update companies set name = 'Compañía Renombrada' where id = ${company.id}`);
    const renamed = await page("/users");
    expect(renamed.status).toBe(200);
    expect(renamed.queries).toBe(3);
    expect(renamed.html).toContain("Compañía Renombrada");
    expect(renamed.html).not.toContain("Compañía Leída Antes");
    expect((await page("/users")).queries).toBe(2);
    // Closed elsewhere: never answered from the old reading.
    await database!.db.execute(sql`update sessions set closed_at = now(), closed_reason = 'replaced' where company_id = ${company.id} and closed_at is null`);
    const closed = await page("/users");
    expect(closed.status).toBe(302);
    expect(closed.location).toBe("/login");
    expect(closed.html).not.toContain("Compañía Renombrada");
  }, 60_000);
});

describe.skipIf(!process.env.DATABASE_URL)("PostgreSQL: the web server and the jobs process started together on an empty database", () => {
  it(
    "both come up (health check answers, jobs running) and the migrations are applied once",
    async () => {
      const name = `colibri_fresh_${randomBytes(4).toString("hex")}`;
      const admin = postgres(adminUrl(process.env.DATABASE_URL!), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = adminUrl(process.env.DATABASE_URL!, name);
      const procs: Proc[] = [];
      try {
        const port = await freePort();
        const heartbeat = path.join(work, "jobs-heartbeat");
        const env = { ...process.env, BUILD_DIR: buildDir, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: path.join(work, "fresh"), DATABASE_URL: url, NODE_ENV: "production", HACIENDA_SANDBOX: "false", WEB_CONCURRENCY: "2", DEMO_PASSWORD: DEMO.password, JOBS_HEARTBEAT_FILE: heartbeat };
        // As compose.yaml starts them: at the same time.
        const web = startProcess("server/start.ts", env);
        const jobs = startProcess("jobs/main.ts", env);
        procs.push(web, jobs);
        await Promise.all([web.until(/Colibrí escuchando/), jobs.until(/\[jobs\] en marcha/)]);
        const health = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(health.status).toBe(200);
        expect(web.child.exitCode).toBeNull();
        expect(jobs.child.exitCode).toBeNull();
        expect(web.output()).not.toMatch(/terminó|duplicate key/);
        // The jobs container's health check reads this file's age (compose.yaml).
        for (let i = 0; i < 600 && !fs.existsSync(heartbeat); i++) await new Promise((r) => setTimeout(r, 100));
        expect(Date.parse(fs.readFileSync(heartbeat, "utf8"))).toBeGreaterThan(0);

        const journal = JSON.parse(fs.readFileSync(path.join(repo, "db/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };
        const db = postgres(url, { max: 1, onnotice: () => {} });
        try {
          const [applied] = await db<{ n: number; distinct: number }[]>`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`;
          expect(applied).toEqual({ n: journal.entries.length, distinct: journal.entries.length });
          const [demo] = await db<{ n: number }[]>`select count(*)::int as n from users where email = ${DEMO.email}`;
          expect(demo.n).toBe(1);
        } finally {
          await db.end();
        }
      } finally {
        for (const p of procs) await p.stop();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    2 * WAIT_MS,
  );
});
