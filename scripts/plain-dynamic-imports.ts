// A Vite plugin for the client build: a dynamic import() is a plain import().
//
// Vite wraps every dynamic import of the browser's code in a helper (its virtual module
// `\0vite/preload-helper.js`) that first adds <link rel=modulepreload> tags for the imported chunk's
// own imports and stylesheets. That helper is 0.85 kB of gzip JavaScript in the first load of every
// page with a lazily loaded part (a dialog, a tab, the form checks), which the JavaScript budget
// cannot spare (docs/decisions/155). Our lazily loaded parts are small screens opened by a click;
// the browser fetches their imports itself when it runs them. `build.modulePreload: false` drops the
// lists of those imports from the calls, and this plugin answers the helper's module with a plain
// call. The helper also loaded a lazily loaded chunk's stylesheets: none of ours imports CSS (one
// stylesheet, app.css, for the whole app), and the build stops if one ever does.
import type { Plugin } from "vite";

const HELPER = "\0vite/preload-helper.js";

export function plainDynamicImports(): Plugin {
  return {
    name: "colibri-plain-dynamic-imports",
    enforce: "pre",
    apply: "build",
    resolveId(id) {
      return id === HELPER ? id : undefined;
    },
    load(id) {
      return id === HELPER ? "export const __vitePreload = (load) => load();" : undefined;
    },
    generateBundle(_, bundle) {
      if (this.environment?.name !== "client") return;
      const lazy = new Set(Object.values(bundle).flatMap((c) => (c.type === "chunk" ? c.dynamicImports : [])));
      for (const name of lazy) {
        const chunk = bundle[name];
        if (chunk?.type === "chunk" && chunk.viteMetadata?.importedCss.size)
          this.error(`${name} is loaded lazily and imports CSS (${[...chunk.viteMetadata.importedCss].join(", ")}): the browser would not load that stylesheet (scripts/plain-dynamic-imports.ts).`);
      }
    },
  };
}
