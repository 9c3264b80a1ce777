// The engine's worker threads (app/server/engine/pool.server.ts, docs/decisions/145): signing runs
// there with the heap limits of limits.ts, gives exactly what signing in this process gives, and a
// HaciendaError thrown in a worker reaches the caller as one. Signing keys are opened there too.
import { availableParallelism } from "node:os";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildXml } from "../../app/hacienda/build.ts";
import { makeTestP12 } from "../../app/hacienda/cert.ts";
import { isHaciendaError } from "../../app/hacienda/errors.ts";
import { exampleInvoice } from "../../app/hacienda/examples.ts";
import { loadP12 } from "../../app/hacienda/p12.ts";
import { signXml } from "../../app/hacienda/sign.ts";
import { xmlsecVerify } from "../../app/hacienda/testing/xmlsec.ts";
import { verifyXml } from "../../app/hacienda/verify.ts";
import { judgeOffThread, liveEngineWorkers, loadKeyOffThread, signOffThread, stopEnginePool } from "../../app/server/engine/pool.server.ts";
import { ENGINE_WORKER_LIMITS } from "../../app/server/engine/limits.ts";

const now = new Date("2026-11-21T15:30:00Z");
const pin = "engine";
const key = loadP12(
  makeTestP12({ cedula: "3101123456", idType: "02", name: "SOLUCIONES COLIBRI S.A.", pin, notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2028-01-01T00:00:00Z") }),
  pin,
  { now },
);

afterAll(() => stopEnginePool());

describe("engine workers", () => {
  it("sign on a worker with the engine's heap limits: the same bytes as in this process, verified by xmlsec1", async () => {
    const xml = buildXml(exampleInvoice(3));
    const signed = await signOffThread(xml, key, now);
    const workers = liveEngineWorkers();
    expect(workers.length).toBeGreaterThanOrEqual(1);
    for (const w of workers) {
      expect(w.resourceLimits?.maxYoungGenerationSizeMb).toBe(ENGINE_WORKER_LIMITS.maxYoungGenerationSizeMb);
      expect(w.resourceLimits?.maxOldGenerationSizeMb).toBe(ENGINE_WORKER_LIMITS.maxOldGenerationSizeMb);
    }
    expect(signed).toBe(signXml(xml, key, { now }));
    expect(verifyXml(signed).valid).toBe(true);
    expect(xmlsecVerify(signed).ok).toBe(true);
  });

  it("several documents at once each get their own signature, on at most one worker per core", async () => {
    const docs = [1, 2, 5, 8].map((n) => buildXml(exampleInvoice(n)));
    const signed = await Promise.all(docs.map((xml) => signOffThread(xml, key, now)));
    signed.forEach((s, i) => expect(s).toBe(signXml(docs[i]!, key, { now })));
    expect(liveEngineWorkers().length).toBeGreaterThanOrEqual(1);
    expect(liveEngineWorkers().length).toBeLessThanOrEqual(availableParallelism());
  });

  it("a HaciendaError thrown on the worker reaches the caller with its code and Spanish message", async () => {
    const error = await signOffThread("  ", key, now).catch((e: unknown) => e);
    expect(isHaciendaError(error, "SIGN_INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toBe("No hay documento que firmar. Genere el XML del comprobante de nuevo.");
  });

  it("a received file is judged on a worker; a hostile one is refused in Spanish", async () => {
    const judged = await judgeOffThread(new TextEncoder().encode('<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>'));
    expect(judged.ok).toBe(false);
    expect(liveEngineWorkers().length).toBeGreaterThanOrEqual(1);
  });

  it("a signing key is opened on a worker, the web process's event loop free meanwhile: the same key as in this process; a wrong PIN is the same HaciendaError", async () => {
    // 100,000 iterations (within the caps of decision 060): node-forge derives them in JavaScript.
    const p12 = makeTestP12({ cedula: "3101123456", idType: "02", name: "SOLUCIONES COLIBRI S.A.", pin, notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2028-01-01T00:00:00Z"), algorithm: "3des", count: 100_000 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    let opened: Awaited<ReturnType<typeof loadKeyOffThread>>;
    try {
      opened = await loadKeyOffThread(p12, pin, now);
    } finally {
      clearInterval(timer);
    }
    // Opened in this thread, the derivation would hold the loop until it ends: no tick at all.
    expect(ticks).toBeGreaterThan(0);
    const here = loadP12(p12, pin, { now });
    const { privateKey, ...rest } = opened;
    const { privateKey: herePrivate, ...hereRest } = here;
    expect(rest).toEqual(hereRest);
    expect(Buffer.isBuffer(opened.certificateDer)).toBe(true);
    expect(privateKey.export({ type: "pkcs8", format: "pem" })).toBe(herePrivate.export({ type: "pkcs8", format: "pem" }));
    const xml = buildXml(exampleInvoice(2));
    expect(await signOffThread(xml, opened, now)).toBe(signXml(xml, here, { now }));
    const wrong = await loadKeyOffThread(p12, "otro-pin", now).catch((e: unknown) => e);
    expect(isHaciendaError(wrong, "P12_WRONG_PIN")).toBe(true);
  });

  it("ENGINE_WORKERS=0 signs in this process, with the same result", async () => {
    vi.resetModules();
    vi.stubEnv("ENGINE_WORKERS", "0");
    try {
      const pool = await import("../../app/server/engine/pool.server.ts");
      const xml = buildXml(exampleInvoice(1));
      expect(await pool.signOffThread(xml, key, now)).toBe(signXml(xml, key, { now }));
      expect(pool.liveEngineWorkers()).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
