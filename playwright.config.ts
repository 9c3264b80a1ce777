import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./tests/e2e/chromium.ts";

// A random port unless E2E_PORT is set (several runs may share a machine). Workers inherit the
// environment of the runner, so they see the same value.
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 20000));
const port = Number(process.env.E2E_PORT);

// Journeys run twice: with JavaScript and without it (every screen must work both ways); a
// *.js-only.spec.ts file tests what exists only with JavaScript and runs in the "js" project alone.
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: "es-CR",
    timezoneId: "America/Costa_Rica",
    launchOptions: {
      executablePath: chromiumPath(),
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "nojs", use: { javaScriptEnabled: false }, testIgnore: "*.js-only.spec.ts" },
  ],
});
