import fs from "node:fs";

/** The system Chromium: CHROMIUM_PATH or /usr/bin/chromium. Browsers are never downloaded. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];
  return candidates.find((p) => fs.existsSync(p));
}
