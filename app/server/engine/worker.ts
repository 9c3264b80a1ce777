// An engine worker thread (pool.server.ts, docs/decisions/145, 171): signs the documents Colibrí
// issues, opens signing keys and judges the XML suppliers send, off the web process's event loop and in a heap sized for
// the engine (limits.ts). Started by pool.server.ts through worker.mjs.
import { parentPort } from "node:worker_threads";
import { loadP12 } from "../../hacienda/p12.ts";
import { signXml } from "../../hacienda/sign.ts";
import { judgeReceivedXml } from "../receptions/judge.server.ts";
import type { EngineRequest } from "./pool.server.ts";

parentPort!.on("message", async (msg: EngineRequest) => {
  try {
    const result = msg.op === "sign" ? signXml(msg.xml, msg.key, { now: msg.now }) : msg.op === "key" ? loadP12(msg.bytes, msg.pin, { now: msg.now }) : await judgeReceivedXml(msg.bytes);
    parentPort!.postMessage({ id: msg.id, result });
  } catch (error) {
    const e = error as { name?: string; code?: string; message?: string };
    parentPort!.postMessage({ id: msg.id, error: { name: e?.name ?? "Error", code: e?.code, message: e?.message ?? String(error) } });
  }
});
