// The engine's worker threads (docs/decisions/145, 171): signing the documents Colibrí issues and
// judging the XML suppliers send run here, not on the web process's event loop (a 1,000-line
// document must not stall other requests) and not in its heap (each worker's V8 heap is sized for
// the engine: limits.ts). Up to ENGINE_WORKERS workers (default: one per core; 0: everything in the
// web process), started when there is work for them and none is idle, each running worker.ts through
// worker.mjs (which registers tsx in the thread). Without the worker file (a build without sources)
// the work is done in the web process, with one warning.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { HaciendaError, type HaciendaErrorCode } from "../../hacienda/errors.ts";
import { loadP12, type SigningKey } from "../../hacienda/p12.ts";
import { signXml } from "../../hacienda/sign.ts";
import { judgeReceivedXml, type Judgement } from "../receptions/judge.server.ts";
import { ENGINE_WORKER_LIMITS } from "./limits.ts";

type EngineWork = { op: "judge"; bytes: Uint8Array } | { op: "sign"; xml: string; key: SigningKey; now: Date } | { op: "key"; bytes: Uint8Array; pin: string; now: Date };
/** What the web process asks a worker (worker.ts). */
export type EngineRequest = EngineWork & { id: number };
interface EngineReply {
  id: number;
  result?: unknown;
  error?: { name: string; code?: string; message: string };
}

interface Slot {
  worker: Worker;
  busy: number;
}

/** Requests in flight, by id; settled with null when their worker died. */
const pending = new Map<number, { slot: Slot; settle: (reply: EngineReply | null) => void }>();
let slots: Slot[] | null = null;
let size = 0;
let seq = 0;
let disabled = false;

const WORKER_FILE = path.resolve(process.env.ENGINE_WORKER_FILE ?? "app/server/engine/worker.mjs");
const UNREADABLE = "El archivo no se pudo leer como un comprobante electrónico. Pida al emisor el XML original.";
const SIGNER_STOPPED = "El proceso que firma los comprobantes se detuvo. Intente de nuevo.";

function pool(): Slot[] | null {
  if (disabled) return null;
  if (slots) return slots;
  const configured = process.env.ENGINE_WORKERS?.trim() ? Number(process.env.ENGINE_WORKERS) : Number.NaN;
  size = Number.isInteger(configured) && configured >= 0 ? configured : os.availableParallelism();
  if (size === 0) {
    disabled = true;
    return null;
  }
  if (!fs.existsSync(WORKER_FILE)) {
    console.warn(`[motor] no se encontró ${WORKER_FILE}: los comprobantes se firman y se revisan en el proceso principal.`);
    disabled = true;
    return null;
  }
  slots = [];
  return slots;
}

/** An idle worker, else a new one while fewer than `size` run, else the least busy. Null: no workers. */
function pick(): Slot | null {
  const all = pool();
  if (!all) return null;
  const idle = all.find((s) => s.busy === 0);
  if (idle) return idle;
  if (all.length < size) {
    const slot = spawn();
    all.push(slot);
    return slot;
  }
  return all.reduce((a, b) => (b.busy < a.busy ? b : a));
}

function spawn(): Slot {
  const worker = new Worker(WORKER_FILE, { resourceLimits: ENGINE_WORKER_LIMITS });
  const slot: Slot = { worker, busy: 0 };
  worker.unref();
  worker.on("message", (reply: EngineReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    p.settle(reply);
  });
  const fail = () => {
    // A worker that died (out of memory on a hostile file, …): its requests fail, and it leaves the
    // pool; a new one starts when there is work for it.
    for (const [id, p] of pending) {
      if (p.slot !== slot) continue;
      pending.delete(id);
      p.settle(null);
    }
    const at = slots?.indexOf(slot) ?? -1;
    if (at >= 0) slots!.splice(at, 1);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => {
    if (code !== 0) fail();
  });
  return slot;
}

function send(slot: Slot, work: EngineWork): Promise<EngineReply | null> {
  const id = ++seq;
  slot.busy++;
  // A busy worker keeps the process alive; an idle one does not.
  if (slot.busy === 1) slot.worker.ref();
  return new Promise((resolve) => {
    pending.set(id, {
      slot,
      settle: (reply) => {
        slot.busy--;
        if (slot.busy === 0) slot.worker.unref();
        resolve(reply);
      },
    });
    slot.worker.postMessage({ ...work, id });
  });
}

/** Judges one received XML on a worker (or in this process when there are none). Never throws. */
export async function judgeOffThread(bytes: Uint8Array): Promise<Judgement> {
  const slot = pick();
  if (!slot) return judgeReceivedXml(bytes);
  const reply = await send(slot, { op: "judge", bytes });
  return (reply?.result as Judgement | undefined) ?? { ok: false, message: UNREADABLE };
}

/** A worker's answer, or what it threw (a HaciendaError stays one, with its code). */
function resultOf<T>(reply: EngineReply | null): T {
  if (!reply) throw new Error(SIGNER_STOPPED);
  if (reply.error) {
    throw reply.error.name === "HaciendaError" ? new HaciendaError(reply.error.code as HaciendaErrorCode, reply.error.message) : new Error(reply.error.message);
  }
  return reply.result as T;
}

/** signXml on a worker (or in this process when there are none); throws what signXml throws. */
export async function signOffThread(xml: string, key: SigningKey, now: Date): Promise<string> {
  const slot = pick();
  if (!slot) return signXml(xml, key, { now });
  return resultOf<string>(await send(slot, { op: "sign", xml, key, now }));
}

/**
 * loadP12 on a worker (or in this process when there are none); throws what loadP12 throws. Opening
 * a key derives its iteration counts in JavaScript: up to seconds for a file at the caps (decision
 * 060), which must not stop the web process.
 */
export async function loadKeyOffThread(bytes: Uint8Array, pin: string, now: Date): Promise<SigningKey> {
  const slot = pick();
  if (!slot) return loadP12(bytes, pin, { now });
  const key = resultOf<SigningKey>(await send(slot, { op: "key", bytes, pin, now }));
  // A Buffer crosses the thread boundary as a plain Uint8Array.
  return { ...key, certificateDer: Buffer.from(key.certificateDer) };
}

/**
 * Starts every worker and has each load the engine (a tiny document), so that the first files of an
 * upload do not wait for them: called when the upload form is shown.
 */
export function warmEnginePool(): void {
  const all = pool();
  if (!all) return;
  while (all.length < size) all.push(spawn());
  const warm = new TextEncoder().encode("<a/>");
  for (const slot of all) if (slot.busy === 0) void send(slot, { op: "judge", bytes: warm });
}

/** The workers running now (tests, diagnostics). */
export function liveEngineWorkers(): Worker[] {
  return slots ? slots.map((s) => s.worker) : [];
}

/** Stops the workers (tests, shutdown). */
export async function stopEnginePool() {
  const current = slots;
  slots = null;
  if (current) await Promise.all(current.map((s) => s.worker.terminate()));
}
