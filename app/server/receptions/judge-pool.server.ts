// Judging received XML on worker threads (issue 12: a 1,000-line document must not stall other
// requests, and ingestion should use every core; docs/decisions/171). A small pool of workers
// (RECEPTION_WORKERS, default the number of cores), each running judge-worker.ts through
// judge-worker.mjs (which registers tsx in the thread) and calling the same judgeReceivedXml as the
// main thread. The worker is loaded from the source tree (the server runs from it: `npm start`, the
// Docker image); when it cannot be found, judging happens on the main thread, with one warning.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { judgeReceivedXml, type Judgement } from "./judge.server.ts";

interface Slot {
  worker: Worker;
  busy: number;
}

const pending = new Map<number, { resolve: (j: Judgement) => void; slot: Slot }>();
let slots: Slot[] | null = null;
let seq = 0;
let disabled = false;

const WORKER_FILE = path.resolve(process.env.RECEPTION_WORKER_FILE ?? "app/server/receptions/judge-worker.mjs");
const UNREADABLE = "El archivo no se pudo leer como un comprobante electrónico. Pida al emisor el XML original.";

function start(): Slot[] | null {
  if (disabled) return null;
  if (slots) return slots;
  const size = Math.max(1, Number(process.env.RECEPTION_WORKERS) || os.availableParallelism());
  if (size <= 1 && !process.env.RECEPTION_WORKERS) {
    disabled = true;
    return null;
  }
  if (!fs.existsSync(WORKER_FILE)) {
    console.warn(`[recepción] no se encontró ${WORKER_FILE}: los XML recibidos se revisan en el proceso principal.`);
    disabled = true;
    return null;
  }
  slots = Array.from({ length: size }, () => spawn());
  return slots;
}

function spawn(): Slot {
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
  const slot: Slot = { worker, busy: 0 };
  worker.unref();
  worker.on("message", (msg: { id: number; result?: Judgement; error?: string }) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    p.slot.busy--;
    p.resolve(msg.result ?? { ok: false, message: UNREADABLE });
  });
  const fail = () => {
    // A worker that died (out of memory on a hostile file, …): its files are refused, a new one takes its place.
    for (const [id, p] of pending) {
      if (p.slot !== slot) continue;
      pending.delete(id);
      p.resolve({ ok: false, message: UNREADABLE });
    }
    if (slots) slots[slots.indexOf(slot)] = spawn();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => {
    if (code !== 0) fail();
  });
  return slot;
}

/** Judges one XML on the least busy worker (or on this thread when there are none). */
export function judgeOffThread(bytes: Uint8Array): Promise<Judgement> {
  const pool = start();
  if (!pool) return judgeReceivedXml(bytes);
  const slot = pool.reduce((a, b) => (b.busy < a.busy ? b : a));
  const id = ++seq;
  slot.busy++;
  return new Promise((resolve) => {
    // A busy worker keeps the process alive; an idle one does not.
    if (slot.busy === 1) slot.worker.ref();
    pending.set(id, {
      resolve: (j) => {
        if (slot.busy === 0) slot.worker.unref();
        resolve(j);
      },
      slot,
    });
    slot.worker.postMessage({ id, bytes });
  });
}

/**
 * Starts the workers and has each load the engine (a tiny document), so the first upload does not
 * wait for them: called when the upload form is shown.
 */
export function warmJudgePool(): void {
  const pool = start();
  if (!pool) return;
  const warm = new TextEncoder().encode("<a/>");
  for (let i = 0; i < pool.length; i++) void judgeOffThread(warm);
}

/** Stops the workers (tests, shutdown). */
export async function stopJudgePool() {
  const current = slots;
  slots = null;
  if (current) await Promise.all(current.map((s) => s.worker.terminate()));
}
