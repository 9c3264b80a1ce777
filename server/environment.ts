// Prepares the process environment before anything reads it: the data folder and APP_SECRET.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { env } from "../app/server/env.server.ts";

export function prepareEnvironment() {
  const dataDir = path.resolve(process.env.DATA_DIR || "data");
  fs.mkdirSync(dataDir, { recursive: true });
  if (!process.env.APP_SECRET) {
    const file = path.join(dataDir, "app-secret");
    if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    process.env.APP_SECRET = fs.readFileSync(file, "utf8").trim();
  }
  return env();
}

/** One process owns a PGlite folder: a lock file with our pid, refused while another live pid holds it. */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "colibri.lock");
  try {
    const pid = Number(fs.readFileSync(file, "utf8"));
    if (pid && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        throw new Error(`La base de datos embebida en ${dir} ya está en uso por el proceso ${pid}. Detén ese proceso o usa DATABASE_URL.`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  fs.writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}
