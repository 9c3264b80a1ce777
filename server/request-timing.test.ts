// The benchmark's per-request log (server/request-timing.ts, docs/decisions/190-request-cost.md):
// one JSON line per answer, with the garbage collector's pauses during the request apart.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { requestTimingLog, type TimingLine } from "./request-timing.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colibri-timing-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function serve(file: string) {
  const app = express();
  app.use(requestTimingLog(file, { queries: 0, ms: 0 }));
  app.get("/small", (_req, res) => void res.send("ok"));
  // Enough short-lived garbage to make the young generation collect several times.
  app.get("/garbage", (_req, res) => {
    let keep = 0;
    for (let i = 0; i < 400_000; i++) keep += new Array(32).fill(i).length;
    res.send(String(keep));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

async function lines(file: string, count: number): Promise<TimingLine[]> {
  for (let i = 0; i < 200; i++) {
    const text = fs.readFileSync(file, "utf8");
    const all = text.split("\n").filter(Boolean);
    if (all.length >= count) return all.map((l) => JSON.parse(l) as TimingLine);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${count} lines in ${file}`);
}

describe("request timing log", () => {
  it("writes one line per answer with its CPU time and the collector's pauses during it", async () => {
    const file = path.join(dir, "timing.jsonl");
    fs.writeFileSync(file, "");
    const { base, close } = await serve(file);
    try {
      await (await fetch(`${base}/small`)).text();
      await (await fetch(`${base}/garbage`)).text();
      const [small, garbage] = await lines(file, 2);
      expect(small).toMatchObject({ method: "GET", url: "/small", status: 200, queries: 0, alone: true });
      expect(small.gcMs).toBeGreaterThanOrEqual(0);
      expect(garbage.url).toBe("/garbage");
      expect(garbage.gcMs).toBeGreaterThan(0);
      expect(garbage.gcMs).toBeLessThanOrEqual(garbage.ms);
      expect(garbage.cpuMs).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
