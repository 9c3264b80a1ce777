import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressedAssets } from "./precompressed-assets.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-assets-"));
const js = "export const x = 1;\n".repeat(50);
let server: http.Server;
let base = "";

/** Status, headers and the body as sent (not decoded). */
function get(p: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + p, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, "app-1.js"), js);
  fs.writeFileSync(path.join(dir, "app-1.js.gz"), gzipSync(js));
  fs.writeFileSync(path.join(dir, "plain-1.js"), js);
  fs.writeFileSync(path.join(dir, "secret.txt.gz"), "no");
  const app = express();
  app.use("/assets", precompressedAssets(dir));
  app.use("/assets", express.static(dir));
  app.use((_req, res) => void res.status(404).send("fallthrough"));
  server = app.listen(0);
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("precompressed assets", () => {
  it("sends the .gz twin, as gzip JavaScript, to a browser that accepts gzip", async () => {
    const res = await get("/assets/app-1.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.headers["cache-control"]).toContain("immutable");
    expect(res.body.equals(fs.readFileSync(path.join(dir, "app-1.js.gz")))).toBe(true);
  });

  it("sends the plain file without gzip, or when there is no twin", async () => {
    const noGzip = await get("/assets/app-1.js");
    expect(noGzip.headers["content-encoding"]).toBeUndefined();
    expect(noGzip.body.toString()).toBe(js);
    const noTwin = await get("/assets/plain-1.js", "gzip");
    expect(noTwin.headers["content-encoding"]).toBeUndefined();
    expect(noTwin.body.toString()).toBe(js);
  });

  it("serves only .js and .css twins, and nothing outside the folder", async () => {
    expect((await get("/assets/secret.txt", "gzip")).body.toString()).toBe("fallthrough");
    expect((await get("/assets/..%2f..%2fetc%2fpasswd.js", "gzip")).status).not.toBe(200);
    expect((await get("/assets/missing.js", "gzip")).body.toString()).toBe("fallthrough");
  });
});
