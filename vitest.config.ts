import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.ts", "db/**/*.test.ts", "jobs/**/*.test.ts", "server/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/env.ts"],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: "forks",
    // At least two test files at once. Vitest's default is one fewer than the cores: one on a 2-core
    // machine, where the files mostly wait on their database. Each file has its own database (and
    // Dovecot its own folder), so two run side by side: on this 2-core machine the PostgreSQL pass
    // took 334 s instead of 559, the embedded one 432 s instead of 621 (2026-11-26).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
