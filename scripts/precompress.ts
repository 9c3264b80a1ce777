// A Vite plugin: after the client build, each JavaScript and CSS asset gets a `.gz` twin compressed
// with zopfli (gzip format, 3 to 4 % smaller than zlib at its best level). The server sends the twin to
// browsers that accept gzip (server/app-server.ts), so what staff download on slow links is the
// smallest gzip there is, with no work per request. Asset names carry their content hash, so the
// compressed bytes are cached by name across builds (node_modules/.cache/colibri-zopfli).
import fs from "node:fs";
import path from "node:path";
import { gzipAsync } from "@gfx/zopfli";
import type { Plugin } from "vite";

const CACHE = path.resolve("node_modules/.cache/colibri-zopfli");

export function precompress(): Plugin {
  return {
    name: "colibri-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      if (this.environment?.name !== "client" || !options.dir) return;
      fs.mkdirSync(CACHE, { recursive: true });
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => /\.(js|css)$/.test(name))
          .map(async (name) => {
            const cached = path.join(CACHE, path.basename(name) + ".gz");
            if (!fs.existsSync(cached)) {
              const gz = await gzipAsync(fs.readFileSync(path.join(options.dir!, name)), { numiterations: 1 });
              fs.writeFileSync(cached + ".tmp", gz);
              fs.renameSync(cached + ".tmp", cached);
            }
            fs.copyFileSync(cached, path.join(options.dir!, name + ".gz"));
          }),
      );
    },
  };
}
