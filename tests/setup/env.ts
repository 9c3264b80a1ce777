// Per-worker test environment: fixed secrets, an outbox in a temp folder, no real network.
import os from "node:os";
import path from "node:path";

process.env.APP_SECRET ??= "test-secret-not-for-production";
process.env.DATA_DIR ??= path.join(os.tmpdir(), `colibri-test-data-${process.pid}`);
process.env.TZ = process.env.TZ || "UTC";
