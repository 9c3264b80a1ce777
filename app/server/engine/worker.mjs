// Entry of an engine worker thread (pool.server.ts): registers tsx in this thread (a worker does not
// inherit the TypeScript loader of the process on Node 20), then loads the worker itself.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
