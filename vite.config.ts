import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { precompress } from "./scripts/precompress.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), precompress()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  server: { port: 3000 },
  // decimal.js and the pure modules of app/domain (no side effects by the house rules) are shipped
  // only for what a page uses: a page that imports a message or a helper from a module that also
  // does money arithmetic or builds zod schemas does not ship those (the JavaScript budget,
  // docs/decisions/166).
  build: { rolldownOptions: { treeshake: { moduleSideEffects: (id: string) => !/node_modules[\\/]decimal\.js[\\/]|[\\/]app[\\/]domain[\\/]/.test(id) } } },
});
