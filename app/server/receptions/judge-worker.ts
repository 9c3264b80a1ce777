// A worker thread that judges received XML (judge.server.ts) off the main thread, so verifying a
// large or slow document never stalls the requests the web process is serving (decision 171).
// Started by judge-pool.server.ts through judge-worker.mjs.
import { parentPort } from "node:worker_threads";
import { judgeReceivedXml } from "./judge.server.ts";

parentPort!.on("message", async (msg: { id: number; bytes: Uint8Array }) => {
  try {
    parentPort!.postMessage({ id: msg.id, result: await judgeReceivedXml(msg.bytes) });
  } catch (error) {
    parentPort!.postMessage({ id: msg.id, error: (error as Error)?.message ?? String(error) });
  }
});
