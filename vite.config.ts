import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { plainDynamicImports } from "./scripts/plain-dynamic-imports.ts";
import { precompress } from "./scripts/precompress.ts";

// decimal.js and the pure modules of app/domain (no side effects by the house rules) are shipped
// only for what a page uses: a page that imports a message or a helper from a module that also
// does money arithmetic or builds zod schemas does not ship those (the JavaScript budget,
// docs/decisions/166). The same for the scripts bundled apart (`?worker&url`: the form checks).
const treeshake = { moduleSideEffects: (id: string) => !/node_modules[\\/]decimal\.js[\\/]|[\\/]app[\\/]domain[\\/]/.test(id) };

export default defineConfig({
  plugins: [plainDynamicImports(), tailwindcss(), reactRouter(), precompress()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  server: { port: 3000 },
  // modulePreload: a dynamic import() loads its chunk alone (scripts/plain-dynamic-imports.ts).
  build: { rolldownOptions: { treeshake }, modulePreload: false },
  worker: { rolldownOptions: { treeshake } },
  // What every hydrated page loads — React, React DOM, React Router, the root layout's form and
  // toast components and the one-line dynamic import helper (scripts/plain-dynamic-imports.ts) — in
  // one file instead of six, which compresses better: 1.6 kB less gzip on every page
  // (docs/decisions/155).
  environments: {
    client: { build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|[\\/]app[\\/]components[\\/](form|toasts)\.tsx$|^\0vite\/preload-helper/ }] } } } } },
  },
});
